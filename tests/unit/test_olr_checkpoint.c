/* The olr segment file's checkpoints (version 5, pmuscope/olr_store.h): a writer killed
 * after a checkpoint leaves a file that reads up to it, whatever was written after it (the
 * file cut at every byte from there on): its samples at their own x, each counter's closed
 * segments within eps, the segment still open then on the chord between its first and last
 * samples (exact at both); a finished file with checkpoints reads whole; a cut before the
 * first checkpoint or a checkpoint that lies about what the chunks cover is an error naming
 * the offset. */
#include "test_support.h"
#include "splitmix.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 3000, K = 2, EPS = 3 };

typedef struct run {
    pms_olr_writer *w;
    pms_olr *olr;
    char *buf;
    size_t size;
    FILE *f;
    uint64_t x[N], y[N * K];
} run;

static int to_writer(const pms_olr_segment *s, void *ctx) { return pms_olr_writer_add_segment(ctx, s); }

/* Two counters: one steady with noise (long segments), one with a change of rate every
 * 700 samples; x steps of 90 to 110. */
static void make_series(run *r)
{
    uint64_t x = 1000, a = 0, b = 0;
    for (size_t i = 0; i < N; i++) {
        x += 90 + rnd() % 21;
        a += 50 + rnd() % 3;
        b += (i / 700) % 2 ? 400 : 10;
        r->x[i] = x;
        r->y[i * K] = a;
        r->y[i * K + 1] = b;
    }
}

static void start(run *r, int encoding)
{
    memset(r, 0, sizeof *r);
    make_series(r);
    pms_olr_options o;
    pms_olr_options_init(&o);
    o.method = PMS_OLR_OPT;
    o.ncounters = K;
    o.per_counter = 1;
    pms_olr_counter_options c[K];
    for (size_t j = 0; j < K; j++) {
        pms_olr_counter_options_init(&c[j]);
        c[j].eps = EPS;
    }
    o.counters = c;
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.checkpoints = 1;
    so.encoding = encoding;
    r->f = open_memstream(&r->buf, &r->size);
    assert_non_null(r->f);
    const char *names[K] = {"steady", "steps"};
    assert_int_equal(pms_olr_writer_create(&r->w, r->f, "mem", &so, &o, "x", names), 0);
    assert_int_equal(pms_olr_create(&r->olr, &o, to_writer, r->w), 0);
}

static void push(run *r, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        assert_int_equal(pms_olr_writer_add_sample(r->w, r->x[i], &r->y[i * K]), 0);
        assert_int_equal(pms_olr_push(r->olr, r->x[i], &r->y[i * K]), 0);
    }
}

static void finish(run *r)
{
    pms_olr_writer_destroy(r->w);
    pms_olr_destroy(r->olr);
    fclose(r->f);
    free(r->buf);
}

/* The file read from size bytes: n samples, each within eps or on its counter's last (open)
 * segment, whose ends are exact. */
static void check_prefix(const run *r, size_t size, uint64_t n, int stopped, int want_chords)
{
    pms_olr_stored st;
    if (pms_olr_stored_read_mem(&st, r->buf, size, "mem")) fail_msg("%zu bytes: %s", size, pms_strerror());
    assert_int_equal(st.version, PMS_OLR_STORE_VERSION_CHECKPOINTS);
    assert_int_equal(st.stopped, stopped);
    assert_int_equal(st.n, n);
    for (uint64_t i = 0; i < n; i++) assert_true(st.x[i] == r->x[i]);
    uint64_t d[N];
    int chords = 0;
    for (size_t j = 0; j < K; j++) {
        assert_int_equal(pms_olr_stored_decode(&st, j, NULL, d), 0);
        /* a counter of predictive codes has them all (no open segment); one of segments may
         * end on the chord of its open one */
        uint64_t open_from = stopped && !st.value[j] ? st.seg[j][st.nseg[j] - 1].first : n;
        chords += open_from < n;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = r->y[i * K + j], e = d[i] > v ? d[i] - v : v - d[i];
            if (i < open_from && e > EPS) fail_msg("counter %zu sample %llu: off by %llu", j, (unsigned long long)i, (unsigned long long)e);
            if (i >= open_from && (i == open_from || i == n - 1) && e) fail_msg("counter %zu: chord end %llu off", j, (unsigned long long)i);
        }
    }
    if (stopped && want_chords) assert_true(chords >= 1); /* the steady counter's segment is open then */
    pms_olr_stored_free(&st);
}

/* A writer of counters encoded so (segments: the steady one's is open at each checkpoint;
 * auto: as the writer chooses, predictive codes cover every sample taken). */
static void killed_after_a_checkpoint(int encoding)
{
    run r;
    start(&r, encoding);
    int chords = encoding == PMS_OLR_ENCODING_SEGMENTS;
    push(&r, 0, 1000);
    assert_int_equal(pms_olr_writer_checkpoint(r.w), 0);
    fflush(r.f);
    size_t first_cp = r.size;
    push(&r, 1000, 2000);
    assert_int_equal(pms_olr_writer_checkpoint(r.w), 0);
    fflush(r.f);
    size_t second_cp = r.size;
    check_prefix(&r, second_cp, 2000, 1, chords);
    check_prefix(&r, first_cp, 1000, 1, chords);
    /* what a killed writer leaves: the file cut anywhere after its last checkpoint */
    push(&r, 2000, N);
    assert_int_equal(pms_olr_finish(r.olr), 0);
    assert_int_equal(pms_olr_writer_finish(r.w), 0);
    fflush(r.f);
    for (size_t cut = second_cp; cut < r.size; cut++) check_prefix(&r, cut, 2000, 1, chords);
    check_prefix(&r, r.size, N, 0, 0); /* finished: whole, checkpoints and all */
    /* cut before the first checkpoint: nothing to stand on */
    pms_olr_stored st;
    assert_int_equal(pms_olr_stored_read_mem(&st, r.buf, first_cp - 1, "mem"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "mem: offset"));
    finish(&r);
}

static void test_killed_after_a_checkpoint(void **state)
{
    (void)state;
    killed_after_a_checkpoint(PMS_OLR_ENCODING_SEGMENTS);
    killed_after_a_checkpoint(PMS_OLR_ENCODING_AUTO);
}

static void test_checkpoint_must_match_its_chunks(void **state)
{
    (void)state;
    run r;
    start(&r, PMS_OLR_ENCODING_AUTO);
    push(&r, 0, 1500);
    assert_int_equal(pms_olr_writer_checkpoint(r.w), 0);
    fflush(r.f);
    /* the C chunk is the last one, stored plain (it is short): its taken count is its
     * first byte after the type and the two lengths; one more than the x values before it */
    size_t at = r.size;
    while (at && r.buf[--at] != 'C') {}
    assert_int_equal(r.buf[at + 2], 0); /* plain */
    r.buf[at + 3] = (char)(r.buf[at + 3] + 1);
    pms_olr_stored st;
    assert_int_equal(pms_olr_stored_read_mem(&st, r.buf, r.size, "mem"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "expected as many samples taken as x values before it"));
    finish(&r);
}

static void test_checkpoints_need_x(void **state)
{
    (void)state;
    pms_olr_options o;
    pms_olr_options_init(&o);
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.checkpoints = 1;
    so.keep_x = 0;
    const char *names[1] = {"a"};
    pms_olr_writer *w;
    assert_int_equal(pms_olr_writer_create(&w, NULL, "mem", &so, &o, "x", names), PMS_EINVAL);
    assert_string_equal(pms_strerror(), "mem: checkpoints go with x stored and without residuals");
    so.keep_x = 1;
    so.checkpoints = 0;
    assert_int_equal(pms_olr_writer_create(&w, NULL, "mem", &so, &o, "x", names), 0);
    assert_int_equal(pms_olr_writer_checkpoint(w), PMS_EINVAL);
    pms_olr_writer_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_killed_after_a_checkpoint),
        cmocka_unit_test(test_checkpoint_must_match_its_chunks),
        cmocka_unit_test(test_checkpoints_need_x),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
