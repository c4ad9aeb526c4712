/* Ridge cycle model: a remedy for multicollinearity beside NNLS. On the standardised
 * design (estimate/standardised.h) the penalty lambda on the standardised
 * coefficients is chosen by generalised cross-validation, all with GSL's
 * regularised least squares (SVD, GCV curve and its minimiser). The intercept is
 * not penalised. */
#include "estimate/model.h"
#include "estimate/standardised.h"
#include "util/error.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
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

static int ridge_solve(const pms__std_design *sd, pms_ridge_fit *f)
{
    size_t m = sd->m, k = sd->k;
    gsl_vector *c = gsl_vector_alloc(k);
    gsl_vector *reg = gsl_vector_alloc(RIDGE_GRID), *g = gsl_vector_alloc(RIDGE_GRID);
    gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(m, k);
    int rc = c && reg && g && w ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    double lambda = 0, rnorm = 0, snorm = 0;
    if (rc == PMS_OK) {
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        int s = gsl_multifit_linear_svd(sd->z, w);
        if (s == GSL_SUCCESS) s = ridge_gcv(sd->yc, reg, g, &lambda, w);
        if (s == GSL_SUCCESS) s = gsl_multifit_linear_solve(lambda, sd->z, sd->yc, c, &rnorm, &snorm, w);
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
        pms__std_design_model(sd, c, &f->model, f->std_coef);
    }
    if (w) gsl_multifit_linear_free(w);
    if (g) gsl_vector_free(g);
    if (reg) gsl_vector_free(reg);
    if (c) gsl_vector_free(c);
    return rc;
}

int pms_ridge_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       pms_ridge_fit *out)
{
    memset(out, 0, sizeof *out);
    pms__std_design sd;
    int rc = pms__std_design_make(cycles, events, m, n, names, "ridge", &sd);
    if (rc == PMS_OK) rc = pms__cycle_model_alloc(&out->model, n);
    if (rc == PMS_OK && !(out->std_coef = calloc(n, sizeof *out->std_coef))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) rc = ridge_solve(&sd, out);
    if (rc == PMS_OK) out->dropped = sd.dropped, out->n_dropped = sd.n_dropped, sd.dropped = NULL;
    pms__std_design_free(&sd);
    if (rc != PMS_OK) pms_ridge_fit_free(out);
    return rc;
}

void pms_ridge_fit_free(pms_ridge_fit *f)
{
    pms_cycle_model_free(&f->model);
    free(f->std_coef), free(f->dropped);
    memset(f, 0, sizeof *f);
}
