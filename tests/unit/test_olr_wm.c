/* olr, method wm: hand-computed examples of Wu & Mencer's procedure (section 3.5).
 *
 * Example A: x = 1..10 (x1 = 1), y = 100 200 302 403 600 900 1200 1500 1799 2100
 * (y1 = 100, scaled y = 1 2 3.02 4.03 6 9 12 15 17.99 21). Worked in exact fractions:
 *  sample 3 (3, 3.02): line (1,1)-(2,2) has 2 points: yhat = 3, r = 0.02 < 0.01 * 3  -> joins
 *  sample 4 (4, 4.03): eqs 3-4 on 3 points: k = 6.06/6 = 1.01, b = -0.08/6; yhat = 4.026667,
 *      r = 0.003333; eq 7-8: SSE = 6.6667e-5, sigma = 0.0081650, 3 sigma = 0.024495  -> joins
 *  sample 5 (5, 6): 4 points: k = 1.011, b = -0.015, yhat = 5.04, r = 0.96 > 3 sigma = 0.017748
 *      -> line 1 = samples 1..4 (k = 1.011, b = -0.015), new line from (4, 4.03)
 *  sample 6 (6, 9): 2 points (4,4.03)-(5,6): k = 1.97, yhat = 7.97, r = 1.03 >= 0.0797
 *      -> alpha test fails: line 2 = samples 4..5, new line from (5, 6)
 *  sample 7 (7, 12): 2 points (5,6)-(6,9): yhat = 12, r = 0 < 0.12 -> joins
 *  sample 8 (8, 15): 3 points exactly on y = 3x - 9: sigma = 0, r = 0, not > 0 -> joins
 *  sample 9 (9, 17.99): sigma = 0, r = 0.01 > 0 -> line 3 = samples 5..8 (k = 3, b = -9)
 *  sample 10 (10, 21): 2 points (8,15)-(9,17.99): yhat = 20.98, r = 0.02 < 0.2098 -> joins
 *  end: line 4 = samples 8..10, k = 3, b = -2701/300.
 * In counts (times y1 = 100): the lines below. */
#include "test_support.h"
#include "pmuscope/olr.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define MAXSEG 64
typedef struct collected {
    pms_olr_segment seg[MAXSEG];
    size_t n;
} collected;

static int collect(const pms_olr_segment *s, void *ctx)
{
    collected *c = ctx;
    if (c->n < MAXSEG) c->seg[c->n] = *s;
    c->n++;
    return 0;
}

static const uint64_t ex_y[10] = {100, 200, 302, 403, 600, 900, 1200, 1500, 1799, 2100};

static void run_wm(const pms_olr_options *opt, size_t n, const uint64_t *x, const uint64_t *y, collected *c)
{
    pms_olr *o;
    memset(c, 0, sizeof *c);
    assert_int_equal(pms_olr_create(&o, opt, collect, c), 0);
    size_t k = opt->ncounters;
    for (size_t i = 0; i < n; i++) assert_int_equal(pms_olr_push(o, x[i], &y[i * k]), 0);
    assert_int_equal(pms_olr_finish(o), 0);
    pms_olr_destroy(o);
}

static void check_seg(const pms_olr_segment *s, uint64_t first, uint64_t count, uint64_t x0, uint64_t x1,
                      double slope, double y0, double y1)
{
    assert_int_equal(s->first, first);
    assert_int_equal(s->count, count);
    assert_int_equal(s->x_first, x0);
    assert_int_equal(s->x_last, x1);
    assert_close(s->slope, slope, 1e-9);
    assert_close(s->y_first, y0, 1e-9);
    assert_close(s->y_last, y1, 1e-9);
}

static void test_paper_procedure_example(void **state)
{
    (void)state;
    uint64_t x[10];
    for (int i = 0; i < 10; i++) x[i] = (uint64_t)i + 1;
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    collected c;
    run_wm(&opt, 10, x, ex_y, &c);
    assert_int_equal(c.n, 4);
    /* line 1: k = 1.011, b = -0.015 (scaled): y = 101.1 x - 1.5 */
    check_seg(&c.seg[0], 0, 4, 1, 4, 101.1, 99.6, 402.9);
    /* sigma of line 1 (eq 7 over 4 points), in counts: sqrt(SSE / 2) * 100 */
    double sse = 0;
    for (int i = 0; i < 4; i++) {
        double r = (double)ex_y[i] / 100 - (1.011 * (i + 1) - 0.015);
        sse += r * r;
    }
    assert_close(c.seg[0].sigma, 100 * sqrt(sse / 2), 1e-6);
    /* line 2: the 2-point line (4, 403)-(5, 600), closed by the alpha test */
    check_seg(&c.seg[1], 3, 2, 4, 5, 197, 403, 600);
    assert_true(c.seg[1].sigma == 0);
    /* line 3: y = 300 x - 900 over samples 5..8, closed by a 0.01 residual at sigma 0 */
    check_seg(&c.seg[2], 4, 4, 5, 8, 300, 600, 1500);
    /* line 4: k = 3, b = -2701/300 (scaled) over samples 8..10 */
    check_seg(&c.seg[3], 7, 3, 8, 10, 300, 300.0 * 8 - 2701.0 / 3, 300.0 * 10 - 2701.0 / 3);
}

static void test_summary_of_example(void **state)
{
    (void)state;
    uint64_t x[10];
    for (int i = 0; i < 10; i++) x[i] = (uint64_t)i + 1;
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    pms_olr *o;
    assert_int_equal(pms_olr_create(&o, &opt, NULL, NULL), 0);
    for (int i = 0; i < 10; i++) assert_int_equal(pms_olr_push(o, x[i], &ex_y[i]), 0);
    assert_int_equal(pms_olr_finish(o), 0);
    pms_olr_summary s;
    assert_int_equal(pms_olr_get_summary(o, 0, &s), 0);
    assert_int_equal(s.samples, 10);
    assert_int_equal(s.segments, 4);
    assert_close(s.reduction, 2.5, 1e-12);
    /* 10 samples of 2 numbers against 4 lines of 3 numbers */
    assert_close(s.bytes_ratio, 20.0 / 12.0, 1e-12);
    /* each sample against the first line that holds it: line 1 (101.1 x - 1.5) misses
     * samples 1-4 by 0.4, -0.7, 0.2, 0.1; lines 2 and 3 fit exactly; line 4 misses
     * samples 9 and 10 by -2/3 and 1/3 */
    assert_close(s.max_abs_error, 0.7, 1e-9);
    assert_close(s.rmse, sqrt((0.16 + 0.49 + 0.04 + 0.01 + 4.0 / 9 + 1.0 / 9) / 10), 1e-9);
    /* MNESD = largest sigma / (2100 - 100): line 4's, sqrt(SSE/1) with residuals 1/3, -2/3, 1/3 */
    assert_close(s.mnesd, sqrt(6.0 / 9.0) / 2000.0, 1e-9);
    pms_olr_destroy(o);
}

/* A first value of 0: the divisor is the first non-zero value, and the flat start
 * (0, 0) fails the alpha test (|yhat| = 0) at the first rise. */
static void test_first_value_zero(void **state)
{
    (void)state;
    uint64_t x[5] = {0, 10, 20, 30, 40}, y[5] = {0, 0, 50, 100, 150};
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    collected c;
    run_wm(&opt, 5, x, y, &c);
    assert_int_equal(c.n, 2);
    check_seg(&c.seg[0], 0, 2, 0, 10, 0, 0, 0);
    check_seg(&c.seg[1], 1, 4, 10, 40, 5, 0, 150);
}

/* Two counters: counter 1 is exactly linear. Together, it breaks where counter 0 does;
 * per counter, it is one line. */
static void test_counters_together_or_apart(void **state)
{
    (void)state;
    uint64_t x[10], y[20];
    for (int i = 0; i < 10; i++) {
        x[i] = (uint64_t)i + 1;
        y[2 * i] = ex_y[i];
        y[2 * i + 1] = 7 * x[i];
    }
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.ncounters = 2;
    collected c;
    run_wm(&opt, 10, x, y, &c);
    assert_int_equal(c.n, 8);
    for (size_t i = 0; i < 8; i++) assert_int_equal(c.seg[i].counter, i % 2);
    check_seg(&c.seg[5], 4, 4, 5, 8, 7, 35, 56);
    opt.per_counter = 1;
    run_wm(&opt, 10, x, y, &c);
    assert_int_equal(c.n, 5);
    check_seg(&c.seg[4], 0, 10, 1, 10, 7, 7, 70);
}

/* The cap on line length closes a line as a break does. */
static void test_max_len(void **state)
{
    (void)state;
    uint64_t x[7], y[7];
    for (int i = 0; i < 7; i++) x[i] = y[i] = (uint64_t)i + 1;
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.max_len = 3;
    collected c;
    run_wm(&opt, 7, x, y, &c);
    /* lines 1-3, 3-5, 5-7 */
    assert_int_equal(c.n, 3);
    check_seg(&c.seg[1], 2, 3, 3, 5, 1, 3, 5);
}

/* The running sums against a direct reading of the paper: k and b by equations 1 and 2
 * and sigma by equation 7 over the stored points of the line, on random noisy ramps
 * (no ties at the thresholds in practice). The same lines must come out. */
static void direct_fit(const double *x, const double *y, size_t a, size_t b, double *k, double *c)
{
    double n = (double)(b - a + 1), sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = a; i <= b; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    *k = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    *c = (sy * sxx - sx * sxy) / (n * sxx - sx * sx);
}

static void test_running_sums_match_direct_formulas(void **state)
{
    (void)state;
    enum { N = 300 };
    uint64_t x[N], y[N], state_ = 12345;
    double xs[N], ys[N];
    for (int t = 0; t < 50; t++) {
        uint64_t yv = 1000;
        for (size_t i = 0; i < N; i++) {
            state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i] = 1000 * (i + 1);
            yv += 50 + (state_ >> 33) % 40 + ((i / 60) % 2) * 200;
            y[i] = yv;
            xs[i] = (double)x[i] / (double)x[0];
            ys[i] = (double)y[i] / (double)y[0];
        }
        /* the paper's procedure, directly */
        size_t starts[N], nl = 0, a = 0;
        for (size_t i = 2; i < N; i++) {
            double k, c;
            direct_fit(xs, ys, a, i - 1, &k, &c);
            double yhat = k * xs[i] + c, r = fabs(ys[i] - yhat);
            bool brk;
            if (i - a == 2) {
                brk = !(r < 0.01 * fabs(yhat));
            } else {
                double sse = 0;
                for (size_t j = a; j < i; j++) sse += (ys[j] - k * xs[j] - c) * (ys[j] - k * xs[j] - c);
                brk = r > 3 * sqrt(sse / (double)(i - a - 2));
            }
            if (brk) {
                starts[nl++] = a;
                a = i - 1;
            }
        }
        starts[nl++] = a;
        pms_olr_options opt;
        pms_olr_options_init(&opt);
        collected c;
        run_wm(&opt, N, x, y, &c);
        assert_int_equal(c.n, nl);
        for (size_t i = 0; i < nl && i < MAXSEG; i++) assert_int_equal(c.seg[i].first, starts[i]);
    }
}

/* Segments decode back to the samples: with a fixed period and eps 0, exactly. */
static void test_decode_round_trip(void **state)
{
    (void)state;
    enum { N = 200 };
    uint64_t x[N], y[N], yv = 7;
    for (size_t i = 0; i < N; i++) {
        x[i] = 5000 * (i + 1);
        yv += (i / 50) % 2 ? 3 : 11;
        y[i] = yv;
    }
    for (int m = 0; m < 2; m++) {
        pms_olr_options opt;
        pms_olr_options_init(&opt);
        opt.method = m ? PMS_OLR_OPT : PMS_OLR_WM;
        collected c;
        run_wm(&opt, N, x, y, &c);
        assert_true(c.n >= 4 && c.n <= 8);
        uint64_t dx[N + 8];
        uint64_t dy[N + 8];
        size_t n = 0;
        for (size_t i = 0; i < c.n; i++) {
            size_t skip = m == 0 && i > 0, cnt = (size_t)c.seg[i].count - skip;
            memcpy(dx + n, x + c.seg[i].first + skip, cnt * sizeof *dx);
            pms_olr_segment_decode(&c.seg[i], dx + n, cnt, dy + n);
            n += cnt;
        }
        assert_int_equal(n, N);
        for (size_t i = 0; i < N; i++) {
            assert_int_equal(dx[i], x[i]);
            assert_int_equal(dy[i], y[i]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_procedure_example),
        cmocka_unit_test(test_summary_of_example),
        cmocka_unit_test(test_first_value_zero),
        cmocka_unit_test(test_counters_together_or_apart),
        cmocka_unit_test(test_max_len),
        cmocka_unit_test(test_running_sums_match_direct_formulas),
        cmocka_unit_test(test_decode_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
