/* The tests of a difference that `pmuscope diff` makes (two proportions, Welch's t, the
 * Wilcoxon rank sum, Benjamini-Hochberg) against R's prop.test, t.test, wilcox.test and
 * p.adjust on the same numbers: seeded random cases written to CSV files, which
 * tests/fixtures/stats/difference_reference.R recomputes in R and compares. A case made
 * wrong on purpose must be caught. */
#include "test_support.h"
#include "splitmix.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double uniform(void) { return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0; }
static double normal(void) { return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform()); }

static void put(FILE *f, double v, const char *sep) { v != v ? fprintf(f, "NA%s", sep) : fprintf(f, "%.17g%s", v, sep); }

/* Runs the R script on the files; expect 0 (agree) or 1 (a disagreement). */
static int r_check(const char *mode, const char *cases, const char *values)
{
    return pms_test_system("Rscript '%s' %s '%s' %s%s%s", pms_test_fixture("stats/difference_reference.R"), mode,
                           cases, values ? "'" : "", values ? values : "", values ? "'" : "");
}

static void require_rscript(void)
{
    if (pms_test_system("command -v Rscript >/dev/null") != 0)
        fail_msg("Rscript (r-base-core) is needed: scripts/install-deps.sh installs it");
}

/* A binomial draw: Bernoulli trials up to 2000, the normal approximation above. */
static uint64_t binomial(uint64_t n, double p)
{
    if (n <= 2000) {
        uint64_t k = 0;
        for (uint64_t i = 0; i < n; i++) k += uniform() < p;
        return k;
    }
    double k = round((double)n * p + sqrt((double)n * p * (1 - p)) * normal());
    return k < 0 ? 0 : k > (double)n ? n : (uint64_t)k;
}

static void test_prop_test_matches_r(void **state)
{
    (void)state;
    require_rscript();
    const char *path = pms_test_write_temp(".csv", "", 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "x1,n1,x2,n2,level,correct,statistic,p,low,high\n");
    static const uint64_t sizes[] = {5, 40, 300, 5000, 120000, 3000000};
    static const double shares[] = {0, 0.001, 0.02, 0.2, 0.5, 0.97, 1};
    size_t cases = 0;
    for (int i = 0; i < 400; i++) {
        uint64_t n1 = sizes[below(6)] + below(50), n2 = sizes[below(6)] + below(50);
        double p1 = shares[below(7)], p2 = below(3) ? p1 : shares[below(7)];
        uint64_t x1 = binomial(n1, p1), x2 = binomial(n2, p2);
        if (x1 + x2 == 0 || x1 + x2 == n1 + n2) continue; /* R's p is NaN there: tested below */
        double level = below(2) ? 0.95 : 0.9;
        bool correct = below(2);
        pms_test_result r;
        assert_int_equal(pms_prop_test2(&r, x1, n1, x2, n2, level, correct), PMS_OK);
        fprintf(f, "%llu,%llu,%llu,%llu,%g,%d,", (unsigned long long)x1, (unsigned long long)n1,
                (unsigned long long)x2, (unsigned long long)n2, level, correct);
        put(f, r.statistic, ",");
        put(f, r.p_value, ",");
        put(f, r.ci_low, ",");
        put(f, r.ci_high, "\n");
        cases++;
    }
    fclose(f);
    assert_true(cases > 300);
    assert_int_equal(r_check("prop", path, NULL), 0);
    /* one p-value moved by a part in a million must be caught */
    assert_int_equal(pms_test_system("awk -F, -v OFS=, 'NR == 5 { $8 = $8 * 1.000001 } 1' '%s' > '%s.bad'", path, path),
                     0);
    char bad[300];
    snprintf(bad, sizeof bad, "%s.bad", path);
    assert_int_equal(r_check("prop", bad, NULL), 1);
    remove(bad);
    remove(path);

    pms_test_result r;
    assert_int_equal(pms_prop_test2(&r, 0, 10, 0, 20, 0.95, true), PMS_OK);
    assert_true(isnan(r.p_value)); /* as R: no samples in the row on either side */
    assert_int_equal(pms_prop_test2(&r, 11, 10, 0, 20, 0.95, true), PMS_EINVAL);
    assert_int_equal(pms_prop_test2(&r, 1, 0, 0, 20, 0.95, true), PMS_EINVAL);
}

/* Writes the result's fields named by letters (statistic, df, p, low, high, estimate), then
 * the two sides of case id into the values file. */
static void put_case(FILE *cases, FILE *values, int id, const pms_test_result *r, const char *fields, const double *x,
                     size_t nx, const double *y, size_t ny)
{
    for (const char *c = fields; *c; c++) {
        double v = *c == 's' ? r->statistic : *c == 'd' ? r->df : *c == 'p' ? r->p_value : *c == 'l' ? r->ci_low
                 : *c == 'h' ? r->ci_high : r->estimate;
        put(cases, v, c[1] ? "," : "\n");
    }
    for (size_t i = 0; i < nx + ny; i++) {
        fprintf(values, "%d,%s,", id, i < nx ? "x" : "y");
        put(values, i < nx ? x[i] : y[i - nx], "\n");
    }
}

static void test_welch_matches_r(void **state)
{
    (void)state;
    require_rscript();
    const char *cases_path = pms_test_write_temp(".csv", "", 0), *values_path = pms_test_write_temp(".csv", "", 0);
    FILE *cases = fopen(cases_path, "w"), *values = fopen(values_path, "w");
    assert_true(cases && values);
    fprintf(cases, "id,level,floor_x,floor_y,statistic,df,p,low,high\n");
    fprintf(values, "id,side,value\n");
    for (int id = 1; id <= 200; id++) {
        size_t nx = 2 + below(20), ny = 2 + below(20);
        double x[32], y[32], scale = below(2) ? 1e-3 : 50, shift = below(3) == 0 ? 0 : scale * normal();
        for (size_t i = 0; i < nx; i++) x[i] = 0.3 + shift + scale * (below(4) ? 1 : 3) * normal();
        for (size_t i = 0; i < ny; i++) y[i] = 0.3 + scale * normal();
        double level = below(2) ? 0.95 : 0.99;
        /* a third with floors on the means' variances: one side's, the other's or both */
        double floor_x = id % 3 == 0 && id % 2 ? scale * scale * 0.1 : 0, floor_y = id % 3 == 0 && id % 4 ? scale * scale : 0;
        pms_test_result r;
        assert_int_equal(pms_welch_test_floored(&r, x, nx, y, ny, level, floor_x, floor_y), PMS_OK);
        fprintf(cases, "%d,%g,%.17g,%.17g,", id, level, floor_x, floor_y);
        put_case(cases, values, id, &r, "sdplh", x, nx, y, ny);
    }
    fclose(cases);
    fclose(values);
    assert_int_equal(r_check("welch", cases_path, values_path), 0);
    remove(cases_path);
    remove(values_path);

    pms_test_result r;
    const double c[] = {0.25, 0.25, 0.25}, one[] = {1};
    assert_int_equal(pms_welch_test(&r, c, 3, c, 3, 0.95), PMS_ENUMERIC); /* R: "data are essentially constant" */
    /* constant data with a floor: a known variance, the normal distribution */
    const double d[] = {0.5, 0.5, 0.5};
    assert_int_equal(pms_welch_test_floored(&r, d, 3, c, 3, 0.95, 0.01, 0.01), PMS_OK);
    assert_true(isinf(r.df));
    assert_close(r.p_value, erfc(0.25 / sqrt(0.02) / sqrt(2)), 1e-14);
    assert_int_equal(pms_welch_test(&r, one, 1, c, 3, 0.95), PMS_EINVAL);
}

static void test_wilcox_matches_r(void **state)
{
    (void)state;
    require_rscript();
    const char *cases_path = pms_test_write_temp(".csv", "", 0), *values_path = pms_test_write_temp(".csv", "", 0);
    FILE *cases = fopen(cases_path, "w"), *values = fopen(values_path, "w");
    assert_true(cases && values);
    fprintf(cases, "id,level,exact,statistic,p,low,high,estimate\n");
    fprintf(values, "id,side,value\n");
    size_t exact = 0, approx = 0;
    for (int id = 1; id <= 240; id++) {
        /* mostly small samples (exact), some of 50 or more, some with ties (rounded) */
        size_t nx = 1 + below(id % 5 == 0 ? 70 : 14), ny = 1 + below(id % 7 == 0 ? 70 : 14);
        if (nx + ny < 3) nx = 2;
        double x[80], y[80], shift = below(3) == 0 ? 0 : normal(), grid = id % 3 == 0 ? 0.5 : 0;
        for (size_t i = 0; i < nx; i++) x[i] = 20 + shift + normal();
        for (size_t i = 0; i < ny; i++) y[i] = 20 + normal();
        for (size_t i = 0; grid && i < nx; i++) x[i] = round(x[i] / grid) * grid;
        for (size_t i = 0; grid && i < ny; i++) y[i] = round(y[i] / grid) * grid;
        bool all_tied = true;
        for (size_t i = 0; i < nx + ny; i++) all_tied &= (i < nx ? x[i] : y[i - nx]) == x[0];
        if (all_tied) continue; /* R has no interval then */
        double level = below(2) ? 0.95 : 0.9;
        pms_test_result r;
        assert_int_equal(pms_rank_sum_test(&r, x, nx, y, ny, level), PMS_OK);
        r.exact ? exact++ : approx++;
        fprintf(cases, "%d,%g,%d,", id, level, r.exact);
        put_case(cases, values, id, &r, "splhe", x, nx, y, ny);
    }
    fclose(cases);
    fclose(values);
    assert_true(exact > 50 && approx > 50);
    assert_int_equal(r_check("wilcox", cases_path, values_path), 0);
    /* an interval's end moved to the next difference must be caught */
    assert_int_equal(pms_test_system("awk -F, -v OFS=, 'NR == 4 { $6 = $6 + 0.01 } 1' '%s' > '%s.bad'", cases_path,
                                     cases_path), 0);
    char bad[300];
    snprintf(bad, sizeof bad, "%s.bad", cases_path);
    assert_int_equal(r_check("wilcox", bad, values_path), 1);
    remove(bad);
    remove(cases_path);
    remove(values_path);
}

static void test_wilcoxon_exact_distribution(void **state)
{
    (void)state;
    /* 3 against 3: U = 0 in 1 of C(6, 3) = 20 orders, U <= 1 in 2, U <= 4 in 10 (R's pwilcox) */
    assert_close(pms_wilcoxon_cdf(0, 3, 3), 0.05, 1e-15);
    assert_close(pms_wilcoxon_cdf(1, 3, 3), 0.10, 1e-15);
    assert_close(pms_wilcoxon_cdf(4, 3, 3), 0.50, 1e-15);
    assert_close(pms_wilcoxon_cdf(9, 3, 3), 1, 1e-15);
    /* 10 against 10: the smallest two-sided p is 2 / C(20, 10) */
    assert_close(2 * pms_wilcoxon_cdf(0, 10, 10), 2.0 / 184756, 1e-12);
    assert_true(isnan(pms_wilcoxon_cdf(1, 0, 3)));
}

static void test_bh_matches_r(void **state)
{
    (void)state;
    require_rscript();
    const char *path = pms_test_write_temp(".csv", "", 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "id,p,q\n");
    for (int id = 1; id <= 60; id++) {
        size_t n = 1 + below(40);
        double p[48], q[48];
        for (size_t i = 0; i < n; i++) {
            int kind = (int)below(10);
            p[i] = kind == 0 ? NAN : kind == 1 ? 1 : kind == 2 && i ? p[i - 1] /* ties */
                 : kind < 5 ? pow(uniform(), 8) : uniform();
        }
        assert_int_equal(pms_p_adjust_bh(q, p, n), PMS_OK);
        for (size_t i = 0; i < n; i++) {
            fprintf(f, "%d,", id);
            put(f, p[i], ",");
            put(f, q[i], "\n");
        }
    }
    fclose(f);
    assert_int_equal(r_check("bh", path, NULL), 0);
    remove(path);
    /* in place, on a case worked by hand: 4/1 x 0.01, min(4/3 x 0.04, 4/2 x 0.03), ..., 0.2 */
    double p[] = {0.01, 0.04, 0.03, 0.2};
    assert_int_equal(pms_p_adjust_bh(p, p, 4), PMS_OK);
    assert_close(p[0], 0.04, 1e-15);
    assert_close(p[1], 0.04 * 4 / 3, 1e-15);
    assert_close(p[2], 0.04 * 4 / 3, 1e-15);
    assert_close(p[3], 0.2, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prop_test_matches_r),   cmocka_unit_test(test_welch_matches_r),
        cmocka_unit_test(test_wilcox_matches_r),      cmocka_unit_test(test_wilcoxon_exact_distribution),
        cmocka_unit_test(test_bh_matches_r),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
