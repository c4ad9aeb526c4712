/* Internal: time-ordered delivery of perf records, with the rules of perf's ordered-events
 * queue (tools/perf/util/ordered-events.c) so that pmuscope sees records in the order
 * perf report and perf script do. perf record writes each per-CPU buffer after the other
 * and a FINISHED_ROUND record after every pass over all of them: a record of round N+1
 * is never older than anything already written before round N ended. So at the end of
 * round N everything up to the newest time of round N-1 can go out, sorted by time
 * (ties in file order); the rest waits. Memory is bounded by two rounds, and by
 * PMS__ORDER_MAX_BYTES for files without rounds (then the older half is delivered early,
 * as perf does when its queue reaches report.queue-size). */
#ifndef PMS_IO_PERFDATA_ORDER_H
#define PMS_IO_PERFDATA_ORDER_H
#include <stddef.h>
#include <stdint.h>

#define PMS__ORDER_MAX_BYTES ((size_t)64 << 20)

typedef struct pms__queued {
    uint64_t time, seq, file_off;
    size_t at; /* offset of the record's copy in the queue's bytes */
} pms__queued;

typedef struct pms__order_queue {
    unsigned char *bytes, *spare; /* record copies; spare takes the survivors of a flush */
    size_t len, cap, spare_cap;
    pms__queued *items, *scratch; /* scratch: the other half of the merge sort */
    size_t n, items_cap, scratch_cap;
    uint64_t seq;
    uint64_t max_time;   /* newest time queued since the queue was last empty */
    uint64_t next_flush; /* the newest time of the previous round: what may go out now */
} pms__order_queue;

/* Called for each record leaving the queue, in time order. */
typedef int (*pms__order_deliver_fn)(const unsigned char *rec, uint64_t file_off, void *ctx);

/* Queues a copy of the record (size bytes, time > 0). When the queue holds more than
 * PMS__ORDER_MAX_BYTES it first delivers its older half. PMS_ENOMEM when out of memory. */
int pms__order_push(pms__order_queue *q, const unsigned char *rec, size_t size, uint64_t time, uint64_t file_off,
                    pms__order_deliver_fn fn, void *ctx);
/* A FINISHED_ROUND: delivers what the previous round allows. */
int pms__order_round(pms__order_queue *q, pms__order_deliver_fn fn, void *ctx);
/* The end of the data: delivers everything. */
int pms__order_drain(pms__order_queue *q, pms__order_deliver_fn fn, void *ctx);
/* Empties the queue (after a failed pass) and keeps its memory. */
void pms__order_reset(pms__order_queue *q);
void pms__order_free(pms__order_queue *q);

#endif
