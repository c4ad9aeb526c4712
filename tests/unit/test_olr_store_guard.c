/* The optimal mix's memory guard of knot states, with many counters: each counter holds at
 * most the guard's states (16 bytes each), a stream that needs more meets it, the summary
 * says so (the note of `pmuscope olr --store`), and every sample of every counter still
 * decodes within eps at its own x; without a guard low enough to meet, the same stream
 * meets none and stores no more points. */
#include "test_support.h"
#include "splitmix.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_series.h"
#include "pmuscope/olr_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K = 24, N = 20000 };
static uint64_t xs[N], ys[K][N];

typedef struct sink {
    pms_olr_writer *w;
} sink;

static int to_writer(const pms_olr_segment *s, void *ctx) { return pms_olr_writer_add_segment(((sink *)ctx)->w, s); }

/* Counter c: flat (a straight stream keeps every row since its first knot), slow ramps,
 * sparse steps, noisy lines, at eps 0 to 3. */
static void make_streams(void)
{
    uint64_t xv = 0, yv[K] = {0};
    for (size_t i = 0; i < N; i++) {
        xv += 1000 + below(50);
        xs[i] = xv;
        for (size_t c = 0; c < K; c++) {
            switch (c % 4) {
            case 0: break;
            case 1: yv[c] += i % 97 == 0; break;
            case 2: yv[c] += below(700) == 0 ? 1 + below(3) : 0; break;
            default: yv[c] += 5 + below(3); break;
            }
            ys[c][i] = yv[c];
        }
    }
}

static uint64_t eps_of(size_t c) { return c / 4 % 4; } /* each shape at eps 0 to 3 */

/* Stores the K counters with the guard (0: the default); returns the stats and the text
 * summary. */
static pms_olr_store_stats store(uint64_t states_max, char **summary)
{
    pms_olr_counter_options co[K];
    for (size_t c = 0; c < K; c++) {
        pms_olr_counter_options_init(&co[c]);
        co[c].eps = (double)eps_of(c);
        co[c].monotone = 0;
    }
    pms_olr_options o;
    pms_olr_options_init(&o);
    o.method = PMS_OLR_OPT;
    o.ncounters = K;
    o.counters = co;
    o.per_counter = 1;
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.mixed_states_max = states_max;
    char *buf = NULL, names_buf[K][8];
    const char *names[K];
    for (size_t c = 0; c < K; c++) snprintf(names_buf[c], sizeof names_buf[c], "c%zu", c), names[c] = names_buf[c];
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    sink sk;
    assert_int_equal(pms_olr_writer_create(&sk.w, f, "guard.olr", &so, &o, "x", names), 0);
    pms_olr *olr;
    assert_int_equal(pms_olr_create(&olr, &o, to_writer, &sk), 0);
    uint64_t row[K];
    for (size_t i = 0; i < N; i++) {
        for (size_t c = 0; c < K; c++) row[c] = ys[c][i];
        assert_int_equal(pms_olr_writer_add_sample(sk.w, xs[i], row), 0);
        if (pms_olr_push(olr, xs[i], row)) fail_msg("%s", pms_strerror());
    }
    if (pms_olr_finish(olr)) fail_msg("%s", pms_strerror());
    if (pms_olr_writer_finish(sk.w)) fail_msg("%s", pms_strerror());
    pms_olr_store_stats st;
    pms_olr_writer_get_stats(sk.w, &st);
    pms_olr_writer_destroy(sk.w);
    pms_olr_destroy(olr);
    fclose(f);
    /* every counter back within its eps at the samples' own x */
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, buf, size, "guard.olr")) fail_msg("%s", pms_strerror());
    static uint64_t d[N];
    for (size_t c = 0; c < K; c++) {
        assert_int_equal(pms_olr_stored_decode(&s, c, NULL, d), 0);
        for (size_t i = 0; i < N; i++) {
            assert_int_equal(s.x[i], xs[i]);
            if (d[i] > ys[c][i] + eps_of(c) || ys[c][i] > d[i] + eps_of(c))
                fail_msg("counter %zu sample %zu: %llu decoded %llu", c, i, (unsigned long long)ys[c][i],
                         (unsigned long long)d[i]);
        }
    }
    pms_olr_stored_free(&s);
    free(buf);
    size = 0;
    f = open_memstream(summary, &size);
    assert_non_null(f);
    assert_int_equal(pms_olr_write_store_stats(f, "guard.olr", &st), 0);
    fclose(f);
    return st;
}

static void test_guard_with_many_counters(void **state)
{
    (void)state;
    make_streams();
    char *text;
    pms_olr_store_stats free_run = store(0, &text);
    /* a flat counter at eps 3 holds 7 states a sample since its first knot: 140,000 here */
    assert_int_equal(free_run.mixed_cut, 0);
    assert_true(free_run.mixed_states_peak > 100000);
    assert_true(free_run.mixed_states_peak <= (1u << 22));
    assert_null(strstr(text, "note:"));
    free(text);
    const uint64_t guard = 30000;
    pms_olr_store_stats guarded = store(guard, &text);
    print_message("%d counters, %d samples: %llu states at the most without the guard; with %llu: met at %llu "
                  "samples, %llu points for %llu\n",
                  K, N, (unsigned long long)free_run.mixed_states_peak, (unsigned long long)guard,
                  (unsigned long long)guarded.mixed_cut, (unsigned long long)guarded.points,
                  (unsigned long long)free_run.points);
    assert_true(guarded.mixed_cut > 0);
    assert_true(guarded.mixed_states_peak <= guard); /* per counter: 16 bytes a state */
    assert_true(guarded.points >= free_run.points);
    char want[128];
    snprintf(want, sizeof want, "note: guard.olr: the optimal joint/disjoint mix met its caps at %llu samples",
             (unsigned long long)guarded.mixed_cut);
    if (!strstr(text, want)) fail_msg("no note '%s' in:\n%s", want, text);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guard_with_many_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
