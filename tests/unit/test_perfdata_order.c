/* Time-ordered delivery (PMS_PERFDATA_ORDER_TIME) by perf's ordered-events rules, on a
 * file laid out as perf record writes one: per-CPU chunks one after the other, then a
 * FINISHED_ROUND. Records of a round wait until the next round ends; a record older
 * than what already went out comes next (as perf delivers it too); records without a
 * time go at once. The live check against perf script is integration/perfdata_order. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"

static uint64_t ids[1] = {7};

static void make_attr(pms_perfdata_attr *a)
{
    memset(a, 0, sizeof *a);
    a->attr.size = sizeof a->attr;
    a->attr.type = PERF_TYPE_SOFTWARE;
    a->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                          PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
    a->attr.sample_id_all = 1;
    a->name = "cpu-clock";
    a->ids = ids;
    a->nids = 1;
}

/* One record of the layout: a sample at time t, an mmap (m), a comm without time (c) or a
 * FINISHED_ROUND (r). */
static void add(pms_perfdata_writer *w, const pms_perfdata_attr *a, char kind, uint64_t t)
{
    unsigned char rec[256];
    size_t n = 0;
    if (kind == 's') {
        pms_sample s = {.ip = 0x1000 + t, .pid = 1, .tid = 1, .time = t, .id = 7, .period = 1};
        n = pms_perfdata_encode_sample(rec, sizeof rec, a, &s);
    } else if (kind == 'm') {
        pms_mmap_event m = {.pid = 1, .tid = 1, .start = 0x1000, .len = 0x1000, .executable = 1,
                            .filename = "/bin/x", .time = t};
        n = pms_perfdata_encode_mmap2(rec, sizeof rec, a, &m);
    } else if (kind == 'c') {
        pms_task_event c = {.type = PERF_RECORD_COMM, .pid = 1, .tid = 1, .comm = "x", .time = 0};
        n = pms_perfdata_encode_task(rec, sizeof rec, a, &c);
    } else {
        struct perf_event_header h = {68, 0, sizeof h};
        memcpy(rec, &h, sizeof h);
        n = sizeof h;
    }
    assert_true(n > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (const struct perf_event_header *)rec), PMS_OK);
}

/* Writes "c s10 s30 ..." (kind, then time) into a fresh file. */
static const char *write_layout(const char *layout)
{
    pms_perfdata_attr a;
    make_attr(&a);
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, &a, 1, 0, NULL), PMS_OK);
    for (const char *p = layout; *p;) {
        char kind = *p++;
        uint64_t t = strtoull(p, (char **)&p, 10);
        add(w, &a, kind, t);
        while (*p == ' ') p++;
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
    return path;
}

struct log {
    char text[1024];
};

static void put(struct log *l, char kind, uint64_t t)
{
    size_t used = strlen(l->text);
    if (kind == 'c' || kind == 'r')
        snprintf(l->text + used, sizeof l->text - used, "%s%c", used ? " " : "", kind);
    else
        snprintf(l->text + used, sizeof l->text - used, "%s%c%llu", used ? " " : "", kind, (unsigned long long)t);
}

static int on_sample(const pms_sample *s, void *ctx) { put(ctx, 's', s->time); return 0; }
static int on_mmap(const pms_mmap_event *m, void *ctx) { put(ctx, 'm', m->time); return 0; }
static int on_task(const pms_task_event *t, void *ctx) { put(ctx, 'c', t->time); return 0; }

static int on_raw(const struct perf_event_header *h, uint64_t off, void *ctx)
{
    (void)off;
    if (h->type == 68) put(ctx, 'r', 0);
    return 0;
}

static void read_in(const char *path, pms_perfdata_order order, struct log *l)
{
    memset(l, 0, sizeof *l);
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    pms_perfdata_set_order(r, order);
    pms_perfdata_handlers h = {.sample = on_sample, .mmap = on_mmap, .task = on_task, .raw = on_raw, .ctx = l};
    assert_int_equal(pms_perfdata_read(r, &h), PMS_OK);
    pms_perfdata_close(r);
}

/* Two CPUs' chunks per round; a sample at 45 comes after the round that delivered up to 60. */
static const char rounds[] = "c0 s10 s30 m35 s50 s20 s40 s60 r0 s70 s90 s80 s100 r0 s45 s110";

static void test_rounds_deliver_in_time_order(void **state)
{
    (void)state;
    const char *path = write_layout(rounds);
    struct log l;
    read_in(path, PMS_PERFDATA_ORDER_TIME, &l);
    /* Round 1 lets nothing out (nothing older is known to be complete), round 2 everything
     * up to round 1's newest time (60); the end the rest. */
    assert_string_equal(l.text, "c r s10 s20 s30 m35 s40 s50 s60 r s45 s70 s80 s90 s100 s110");
    read_in(path, PMS_PERFDATA_ORDER_FILE, &l);
    assert_string_equal(l.text, "c s10 s30 m35 s50 s20 s40 s60 r s70 s90 s80 s100 r s45 s110");
    /* A second pass over the same reader starts from an empty queue. */
    read_in(path, PMS_PERFDATA_ORDER_TIME, &l);
    assert_string_equal(l.text, "c r s10 s20 s30 m35 s40 s50 s60 r s45 s70 s80 s90 s100 s110");
    remove(path);
}

/* Without rounds the whole file is one: sorted, ties in file order. */
static void test_file_without_rounds_sorts_all(void **state)
{
    (void)state;
    const char *path = write_layout("s30 m20 s10 s20 c0 s5 s30");
    struct log l;
    read_in(path, PMS_PERFDATA_ORDER_TIME, &l);
    assert_string_equal(l.text, "c s5 s10 m20 s20 s30 s30");
    remove(path);
}

/* A stop in a callback stops the pass, and the next pass is complete again. */
static int stop_at_20(const pms_sample *s, void *ctx)
{
    put(ctx, 's', s->time);
    return s->time == 20 ? PMS_EINVAL : 0;
}

static void test_stopped_pass_leaves_nothing_queued(void **state)
{
    (void)state;
    const char *path = write_layout(rounds);
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    struct log l = {{0}};
    pms_perfdata_handlers h = {.sample = stop_at_20, .ctx = &l};
    assert_int_equal(pms_perfdata_read(r, &h), PMS_EINVAL);
    assert_string_equal(l.text, "s10 s20");
    memset(&l, 0, sizeof l);
    h.sample = on_sample;
    assert_int_equal(pms_perfdata_read(r, &h), PMS_OK);
    assert_string_equal(l.text, "s10 s20 s30 s40 s50 s60 s45 s70 s80 s90 s100 s110");
    pms_perfdata_close(r);
    remove(path);
}

/* Many ties and many runs: the order is a stable sort by time (ip numbers the records). */
#define NRANDOM 5000
struct collected {
    uint64_t ip[NRANDOM], time[NRANDOM];
    size_t n;
};

static int collect(const pms_sample *s, void *ctx)
{
    struct collected *c = ctx;
    if (c->n < NRANDOM) {
        c->ip[c->n] = s->ip;
        c->time[c->n++] = s->time;
    }
    return 0;
}

static void test_random_times_sort_stably(void **state)
{
    (void)state;
    pms_perfdata_attr a;
    make_attr(&a);
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, &a, 1, 0, NULL), PMS_OK);
    static uint64_t times[NRANDOM];
    uint64_t x = 88172645463325252ull;
    unsigned char rec[256];
    for (size_t i = 0; i < NRANDOM; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        times[i] = 1 + x % 300;
        pms_sample s = {.ip = i, .pid = 1, .tid = 1, .time = times[i], .id = 7, .period = 1};
        assert_true(pms_perfdata_encode_sample(rec, sizeof rec, &a, &s) > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (const struct perf_event_header *)rec), PMS_OK);
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
    static struct collected c;
    memset(&c, 0, sizeof c);
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    pms_perfdata_handlers h = {.sample = collect, .ctx = &c};
    assert_int_equal(pms_perfdata_read(r, &h), PMS_OK);
    pms_perfdata_close(r);
    assert_int_equal(c.n, NRANDOM);
    /* The reference: counting sort by time, file order within a time. */
    size_t k = 0;
    for (uint64_t t = 1; t <= 300; t++)
        for (size_t i = 0; i < NRANDOM; i++)
            if (times[i] == t) {
                assert_int_equal(c.time[k], t);
                assert_int_equal(c.ip[k], i);
                k++;
            }
    assert_int_equal(k, NRANDOM);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds_deliver_in_time_order),
        cmocka_unit_test(test_file_without_rounds_sorts_all),
        cmocka_unit_test(test_stopped_pass_leaves_nothing_queued),
        cmocka_unit_test(test_random_times_sort_stably),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
