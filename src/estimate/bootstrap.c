/* Bootstrap intervals of the LP, ridge and PCR cycle models: the fitting runs are
 * resampled (case resampling: runs are independent; moving blocks when asked, for
 * runs that are intervals in time order) and the method refitted on each resample. */
#include "estimate/model.h"
#include "pmuscope/estimate_report.h"
#include "util/error.h"

#include <stdlib.h>

typedef struct refit_ctx {
    const pms_estimate_data *d;
    const pms_estimate_options *o;
    size_t method;
    double *cycles, *events; /* the resample */
} refit_ctx;

/* coef[0] the intercept, then every counter's coefficient (0 where the refit leaves it out). */
static void model_coef(const pms_cycle_model *m, double *coef)
{
    coef[0] = m->intercept;
    for (size_t i = 0; i < m->n_counters; i++) coef[1 + i] = m->used[i] ? m->coef[i] : 0.0;
}

static int refit(const size_t *rows, size_t m, void *ctx, double *coef)
{
    refit_ctx *x = ctx;
    size_t n = x->d->n_counters;
    pms_rows_gather(x->d->cycles, 1, rows, m, x->cycles);
    pms_rows_gather(x->d->events, n, rows, m, x->events);
    int rc;
    if (x->method == PMS_EST_LP) {
        pms_lp_fit f;
        if ((rc = pms_lp_fit_runs(x->cycles, x->events, m, n, &f)) == PMS_OK) model_coef(&f.model, coef), pms_lp_fit_free(&f);
    } else if (x->method == PMS_EST_RIDGE) {
        pms_ridge_fit f;
        if ((rc = pms_ridge_fit_runs(x->cycles, x->events, m, n, x->d->names, &f)) == PMS_OK)
            model_coef(&f.model, coef), pms_ridge_fit_free(&f);
    } else {
        pms_pcr_fit f;
        if ((rc = pms_pcr_fit_runs(x->cycles, x->events, m, n, x->d->names, x->o->pcr_share, &f)) == PMS_OK)
            model_coef(&f.model, coef), pms_pcr_fit_free(&f);
    }
    return rc;
}

bool pms_estimate_bootstraps(size_t method)
{
    return method == PMS_EST_LP || method == PMS_EST_RIDGE || method == PMS_EST_PCR;
}

int pms__estimate_bootstrap(const pms_estimate_data *d, const pms_estimate_options *o, size_t method,
                            pms_bootstrap *out)
{
    refit_ctx x = {d, o, method, malloc(d->n_train * sizeof(double)),
                   malloc(d->n_train * (d->n_counters ? d->n_counters : 1) * sizeof(double))};
    int rc = x.cycles && x.events ? pms_bootstrap_run(d->n_train, 1 + d->n_counters, refit, &x, &o->bootstrap, out)
                                  : pms__fail(PMS_ENOMEM, "out of memory");
    free(x.cycles), free(x.events);
    return rc;
}
