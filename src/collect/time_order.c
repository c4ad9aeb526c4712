#include "collect/time_order.h"

#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

int pms__time_order_add(pms_time_order *q, const struct perf_event_header *h, uint64_t time)
{
    size_t size = (h->size + 7u) & ~(size_t)7;
    if (pms__grow(&q->bytes, &q->cap, q->used + size, 1) || pms__grow(&q->e, &q->ecap, q->n + 1, sizeof *q->e))
        return pms__fail(PMS_ENOMEM, "out of memory for the records awaiting time order");
    memcpy(q->bytes + q->used, h, h->size);
    q->e[q->n++] = (pms_time_entry){.time = time, .seq = q->seq++, .off = q->used};
    q->used += size;
    if (time > q->round_max) q->round_max = time;
    return PMS_OK;
}

static int by_time(const void *a, const void *b)
{
    const pms_time_entry *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Passes on the records up to limit, then keeps the others, compacted. */
static int pass_upto(pms_time_order *q, uint64_t limit, int (*fn)(const struct perf_event_header *, void *), void *ctx)
{
    qsort(q->e, q->n, sizeof *q->e, by_time);
    size_t k = 0;
    int rc = PMS_OK;
    for (; k < q->n && q->e[k].time <= limit; k++) {
        if (q->e[k].time < q->flushed_upto) q->late++;
        else q->flushed_upto = q->e[k].time;
        if ((rc = fn((const struct perf_event_header *)(void *)(q->bytes + q->e[k].off), ctx))) {
            k++; /* that one counts as passed on */
            break;
        }
    }
    size_t need = 0;
    for (size_t i = k; i < q->n; i++)
        need += (((const struct perf_event_header *)(void *)(q->bytes + q->e[i].off))->size + 7u) & ~(size_t)7;
    if (pms__grow(&q->spare, &q->spare_cap, need ? need : 1, 1))
        return rc ? rc : pms__fail(PMS_ENOMEM, "out of memory for the records awaiting time order");
    size_t used = 0;
    for (size_t i = k; i < q->n; i++) {
        const struct perf_event_header *h = (const void *)(q->bytes + q->e[i].off);
        size_t size = (h->size + 7u) & ~(size_t)7;
        memcpy(q->spare + used, h, h->size);
        q->e[i - k] = (pms_time_entry){.time = q->e[i].time, .seq = q->e[i].seq, .off = used};
        used += size;
    }
    unsigned char *t = q->bytes;
    size_t tc = q->cap;
    q->bytes = q->spare;
    q->cap = q->spare_cap;
    q->spare = t;
    q->spare_cap = tc;
    q->used = used;
    q->n -= k;
    return rc;
}

int pms__time_order_round(pms_time_order *q, int (*fn)(const struct perf_event_header *, void *), void *ctx)
{
    int rc = q->n ? pass_upto(q, q->horizon, fn, ctx) : PMS_OK;
    if (q->round_max > q->horizon) q->horizon = q->round_max;
    return rc;
}

int pms__time_order_flush(pms_time_order *q, int (*fn)(const struct perf_event_header *, void *), void *ctx)
{
    if (q->round_max > q->horizon) q->horizon = q->round_max;
    return q->n ? pass_upto(q, UINT64_MAX, fn, ctx) : PMS_OK;
}

void pms__time_order_free(pms_time_order *q)
{
    free(q->bytes);
    free(q->spare);
    free(q->e);
    memset(q, 0, sizeof *q);
}
