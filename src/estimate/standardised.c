/* The standardised design shared by ridge and principal-component regression. */
#include "estimate/standardised.h"
#include "estimate/model.h"
#include "util/error.h"

#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

int pms__std_design_make(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                         const char *method, pms__std_design *s)
{
    memset(s, 0, sizeof *s);
    int rc = pms__estimate_check(cycles, events, m, n, names, 3);
    if (rc != PMS_OK) return rc;
    s->m = m, s->n = n;
    s->mean = malloc(n * sizeof *s->mean), s->sd = malloc(n * sizeof *s->sd);
    s->cols = malloc(n * sizeof *s->cols), s->dropped = malloc(n * sizeof *s->dropped);
    if (!s->mean || !s->sd || !s->cols || !s->dropped) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        s->mean[i] = gsl_stats_mean(events + i, n, m);
        s->sd[i] = gsl_stats_sd_m(events + i, n, m, s->mean[i]);
        if (s->sd[i] > 0) s->cols[s->k++] = i;
        else s->dropped[s->n_dropped++] = i;
    }
    if (s->k == 0) return pms__fail(PMS_EINVAL, "%s: no counter varies over the %zu fitting runs", method, m);
    if (m < s->k + 2)
        return pms__fail(PMS_EINVAL, "%s: %zu fitting runs for %zu varying counters: needs at least %zu runs", method,
                         m, s->k, s->k + 2);
    s->z = gsl_matrix_alloc(m, s->k);
    s->yc = gsl_vector_alloc(m);
    if (!s->z || !s->yc) return pms__fail(PMS_ENOMEM, "out of memory");
    s->ymean = gsl_stats_mean(cycles, 1, m);
    for (size_t j = 0; j < m; j++) {
        gsl_vector_set(s->yc, j, cycles[j] - s->ymean);
        for (size_t a = 0; a < s->k; a++)
            gsl_matrix_set(s->z, j, a, (events[j * n + s->cols[a]] - s->mean[s->cols[a]]) / s->sd[s->cols[a]]);
    }
    return PMS_OK;
}

void pms__std_design_free(pms__std_design *s)
{
    free(s->mean), free(s->sd), free(s->cols), free(s->dropped);
    if (s->z) gsl_matrix_free(s->z);
    if (s->yc) gsl_vector_free(s->yc);
    memset(s, 0, sizeof *s);
}

void pms__std_design_model(const pms__std_design *s, const gsl_vector *b, pms_cycle_model *model, double *std_coef)
{
    model->intercept = s->ymean;
    for (size_t a = 0; a < s->k; a++) {
        size_t i = s->cols[a];
        std_coef[i] = gsl_vector_get(b, a);
        model->coef[i] = std_coef[i] / s->sd[i];
        model->used[i] = true;
        model->intercept -= model->coef[i] * s->mean[i];
    }
    model->n_used = s->k;
}
