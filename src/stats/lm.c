/* Linear models: the fit (OLS by QR or NNLS) and everything summary(lm()) prints,
 * computed with R's formulas (summary.lm) so that the numbers agree with R's. */
#include "pmuscope/stats.h"
#include "stats/design.h"
#include "stats/quantile.h"
#include "util/error.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_lm_free(pms_lm *m)
{
    if (!m) return;
    for (size_t k = 0; m->names && k < m->ncoef; k++) free(m->names[k]);
    free(m->names);
    free(m->coef);
    free(m->std_error);
    free(m->t_value);
    free(m->p_value);
    free(m->cov_unscaled);
    free(m->fitted);
    free(m->residuals);
    free(m->at_bound);
    free(m);
}

static pms_lm *lm_alloc(size_t n, size_t p, bool intercept, const char *const *names, pms_lm_method method)
{
    pms_lm *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    size_t k = p + (intercept ? 1 : 0);
    m->method = method;
    m->has_intercept = intercept;
    m->n = n;
    m->ncoef = k;
    m->names = calloc(k, sizeof *m->names);
    m->coef = calloc(k, sizeof(double));
    m->std_error = calloc(k, sizeof(double));
    m->t_value = calloc(k, sizeof(double));
    m->p_value = calloc(k, sizeof(double));
    m->fitted = calloc(n, sizeof(double));
    m->residuals = calloc(n, sizeof(double));
    if (method == PMS_LM_OLS)
        m->cov_unscaled = calloc(k * k, sizeof(double));
    else
        m->at_bound = calloc(k, sizeof(bool));
    bool ok = m->names && m->coef && m->std_error && m->t_value && m->p_value && m->fitted && m->residuals &&
              (m->cov_unscaled || m->at_bound);
    for (size_t c = 0; ok && c < k; c++) {
        char buf[32];
        const char *nm = intercept && c == 0 ? "(Intercept)" : pms_stats_colname(names, c - (intercept ? 1 : 0), buf, sizeof buf);
        ok = (m->names[c] = strdup(nm)) != NULL;
    }
    if (!ok) {
        pms_lm_free(m);
        return NULL;
    }
    return m;
}

/* OLS by Householder QR: coef = R^-1 Q'y, (X'X)^-1 = R^-1 R^-T. */
static int fit_ols(const gsl_matrix *design, const double *x, size_t p, const double *y, const char *const *names,
                   double tol, pms_lm *m)
{
    size_t n = design->size1, k = design->size2;
    gsl_matrix *qr, *t;
    int rc = pms_design_qr(design, &qr, &t);
    if (rc < 0) return rc;
    if (pms_qr_rank_deficient(design, qr, tol)) {
        gsl_matrix_free(qr);
        gsl_matrix_free(t);
        return pms_fail_aliased(x, n, p, m->has_intercept, tol, names);
    }
    gsl_vector *qty = gsl_vector_alloc(n), *work = gsl_vector_alloc(k);
    gsl_matrix *rinv = gsl_matrix_alloc(k, k);
    if (!qty || !work || !rinv) {
        rc = pms_fail(PMS_ENOMEM, "out of memory fitting %zu x %zu", n, k);
        goto done;
    }
    memcpy(qty->data, y, n * sizeof(double));
    gsl_linalg_QR_QTvec_r(qr, t, qty, work);
    gsl_vector_view b = gsl_vector_view_array(m->coef, k);
    gsl_vector_const_view qty_head = gsl_vector_const_subvector(qty, 0, k);
    gsl_vector_memcpy(&b.vector, &qty_head.vector);
    gsl_matrix_const_view r = gsl_matrix_const_submatrix(qr, 0, 0, k, k);
    gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &r.matrix, &b.vector);

    /* (X'X)^-1 = R^-1 R^-T from the inverted triangle */
    gsl_matrix_set_zero(rinv);
    for (size_t a = 0; a < k; a++)
        for (size_t c = a; c < k; c++) gsl_matrix_set(rinv, a, c, gsl_matrix_get(qr, a, c));
    gsl_linalg_tri_invert(CblasUpper, CblasNonUnit, rinv);
    for (size_t a = 0; a < k; a++)
        for (size_t c = a; c < k; c++) {
            double s = 0;
            for (size_t l = c; l < k; l++) s += gsl_matrix_get(rinv, a, l) * gsl_matrix_get(rinv, c, l);
            m->cov_unscaled[a * k + c] = m->cov_unscaled[c * k + a] = s;
        }
done:
    gsl_vector_free(qty);
    gsl_vector_free(work);
    gsl_matrix_free(rinv);
    gsl_matrix_free(qr);
    gsl_matrix_free(t);
    return rc;
}

static int fit_nnls(const gsl_matrix *design, const double *y, pms_lm *m)
{
    double rnorm;
    int rc = pms_nnls(design->data, design->size1, design->size2, y, 0, m->coef, &rnorm);
    if (rc < 0) return rc;
    for (size_t c = 0; c < m->ncoef; c++) m->at_bound[c] = m->coef[c] == 0.0;
    return PMS_OK;
}

/* The statistics of summary.lm from the coefficients, as R computes them. */
static void summarise(const gsl_matrix *design, const double *y, pms_lm *m)
{
    size_t n = m->n, k = m->ncoef;
    gsl_vector_const_view b = gsl_vector_const_view_array(m->coef, k);
    gsl_vector_view f = gsl_vector_view_array(m->fitted, n);
    gsl_blas_dgemv(CblasNoTrans, 1.0, design, &b.vector, 0.0, &f.vector);
    double rss = 0, fmean = 0, ymean = 0;
    for (size_t i = 0; i < n; i++) {
        m->residuals[i] = y[i] - m->fitted[i];
        rss += m->residuals[i] * m->residuals[i];
        fmean += m->fitted[i];
        ymean += y[i];
    }
    fmean /= (double)n;
    ymean /= (double)n;
    size_t df_int = m->has_intercept ? 1 : 0;
    m->df_residual = n - k;
    m->rss = rss;
    double rdf = (double)m->df_residual;
    double resvar = rss / rdf;
    m->sigma = sqrt(resvar);
    pms_quantiles_type7(m->residuals, n, m->resid_quantiles);

    double mss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = m->method == PMS_LM_OLS ? m->fitted[i] - (df_int ? fmean : 0) : y[i] - (df_int ? ymean : 0);
        mss += d * d;
    }
    if (m->method == PMS_LM_OLS) {
        /* summary.lm: mss from the fitted values, R2 = mss / (mss + rss) */
        m->r_squared = mss / (mss + rss);
        m->adj_r_squared = 1 - (1 - m->r_squared) * ((double)(n - df_int) / rdf);
        if (k > df_int) {
            m->f_df1 = (double)(k - df_int);
            m->f_df2 = rdf;
            m->f_statistic = (mss / m->f_df1) / resvar;
            m->f_p_value = gsl_cdf_fdist_Q(m->f_statistic, m->f_df1, m->f_df2);
        } else {
            m->f_statistic = m->f_df1 = m->f_df2 = m->f_p_value = NAN;
        }
        for (size_t c = 0; c < k; c++) {
            m->std_error[c] = sqrt(m->cov_unscaled[c * k + c] * resvar);
            m->t_value[c] = m->coef[c] / m->std_error[c];
            m->p_value[c] = 2 * gsl_cdf_tdist_Q(fabs(m->t_value[c]), rdf);
        }
    } else {
        /* NNLS: no sampling distribution for constrained estimates; R2 against the
         * (centred when there is an intercept) total sum of squares */
        m->r_squared = 1 - rss / mss;
        m->adj_r_squared = 1 - (1 - m->r_squared) * ((double)(n - df_int) / rdf);
        m->f_statistic = m->f_df1 = m->f_df2 = m->f_p_value = NAN;
        for (size_t c = 0; c < k; c++) m->std_error[c] = m->t_value[c] = m->p_value[c] = NAN;
    }
}

int pms_lm_fit(const double *x, size_t n, size_t p, const double *y, const char *const *names,
               const pms_lm_options *opt, pms_lm **out)
{
    pms_lm_options o = opt ? *opt : (pms_lm_options){0};
    double tol = o.tol > 0 ? o.tol : 1e-7;
    bool intercept = !o.no_intercept;
    size_t k = p + (intercept ? 1 : 0);
    if (o.method != PMS_LM_OLS && o.method != PMS_LM_NNLS) return pms_fail(PMS_EINVAL, "unknown fitting method %d", (int)o.method);
    if (k == 0) return pms_fail(PMS_EINVAL, "a model needs at least one coefficient (no columns and no intercept)");
    if (n <= k)
        return pms_fail(PMS_EINVAL,
                        "%zu rows for %zu coefficients: a fit needs more rows than coefficients "
                        "(residual degrees of freedom would be %s)",
                        n, k, n == k ? "0" : "negative");
    int rc = pms_stats_check_finite(x, n, p, y, names);
    if (rc < 0) return rc;
    gsl_matrix *design = pms_design_matrix(x, n, p, intercept);
    pms_lm *m = lm_alloc(n, p, intercept, names, o.method);
    if (!design || !m) {
        rc = pms_fail(PMS_ENOMEM, "out of memory for a %zu x %zu model", n, k);
        goto fail;
    }
    if (o.method == PMS_LM_OLS)
        rc = fit_ols(design, x, p, y, names, tol, m);
    else
        rc = fit_nnls(design, y, m);
    if (rc < 0) goto fail;
    summarise(design, y, m);
    gsl_matrix_free(design);
    *out = m;
    return PMS_OK;
fail:
    gsl_matrix_free(design);
    pms_lm_free(m);
    return rc;
}

int pms_lm_predict(const pms_lm *m, const double *x, size_t n, double *yhat)
{
    size_t k0 = m->has_intercept ? 1 : 0, p = m->ncoef - k0;
    int rc = pms_stats_check_finite(x, n, p, NULL, (const char *const *)m->names + k0);
    if (rc < 0) return rc;
    for (size_t i = 0; i < n; i++) {
        double s = k0 ? m->coef[0] : 0.0;
        for (size_t j = 0; j < p; j++) s += m->coef[k0 + j] * x[i * p + j];
        yhat[i] = s;
    }
    return PMS_OK;
}
