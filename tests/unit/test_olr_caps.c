/* olr without caps by default: long segments stay whole (a parabola at eps 1e8 in 8
 * segments, a straight 200k-sample series in 1), opt's segments on long series and on
 * counts near 2^63 start exactly where an exact reference's optimal segments start, and
 * a cap that cuts a segment says so (segment flag and summary count). */
#include "test_support.h"
#include "olr_reference.h"
#include "splitmix.h"
#include "pmuscope/olr.h"

#include <stdlib.h>
#include <string.h>


typedef struct fitted {
    uint64_t *starts;
    size_t n, capped_flags;
    pms_olr_summary sum;
} fitted;

static int collect(const pms_olr_segment *s, void *ctx)
{
    fitted *f = ctx;
    f->starts[f->n++] = s->first;
    f->capped_flags += s->capped != 0;
    return 0;
}

static fitted fit(pms_olr_method m, size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps,
                  const pms_olr_options *base)
{
    pms_olr_options opt;
    if (base) opt = *base;
    else pms_olr_options_init(&opt);
    opt.method = m;
    pms_olr_counter_options c;
    pms_olr_counter_options_init(&c);
    c.eps = (double)eps;
    opt.counters = &c;
    fitted f = {calloc(n, sizeof *f.starts), 0, 0, {0}};
    assert_non_null(f.starts);
    pms_olr *o;
    assert_int_equal(pms_olr_create(&o, &opt, collect, &f), 0);
    for (size_t i = 0; i < n; i++) assert_int_equal(pms_olr_push(o, x[i], &y[i]), 0);
    assert_int_equal(pms_olr_finish(o), 0);
    assert_int_equal(pms_olr_get_summary(o, 0, &f.sum), 0);
    assert_int_equal(f.sum.segments, f.n);
    assert_int_equal(f.sum.capped, f.capped_flags);
    assert_true(f.sum.max_abs_error <= (double)eps || m == PMS_OLR_WM);
    pms_olr_destroy(o);
    return f;
}

/* opt's segments start where the reference's do (both are greedy and optimal). */
static void assert_matches_reference(size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps)
{
    uint64_t *ref = calloc(n, sizeof *ref);
    assert_non_null(ref);
    size_t nref = ref_min_segments(n, x, y, eps, ref);
    assert_true(nref > 0);
    fitted f = fit(PMS_OLR_OPT, n, x, y, eps, NULL);
    if (f.n != nref) fail_msg("opt: %zu segments, the exact optimum %zu (eps %llu, %zu samples)", f.n, nref,
                              (unsigned long long)eps, n);
    for (size_t i = 0; i < nref; i++) assert_int_equal(f.starts[i], ref[i]);
    assert_int_equal(f.sum.capped, 0);
    free(f.starts);
    free(ref);
}

enum { N = 200000 };
static uint64_t xs[N], ys[N];

static void test_parabola_takes_the_optimum(void **state)
{
    (void)state;
    for (size_t i = 0; i < N; i++) {
        xs[i] = i + 1;
        ys[i] = (uint64_t)i * i;
    }
    fitted f = fit(PMS_OLR_OPT, N, xs, ys, 100000000, NULL);
    assert_int_equal(f.n, 8); /* it took 49 under a 4096-point hull cap */
    assert_int_equal(f.sum.capped, 0);
    free(f.starts);
    assert_matches_reference(N, xs, ys, 100000000);
}

static void test_straight_series_is_one_segment(void **state)
{
    (void)state;
    for (size_t i = 0; i < N; i++) {
        xs[i] = 1000 + 20000 * i;
        ys[i] = 7 + 3 * xs[i];
    }
    for (int m = 0; m < 2; m++) {
        fitted f = fit(m ? PMS_OLR_OPT : PMS_OLR_WM, N, xs, ys, 0, NULL);
        assert_int_equal(f.n, 1); /* it took 4 under a 65536-sample length cap */
        assert_int_equal(f.sum.capped, 0);
        assert_true(m ? f.sum.max_abs_error == 0 : f.sum.max_abs_error < 0.5); /* wm: doubles */
        free(f.starts);
    }
}

/* Every cut by a cap is flagged and counted; data breaks are not. */
static void test_caps_are_reported(void **state)
{
    (void)state;
    for (size_t i = 0; i < N; i++) {
        xs[i] = 1000 + 20000 * i;
        ys[i] = 7 + 3 * xs[i];
    }
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.max_len = 65536;
    for (int m = 0; m < 2; m++) {
        fitted f = fit(m ? PMS_OLR_OPT : PMS_OLR_WM, N, xs, ys, 0, &opt);
        assert_int_equal(f.n, 4);
        assert_int_equal(f.sum.capped, 3); /* the last one closed at the end of the stream */
        free(f.starts);
    }
    for (size_t i = 0; i < N; i++) {
        xs[i] = i + 1;
        ys[i] = (uint64_t)i * i;
    }
    pms_olr_options_init(&opt);
    opt.max_hull = 4096;
    fitted f = fit(PMS_OLR_OPT, N, xs, ys, 100000000, &opt);
    assert_int_equal(f.n, 49);
    assert_true(f.sum.capped >= 41); /* at least the cuts beyond the optimum's 8 */
    free(f.starts);
    /* a y span of 2^61 closes a segment: the exact arithmetic's own cap */
    uint64_t x2[3] = {1, 2, 3}, y2[3] = {0, UINT64_C(1) << 60, UINT64_C(1) << 62};
    f = fit(PMS_OLR_OPT, 3, x2, y2, 0, NULL);
    assert_int_equal(f.n, 2);
    assert_int_equal(f.sum.capped, 1);
    free(f.starts);
    /* data breaks are not cuts */
    uint64_t x3[6] = {1, 2, 3, 4, 5, 6}, y3[6] = {0, 1, 2, 10, 20, 30};
    f = fit(PMS_OLR_OPT, 6, x3, y3, 0, NULL);
    assert_int_equal(f.n, 2);
    assert_int_equal(f.sum.capped, 0);
    free(f.starts);
}

/* Long series of several shapes, randomised sampling periods, against the reference. */
static void test_long_series_against_reference(void **state)
{
    (void)state;
    for (int t = 0; t < 12; t++) {
        size_t n = 20000 + below(N - 20000);
        uint64_t period = 1 + below(100000), xv = below(1000), yv = below(1000), rate = below(5000);
        uint64_t eps = t % 4 == 0 ? below(3) : below(20000);
        for (size_t i = 0; i < n; i++) {
            xv += period + below(period / 8 + 1);
            switch (t % 3) {
            case 0: if (below(2000) == 0) rate = below(5000); yv += rate + below(rate / 50 + 1); break;
            case 1: yv += below(400) == 0 ? below(1000000) : below(30); break;
            default: yv += (uint64_t)(1000 + 999 * __builtin_sin((double)i / 3000)); break;
            }
            xs[i] = xv;
            ys[i] = yv;
        }
        assert_matches_reference(n, xs, ys, eps);
    }
}

/* Counts near 2^63 (beyond 2^53 a double rounds them to multiples of up to 1024): the
 * fit must take the same decisions as exact arithmetic. */
static void test_counts_near_2_63_against_reference(void **state)
{
    (void)state;
    for (int t = 0; t < 10; t++) {
        size_t n = 5000 + below(20000);
        uint64_t xv = (UINT64_C(1) << 62) + below(UINT64_C(1) << 40);
        uint64_t yv = (UINT64_C(1) << 63) - 1 - (uint64_t)n * (UINT64_C(1) << 36);
        uint64_t rate = below(UINT64_C(1) << 36), eps = t % 3 == 0 ? below(4) : below(UINT64_C(1) << 30);
        for (size_t i = 0; i < n; i++) {
            xv += 1 + below(1u << 20);
            if (below(500) == 0) rate = below(UINT64_C(1) << 36);
            yv += rate / 2 + below(rate / 2 + 1);
            xs[i] = xv;
            ys[i] = yv;
        }
        assert_matches_reference(n, xs, ys, eps);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parabola_takes_the_optimum),
        cmocka_unit_test(test_straight_series_is_one_segment),
        cmocka_unit_test(test_caps_are_reported),
        cmocka_unit_test(test_long_series_against_reference),
        cmocka_unit_test(test_counts_near_2_63_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
