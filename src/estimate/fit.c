/* One cycle-estimation method fitted on some runs (the whole comparison, each held-out refit
 * and each bootstrap refit go through here), and the names of the methods. */
#include "pmuscope/estimate_report.h"
#include "estimate/model.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>

void pms__estimate_counters_of(const pms_estimate_data *d, size_t run, double *out)
{
    const double *row = &d->runs->events[run * d->runs->n_counters];
    for (size_t i = 0; i < d->n_counters; i++) out[i] = row[d->counter_col[i]];
}

static const char *const method_keys[PMS_EST_METHODS] = {"lp", "mra", "mracm", "ridge", "pcr", "forward", "nnls", "lasso"};
static const char *const method_labels[PMS_EST_METHODS] = {"LP", "MRA", "MRACM", "ridge", "PCR", "forward", "NNLS", "lasso"};

const char *pms_estimate_method_key(size_t method) { return method < PMS_EST_METHODS ? method_keys[method] : "?"; }
const char *pms_estimate_method_label(size_t method) { return method < PMS_EST_METHODS ? method_labels[method] : "?"; }

static void fail_reason(pms_estimate_result *res)
{
    res->ok = false;
    snprintf(res->reason, sizeof res->reason, "%s", pms_strerror());
}

void pms__estimate_fit(size_t k, const double *c, const double *e, size_t m, size_t n, const char *const *names,
                       const pms_estimate_options *o, pms_estimate_result *r)
{
    int rc = PMS_OK;
    const pms_cycle_model *model = NULL;
    switch (k) {
    case PMS_EST_LP: rc = pms_lp_fit_runs(c, e, m, n, &r->lp), model = &r->lp.model; break;
    case PMS_EST_MRA:
        r->select = o->select_name ? o->select_name : "all";
        rc = pms_mra_fit_runs(c, e, m, n, names, &o->mra, &r->mra), model = &r->mra.model;
        break;
    case PMS_EST_FORWARD: {
        pms_mra_options fo = {.select = PMS_MRA_FORWARD_AIC};
        r->select = "forward";
        rc = pms_mra_fit_runs(c, e, m, n, names, &fo, &r->forward), model = &r->forward.model;
        break;
    }
    case PMS_EST_MRACM:
        rc = pms_mracm_fit_runs(c, e, m, n, names, &o->mracm, &r->mracm), model = &r->mracm.model;
        if (rc == PMS_OK && !r->mracm.applicable) {
            r->ok = false;
            snprintf(r->reason, sizeof r->reason, "not applicable: %s", r->mracm.reason);
            return;
        }
        break;
    case PMS_EST_RIDGE: rc = pms_ridge_fit_runs(c, e, m, n, names, &r->ridge), model = &r->ridge.model; break;
    case PMS_EST_PCR: rc = pms_pcr_fit_runs(c, e, m, n, names, o->pcr_share, &r->pcr), model = &r->pcr.model; break;
    case PMS_EST_NNLS: rc = pms_nnls_fit_runs(c, e, m, n, &r->nnls), model = &r->nnls.model; break;
    case PMS_EST_LASSO: rc = pms_lasso_fit_runs(c, e, m, n, &o->lasso, &r->lasso), model = &r->lasso.model; break;
    default: rc = pms__fail(PMS_EINVAL, "unknown method %zu", k);
    }
    r->ok = rc == PMS_OK;
    if (r->ok) r->model = model;
    else fail_reason(r);
}

void pms__estimate_result_clear(pms_estimate_result *r)
{
    pms_lp_fit_free(&r->lp);
    pms_mra_fit_free(&r->mra);
    pms_mracm_fit_free(&r->mracm);
    pms_ridge_fit_free(&r->ridge);
    pms_pcr_fit_free(&r->pcr);
    pms_mra_fit_free(&r->forward);
    pms_nnls_fit_free(&r->nnls);
    pms_lasso_fit_free(&r->lasso);
    pms_bootstrap_free(&r->boot);
    free(r->heldout), free(r->lower), free(r->upper);
    r->heldout = r->lower = r->upper = NULL;
    r->model = NULL;
}

