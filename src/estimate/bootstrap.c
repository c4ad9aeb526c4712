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
    pms_estimate_result one = {0};
    pms__estimate_fit(x->method, x->cycles, x->events, m, n, x->d->names, x->o, &one);
    if (one.ok) model_coef(one.model, coef);
    pms__estimate_result_clear(&one);
    return one.ok ? PMS_OK : PMS_ENUMERIC;
}

bool pms_estimate_bootstraps(size_t method)
{
    return method == PMS_EST_LP || method == PMS_EST_RIDGE || method == PMS_EST_PCR || method == PMS_EST_NNLS ||
           method == PMS_EST_LASSO;
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
