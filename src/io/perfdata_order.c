/* Time-ordered delivery of perf records (see perfdata_order.h for the rules). */
#include "io/perfdata_order.h"
#include "pmuscope/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

#define ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

static inline int before(const pms__queued *x, const pms__queued *y)
{
    return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* Sorts the items by time, ties in file order. They arrive as a few sorted runs (the
 * survivors of the last flush, then each CPU's chunk): a natural merge sort merges
 * neighbouring runs until one is left, in linear time when the file is nearly sorted. */
static int sort_items(pms__order_queue *q)
{
    size_t n = q->n, i = 1;
    while (i < n && !before(&q->items[i], &q->items[i - 1])) i++;
    if (i >= n) return PMS_OK;
    if (pms__grow(&q->scratch, &q->scratch_cap, n, sizeof *q->scratch)) return PMS_ENOMEM;
    pms__queued *src = q->items, *dst = q->scratch;
    for (;;) {
        size_t runs = 0;
        for (size_t a = 0; a < n;) {
            size_t b = a + 1;
            while (b < n && !before(&src[b], &src[b - 1])) b++;
            size_t c = b < n ? b + 1 : b;
            while (c < n && !before(&src[c], &src[c - 1])) c++;
            size_t x = a, y = b, o = a;
            while (x < b && y < c) dst[o++] = before(&src[y], &src[x]) ? src[y++] : src[x++];
            while (x < b) dst[o++] = src[x++];
            while (y < c) dst[o++] = src[y++];
            runs++;
            a = c;
        }
        pms__queued *t = src;
        src = dst;
        dst = t;
        if (runs == 1) break;
    }
    if (src != q->items) { /* the result lies in the scratch array: swap the two */
        size_t cap = q->items_cap;
        q->scratch = q->items;
        q->items = src;
        q->items_cap = q->scratch_cap;
        q->scratch_cap = cap;
    }
    return PMS_OK;
}

/* Delivers every queued record with time <= limit, in order, and keeps the rest. */
static int flush_until(pms__order_queue *q, uint64_t limit, pms__order_deliver_fn fn, void *ctx)
{
    if (sort_items(q)) return PMS_ENOMEM;
    size_t k = 0;
    for (; k < q->n && q->items[k].time <= limit; k++) {
        int rc = fn(q->bytes + q->items[k].at, q->items[k].file_off, ctx);
        if (rc) return rc;
    }
    /* The survivors' copies move to the spare buffer, which then becomes the queue's. */
    size_t keep = 0;
    for (size_t i = k; i < q->n; i++) {
        const unsigned char *rec = q->bytes + q->items[i].at;
        uint16_t size;
        memcpy(&size, rec + 6, sizeof size); /* perf_event_header.size */
        keep += ALIGN8(size);
    }
    if (pms__grow(&q->spare, &q->spare_cap, keep ? keep : 1, 1)) return PMS_ENOMEM;
    size_t at = 0;
    for (size_t i = k; i < q->n; i++) {
        const unsigned char *rec = q->bytes + q->items[i].at;
        uint16_t size;
        memcpy(&size, rec + 6, sizeof size);
        memcpy(q->spare + at, rec, size);
        q->items[i - k] = q->items[i];
        q->items[i - k].at = at;
        at += ALIGN8(size);
    }
    unsigned char *old = q->bytes;
    size_t old_cap = q->cap;
    q->bytes = q->spare;
    q->cap = q->spare_cap;
    q->spare = old;
    q->spare_cap = old_cap;
    q->len = at;
    q->n -= k;
    return PMS_OK;
}

int pms__order_push(pms__order_queue *q, const unsigned char *rec, size_t size, uint64_t time, uint64_t file_off,
                    pms__order_deliver_fn fn, void *ctx)
{
    if (q->len > PMS__ORDER_MAX_BYTES && q->n) {
        uint64_t first = q->items[0].time;
        for (size_t i = 1; i < q->n; i++)
            if (q->items[i].time < first) first = q->items[i].time;
        int rc = flush_until(q, first + (q->max_time - first) / 2, fn, ctx);
        if (rc) return rc;
    }
    if (pms__grow(&q->bytes, &q->cap, q->len + ALIGN8(size), 1) ||
        pms__grow(&q->items, &q->items_cap, q->n + 1, sizeof *q->items))
        return PMS_ENOMEM;
    memcpy(q->bytes + q->len, rec, size);
    q->items[q->n++] = (pms__queued){time, q->seq++, file_off, q->len};
    q->len += ALIGN8(size);
    if (q->n == 1 || time > q->max_time) q->max_time = time;
    return PMS_OK;
}

int pms__order_round(pms__order_queue *q, pms__order_deliver_fn fn, void *ctx)
{
    if (!q->n) return PMS_OK; /* perf leaves its flush mark alone on an empty round */
    if (q->next_flush) {
        int rc = flush_until(q, q->next_flush, fn, ctx);
        if (rc) return rc;
    }
    q->next_flush = q->max_time;
    return PMS_OK;
}

int pms__order_drain(pms__order_queue *q, pms__order_deliver_fn fn, void *ctx)
{
    return q->n ? flush_until(q, UINT64_MAX, fn, ctx) : PMS_OK;
}

void pms__order_reset(pms__order_queue *q)
{
    q->n = q->len = 0;
    q->seq = q->max_time = q->next_flush = 0;
}

void pms__order_free(pms__order_queue *q)
{
    free(q->bytes);
    free(q->spare);
    free(q->items);
    free(q->scratch);
    memset(q, 0, sizeof *q);
}
