/* Linear models: the fit (OLS by LAPACK's QR, or NNLS) and everything summary(lm()) prints,
 * computed with R's formulas (summary.lm) so that the numbers agree with R's. */
#include "pmuscope/stats.h"
#include "stats/design.h"
#include "stats/quantile.h"
#include "util/error.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <lapack.h>
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
    free(m->weights);
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
        const char *nm = intercept && c == 0 ? "(Intercept)" : pms__stats_colname(names, c - (intercept ? 1 : 0), buf, sizeof buf);
        ok = (m->names[c] = strdup(nm)) != NULL;
    }
    if (!ok) {
        pms_lm_free(m);
        return NULL;
    }
    return m;
}

/* Column top.. of the block: count values src[0], src[stride], ... times the
 * square roots of the weights sw (NULL: unweighted); returns their sum of squares. */
static double fill_column(double *col, const double *src, size_t stride, const double *sw, size_t count)
{
    double ss = 0;
    for (size_t r = 0; r < count; r++) {
        double v = sw ? sw[r] * src[r * stride] : src[r * stride];
        col[r] = v;
        ss += v * v;
    }
    return ss;
}

/* Fills rows [first, first + count) of the augmented matrix [1 x y] into rows
 * top.. of the column-major block a (leading dimension lda), a column at a time
 * (sequential writes; the rows of x being read stay in cache), and adds their
 * squares to the column sums of squares (which a value that is not finite makes
 * infinite or NaN: the fit checks the data on the way, not in a pass of its own).
 * sw: count scratch values for the square roots of the weights (w not NULL). */
static void fill_block(double *a, size_t lda, size_t top, const double *x, size_t p, const double *y, const double *w,
                       bool intercept, size_t first, size_t count, double *colss, double *sw)
{
    size_t k0 = intercept ? 1 : 0;
    for (size_t r = 0; w && r < count; r++) sw[r] = sqrt(w[first + r]); /* weighted least squares: rows times sqrt(w) */
    if (intercept) {
        double one = 1.0;
        colss[0] += fill_column(a + top, &one, 0, w ? sw : NULL, count);
    }
    for (size_t j = 0; j < p; j++)
        colss[k0 + j] += fill_column(a + (k0 + j) * lda + top, x + first * p + j, p, w ? sw : NULL, count);
    colss[k0 + p] += fill_column(a + (k0 + p) * lda + top, y + first, 1, w ? sw : NULL, count);
}

/* rows per block: the block (and the rows of x it is filled from) stay in a core's L2 cache
 * (the fit took 15% less CPU time than at 16384 rows) */
enum { OLS_BLOCK = 4096 };

/* OLS by Householder QR of the augmented matrix [X y], a block of rows at a
 * time: LAPACK's QR (dgeqrf, OpenBLAS's single-threaded build) of [R; next rows] updates R (a
 * tall-skinny QR), the same orthogonal factorisation as one QR of the whole
 * matrix, without a copy of it. R = [R_xx r_xy; 0 r_yy]: coef = R_xx^-1 r_xy and
 * (X'X)^-1 = R_xx^-1 R_xx^-T. */
static int fit_ols(const double *x, size_t n, size_t p, const double *y, const double *w, const char *const *names,
                   double tol, pms_lm *m)
{
    bool checked = false; /* the data were found finite (squares that overflowed) */
    size_t k = m->ncoef, K = k + 1, bsize = n < OLS_BLOCK ? n : OLS_BLOCK, lda = bsize + K;
    lapack_int nrow = (lapack_int)lda, ncol = (lapack_int)K, ld = (lapack_int)lda, lwork = -1, info = 0;
    double query = 0, *blk = malloc(lda * K * sizeof *blk), *tau = malloc(K * sizeof *tau), *work = NULL;
    gsl_matrix *r = gsl_matrix_calloc(K, K);
    double *colss = calloc(K, sizeof *colss), *sw = w ? malloc(bsize * sizeof *sw) : NULL;
    int rc = PMS_OK;
    if (blk && tau) LAPACK_dgeqrf(&nrow, &ncol, blk, &ld, tau, &query, &lwork, &info); /* workspace size */
    lwork = (lapack_int)query;
    work = malloc((size_t)(lwork > 0 ? lwork : 1) * sizeof *work);
    if (!blk || !tau || !work || !r || !colss || (w && !sw)) {
        rc = pms__fail(PMS_ENOMEM, "out of memory fitting %zu x %zu", n, k);
        goto done;
    }
    size_t first = 0;
    bool have_r = false;
    while (info == 0 && first < n) {
        size_t top = have_r ? K : 0, count = n - first < bsize ? n - first : bsize;
        for (size_t c = 0; have_r && c < K; c++) /* [R; next rows]: R's column c, zeros below its diagonal */
            for (size_t a = 0; a < K; a++) blk[c * lda + a] = a <= c ? gsl_matrix_get(r, a, c) : 0.0;
        fill_block(blk, lda, top, x, p, y, w, m->has_intercept, first, count, colss, sw);
        /* a saturated fit has fewer rows than [X y] has columns: rows of zeros complete the
         * square (they change no column's projection, so not the factor) */
        for (size_t a = top + count; a < K; a++)
            for (size_t c = 0; c < K; c++) blk[c * lda + a] = 0.0;
        for (size_t j = 0; !checked && j < K; j++)
            if (!isfinite(colss[j])) {
                if ((rc = pms__stats_check_finite(x, n, p, y, names)) < 0) goto done;
                checked = true;
            }
        nrow = (lapack_int)(top + count > K ? top + count : K);
        LAPACK_dgeqrf(&nrow, &ncol, blk, &ld, tau, work, &lwork, &info);
        for (size_t a = 0; a < K; a++)
            for (size_t c = 0; c < K; c++) gsl_matrix_set(r, a, c, c >= a ? blk[c * lda + a] : 0.0);
        have_r = true;
        first += count;
    }
    if (info != 0) {
        rc = pms__fail(PMS_ENUMERIC, "QR decomposition failed: LAPACK's dgeqrf returned %d", (int)info);
        goto done;
    }
    /* R's dqrdc2 test: a column whose part orthogonal to the earlier ones is
     * at most tol times its norm is aliased */
    for (size_t j = 0; j < k; j++)
        if (fabs(gsl_matrix_get(r, j, j)) <= tol * sqrt(colss[j])) {
            rc = pms__fail_aliased(x, n, p, m->has_intercept, tol, names);
            goto done;
        }
    gsl_matrix_view rxx = gsl_matrix_submatrix(r, 0, 0, k, k);
    gsl_vector_view b = gsl_vector_view_array(m->coef, k);
    for (size_t a = 0; a < k; a++) m->coef[a] = gsl_matrix_get(r, a, k);
    gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &rxx.matrix, &b.vector);
    gsl_linalg_tri_invert(CblasUpper, CblasNonUnit, &rxx.matrix);
    for (size_t a = 0; a < k; a++)
        for (size_t c = a; c < k; c++) {
            double s = 0;
            for (size_t l = c; l < k; l++) s += gsl_matrix_get(r, a, l) * gsl_matrix_get(r, c, l);
            m->cov_unscaled[a * k + c] = m->cov_unscaled[c * k + a] = s;
        }
done:
    free(blk);
    free(tau);
    free(work);
    if (r) gsl_matrix_free(r);
    free(colss);
    free(sw);
    return rc;
}

static int fit_nnls(const double *x, size_t n, size_t p, const double *y, const double *w, pms_lm *m)
{
    gsl_matrix *design = pms__design_matrix(x, n, p, m->has_intercept);
    double *yw = w ? malloc(n * sizeof *yw) : NULL;
    if (!design || (w && !yw)) {
        gsl_matrix_free(design);
        return pms__fail(PMS_ENOMEM, "out of memory for a %zu x %zu design", n, m->ncoef);
    }
    for (size_t i = 0; w && i < n; i++) {
        gsl_vector_view row = gsl_matrix_row(design, i);
        gsl_vector_scale(&row.vector, sqrt(w[i]));
        yw[i] = sqrt(w[i]) * y[i];
    }
    double rnorm;
    int rc = pms_nnls(design->data, design->size1, design->size2, w ? yw : y, 0, m->coef, &rnorm);
    gsl_matrix_free(design);
    free(yw);
    if (rc < 0) return rc;
    for (size_t c = 0; c < m->ncoef; c++) m->at_bound[c] = m->coef[c] == 0.0;
    return PMS_OK;
}

static inline double predict_row(const pms_lm *m, const double *xi, size_t k0, size_t p)
{
    double s = k0 ? m->coef[0] : 0.0;
    for (size_t j = 0; j < p; j++) s += m->coef[k0 + j] * xi[j];
    return s;
}

static void predict_rows(const pms_lm *m, const double *x, size_t n, double *yhat)
{
    size_t k0 = m->has_intercept ? 1 : 0, p = m->ncoef - k0;
    for (size_t i = 0; i < n; i++) yhat[i] = predict_row(m, x + i * p, k0, p);
}

/* The statistics of summary.lm from the coefficients, as R computes them; with
 * weights w, from the weighted residuals sqrt(w) r and weighted means as R does. */
static int summarise(const double *x, const double *y, const double *w, pms_lm *m)
{
    size_t n = m->n, k = m->ncoef, df_int = m->has_intercept ? 1 : 0, p = k - df_int;
    if (w) {
        if (!(m->weights = malloc(n * sizeof *m->weights))) return pms__fail(PMS_ENOMEM, "out of memory");
        memcpy(m->weights, w, n * sizeof *w);
    }
    /* one pass over the data: fitted values, residuals and the sums */
    double rss = 0, fmean = 0, ymean = 0, wsum = 0, fsum = 0;
    /* a saturated fit interpolates: R's QR leaves no residual effects, so its residuals are
     * exactly 0 and the fitted values the response */
    bool saturated = n == k;
    for (size_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0, f = saturated ? y[i] : predict_row(m, x + i * p, df_int, p), r = y[i] - f;
        double wr = w ? sqrt(wi) * r : r;
        m->fitted[i] = f;
        m->residuals[i] = r;
        rss += wr * wr;
        fmean += wi * f;
        ymean += wi * y[i];
        wsum += wi;
        fsum += f;
    }
    fmean /= wsum;
    ymean /= wsum;
    m->df_residual = n - k;
    m->rss = rss;
    double rdf = (double)m->df_residual;
    double resvar = rss / rdf;
    m->sigma = sqrt(resvar);
    /* one pass over the fitted values: the model sum of squares and R's mean(f)^2 + var(f)
     * (unweighted) for the perfect-fit test */
    double fm = fsum / (double)n, fvar = 0, mss = 0;
    for (size_t i = 0; i < n; i++) {
        double f = m->fitted[i];
        double d = m->method == PMS_LM_OLS ? f - (df_int ? fmean : 0) : y[i] - (df_int ? ymean : 0);
        mss += (w ? w[i] : 1.0) * d * d;
        fvar += (f - fm) * (f - fm);
    }
    fvar = n > 1 ? fvar / (double)(n - 1) : 0;
    m->perfect_fit = isfinite(resvar) && resvar < (fm * fm + fvar) * 1e-30;
    if (m->method == PMS_LM_OLS) {
        /* summary.lm: mss from the fitted values, R2 = mss / (mss + rss) */
        m->r_squared = mss / (mss + rss);
        m->adj_r_squared = 1 - (1 - m->r_squared) * ((double)(n - df_int) / rdf);
        if (k > df_int) {
            m->f_df1 = (double)(k - df_int);
            m->f_df2 = rdf;
            m->f_statistic = (mss / m->f_df1) / resvar;
            m->f_p_value = pms_f_p_value(m->f_statistic, m->f_df1, m->f_df2);
        } else {
            m->f_statistic = m->f_df1 = m->f_df2 = m->f_p_value = NAN;
        }
        for (size_t c = 0; c < k; c++) {
            m->std_error[c] = sqrt(m->cov_unscaled[c * k + c] * resvar);
            m->t_value[c] = m->coef[c] / m->std_error[c];
            m->p_value[c] = pms_t_p_value(m->t_value[c], rdf);
        }
    } else {
        /* NNLS, ridge: no sampling distribution for constrained or shrunk estimates; R2 against the
         * (centred when there is an intercept) total sum of squares */
        m->r_squared = 1 - rss / mss;
        m->adj_r_squared = 1 - (1 - m->r_squared) * ((double)(n - df_int) / rdf);
        m->f_statistic = m->f_df1 = m->f_df2 = m->f_p_value = NAN;
        for (size_t c = 0; c < k; c++) m->std_error[c] = m->t_value[c] = m->p_value[c] = NAN;
    }
    return PMS_OK;
}

int pms_lm_fit(const double *x, size_t n, size_t p, const double *y, const char *const *names,
               const pms_lm_options *opt, pms_lm **out)
{
    pms_lm_options o = opt ? *opt : (pms_lm_options){0};
    double tol = o.tol > 0 ? o.tol : 1e-7;
    bool intercept = !o.no_intercept;
    size_t k = p + (intercept ? 1 : 0);
    if (o.method == PMS_LM_RIDGE)
        return pms__fail(PMS_EINVAL, "ridge regression is fitted by pms_ridge_fit_runs, then summarised by pms_lm_from_coef");
    if (o.method != PMS_LM_OLS && o.method != PMS_LM_NNLS) return pms__fail(PMS_EINVAL, "unknown fitting method %d", (int)o.method);
    if (k == 0) return pms__fail(PMS_EINVAL, "a model needs at least one coefficient (no columns and no intercept)");
    bool saturated_ok = o.allow_saturated && o.method == PMS_LM_OLS && n == k;
    if (n <= k && !saturated_ok)
        return pms__fail(PMS_EINVAL,
                        "%zu rows for %zu coefficients: a fit needs more rows than coefficients "
                        "(residual degrees of freedom would be %s)",
                        n, k, n == k ? "0" : "negative");
    int rc = PMS_OK;
    /* OLS checks the data on its way into the QR */
    if (o.method != PMS_LM_OLS && (rc = pms__stats_check_finite(x, n, p, y, names)) < 0) return rc;
    for (size_t i = 0; o.weights && i < n; i++)
        if (!(o.weights[i] > 0) || !isfinite(o.weights[i]))
            return pms__fail(PMS_EINVAL, "weight of row %zu is %g: weights must be finite and positive", i + 1, o.weights[i]);
    pms_lm *m = lm_alloc(n, p, intercept, names, o.method);
    if (!m) return pms__fail(PMS_ENOMEM, "out of memory for a %zu x %zu model", n, k);
    if (o.method == PMS_LM_OLS)
        rc = fit_ols(x, n, p, y, o.weights, names, tol, m);
    else
        rc = fit_nnls(x, n, p, y, o.weights, m);
    if (rc == PMS_OK) rc = summarise(x, y, o.weights, m);
    if (rc < 0) {
        pms_lm_free(m);
        return rc;
    }
    *out = m;
    return PMS_OK;
}

int pms_lm_resid_quantiles(const pms_lm *m, double q[5])
{
    if (!m->weights) return pms__quantiles_type7(m->residuals, m->n, q);
    double *wres = malloc(m->n * sizeof *wres);
    if (!wres) return pms__fail(PMS_ENOMEM, "out of memory for the residual quantiles");
    for (size_t i = 0; i < m->n; i++) wres[i] = sqrt(m->weights[i]) * m->residuals[i];
    int rc = pms__quantiles_type7(wres, m->n, q);
    free(wres);
    return rc;
}

int pms_lm_from_coef(const double *x, size_t n, size_t p, const double *y, const char *const *names,
                     pms_lm_method method, const double *coef, pms_lm **out)
{
    if (method == PMS_LM_OLS) return pms__fail(PMS_EINVAL, "an OLS summary comes from pms_lm_fit");
    if (n <= p + 1) return pms__fail(PMS_EINVAL, "%zu rows for %zu coefficients: a summary needs more rows", n, p + 1);
    int rc = pms__stats_check_finite(x, n, p, y, names);
    if (rc < 0) return rc;
    pms_lm *m = lm_alloc(n, p, true, names, method);
    if (!m) return pms__fail(PMS_ENOMEM, "out of memory for a %zu x %zu model", n, p + 1);
    memcpy(m->coef, coef, (p + 1) * sizeof *coef);
    if ((rc = summarise(x, y, NULL, m)) < 0) {
        pms_lm_free(m);
        return rc;
    }
    *out = m;
    return PMS_OK;
}

int pms_lm_predict(const pms_lm *m, const double *x, size_t n, double *yhat)
{
    size_t k0 = m->has_intercept ? 1 : 0, p = m->ncoef - k0;
    int rc = pms__stats_check_finite(x, n, p, NULL, (const char *const *)m->names + k0);
    if (rc < 0) return rc;
    predict_rows(m, x, n, yhat);
    return PMS_OK;
}

int pms_lm_predict_interval(const pms_lm *m, const double *x, size_t n, double level, double *yhat, double *lower,
                            double *upper)
{
    if (m->method != PMS_LM_OLS || !m->cov_unscaled)
        return pms__fail(PMS_EINVAL, "prediction intervals are those of a least-squares fit");
    if (!(level > 0 && level < 1)) return pms__fail(PMS_EINVAL, "level %g: expected a value in (0, 1)", level);
    int rc = pms_lm_predict(m, x, n, yhat);
    if (rc < 0 || (!lower && !upper)) return rc;
    size_t k = m->ncoef, k0 = m->has_intercept ? 1 : 0, p = k - k0;
    double s2 = m->sigma * m->sigma;
    /* R's qt((1 + level) / 2, df); with no residual degrees of freedom sigma is NaN, and so are the bounds */
    double q = m->df_residual > 0 ? gsl_cdf_tdist_Pinv((1 + level) / 2, (double)m->df_residual) : NAN;
    double row[k];
    for (size_t i = 0; i < n; i++) {
        if (k0) row[0] = 1.0;
        memcpy(row + k0, x + i * p, p * sizeof *row);
        double quad = 0;
        for (size_t a = 0; a < k; a++)
            for (size_t c = 0; c < k; c++) quad += row[a] * m->cov_unscaled[a * k + c] * row[c];
        double half = q * sqrt(s2 + s2 * quad);
        if (lower) lower[i] = yhat[i] - half;
        if (upper) upper[i] = yhat[i] + half;
    }
    return PMS_OK;
}
