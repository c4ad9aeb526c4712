/* Principal-component regression (the remedy for multicollinearity that Hattori's
 * paper suggests, PCA): the principal components of the standardised counters
 * (estimate/standardised.h, as R's prcomp(scale. = TRUE)) from GSL's SVD, the
 * fewest leading ones explaining the asked share of variance kept, cycles regressed
 * on their scores, and the coefficients carried back to the counters. */
#include "estimate/model.h"
#include "estimate/standardised.h"
#include "util/error.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <stdlib.h>
#include <string.h>

/* The fewest leading components whose variance (s_j^2) reaches share of the total. */
static size_t components_for(const gsl_vector *s, double share, double *kept_share)
{
    double total = 0, sum = 0;
    for (size_t j = 0; j < s->size; j++) total += gsl_vector_get(s, j) * gsl_vector_get(s, j);
    size_t kk = 0;
    while (kk < s->size && (kk == 0 || sum / total < share)) sum += gsl_vector_get(s, kk) * gsl_vector_get(s, kk), kk++;
    *kept_share = sum / total;
    return kk;
}

/* The scores Z V = U S are orthogonal: regressing yc on the first kk gives
 * gamma_j = u_j'yc / s_j, and the standardised coefficients are b = V_kk gamma. */
static int pcr_solve(const pms__std_design *sd, double share, pms_pcr_fit *f)
{
    size_t m = sd->m, k = sd->k;
    gsl_matrix *u = gsl_matrix_alloc(m, k), *v = gsl_matrix_alloc(k, k);
    gsl_vector *s = gsl_vector_alloc(k), *work = gsl_vector_alloc(k), *b = gsl_vector_calloc(k);
    int rc = u && v && s && work && b ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        gsl_matrix_memcpy(u, sd->z);
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        int st = gsl_linalg_SV_decomp(u, v, s, work);
        gsl_set_error_handler(old);
        if (st != GSL_SUCCESS) rc = pms__fail(PMS_ENUMERIC, "pcr: GSL's SVD failed: %s", gsl_strerror(st));
    }
    if (rc == PMS_OK) {
        f->n_total = k;
        f->n_components = components_for(s, share, &f->kept_share);
        for (size_t j = 0; j < f->n_components; j++) {
            gsl_vector_const_view uj = gsl_matrix_const_column(u, j);
            double dot = 0;
            gsl_blas_ddot(&uj.vector, sd->yc, &dot);
            gsl_vector_const_view vj = gsl_matrix_const_column(v, j);
            gsl_blas_daxpy(dot / gsl_vector_get(s, j), &vj.vector, b);
        }
        pms__std_design_model(sd, b, &f->model, f->std_coef);
    }
    if (b) gsl_vector_free(b);
    if (work) gsl_vector_free(work);
    if (s) gsl_vector_free(s);
    if (v) gsl_matrix_free(v);
    if (u) gsl_matrix_free(u);
    return rc;
}

int pms_pcr_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                     double share, pms_pcr_fit *out)
{
    memset(out, 0, sizeof *out);
    if (share == 0) share = PMS_PCR_SHARE;
    if (!(share > 0 && share <= 1)) return pms__fail(PMS_EINVAL, "pcr: variance share %g: expected (0, 1]", share);
    out->share = share;
    pms__std_design sd;
    int rc = pms__std_design_make(cycles, events, m, n, names, "pcr", &sd);
    if (rc == PMS_OK) rc = pms__cycle_model_alloc(&out->model, n);
    if (rc == PMS_OK && !(out->std_coef = calloc(n, sizeof *out->std_coef))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) rc = pcr_solve(&sd, share, out);
    if (rc == PMS_OK) out->dropped = sd.dropped, out->n_dropped = sd.n_dropped, sd.dropped = NULL;
    pms__std_design_free(&sd);
    if (rc != PMS_OK) pms_pcr_fit_free(out);
    return rc;
}

void pms_pcr_fit_free(pms_pcr_fit *f)
{
    pms_cycle_model_free(&f->model);
    free(f->std_coef), free(f->dropped);
    memset(f, 0, sizeof *f);
}
