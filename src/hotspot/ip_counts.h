/* Internal: the profile's counts per (key, IP), with the order in which the entries were
 * first seen. Counting a sample is the report's inner loop, and with many distinct IPs
 * it waits on a cache miss: the counts live in the hash table's slots next to their
 * keys, so that a sample touches one 32-byte slot, and samples wait in a short queue
 * while their slots are fetched (prefetched), so that the misses of several overlap.
 * Entries are made in the samples' order all the same. */
#ifndef PMS_HOTSPOT_IP_COUNTS_H
#define PMS_HOTSPOT_IP_COUNTS_H
#include <stddef.h>
#include <stdint.h>

#define PMS__IP_COUNTS_AHEAD 16 /* samples queued while their slots come into cache */

typedef struct pms__ip_count {
    uint64_t key, ip, samples, period; /* samples 0: an empty slot */
} pms__ip_count;

typedef struct pms__ip_first { /* an entry in the order first seen */
    uint64_t time;   /* of its first sample */
    uint32_t slot;   /* where its counts are */
    uint32_t pid;    /* of its first sample */
} pms__ip_first;

typedef struct pms__ip_pending {
    uint64_t key, ip, period, time, hash;
    uint32_t pid;
} pms__ip_pending;

typedef struct pms__ip_counts {
    pms__ip_count *slots;
    size_t nslots; /* a power of two */
    pms__ip_first *order;
    size_t n, order_cap;
    pms__ip_pending pending[PMS__IP_COUNTS_AHEAD];
    size_t head, npending; /* a ring, oldest at head */
} pms__ip_counts;

void pms__ip_counts_init(pms__ip_counts *c);
void pms__ip_counts_free(pms__ip_counts *c);
/* Counts one sample of (key, ip) at time in process pid, standing for period (now or
 * at the next pms__ip_counts_flush). Returns 0, or -1 when out of memory or past
 * 2^32 - 1 entries. */
int pms__ip_counts_add(pms__ip_counts *c, uint64_t key, uint64_t ip, uint64_t period, uint64_t time, uint32_t pid);
/* Counts the queued samples: call before reading the entries. 0, or -1 as above. */
int pms__ip_counts_flush(pms__ip_counts *c);
/* Entry i (i < n) in the order first seen; its first sample in *first. */
static inline const pms__ip_count *pms__ip_counts_get(const pms__ip_counts *c, size_t i, const pms__ip_first **first)
{
    *first = &c->order[i];
    return &c->slots[c->order[i].slot];
}
#endif
