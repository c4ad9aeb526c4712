/* The lasso, cross-validation folds, saturated least squares and prediction intervals of the
 * stats module: the optimality conditions of every lasso solution checked here from scratch
 * (glmnet itself is compared in integration/estimate_paper_setting.sh), refusals, and the
 * t interval against its formula with R's qt values. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 30, P = 5 };

/* y = 3 + 2 x0 - x1 + 0.5 x2 + noise; x3 nearly x0 (correlated), x4 constant. */
static void fill(double *x, double *y)
{
    unsigned s = 7;
    for (size_t i = 0; i < N; i++) {
        double u[3];
        for (int k = 0; k < 3; k++) s = s * 1103515245u + 12345u, u[k] = (double)(s >> 8 & 0xffff) / 65536.0;
        x[i * P] = (double)i, x[i * P + 1] = 10 * u[0], x[i * P + 2] = 5 * u[1];
        x[i * P + 3] = (double)i + 0.3 * u[2], x[i * P + 4] = 4;
        y[i] = 3 + 2 * x[i * P] - x[i * P + 1] + 0.5 * x[i * P + 2] + (u[2] - 0.5);
    }
}

/* The conditions that make g the lasso solution at lambda (glmnet's standardised problem):
 * z_j'r / n = lambda sign(g_j) where g_j != 0, |z_j'r| / n <= lambda elsewhere. */
static void assert_kkt(const double *x, const double *y, const double *coef, double lambda)
{
    double r[N], mean[P], sd[P];
    for (size_t j = 0; j < P; j++) {
        mean[j] = sd[j] = 0;
        for (size_t i = 0; i < N; i++) mean[j] += x[i * P + j] / N;
        for (size_t i = 0; i < N; i++) sd[j] += (x[i * P + j] - mean[j]) * (x[i * P + j] - mean[j]) / N;
        sd[j] = sqrt(sd[j]);
    }
    for (size_t i = 0; i < N; i++) {
        r[i] = y[i] - coef[0];
        for (size_t j = 0; j < P; j++) r[i] -= coef[1 + j] * x[i * P + j];
    }
    double rsum = 0;
    for (size_t i = 0; i < N; i++) rsum += r[i];
    assert_true(fabs(rsum) < 1e-6 * N); /* the intercept is not penalised: residuals sum to 0 */
    for (size_t j = 0; j < P; j++) {
        if (sd[j] == 0) {
            assert_true(coef[1 + j] == 0);
            continue;
        }
        double c = 0;
        for (size_t i = 0; i < N; i++) c += (x[i * P + j] - mean[j]) / sd[j] * r[i] / N;
        if (coef[1 + j] != 0) assert_close(c, coef[1 + j] > 0 ? lambda : -lambda, 1e-8);
        else assert_true(fabs(c) <= lambda * (1 + 1e-9));
    }
}

static void test_lasso_path_optimal(void **state)
{
    (void)state;
    double x[N * P], y[N];
    fill(x, y);
    pms_lasso *l;
    assert_int_equal(pms_lasso_path(x, N, P, y, NULL, &l), PMS_OK);
    assert_int_equal(l->nlambda, 100);
    assert_int_equal(l->nonzero[0], 0); /* lambda_max: nothing enters */
    assert_true(l->nonzero[99] >= 3);
    assert_close(l->lambda[99] / l->lambda[0], 1e-4, 1e-9); /* n >= p: glmnet's 1e-4 */
    for (size_t a = 0; a < l->nlambda; a++) {
        if (a) assert_true(l->lambda[a] < l->lambda[a - 1]);
        assert_kkt(x, y, l->coef + a * (P + 1), l->lambda[a]);
    }
    pms_lasso_free(l);
}

static void test_lasso_cv_choice(void **state)
{
    (void)state;
    double x[N * P], y[N];
    fill(x, y);
    pms_lasso_options o = {.nfolds = 5, .seed = 3};
    pms_lasso *l;
    assert_int_equal(pms_lasso_cv(x, N, P, y, &o, &l), PMS_OK);
    assert_true(l->grouped); /* 6 rows a fold */
    size_t seen[6] = {0};
    for (size_t i = 0; i < N; i++) seen[l->foldid[i]]++;
    for (int f = 1; f <= 5; f++) assert_int_equal(seen[f], 6);
    for (size_t a = 0; a < l->nlambda; a++) assert_true(l->cvm[a] >= l->cvm[l->index_min]);
    for (size_t a = 0; a < l->index_min; a++) assert_true(l->cvm[a] > l->cvm[l->index_min]); /* the largest such lambda */
    assert_true(l->index_1se <= l->index_min);
    assert_true(l->cvm[l->index_1se] <= l->cvm[l->index_min] + l->cvsd[l->index_min]);
    for (size_t a = 0; a < l->index_1se; a++) assert_true(l->cvm[a] > l->cvm[l->index_min] + l->cvsd[l->index_min]);
    /* the same seed gives the same folds */
    pms_lasso *again;
    assert_int_equal(pms_lasso_cv(x, N, P, y, &o, &again), PMS_OK);
    assert_memory_equal(l->foldid, again->foldid, N * sizeof *l->foldid);
    pms_lasso_free(again);
    pms_lasso_free(l);
}

static void test_lasso_refusals(void **state)
{
    (void)state;
    double x[N * P], y[N];
    fill(x, y);
    pms_lasso *l = NULL;
    assert_int_equal(pms_lasso_path(x, 1, P, y, NULL, &l), PMS_EINVAL);
    double up[2] = {1, 2};
    pms_lasso_options o = {.nlambda = 2, .lambda = up};
    assert_int_equal(pms_lasso_path(x, N, P, y, &o, &l), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "expected decreasing positive values"));
    double flat[N * P];
    for (size_t k = 0; k < N * P; k++) flat[k] = 2;
    assert_int_equal(pms_lasso_path(flat, N, P, y, NULL, &l), PMS_ENUMERIC);
    if (!strstr(pms_strerror(), "constant")) fail_msg("%s", pms_strerror());
    x[7] = NAN;
    assert_int_equal(pms_lasso_path(x, N, P, y, NULL, &l), PMS_ENUMERIC);
    assert_int_equal(pms_lasso_cv(x, 2, P, y, NULL, &l), PMS_EINVAL);
    assert_null(l);
}

static void test_folds(void **state)
{
    (void)state;
    size_t f[11], g[11];
    assert_int_equal(pms_folds(11, 4, 9, f), PMS_OK);
    assert_int_equal(pms_folds(11, 4, 9, g), PMS_OK);
    assert_memory_equal(f, g, sizeof f);
    size_t count[5] = {0};
    for (int i = 0; i < 11; i++) count[f[i]]++;
    assert_int_equal(count[1], 3), assert_int_equal(count[2], 3), assert_int_equal(count[3], 3), assert_int_equal(count[4], 2);
    assert_int_equal(pms_folds(3, 4, 9, f), PMS_EINVAL);
}

/* As many coefficients as rows: R's lm interpolates (residuals exactly 0, no standard errors). */
static void test_saturated_fit(void **state)
{
    (void)state;
    double x[3 * 2] = {1, 4, 2, 1, 5, 7}, y[3] = {10, 3, 8};
    pms_lm *m = NULL;
    assert_int_equal(pms_lm_fit(x, 3, 2, y, NULL, NULL, &m), PMS_EINVAL);
    pms_lm_options o = {.allow_saturated = true};
    assert_int_equal(pms_lm_fit(x, 3, 2, y, NULL, &o, &m), PMS_OK);
    assert_int_equal(m->df_residual, 0);
    assert_true(m->rss == 0);
    for (int i = 0; i < 3; i++) assert_true(m->residuals[i] == 0), assert_close(m->fitted[i], y[i], 1e-12);
    double pred[3];
    assert_int_equal(pms_lm_predict(m, x, 3, pred), PMS_OK); /* the coefficients do interpolate */
    for (int i = 0; i < 3; i++) assert_close(pred[i], y[i], 1e-9);
    assert_true(isnan(m->sigma) && isnan(m->std_error[1]) && isnan(m->p_value[1]) && isnan(m->adj_r_squared));
    double lo, hi, row[2] = {3, 3};
    assert_int_equal(pms_lm_predict_interval(m, row, 1, 0.9, pred, &lo, &hi), PMS_OK);
    assert_true(isfinite(pred[0]) && isnan(lo) && isnan(hi)); /* R's predict gives NaN bounds */
    pms_lm_free(m);
    o.method = PMS_LM_NNLS; /* only least squares may be saturated */
    assert_int_equal(pms_lm_fit(x, 3, 2, y, NULL, &o, &m), PMS_EINVAL);
}

/* predict.lm's interval: yhat -/+ qt(0.95, 3) sigma sqrt(1 + x0'(X'X)^-1 x0) on y = a + b t. */
static void test_prediction_interval(void **state)
{
    (void)state;
    double t[5] = {1, 2, 3, 4, 5}, y[5] = {2.1, 3.9, 6.2, 7.8, 10.1};
    pms_lm *m;
    assert_int_equal(pms_lm_fit(t, 5, 1, y, NULL, NULL, &m), PMS_OK);
    double x0 = 7, fit, lo, hi;
    assert_int_equal(pms_lm_predict_interval(m, &x0, 1, 0.9, &fit, &lo, &hi), PMS_OK);
    /* (X'X)^-1 quadratic form for an intercept and t: 1/n + (x0 - mean)^2 / Sxx */
    double half = 2.3533634348018246 /* R's qt(0.95, 3) */ * m->sigma * sqrt(1 + 1.0 / 5 + (7 - 3.0) * (7 - 3.0) / 10);
    assert_close(fit, m->coef[0] + 7 * m->coef[1], 1e-12);
    assert_close(hi - fit, half, 1e-9);
    assert_close(fit - lo, half, 1e-9);
    assert_int_equal(pms_lm_predict_interval(m, &x0, 1, 1.5, &fit, &lo, &hi), PMS_EINVAL);
    pms_lm_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lasso_path_optimal), cmocka_unit_test(test_lasso_cv_choice),
        cmocka_unit_test(test_lasso_refusals),     cmocka_unit_test(test_folds),
        cmocka_unit_test(test_saturated_fit),      cmocka_unit_test(test_prediction_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
