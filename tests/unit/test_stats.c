/* The stats module on hand-computed examples and on designs it must refuse. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *names3[] = {"a", "b", "c"};

/* y = 1 + 2a - b exactly, plus c: a design of full rank. */
static void fill(double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double a = (double)i, b = (double)((i * 7) % 5), c = (double)((i * i) % 11);
        x[i * 3] = a, x[i * 3 + 1] = b, x[i * 3 + 2] = c;
        y[i] = 1 + 2 * a - b + 0.5 * c;
    }
}

static void test_exact_fit_recovers_coefficients(void **s)
{
    (void)s;
    double x[60], y[20];
    fill(x, y, 20);
    pms_lm *m;
    assert_int_equal(pms_lm_fit(x, 20, 3, y, names3, NULL, &m), PMS_OK);
    assert_close(m->coef[0], 1, 1e-10);
    assert_close(m->coef[1], 2, 1e-10);
    assert_close(m->coef[2], -1, 1e-10);
    assert_close(m->coef[3], 0.5, 1e-10);
    assert_string_equal(m->names[0], "(Intercept)");
    assert_string_equal(m->names[3], "c");
    assert_int_equal(m->df_residual, 16);
    double pred[1], row[3] = {10, 3, 4};
    assert_int_equal(pms_lm_predict(m, row, 1, pred), PMS_OK);
    assert_close(pred[0], 1 + 20 - 3 + 2, 1e-10);
    pms_lm_free(m);
}

static void test_rank_deficient_names_columns(void **s)
{
    (void)s;
    double x[80], y[20];
    fill(x, y, 20);
    /* c := a + b: the third column is a combination of the first two */
    for (size_t i = 0; i < 20; i++) x[i * 3 + 2] = x[i * 3] + x[i * 3 + 1];
    pms_lm *m = NULL;
    assert_int_equal(pms_lm_fit(x, 20, 3, y, names3, NULL, &m), PMS_ENUMERIC);
    assert_null(m);
    assert_non_null(strstr(pms_strerror(), "'c' is a linear combination"));
    size_t al[3], nal;
    assert_int_equal(pms_lm_aliased(x, 20, 3, true, 0, al, &nal), PMS_OK);
    assert_int_equal(nal, 1);
    assert_int_equal(al[0], 2);
}

static void test_constant_column(void **s)
{
    (void)s;
    double x[60], y[20];
    fill(x, y, 20);
    for (size_t i = 0; i < 20; i++) x[i * 3 + 1] = 4.0;
    pms_lm *m;
    assert_int_equal(pms_lm_fit(x, 20, 3, y, names3, NULL, &m), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "'b' is constant (collinear with the intercept)"));
    double norm[60];
    memcpy(norm, x, sizeof norm);
    assert_int_equal(pms_normalize_minmax(norm, 20, 3, names3, NULL, NULL), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "column 'b' is constant"));
    assert_memory_equal(norm, x, sizeof norm); /* left unchanged */
    double cor[9];
    assert_int_equal(pms_correlation(x, 20, 3, names3, cor), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "'b' is constant"));
}

static void test_fewer_rows_than_columns(void **s)
{
    (void)s;
    double x[60], y[20];
    fill(x, y, 20);
    pms_lm *m;
    assert_int_equal(pms_lm_fit(x, 3, 3, y, names3, NULL, &m), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "3 rows for 4 coefficients"));
    assert_int_equal(pms_lm_fit(x, 4, 3, y, names3, NULL, &m), PMS_EINVAL);
}

static void test_nan_cell_named(void **s)
{
    (void)s;
    double x[60], y[20];
    fill(x, y, 20);
    x[7 * 3 + 1] = NAN;
    pms_lm *m;
    assert_int_equal(pms_lm_fit(x, 20, 3, y, names3, NULL, &m), PMS_ENUMERIC);
    assert_string_equal(pms_strerror(), "row 8, column 'b': expected a finite number, found nan");
    fill(x, y, 20);
    y[3] = INFINITY;
    assert_int_equal(pms_lm_fit(x, 20, 3, y, names3, NULL, &m), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "row 4 of the response"));
}

/* Rows beyond the fit's first blocks of rows: integer weights w_i give the
 * coefficients and residual sum of squares of the unweighted fit of the table
 * with row i repeated w_i times, and a value that is not finite far into the
 * table is named as in the first rows. */
static void test_weights_equal_repeated_rows(void **s)
{
    (void)s;
    enum { N = 9000 };
    double *x = malloc(3 * N * sizeof *x), *y = malloc(N * sizeof *y), *w = malloc(N * sizeof *w);
    double *xr = malloc(3 * 3 * N * sizeof *xr), *yr = malloc(3 * N * sizeof *yr);
    assert_non_null(x), assert_non_null(y), assert_non_null(w), assert_non_null(xr), assert_non_null(yr);
    fill(x, y, N);
    size_t nr = 0;
    for (size_t i = 0; i < N; i++) {
        y[i] += (double)((i * 7919) % 13) - 6; /* not an exact fit */
        w[i] = (double)(1 + i % 3);
        for (int c = 0; c < (int)w[i]; c++, nr++) {
            memcpy(xr + 3 * nr, x + 3 * i, 3 * sizeof *x);
            yr[nr] = y[i];
        }
    }
    pms_lm *mw, *mr;
    assert_int_equal(pms_lm_fit(x, N, 3, y, names3, &(pms_lm_options){.weights = w}, &mw), PMS_OK);
    assert_int_equal(pms_lm_fit(xr, nr, 3, yr, names3, NULL, &mr), PMS_OK);
    for (size_t k = 0; k < 4; k++) assert_close(mw->coef[k], mr->coef[k], 1e-10);
    assert_close(mw->rss, mr->rss, 1e-10);
    pms_lm_free(mw), pms_lm_free(mr);
    x[5000 * 3 + 1] = INFINITY;
    assert_int_equal(pms_lm_fit(x, N, 3, y, names3, &(pms_lm_options){.weights = w}, &mw), PMS_ENUMERIC);
    assert_string_equal(pms_strerror(), "row 5001, column 'b': expected a finite number, found inf");
    free(x), free(y), free(w), free(xr), free(yr);
}

/* Lawson & Hanson by hand: min ||Ax - b|| with x >= 0 where the unconstrained
 * solution has a negative component. A = [1 0; 0 1; 1 1], b = (2, -1, 1):
 * unconstrained x = (5/3, -4/3)... constrained: x2 = 0, x1 = (2 + 1)/2 = 1.5. */
static void test_nnls_by_hand(void **s)
{
    (void)s;
    double a[] = {1, 0, 0, 1, 1, 1}, b[] = {2, -1, 1}, x[2], rnorm;
    assert_int_equal(pms_nnls(a, 3, 2, b, 0, x, &rnorm), PMS_OK);
    assert_close(x[0], 1.5, 1e-14);
    assert_true(x[1] == 0);
    assert_close(rnorm, sqrt(0.25 + 1 + 0.25), 1e-14);
    /* an interior solution equals least squares */
    double b2[] = {1, 2, 3.2};
    assert_int_equal(pms_nnls(a, 3, 2, b2, 0, x, &rnorm), PMS_OK);
    assert_close(x[0], (2 * 1 - 2 + 3.2) / 3, 1e-13);
    assert_close(x[1], (2 * 2 - 1 + 3.2) / 3, 1e-13);
}

static void test_split_is_reproducible(void **s)
{
    (void)s;
    size_t tr1[100], te1[100], tr2[100], te2[100], n1, m1, n2, m2;
    assert_int_equal(pms_split(100, 0.8, 1234, tr1, &n1, te1, &m1), PMS_OK);
    assert_int_equal(pms_split(100, 0.8, 1234, tr2, &n2, te2, &m2), PMS_OK);
    assert_int_equal(n1, 80);
    assert_int_equal(m1, 20);
    assert_memory_equal(tr1, tr2, sizeof(size_t) * 80);
    assert_memory_equal(te1, te2, sizeof(size_t) * 20);
    bool seen[100] = {0};
    for (size_t i = 0; i < 80; i++) seen[tr1[i]] = true;
    for (size_t i = 0; i < 20; i++) {
        assert_false(seen[te1[i]]);
        seen[te1[i]] = true;
        if (i) assert_true(te1[i] > te1[i - 1]);
    }
    assert_int_equal(pms_split(100, 0.8, 99, tr2, &n2, te2, &m2), PMS_OK);
    assert_true(memcmp(tr1, tr2, sizeof(size_t) * 80) != 0);
    assert_int_equal(pms_split(100, 1.5, 1, tr2, &n2, te2, &m2), PMS_EINVAL);
}

static void test_normalisation_and_errors(void **s)
{
    (void)s;
    double x[] = {1, 10, 3, 30, 5, 20}, lo[2], hi[2];
    assert_int_equal(pms_normalize_minmax(x, 3, 2, NULL, lo, hi), PMS_OK);
    assert_close(x[0], 0, 0);
    assert_close(x[2], 0.5, 1e-15);
    assert_close(x[3], 1, 1e-15);
    assert_close(x[5], 0.5, 1e-15);
    assert_close(lo[1], 10, 0);
    assert_close(hi[1], 30, 0);
    double z[] = {2, 4, 6}, mean, sd;
    assert_int_equal(pms_normalize_zscore(z, 3, 1, NULL, &mean, &sd), PMS_OK);
    assert_close(mean, 4, 1e-15);
    assert_close(sd, 2, 1e-15);
    assert_close(z[2], 1, 1e-15);
    double y[] = {1, 2, 4}, yh[] = {1.5, 2, 3};
    assert_close(pms_rmse(y, yh, 3), sqrt((0.25 + 1) / 3), 1e-15);
    assert_close(pms_mae(y, yh, 3), 0.5, 1e-15);
    double mape;
    assert_int_equal(pms_mape(y, yh, 3, &mape), PMS_OK);
    assert_close(mape, 100 * (0.5 + 0.25) / 3, 1e-14);
    y[1] = 0;
    assert_int_equal(pms_mape(y, yh, 3, &mape), PMS_ENUMERIC);
}

static void test_vif_of_collinear_columns(void **s)
{
    (void)s;
    double x[60], y[20], vif[3];
    fill(x, y, 20);
    assert_int_equal(pms_vif(x, 20, 3, names3, vif), PMS_OK);
    for (int j = 0; j < 3; j++) assert_true(vif[j] >= 1);
    for (size_t i = 0; i < 20; i++) x[i * 3 + 2] = 2 * x[i * 3] - x[i * 3 + 1];
    assert_int_equal(pms_vif(x, 20, 3, names3, vif), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "'c' is a linear combination"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_fit_recovers_coefficients),
        cmocka_unit_test(test_rank_deficient_names_columns),
        cmocka_unit_test(test_constant_column),
        cmocka_unit_test(test_fewer_rows_than_columns),
        cmocka_unit_test(test_nan_cell_named),
        cmocka_unit_test(test_weights_equal_repeated_rows),
        cmocka_unit_test(test_nnls_by_hand),
        cmocka_unit_test(test_split_is_reproducible),
        cmocka_unit_test(test_normalisation_and_errors),
        cmocka_unit_test(test_vif_of_collinear_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
