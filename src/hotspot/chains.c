/* Distinct callchains of a profile, interned by content. */
#include "hotspot/chains.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/grow.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

void pms__chains_init(pms__chains *c)
{
    memset(c, 0, sizeof *c);
    pms__keymap_init(&c->index);
}

void pms__chains_free(pms__chains *c)
{
    pms__keymap_free(&c->index);
    free(c->items);
    free(c->pool);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

static int same(const pms__chains *c, const pms__chain *k, uint64_t event_tid, uint64_t ip, const uint64_t *chain,
                size_t nr)
{
    return k->event_tid == event_tid && k->ip == ip && k->len == nr &&
           (nr == 0 || memcmp(c->pool + k->start, chain, nr * sizeof *chain) == 0);
}

int pms__chains_add(pms__chains *c, uint64_t event_tid, uint32_t pid, uint64_t ip, uint64_t time,
                    const uint64_t *chain, size_t nr, uint64_t period, size_t *index)
{
    uint64_t h = mix(mix(event_tid, ip), nr);
    for (size_t i = 0; i < nr; i++) h = mix(h, chain[i]);
    /* equal hashes of different chains take the next free rank */
    for (uint64_t rank = 0;; rank++) {
        uint64_t *slot = pms__keymap_upsert(&c->index, h, rank, UINT64_MAX);
        if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the callchains");
        if (*slot != UINT64_MAX) {
            pms__chain *k = &c->items[*slot];
            if (!same(c, k, event_tid, ip, chain, nr)) continue;
            k->samples++;
            k->period += period;
            if (index) *index = (size_t)*slot;
            return PMS_OK;
        }
        if (pms__grow(&c->items, &c->cap, c->n + 1, sizeof *c->items) ||
            pms__grow(&c->pool, &c->pool_cap, c->pool_n + nr, sizeof *c->pool)) {
            *slot = UINT64_MAX; /* nothing was added: a later sample of it may retry */
            return pms__fail(PMS_ENOMEM, "out of memory for the callchains");
        }
        if (nr) memcpy(c->pool + c->pool_n, chain, nr * sizeof *chain);
        c->items[c->n] = (pms__chain){event_tid, ip, pid, time, 1, period, c->pool_n, nr};
        c->pool_n += nr;
        if (index) *index = c->n;
        *slot = c->n++;
        return PMS_OK;
    }
}

size_t pms__chain_walk(const uint64_t *chain, size_t nr, size_t max_stack, pms__chain_ip *out)
{
    int kernel = 0; /* perf starts in user mode */
    size_t n = 0;
    for (size_t i = 0; i < nr && n < max_stack; i++) {
        uint64_t ip = chain[i];
        if (ip < (uint64_t)PERF_CONTEXT_MAX) {
            out[n++] = (pms__chain_ip){ip, kernel};
            continue;
        }
        if (ip == (uint64_t)PERF_CONTEXT_KERNEL)
            kernel = 1;
        else if (ip == (uint64_t)PERF_CONTEXT_USER)
            kernel = 0;
        else if (ip != (uint64_t)PERF_CONTEXT_HV)
            return 0; /* guest or unknown context: perf drops the chain */
    }
    return n;
}
