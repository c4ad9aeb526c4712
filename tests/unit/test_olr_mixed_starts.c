/* The optimal joint/disjoint mix of the segment file with many line starts awake at once:
 * streams built to wake thousands (flat runs of a sparse step counter, slow staircases)
 * and real streams recorded here from the bundled workloads (cpu-clock samples reading
 * page-faults and context-switches, which met the old 4,096-start cap) meet no memory guard,
 * decode every sample within eps at its own x, and store exactly the least end points of an
 * uncapped forward reference (olr_mixed_reference.h): the designed streams whole, the
 * recorded ones in excerpts of 2,000 samples (one in three). */
#include "test_support.h"
#include "olr_mixed_reference.h"
#include "olr_store_points.h"
#include "splitmix.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stream {
    size_t n;
    uint64_t *x, *y[2];
} stream;

static void stream_free(stream *s)
{
    free(s->x);
    free(s->y[0]);
    free(s->y[1]);
}

/* Stores counter y at eps 0..2: the reference's least points, no guard met; returns the
 * most starts awake at once. */
static uint64_t check_exact(const char *what, size_t n, const uint64_t *x, const uint64_t *y)
{
    uint64_t peak = 0;
    for (uint64_t eps = 0; eps <= 2; eps++) {
        pms_olr_store_stats st;
        uint64_t got = store_points(n, x, y, eps, NULL, &st), want = ref_mixed_points(n, x, y, eps);
        if (got != want || st.mixed_cut)
            fail_msg("%s, eps %" PRIu64 ", %zu samples: %" PRIu64 " points stored, the least is %" PRIu64
                     "; guards met at %" PRIu64 " samples",
                     what, eps, n, got, want, st.mixed_cut);
        print_message("%s eps %" PRIu64 ": %zu samples, %" PRIu64 " points (the least), at most %" PRIu64
                      " starts awake\n",
                      what, eps, n, got, st.mixed_starts_peak);
        if (st.mixed_starts_peak > peak) peak = st.mixed_starts_peak;
    }
    return peak;
}

/* Flat runs broken by rare steps of -1 to 3 counts, some slow ramps: every knot of a run
 * may start a line when the run's least cost rises. */
static void sparse_steps(size_t n, uint64_t *x, uint64_t *y, unsigned every)
{
    uint64_t xv = 1000, yv = 50;
    unsigned ramp = 0;
    for (size_t i = 0; i < n; i++) {
        xv += 1000 + below(40);
        if (ramp > 0 && below(50) == 0) yv++, ramp--;
        else if (below(every) == 0) yv += below(5) - 1;
        else if (below(4 * every) == 0) ramp = 1 + (unsigned)below(4);
        x[i] = xv;
        y[i] = yv;
    }
}

/* A staircase of unit steps at a slowly changing pace: within eps of long lines, which
 * keep many starts alive for hundreds of samples. */
static void staircase(size_t n, uint64_t *x, uint64_t *y)
{
    uint64_t xv = 0, yv = 0, pace = 40;
    for (size_t i = 0; i < n; i++) {
        xv += 997;
        if (below(3000) == 0) pace = 20 + below(200);
        if (below(pace) == 0) yv++;
        x[i] = xv;
        y[i] = yv;
    }
}

static void test_streams_that_wake_many_starts(void **state)
{
    (void)state;
    enum { N = 8000 };
    uint64_t *x = calloc(N, sizeof *x), *y = calloc(N, sizeof *y), peak = 0;
    assert_true(x && y);
    for (int t = 0; t < 4; t++) {
        if (t < 3) sparse_steps(N, x, y, t == 0 ? 500 : t == 1 ? 2000 : 150);
        else staircase(N, x, y);
        char what[32];
        snprintf(what, sizeof what, "designed stream %d", t);
        uint64_t p = check_exact(what, N, x, y);
        if (p > peak) peak = p;
    }
    /* beyond the 4,096 starts the program once kept at most */
    assert_true(peak > 4096);
    free(x);
    free(y);
}

/* x and the two counters of `pmuscope olr --samples` of a recording. */
static stream read_samples(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f)); /* the header */
    stream s = {0};
    size_t cap = 0;
    uint64_t a, b, c;
    while (fscanf(f, "%" SCNu64 ",%" SCNu64 ",%" SCNu64, &a, &b, &c) == 3) {
        if (s.n == cap) {
            cap = cap ? 2 * cap : 4096;
            s.x = realloc(s.x, cap * sizeof *s.x);
            s.y[0] = realloc(s.y[0], cap * sizeof *s.y[0]);
            s.y[1] = realloc(s.y[1], cap * sizeof *s.y[1]);
            assert_true(s.x && s.y[0] && s.y[1]);
        }
        s.x[s.n] = a, s.y[0][s.n] = b, s.y[1][s.n] = c;
        s.n++;
    }
    assert_true(feof(f));
    fclose(f);
    return s;
}

enum { EXCERPT = 2000 };

static void test_recorded_streams(void **state)
{
    (void)state;
    char dir[] = "/tmp/pms-olr-starts-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *pm = getenv("PMUSCOPE"), *wl = getenv("PMS_WORKLOADS");
    assert_true(pm && wl);
    static const char *const runs[][2] = {{"sizes", "sizes 8"}, {"phases", "phases --repeat 2"}};
    for (size_t r = 0; r < 2; r++) {
        assert_int_equal(pms_test_system("'%s' record -e cpu-clock -c 20000 --read page-faults,context-switches "
                                         "-o %s/%s.data -- '%s'/%s > /dev/null 2>&1 && '%s' olr --samples %s/%s.csv "
                                         "%s/%s.data > /dev/null",
                                         pm, dir, runs[r][0], wl, runs[r][1], pm, dir, runs[r][0], dir, runs[r][0]),
                         0);
        char path[256];
        snprintf(path, sizeof path, "%s/%s.csv", dir, runs[r][0]);
        stream s = read_samples(path);
        assert_true(s.n > 100);
        static const char *const names[2] = {"page-faults", "context-switches"};
        for (int c = 0; c < 2; c++) {
            /* the whole stream meets no guard; the reference, whose knots stay looked at
             * for as long as a line from them fits (minutes on a whole stream), takes
             * excerpts */
            for (uint64_t eps = 0; eps <= 2; eps++) {
                pms_olr_store_stats st;
                store_points(s.n, s.x, s.y[c], eps, NULL, &st);
                assert_int_equal(st.mixed_cut, 0);
                print_message("%s %s eps %" PRIu64 ": %zu samples, %" PRIu64 " points, at most %" PRIu64
                              " starts awake\n",
                              runs[r][0], names[c], eps, s.n, st.points, st.mixed_starts_peak);
            }
            for (size_t at = 0; at < s.n; at += 3 * EXCERPT) { /* every third */
                char what[96];
                snprintf(what, sizeof what, "%s %s samples %zu..", runs[r][0], names[c], at);
                check_exact(what, s.n - at < EXCERPT ? s.n - at : EXCERPT, s.x + at, s.y[c] + at);
            }
        }
        stream_free(&s);
    }
    assert_int_equal(pms_test_system("rm -rf %s", dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streams_that_wake_many_starts),
        cmocka_unit_test(test_recorded_streams),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
