/* The distinct callchains of a profile's samples, counted as the profile counts IPs:
 * memory grows with the number of distinct (thread, IP, callchain) triples, not of
 * samples. Chains are kept as the kernel wrote them (PERF_CONTEXT_* markers included)
 * and walked as perf walks them when the table is made. */
#ifndef PMS_HOTSPOT_CHAINS_H
#define PMS_HOTSPOT_CHAINS_H

#include "util/keymap.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pms__chain {
    uint64_t event_tid, ip; /* the sample's key and IP, as the profile's entry of it */
    uint32_t pid;
    uint64_t first_time, samples, period;
    size_t start, len; /* its entries: pool[start .. start + len) */
} pms__chain;

typedef struct pms__chains {
    pms_keymap index; /* (hash, collision rank) -> index in items */
    pms__chain *items;
    size_t n, cap;
    uint64_t *pool;
    size_t pool_n, pool_cap;
} pms__chains;

void pms__chains_init(pms__chains *c);
void pms__chains_free(pms__chains *c);
/* perf report's default --max-stack (kernel.perf_event_max_stack): entries of a chain used. */
#define PMS__MAX_STACK 127u

/* Counts one sample with chain[0..nr); its chain's index in items goes to *index (may be
 * NULL). Returns PMS_OK or PMS_ENOMEM. */
int pms__chains_add(pms__chains *c, uint64_t event_tid, uint32_t pid, uint64_t ip, uint64_t time,
                    const uint64_t *chain, size_t nr, uint64_t period, size_t *index);

/* One address of a walked chain: kernel says which map space it is looked up in. */
typedef struct pms__chain_ip {
    uint64_t ip;
    int kernel;
} pms__chain_ip;

/* The addresses of a chain as perf report resolves them (leaf first): PERF_CONTEXT_KERNEL
 * and _USER markers switch the map space (user at the start), a guest or unknown marker
 * discards the whole chain (perf: "invalid callchain context"), at most `max_stack`
 * addresses. Writes up to max_stack entries to out and returns how many. */
size_t pms__chain_walk(const uint64_t *chain, size_t nr, size_t max_stack, pms__chain_ip *out);

#endif
