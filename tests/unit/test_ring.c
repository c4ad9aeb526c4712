/* The ring buffer reader on a hand-made buffer: records in order, a record that wraps
 * around the end handed over contiguous, data_tail released, malformed sizes refused. */
#include "test_support.h"
#include "collect/ring.h"
#include "pmuscope/error.h"

#include <stdlib.h>
#include <string.h>

#define DATA 256

typedef struct fake {
    pms_ring r;
    struct perf_event_mmap_page page;
    unsigned char data[DATA];
} fake;

static void fake_init(fake *f, uint64_t tail)
{
    memset(f, 0, sizeof *f);
    f->r.page = &f->page;
    f->r.data = f->data;
    f->r.data_size = DATA;
    f->r.scratch = malloc(65536);
    f->page.data_tail = tail;
    f->page.data_head = tail;
}

/* Writes a record of `words` u64 (header included) at data_head, wrapping as the kernel does. */
static void put(fake *f, uint32_t type, size_t words, uint64_t fill)
{
    uint64_t rec[32];
    struct perf_event_header h = {.type = type, .misc = 0, .size = (uint16_t)(words * 8)};
    memcpy(rec, &h, sizeof h);
    for (size_t i = 1; i < words; i++) rec[i] = fill + i;
    for (size_t i = 0; i < words * 8; i++) f->data[(f->page.data_head + i) % DATA] = ((unsigned char *)rec)[i];
    f->page.data_head += words * 8;
}

typedef struct got {
    int n;
    uint32_t types[16];
    int contiguous_ok;
    int stop_at;
} got;

static int collect(const struct perf_event_header *h, void *ctx)
{
    got *g = ctx;
    const uint64_t *w = (const uint64_t *)(const void *)h;
    uint64_t fill = w[1] - 1;
    int ok = 1;
    for (size_t i = 1; i < h->size / 8; i++) ok &= w[i] == fill + i;
    g->contiguous_ok += ok;
    g->types[g->n++] = h->type;
    return g->n == g->stop_at ? 42 : 0;
}

static void test_records_in_order_and_wrapped(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, 200); /* 56 bytes before the end: the second record wraps */
    put(&f, PERF_RECORD_SAMPLE, 4, 100);   /* 200..231 */
    put(&f, PERF_RECORD_MMAP2, 8, 200);    /* 232..295: wraps at 256 */
    put(&f, PERF_RECORD_LOST, 3, 300);
    got g = {0};
    uint64_t count = 0;
    assert_int_equal(pms__ring_drain(&f.r, collect, &g, &count), 0);
    assert_int_equal(count, 3);
    assert_int_equal(g.types[0], PERF_RECORD_SAMPLE);
    assert_int_equal(g.types[1], PERF_RECORD_MMAP2);
    assert_int_equal(g.types[2], PERF_RECORD_LOST);
    assert_int_equal(g.contiguous_ok, 3);
    assert_int_equal(f.page.data_tail, f.page.data_head);
    /* Nothing new: nothing handed over. */
    assert_int_equal(pms__ring_drain(&f.r, collect, &g, &count), 0);
    assert_int_equal(count, 3);
    free(f.r.scratch);
}

static void test_stop_keeps_the_rest(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, 0);
    for (int i = 0; i < 4; i++) put(&f, PERF_RECORD_SAMPLE, 2, (uint64_t)i * 10);
    got g = {.stop_at = 2};
    uint64_t count = 0;
    assert_int_equal(pms__ring_drain(&f.r, collect, &g, &count), 42);
    assert_int_equal(count, 2);
    assert_int_equal(f.page.data_tail, 32); /* the two read records are released, no more */
    g.stop_at = 0;
    assert_int_equal(pms__ring_drain(&f.r, collect, &g, &count), 0);
    assert_int_equal(count, 4);
    free(f.r.scratch);
}

static void test_malformed_size(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, 0);
    put(&f, PERF_RECORD_SAMPLE, 2, 0);
    struct perf_event_header bad = {.type = PERF_RECORD_SAMPLE, .size = 4};
    memcpy(f.data + f.page.data_head, &bad, sizeof bad);
    f.page.data_head += 16;
    got g = {0};
    uint64_t count = 0;
    assert_int_equal(pms__ring_drain(&f.r, collect, &g, &count), PMS_EFORMAT);
    assert_int_equal(count, 1);
    assert_non_null(strstr(pms_strerror(), "record at position 16 has size 4"));
    assert_int_equal(f.page.data_tail, f.page.data_head); /* skipped, not read forever */
    free(f.r.scratch);
}

static void test_map_rejects_bad_sizes(void **state)
{
    (void)state;
    pms_ring r;
    assert_int_equal(pms__ring_map(&r, -1, 3), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "3 pages is not a power of 2"));
    assert_true(pms__ring_map(&r, -1, 4) < 0); /* not a perf fd */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_in_order_and_wrapped),
        cmocka_unit_test(test_stop_keeps_the_rest),
        cmocka_unit_test(test_malformed_size),
        cmocka_unit_test(test_map_rejects_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
