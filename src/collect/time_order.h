/* Internal: records from several ring buffers put back in time order.
 *
 * Each buffer is in time order, but draining them one after another interleaves
 * them. As perf's ordered events: every record drained in a round is queued; after
 * the round, the queued records up to the newest time seen in the previous round are
 * passed on, sorted. Every buffer was drained after that time was written, so nothing
 * older can still arrive (a record is written by the CPU that stamped it, right after). */
#ifndef PMS_COLLECT_TIME_ORDER_H
#define PMS_COLLECT_TIME_ORDER_H
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pms_time_entry {
    uint64_t time, seq; /* seq: arrival order, for records of equal time */
    size_t off;         /* into bytes */
} pms_time_entry;

typedef struct pms_time_order {
    unsigned char *bytes, *spare; /* queued records (8-byte aligned), and the compaction target */
    size_t used, cap, spare_cap;
    pms_time_entry *e;
    size_t n, ecap;
    uint64_t seq;
    uint64_t round_max;    /* the newest time queued in the current round */
    uint64_t horizon;      /* the newest time of the previous round: safe to pass on */
    uint64_t flushed_upto; /* the time of the last record passed on */
    uint64_t late;         /* records older than one already passed on (passed on at once) */
} pms_time_order;

/* Queues a copy of record h stamped with time. */
int pms__time_order_add(pms_time_order *q, const struct perf_event_header *h, uint64_t time);
/* Ends a round: passes on, in time order, every record no newer than the previous round's
 * newest time. A non-zero return of fn stops there (the rest stays queued). */
int pms__time_order_round(pms_time_order *q, int (*fn)(const struct perf_event_header *, void *), void *ctx);
/* Passes on every queued record, in time order (at the end of a recording). */
int pms__time_order_flush(pms_time_order *q, int (*fn)(const struct perf_event_header *, void *), void *ctx);
void pms__time_order_free(pms_time_order *q);

#endif
