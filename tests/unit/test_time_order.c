/* Records of several ring buffers put back in time order (perf's rounds), on hand-made
 * records: what a round may pass on, what it must hold back, ties in arrival order,
 * the final flush, a callback's error, a late record counted. */
#include "test_support.h"
#include "collect/time_order.h"
#include "pmuscope/error.h"

#include <string.h>

/* A record of 3 words: header, time, a tag. */
typedef struct rec {
    struct perf_event_header h;
    uint64_t time, tag;
} rec;

typedef struct got {
    uint64_t tags[64];
    size_t n;
    size_t fail_at; /* 1-based: the callback fails on this record */
} got;

static int collect(const struct perf_event_header *h, void *ctx)
{
    got *g = ctx;
    const rec *r = (const rec *)(const void *)h;
    assert_int_equal(h->size, sizeof *r);
    g->tags[g->n++] = r->tag;
    return g->fail_at && g->n == g->fail_at ? PMS_EIO : 0;
}

static void add(pms_time_order *q, uint64_t time, uint64_t tag)
{
    rec r = {.h = {.type = PERF_RECORD_SAMPLE, .size = sizeof r}, .time = time, .tag = tag};
    assert_int_equal(pms__time_order_add(q, &r.h, time), 0);
}

static void expect(const got *g, const uint64_t *tags, size_t n)
{
    assert_int_equal(g->n, n);
    for (size_t i = 0; i < n; i++) assert_int_equal(g->tags[i], tags[i]);
}

static void test_rounds_hold_back_the_newest(void **state)
{
    (void)state;
    pms_time_order q = {0};
    got g = {0};
    /* Round 1: buffer A (times 10, 30) drained before buffer B (20, 40). Nothing is known
     * complete yet: B's CPU may still write a record older than 40. */
    add(&q, 10, 1), add(&q, 30, 3), add(&q, 20, 2), add(&q, 40, 4);
    assert_int_equal(pms__time_order_round(&q, collect, &g), 0);
    expect(&g, NULL, 0);
    /* Round 2: A brings 35 and 50, B 45. Up to round 1's newest (40) is safe, sorted. */
    add(&q, 35, 5), add(&q, 50, 7), add(&q, 45, 6);
    assert_int_equal(pms__time_order_round(&q, collect, &g), 0);
    expect(&g, (const uint64_t[]){1, 2, 3, 5, 4}, 5);
    /* Round 3, empty: up to 50. Then a tie at 60 keeps its arrival order; flush ends. */
    assert_int_equal(pms__time_order_round(&q, collect, &g), 0);
    expect(&g, (const uint64_t[]){1, 2, 3, 5, 4, 6, 7}, 7);
    add(&q, 60, 9), add(&q, 60, 8), add(&q, 55, 10);
    assert_int_equal(pms__time_order_flush(&q, collect, &g), 0);
    expect(&g, (const uint64_t[]){1, 2, 3, 5, 4, 6, 7, 10, 9, 8}, 10);
    assert_int_equal(q.late, 0);
    /* A record older than one passed on goes out at the next round, counted late. */
    add(&q, 52, 11);
    assert_int_equal(pms__time_order_round(&q, collect, &g), 0);
    assert_int_equal(g.n, 11);
    assert_int_equal(q.late, 1);
    pms__time_order_free(&q);
}

static void test_callback_error_keeps_the_rest(void **state)
{
    (void)state;
    pms_time_order q = {0};
    got g = {.fail_at = 2};
    for (uint64_t t = 5; t >= 1; t--) add(&q, t, t);
    assert_int_equal(pms__time_order_flush(&q, collect, &g), PMS_EIO);
    expect(&g, (const uint64_t[]){1, 2}, 2);
    g.fail_at = 0;
    assert_int_equal(pms__time_order_flush(&q, collect, &g), 0);
    expect(&g, (const uint64_t[]){1, 2, 3, 4, 5}, 5);
    pms__time_order_free(&q);
}

/* Many rounds of records of varied sizes: all come out, in order, bytes intact. */
static int check_sizes(const struct perf_event_header *h, void *ctx)
{
    uint64_t *last = ctx;
    const uint64_t *w = (const uint64_t *)(const void *)(h + 1);
    size_t words = (h->size - sizeof *h) / 8;
    assert_true(w[0] >= *last);
    for (size_t i = 1; i < words; i++) assert_int_equal(w[i], w[0] * 1000 + i);
    *last = w[0];
    last[1]++;
    return 0;
}

static void test_many_rounds(void **state)
{
    (void)state;
    pms_time_order q = {0};
    uint64_t seen[2] = {0, 0}, buf[40];
    unsigned x = 12345;
    uint64_t clock = 0, total = 0;
    for (int round = 0; round < 200; round++) {
        /* 15 records on one clock, each written by one of 3 CPUs, drained CPU by CPU. */
        uint64_t time[15];
        int cpu_of[15];
        for (int k = 0; k < 15; k++) {
            x = x * 1103515245u + 12345u;
            clock += (x >> 16) % 3; /* ties too */
            time[k] = clock;
            cpu_of[k] = (int)((x >> 20) % 3);
        }
        for (int cpu = 0; cpu < 3; cpu++)
            for (int k = 0; k < 15; k++) {
                if (cpu_of[k] != cpu) continue;
                x = x * 1103515245u + 12345u;
                size_t words = 1 + (x >> 8) % 30;
                struct perf_event_header *h = (void *)buf;
                h->type = PERF_RECORD_SAMPLE;
                h->size = (uint16_t)(8 + 8 * words);
                buf[1] = time[k];
                for (size_t i = 1; i < words; i++) buf[1 + i] = time[k] * 1000 + i;
                assert_int_equal(pms__time_order_add(&q, h, time[k]), 0);
                total++;
            }
        assert_int_equal(pms__time_order_round(&q, check_sizes, seen), 0);
    }
    assert_int_equal(pms__time_order_flush(&q, check_sizes, seen), 0);
    assert_int_equal(seen[1], total);
    assert_int_equal(q.late, 0);
    pms__time_order_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds_hold_back_the_newest),
        cmocka_unit_test(test_callback_error_keeps_the_rest),
        cmocka_unit_test(test_many_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
