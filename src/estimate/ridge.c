/* Ridge cycle model: a remedy for multicollinearity beside NNLS. The counters are
 * standardised (centred, divided by their sd as R's scale()), cycles centred, and
 * the penalty lambda on the standardised coefficients chosen by generalised
 * cross-validation, all with GSL's regularised least squares (SVD, GCV curve and
 * its minimiser). The intercept is not penalised. */
#include "estimate/model.h"
#include "util/error.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RIDGE_GRID 200 /* points of the lambda grid before GSL's GCV minimisation */
/* GSL's own grid (gsl_multifit_linear_gcv) spans the singular values [s_min, s_max]
 * of the design only, and the GCV minimum of counter data often lies below s_min
 * (it did on the ARM intervals: lambda 1.8e-4 chosen, 7e-7 the minimum); this grid
 * runs from s_max down to s_max * RIDGE_GRID_SPAN, near least squares. */
#define RIDGE_GRID_SPAN 1e-8

/* GSL's GCV on the wider grid: GCV curve, then its minimiser (Brent) around the grid minimum. */
static int ridge_gcv(const gsl_vector *y, gsl_vector *reg, gsl_vector *g, double *lambda,
                     gsl_multifit_linear_workspace *w)
{
    gsl_vector *uty = gsl_vector_alloc(w->p);
    if (!uty) return GSL_ENOMEM;
    double delta0 = 0, smax = gsl_vector_get(w->S, 0);
    int s = gsl_multifit_linear_gcv_init(y, reg, uty, &delta0, w);
    for (size_t i = 0; s == GSL_SUCCESS && i < RIDGE_GRID; i++)
        gsl_vector_set(reg, i, smax * pow(RIDGE_GRID_SPAN, (double)i / (RIDGE_GRID - 1)));
    if (s == GSL_SUCCESS) s = gsl_multifit_linear_gcv_curve(reg, uty, delta0, g, w);
    if (s == GSL_SUCCESS) s = gsl_multifit_linear_gcv_min(reg, uty, g, delta0, lambda, w);
    gsl_vector_free(uty);
    return s;
}

/* Column means and sds of the m x n events; the counters with sd > 0 into cols. */
static size_t varying_columns(const double *events, size_t m, size_t n, double *mean, double *sd, size_t *cols)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        mean[i] = gsl_stats_mean(events + i, n, m);
        sd[i] = gsl_stats_sd_m(events + i, n, m, mean[i]);
        if (sd[i] > 0) cols[k++] = i;
    }
    return k;
}

static int ridge_solve(const double *cycles, const double *events, size_t m, size_t n, const double *mean,
                       const double *sd, const size_t *cols, size_t k, pms_ridge_fit *f)
{
    gsl_matrix *z = gsl_matrix_alloc(m, k);
    gsl_vector *y = gsl_vector_alloc(m), *c = gsl_vector_alloc(k);
    gsl_vector *reg = gsl_vector_alloc(RIDGE_GRID), *g = gsl_vector_alloc(RIDGE_GRID);
    gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(m, k);
    int rc = z && y && c && reg && g && w ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    double ymean = gsl_stats_mean(cycles, 1, m), lambda = 0, rnorm = 0, snorm = 0;
    if (rc == PMS_OK) {
        for (size_t j = 0; j < m; j++) {
            gsl_vector_set(y, j, cycles[j] - ymean);
            for (size_t a = 0; a < k; a++)
                gsl_matrix_set(z, j, a, (events[j * n + cols[a]] - mean[cols[a]]) / sd[cols[a]]);
        }
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        int s = gsl_multifit_linear_svd(z, w);
        if (s == GSL_SUCCESS) s = ridge_gcv(y, reg, g, &lambda, w);
        if (s == GSL_SUCCESS) s = gsl_multifit_linear_solve(lambda, z, y, c, &rnorm, &snorm, w);
        gsl_set_error_handler(old);
        if (s != GSL_SUCCESS) rc = pms__fail(PMS_ENUMERIC, "ridge: GSL failed: %s", gsl_strerror(s));
    }
    if (rc == PMS_OK) {
        /* GSL minimises ||y - Zc||^2 + lambda^2 ||c||^2: lambda^2 is the usual ridge penalty */
        f->lambda = lambda * lambda;
        f->df = 0;
        for (size_t a = 0; a < k; a++) {
            double s2 = gsl_vector_get(w->S, a) * gsl_vector_get(w->S, a);
            f->df += s2 / (s2 + f->lambda);
        }
        f->rss = rnorm * rnorm;
        f->gcv = (double)m * f->rss / (((double)m - f->df) * ((double)m - f->df));
        f->model.intercept = ymean;
        for (size_t a = 0; a < k; a++) {
            size_t i = cols[a];
            f->std_coef[i] = gsl_vector_get(c, a);
            f->model.coef[i] = f->std_coef[i] / sd[i];
            f->model.used[i] = true;
            f->model.intercept -= f->model.coef[i] * mean[i];
        }
        f->model.n_used = k;
    }
    gsl_multifit_linear_free(w);
    gsl_vector_free(g), gsl_vector_free(reg), gsl_vector_free(c), gsl_vector_free(y);
    gsl_matrix_free(z);
    return rc;
}

int pms_ridge_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       pms_ridge_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms__estimate_check(cycles, events, m, n, names, 3);
    if (rc != PMS_OK) return rc;
    double *mean = malloc(n * sizeof *mean), *sd = malloc(n * sizeof *sd);
    size_t *cols = malloc(n * sizeof *cols);
    out->std_coef = calloc(n, sizeof *out->std_coef);
    out->dropped = malloc(n * sizeof *out->dropped);
    rc = mean && sd && cols && out->std_coef && out->dropped ? pms__cycle_model_alloc(&out->model, n)
                                                            : pms__fail(PMS_ENOMEM, "out of memory");
    size_t k = rc == PMS_OK ? varying_columns(events, m, n, mean, sd, cols) : 0;
    for (size_t i = 0; rc == PMS_OK && i < n; i++)
        if (!(sd[i] > 0)) out->dropped[out->n_dropped++] = i;
    if (rc == PMS_OK && k == 0) rc = pms__fail(PMS_EINVAL, "ridge: no counter varies over the %zu fitting runs", m);
    /* GSL's SVD wants at least as many rows as columns; centring takes one degree of freedom */
    if (rc == PMS_OK && m < k + 2)
        rc = pms__fail(PMS_EINVAL, "ridge: %zu fitting runs for %zu varying counters: needs at least %zu runs", m, k,
                       k + 2);
    if (rc == PMS_OK) rc = ridge_solve(cycles, events, m, n, mean, sd, cols, k, out);
    free(mean), free(sd), free(cols);
    if (rc != PMS_OK) pms_ridge_fit_free(out);
    return rc;
}

void pms_ridge_fit_free(pms_ridge_fit *f)
{
    pms_cycle_model_free(&f->model);
    free(f->std_coef), free(f->dropped);
    memset(f, 0, sizeof *f);
}
