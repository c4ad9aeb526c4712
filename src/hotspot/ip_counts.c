/* Counts per (key, IP) in an open-addressing table (see ip_counts.h). */
#include "hotspot/ip_counts.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void pms__ip_counts_init(pms__ip_counts *c) { memset(c, 0, sizeof *c); }

void pms__ip_counts_free(pms__ip_counts *c)
{
    free(c->slots);
    free(c->order);
    memset(c, 0, sizeof *c);
}

/* A 64-bit mix of the pair (the finaliser of MurmurHash3): IPs differ in their low bits,
 * keys in their high ones, and both must spread over the slots. */
static uint64_t hash(uint64_t key, uint64_t ip)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull ^ ip;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

/* The slot of (key, ip): its own, or the empty one where it goes. */
static size_t probe(const pms__ip_count *slots, size_t nslots, uint64_t h, uint64_t key, uint64_t ip)
{
    size_t at = (size_t)h & (nslots - 1);
    while (slots[at].samples && (slots[at].key != key || slots[at].ip != ip)) at = (at + 1) & (nslots - 1);
    return at;
}

/* Moves the entries to a table twice the size (load factor at most 1/2: short probe runs). */
static int grow_table(pms__ip_counts *c)
{
    size_t nslots = c->nslots ? 2 * c->nslots : 1024;
    pms__ip_count *slots = calloc(nslots, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < c->n; i++) {
        const pms__ip_count *e = &c->slots[c->order[i].slot];
        size_t at = probe(slots, nslots, hash(e->key, e->ip), e->key, e->ip);
        slots[at] = *e;
        c->order[i].slot = (uint32_t)at;
    }
    free(c->slots);
    c->slots = slots;
    c->nslots = nslots;
    return 0;
}

static int count(pms__ip_counts *c, const pms__ip_pending *s)
{
    if (c->nslots) {
        pms__ip_count *e = &c->slots[probe(c->slots, c->nslots, s->hash, s->key, s->ip)];
        if (e->samples) {
            e->samples++;
            e->period += s->period;
            return 0;
        }
    }
    if (c->n >= UINT32_MAX || c->nslots > UINT32_MAX / 2) return -1;
    if ((c->n + 1) * 2 > c->nslots && grow_table(c)) return -1;
    if (pms__grow(&c->order, &c->order_cap, c->n + 1, sizeof *c->order)) return -1;
    size_t at = probe(c->slots, c->nslots, s->hash, s->key, s->ip);
    c->slots[at] = (pms__ip_count){s->key, s->ip, 1, s->period};
    c->order[c->n++] = (pms__ip_first){s->time, (uint32_t)at, s->pid};
    return 0;
}

int pms__ip_counts_add(pms__ip_counts *c, uint64_t key, uint64_t ip, uint64_t period, uint64_t time, uint32_t pid)
{
    if (c->npending == PMS__IP_COUNTS_AHEAD) { /* the oldest's slot has had time to arrive */
        int rc = count(c, &c->pending[c->head]);
        c->head = (c->head + 1) % PMS__IP_COUNTS_AHEAD;
        c->npending--;
        if (rc) return rc;
    }
    uint64_t h = hash(key, ip);
    if (c->nslots) __builtin_prefetch(&c->slots[(size_t)h & (c->nslots - 1)], 1);
    c->pending[(c->head + c->npending++) % PMS__IP_COUNTS_AHEAD] = (pms__ip_pending){key, ip, period, time, h, pid};
    return 0;
}

int pms__ip_counts_flush(pms__ip_counts *c)
{
    for (; c->npending; c->npending--) {
        int rc = count(c, &c->pending[c->head]);
        c->head = (c->head + 1) % PMS__IP_COUNTS_AHEAD;
        if (rc) {
            c->npending--;
            return rc;
        }
    }
    return 0;
}
