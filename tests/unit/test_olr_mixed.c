/* The optimal joint/disjoint mix of the olr segment file (the writer's default for opt):
 * on small random streams the end points it stores equal the true least, found here by
 * exhaustive dynamic programming over what the file format can express (docs/olr-format.md:
 * a disjoint segment's two whole-count end points, a one-sample segment's one, a joint
 * segment's end from the previous end point), with its own exact rational rounding; every
 * sample decodes within eps; the greedy choice never stores fewer. */
#include "test_support.h"
#include "olr_mixed_reference.h"
#include "olr_store_points.h"
#include "splitmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Short streams (any shape), and long ones of flat runs and small steps: there every knot
 * of a run stays a possible start for the whole run (far more than the 64 starts the
 * program once kept). */
enum { NSHORT = 13, NMAX = 90 };

/* floor(a / b), b > 0 */
static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }

/* The value decoded at x on the line (x0, y0) .. (x1, y1): the nearest count, ties up. */
static int64_t decoded(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int64_t x)
{
    if (x <= x0) return y0;
    int64_t d = x1 - x0, num = y0 * d + (y1 - y0) * (x - x0); /* the value is num / d */
    return floor_div(2 * num + d, 2 * d);
}

static int fits(const int64_t *x, const int64_t *y, int64_t eps, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                int a, int b)
{
    for (int i = a; i <= b; i++) {
        int64_t e = decoded(x0, y0, x1, y1, x[i]) - y[i];
        if (e > eps || e < -eps) return 0;
    }
    return 1;
}

/* The least points of any file for the samples: best[b][v] = least points of segments
 * covering 0 .. b whose last end value is y[b] - eps + v. */
static int64_t least_points(int n, const int64_t *x, const int64_t *y, int64_t eps)
{
    enum { INF = 1 << 30 };
    int nv = (int)(2 * eps + 1);
    int64_t best[NMAX][5];
    for (int b = 0; b < n; b++)
        for (int v = 0; v < nv; v++) best[b][v] = INF;
    for (int a = 0; a < n; a++) { /* the next segment covers a .. e */
        int64_t before = a == 0 ? 0 : INF;
        for (int v = 0; a > 0 && v < nv; v++)
            if (best[a - 1][v] < before) before = best[a - 1][v];
        for (int e = a; e < n; e++)
            for (int ve = 0; ve < nv; ve++) {
                int64_t ye = y[e] - eps + ve;
                if (ye < 0) continue;
                /* disjoint: a start value at x[a] (one sample: it is the end too) */
                for (int vs = 0; vs < nv; vs++) {
                    int64_t ys = y[a] - eps + vs;
                    if (ys < 0 || (e == a && ys != ye)) continue;
                    if (e > a ? fits(x, y, eps, x[a], ys, x[e], ye, a, e) : (ys - y[a] <= eps && y[a] - ys <= eps)) {
                        int64_t c = before + (e == a ? 1 : 2);
                        if (c < best[e][ve]) best[e][ve] = c;
                    }
                }
                /* joint: from the previous segment's end point */
                for (int vp = 0; a > 0 && vp < nv; vp++) {
                    int64_t yp = y[a - 1] - eps + vp;
                    if (best[a - 1][vp] >= INF || !fits(x, y, eps, x[a - 1], yp, x[e], ye, a, e)) continue;
                    if (best[a - 1][vp] + 1 < best[e][ve]) best[e][ve] = best[a - 1][vp] + 1;
                }
            }
    }
    int64_t m = INF;
    for (int v = 0; v < nv; v++)
        if (best[n - 1][v] < m) m = best[n - 1][v];
    return m;
}

/* The points the segment file stores (greedy: the fitter's own segments, each joint where
 * it can be), every sample checked within eps; the optimal mix meets no memory guard. */
static uint64_t stored_points(int n, const int64_t *x, const int64_t *y, int64_t eps, int greedy)
{
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.greedy_joints = greedy;
    pms_olr_store_stats st;
    uint64_t points = store_points((size_t)n, (const uint64_t *)x, (const uint64_t *)y, (uint64_t)eps, &so, &st);
    if (!greedy) { /* every segment as the program placed it, and no guard met */
        assert_int_equal(st.split, 0);
        assert_int_equal(st.mixed_cut, 0);
    }
    return points;
}

/* Random walks with small x steps (rounding decides), flat runs, ramps, and values near 0. */
static void walk(int n, int64_t *x, int64_t *y)
{
    int64_t xv = (int64_t)(rnd() % 5), yv = (int64_t)(rnd() % 6), rate = 0;
    for (int i = 0; i < n; i++) {
        xv += 1 + (int64_t)(rnd() % 4);
        if (rnd() % 4 == 0) rate = (int64_t)(rnd() % 7) - 2;
        yv += rate + (int64_t)(rnd() % 3) - 1;
        if (yv < 0) yv = 0;
        x[i] = xv;
        y[i] = yv;
    }
}

/* got: the points stored; want: the exhaustive least, which the forward reference of the
 * long-stream tests (olr_mixed_reference.h) must find too. */
static void check_least(int n, const int64_t *x, const int64_t *y, int eps, uint64_t got, int64_t want)
{
    assert_int_equal(ref_mixed_points((size_t)n, (const uint64_t *)x, (const uint64_t *)y, (uint64_t)eps), want);
    if ((int64_t)got == want) return;
    char buf[4096];
    int at = 0;
    for (int i = 0; i < n && at < (int)sizeof buf - 64; i++)
        at += snprintf(buf + at, sizeof buf - (size_t)at, " (%lld,%lld)", (long long)x[i], (long long)y[i]);
    fail_msg("eps %d, %d samples%s: %llu points stored, the least is %lld", eps, n, buf, (unsigned long long)got,
             (long long)want);
}

/* Flat runs broken by rare steps of -1 to 3 counts (a sparse event counter), some of
 * them slow ramps. */
static void steps(int n, int64_t *x, int64_t *y)
{
    int64_t xv = 0, yv = 5;
    int ramp = 0;
    for (int i = 0; i < n; i++) {
        xv += 3 + (int64_t)(rnd() % 3);
        if (ramp > 0 && rnd() % 3 == 0) yv++, ramp--;
        else if (rnd() % 16 == 0) yv += (int64_t)(rnd() % 5) - 1;
        else if (rnd() % 40 == 0) ramp = 1 + (int)(rnd() % 4);
        x[i] = xv;
        y[i] = yv;
    }
}

static void test_least_points_long_runs(void **state)
{
    (void)state;
    int64_t x[NMAX], y[NMAX];
    for (int eps = 0; eps <= 1; eps++)
        for (int t = 0; t < 60; t++) {
            int n = NMAX / 2 + (int)(rnd() % (NMAX / 2 + 1));
            steps(n, x, y);
            check_least(n, x, y, eps, stored_points(n, x, y, eps, 0), least_points(n, x, y, eps));
        }
}

static void test_least_points(void **state)
{
    (void)state;
    int64_t x[NMAX], y[NMAX];
    uint64_t saved = 0, cases = 0;
    for (int eps = 0; eps <= 2; eps++)
        for (int t = 0; t < 700; t++) {
            int n = 2 + (int)(rnd() % (NSHORT - 1)); /* the fitter needs 2 */
            walk(n, x, y);
            int64_t want = least_points(n, x, y, eps);
            uint64_t got = stored_points(n, x, y, eps, 0), greedy = stored_points(n, x, y, eps, 1);
            check_least(n, x, y, eps, got, want);
            assert_true(greedy >= got);
            saved += greedy - got;
            cases++;
        }
    /* the cases are not all ones where greedy is optimal already */
    assert_true(saved > 0);
    print_message("%llu streams: the optimal mix stores %llu points fewer than the greedy one in all\n",
                  (unsigned long long)cases, (unsigned long long)saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_least_points),
        cmocka_unit_test(test_least_points_long_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
