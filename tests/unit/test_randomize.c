/* Randomised sampling periods: the pure mapping from a uniform draw, and the
 * distribution of the seeded generator (mean, range, uniformity, determinism). */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/sampler.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

static void test_parse(void **state)
{
    (void)state;
    pms_randomize r;
    assert_int_equal(pms_randomize_parse("mask:12", &r), 0);
    assert_int_equal(r.kind, PMS_RANDOMIZE_MASK);
    assert_int_equal(r.bits, 12);
    assert_int_equal(pms_randomize_parse("exp", &r), 0);
    assert_int_equal(r.kind, PMS_RANDOMIZE_EXP);
    assert_int_equal(pms_randomize_parse("mask:0", &r), PMS_EINVAL);
    assert_int_equal(pms_randomize_parse("mask:33", &r), PMS_EINVAL);
    assert_int_equal(pms_randomize_parse("mask:", &r), PMS_EINVAL);
    assert_int_equal(pms_randomize_parse("mask:8x", &r), PMS_EINVAL);
    assert_int_equal(pms_randomize_parse("gauss", &r), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "expected mask:BITS or exp"));
}

static void test_pure_mapping(void **state)
{
    (void)state;
    pms_randomize mask = {.kind = PMS_RANDOMIZE_MASK, .bits = 8};
    assert_int_equal(pms_randomize_period(&mask, 1000, 0.0), 1000);
    assert_int_equal(pms_randomize_period(&mask, 1000, 0.5), 1128);
    assert_int_equal(pms_randomize_period(&mask, 1000, nextafter(1.0, 0.0)), 1255);
    assert_int_equal(pms_randomize_period(&mask, 1000, 1.0), 1255); /* clamped into [0,1) */
    pms_randomize ex = {.kind = PMS_RANDOMIZE_EXP};
    /* Inverse CDF: the median is base * ln 2, u = 1 - 1/e gives the mean itself. */
    assert_int_equal(pms_randomize_period(&ex, 100000, 0.5), 69315);
    assert_int_equal(pms_randomize_period(&ex, 100000, 1.0 - exp(-1.0)), 100000);
    assert_int_equal(pms_randomize_period(&ex, 100000, 0.0), 1); /* never a zero period */
    pms_randomize none = {.kind = PMS_RANDOMIZE_NONE};
    assert_int_equal(pms_randomize_period(&none, 4242, 0.7), 4242);
}

#define N 200000

static void test_mask_distribution(void **state)
{
    (void)state;
    pms_randomize r = {.kind = PMS_RANDOMIZE_MASK, .bits = 4, .seed = 7};
    pms_period_gen *g;
    assert_int_equal(pms_period_gen_create(&g, &r, 65536), 0);
    double sum = 0;
    unsigned hist[16] = {0};
    for (int i = 0; i < N; i++) {
        uint64_t p = pms_period_gen_next(g);
        assert_true(p >= 65536 && p < 65536 + 16);
        hist[p - 65536]++;
        sum += (double)p;
    }
    pms_period_gen_destroy(g);
    /* Mean of a discrete uniform on [0, 15] is 7.5; sd of the mean is 4.6/sqrt(N) = 0.01. */
    assert_close(sum / N - 65536, 7.5, 0.01);
    /* Pearson's chi-square against the uniform distribution, 15 degrees of freedom. */
    double chi2 = 0, expect = N / 16.0;
    for (int b = 0; b < 16; b++) chi2 += (hist[b] - expect) * (hist[b] - expect) / expect;
    assert_true(gsl_cdf_chisq_Q(chi2, 15) > 0.001);
}

static void test_exp_distribution(void **state)
{
    (void)state;
    pms_randomize r = {.kind = PMS_RANDOMIZE_EXP, .seed = 11};
    pms_period_gen *g;
    const double mean = 100000;
    assert_int_equal(pms_period_gen_create(&g, &r, (uint64_t)mean), 0);
    double sum = 0, sum2 = 0;
    int above_mean = 0, above_3mean = 0;
    for (int i = 0; i < N; i++) {
        double p = (double)pms_period_gen_next(g);
        assert_true(p >= 1);
        sum += p;
        sum2 += p * p;
        above_mean += p > mean;
        above_3mean += p > 3 * mean;
    }
    pms_period_gen_destroy(g);
    double m = sum / N, sd = sqrt(sum2 / N - m * m);
    /* Exponential: sd equals the mean; the sd of the sample mean is mean/sqrt(N) = 0.22%. */
    assert_close(m, mean, 0.01);
    assert_close(sd, mean, 0.02);
    assert_close((double)above_mean / N, exp(-1.0), 0.02);
    assert_close((double)above_3mean / N, exp(-3.0), 0.05);
}

static void test_seeded_determinism(void **state)
{
    (void)state;
    pms_randomize r = {.kind = PMS_RANDOMIZE_EXP, .seed = 42};
    pms_period_gen *a, *b, *c;
    assert_int_equal(pms_period_gen_create(&a, &r, 5000), 0);
    assert_int_equal(pms_period_gen_create(&b, &r, 5000), 0);
    r.seed = 43;
    assert_int_equal(pms_period_gen_create(&c, &r, 5000), 0);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = pms_period_gen_next(a), y = pms_period_gen_next(b), z = pms_period_gen_next(c);
        assert_int_equal(x, y);
        differ += x != z;
    }
    assert_true(differ > 900);
    pms_period_gen_set_base(a, 10);
    assert_true(pms_period_gen_next(a) < 1000); /* the new base applies */
    pms_period_gen_destroy(a);
    pms_period_gen_destroy(b);
    pms_period_gen_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_pure_mapping),
        cmocka_unit_test(test_mask_distribution),
        cmocka_unit_test(test_exp_distribution),
        cmocka_unit_test(test_seeded_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
