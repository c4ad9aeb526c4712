/* The JSON report of a cycle-estimation comparison: every number of the text report, the
 * held-out error before the fit error. */
#include "estimate/report_internal.h"
#include "pmuscope/json.h"
#include "pmuscope/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const criterion_keys[PMS_MRACM_CRITERIA] = {"fit", "loo", "partial"};

/* The held-out estimates of the fitting runs, and how they were made. */
static void json_heldout(pms_json *j, const pms_estimate_data *d, const pms_estimate_result *r)
{
    char buf[32];
    pms_json_key(j, "heldout");
    pms_json_object_begin(j);
    pms_json_kv_string(j, "scheme", r->folds ? pms__report_folds_name(d, r, buf, sizeof buf) : "none");
    pms_json_kv_uint(j, "folds", r->folds);
    pms_json_kv_uint(j, "failed", r->heldout_failed);
    if (r->heldout_reason[0]) pms_json_kv_string(j, "reason", r->heldout_reason);
    pms_json_key(j, "runs");
    pms_json_array_begin(j);
    for (size_t a = 0; r->heldout && a < d->n_train; a++) {
        double c = d->cycles[a];
        pms_json_object_begin(j);
        pms_json_kv_string(j, "run", d->runs->labels[d->train[a]]);
        pms_json_kv_double(j, "measured", c);
        pms_json_kv_number(j, "estimate", r->heldout[a], "the refit without this run failed");
        pms_json_kv_number(j, "error_pct", pms_estimate_error_pct(r->heldout[a], c), "the refit without this run failed");
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    pms_json_object_end(j);
}

/* A bound of a prediction interval: a number, or null with why. */
static void json_bound(pms_json *j, const char *key, double v)
{
    pms_json_kv_number(j, key, v, isinf(v) ? "unbounded: too few fitting runs for the level" : "no interval");
}

static void json_model(pms_json *j, const pms_estimate_data *d, const pms_estimate_result *r)
{
    const pms_cycle_model *m = r->model;
    pms_json_kv_uint(j, "counters", m->n_used);
    pms_json_kv_number(j, "heldout_mean_abs_error_pct", r->heldout_error_pct, "no refit without a fitting run succeeded");
    pms_json_kv_number(j, "test_mean_abs_error_pct", pms__report_test_error(d, m), "no test runs");
    pms_json_kv_double(j, "fit_mean_abs_error_pct", pms__report_fit_error(d, m));
    pms_json_kv_double(j, "intercept", m->intercept);
    pms_json_key(j, "coefficients");
    pms_json_object_begin(j);
    for (size_t i = 0; i < d->n_counters; i++)
        if (m->used[i]) pms_json_kv_double(j, d->names[i], m->coef[i]);
    pms_json_object_end(j);
    pms_json_kv_double(j, "level", r->level);
    pms_json_key(j, "test");
    pms_json_array_begin(j);
    for (size_t t = 0; t < d->n_test; t++) {
        size_t run = d->test[t];
        pms_json_object_begin(j);
        pms_json_kv_string(j, "run", d->runs->labels[run]);
        pms_json_kv_double(j, "measured", d->runs->cycles[run]);
        pms_json_kv_double(j, "estimate", pms__report_estimate(d, m, run));
        pms_json_kv_double(j, "error_pct", pms__report_error(d, m, run));
        json_bound(j, "lower", r->lower ? r->lower[t] : NAN);
        json_bound(j, "upper", r->upper ? r->upper[t] : NAN);
        pms_json_kv_string(j, "interval", pms__report_interval_name(r->interval));
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    json_heldout(j, d, r);
}

static void json_names(pms_json *j, const char *key, const pms_estimate_data *d, const size_t *idx, size_t n)
{
    pms_json_key(j, key);
    pms_json_array_begin(j);
    for (size_t k = 0; k < n; k++) pms_json_string(j, d->names[idx[k]]);
    pms_json_array_end(j);
}

static void json_mra(pms_json *j, const pms_estimate_data *d, const pms_estimate_result *r, const pms_mra_fit *f)
{
    pms_json_kv_string(j, "select", r->select);
    pms_json_key(j, "aliased");
    pms_json_array_begin(j);
    for (size_t a = 0; a < f->n_aliased; a++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "counter", d->names[f->dropped[a]]);
        pms_json_kv_string(j, "reason", pms__report_alias_reason(f->alias_reason[a]));
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    json_names(j, "collinear_left_out", d, f->dropped, f->n_aliased);
    if (f->n_added) {
        json_names(j, "forward_added", d, f->added, f->n_added);
        json_names(j, "never_added", d, f->dropped, f->n_dropped);
    } else {
        json_names(j, "stepwise_removed", d, f->dropped + f->n_aliased, f->n_dropped - f->n_aliased);
    }
    pms_json_kv_uint(j, "df_residual", f->lm->df_residual);
    pms_json_kv_double(j, "r_squared", f->lm->r_squared);
    pms_json_kv_number(j, "adj_r_squared", f->lm->adj_r_squared, "no residual degrees of freedom");
    pms_json_kv_number(j, "aic", f->aic, isinf(f->aic) ? "none finite: the residuals are all 0" : NULL);
}

static void json_lasso(pms_json *j, const pms_lasso_fit *f)
{
    pms_json_kv_double(j, "lambda", f->lambda);
    if (!f->path) return;
    const pms_lasso *p = f->path;
    pms_json_kv_string(j, "lambda_choice", f->lambda == p->lambda[p->index_min] ? "lambda.min" : "lambda.1se");
    pms_json_kv_double(j, "lambda_min", p->lambda[p->index_min]);
    pms_json_kv_double(j, "lambda_1se", p->lambda[p->index_1se]);
    pms_json_kv_uint(j, "folds", p->nfolds);
    pms_json_kv_bool(j, "grouped", p->grouped);
    pms_json_key(j, "foldid");
    pms_json_array_begin(j);
    for (size_t i = 0; i < p->n; i++) pms_json_uint(j, p->foldid[i]);
    pms_json_array_end(j);
    pms_json_key(j, "path");
    pms_json_array_begin(j);
    for (size_t a = 0; a < p->nlambda; a++) {
        pms_json_object_begin(j);
        pms_json_kv_double(j, "lambda", p->lambda[a]);
        pms_json_kv_double(j, "cvm", p->cvm[a]);
        pms_json_kv_double(j, "cvsd", p->cvsd[a]);
        pms_json_kv_uint(j, "nonzero", p->nonzero[a]);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

static void json_method_details(pms_json *j, const pms_estimate_data *d, size_t k, const pms_estimate_result *r)
{
    if (k == PMS_EST_LP) {
        pms_json_kv_double(j, "objective", r->lp.objective);
        pms_json_key(j, "tight");
        pms_json_array_begin(j);
        for (size_t a = 0; a < r->lp.n_runs; a++)
            if (r->lp.tight[a]) pms_json_string(j, d->runs->labels[d->train[a]]);
        pms_json_array_end(j);
        json_names(j, "constant_left_out", d, r->lp.dropped, r->lp.n_dropped);
    } else if (k == PMS_EST_MRA || k == PMS_EST_FORWARD) {
        json_mra(j, d, r, k == PMS_EST_MRA ? &r->mra : &r->forward);
    } else if (k == PMS_EST_NNLS) {
        pms_json_kv_double(j, "rss", r->nnls.rss);
    } else if (k == PMS_EST_LASSO) {
        json_lasso(j, &r->lasso);
    } else if (k == PMS_EST_RIDGE) {
        pms_json_kv_double(j, "lambda", r->ridge.lambda);
        pms_json_kv_double(j, "df", r->ridge.df);
        pms_json_kv_double(j, "rss", r->ridge.rss);
        pms_json_kv_double(j, "gcv", r->ridge.gcv);
        json_names(j, "constant_left_out", d, r->ridge.dropped, r->ridge.n_dropped);
    } else if (k == PMS_EST_PCR) {
        pms_json_kv_uint(j, "components", r->pcr.n_components);
        pms_json_kv_uint(j, "components_total", r->pcr.n_total);
        pms_json_kv_double(j, "variance_share", r->pcr.kept_share);
        pms_json_kv_double(j, "variance_share_asked", r->pcr.share);
        json_names(j, "constant_left_out", d, r->pcr.dropped, r->pcr.n_dropped);
    }
    if (k != PMS_EST_MRACM || !r->mracm.correlation) return;
    const pms_mracm_fit *f = &r->mracm;
    pms_json_key(j, "correlation");
    pms_json_object_begin(j);
    for (size_t i = 0; i < d->n_counters; i++) pms_json_kv_double(j, d->names[i], f->correlation[i]);
    pms_json_object_end(j);
    pms_json_kv_string(j, "procedure", f->procedure == PMS_MRACM_PAPER ? "paper" : "thresholds");
    pms_json_kv_string(j, "criterion", criterion_keys[f->criterion]);
    if (f->n_held_out) {
        pms_json_kv_uint(j, "held_out", f->n_held_out);
        pms_json_kv_uint(j, "seed", f->seed);
    }
    if (f->procedure == PMS_MRACM_PAPER) {
        pms_json_key(j, "selected");
        pms_json_array_begin(j);
        for (size_t i = 0; i < d->n_counters; i++)
            if (f->selected[i]) pms_json_string(j, d->names[i]);
        pms_json_array_end(j);
        if (f->low != PMS_MRACM_NONE) pms_json_kv_string(j, "lowest_selected", d->names[f->low]);
    }
    if (f->instructions != PMS_MRACM_NONE) {
        pms_json_kv_string(j, "instructions", d->names[f->instructions]);
        pms_json_key(j, "partial_correlation");
        pms_json_object_begin(j);
        for (size_t i = 0; i < d->n_counters; i++) pms_json_kv_double(j, d->names[i], f->partial[i]);
        pms_json_object_end(j);
    }
    if (f->warning[0]) pms_json_kv_string(j, "warning", f->warning);
    pms_json_kv_bool(j, "partial_pick_differs", f->pick[PMS_MRACM_BY_PARTIAL] != PMS_MRACM_NONE &&
                                                    (!f->applicable || f->pick[PMS_MRACM_BY_PARTIAL] != f->best));
    pms_json_key(j, "picks");
    pms_json_object_begin(j);
    for (size_t c = 0; c < PMS_MRACM_CRITERIA; c++) {
        pms_json_key(j, criterion_keys[c]);
        if (f->pick[c] == PMS_MRACM_NONE) {
            pms_json_null(j);
            continue;
        }
        pms_json_array_begin(j);
        pms_json_string(j, d->names[f->pairs[f->pick[c]].high]);
        pms_json_string(j, d->names[f->pairs[f->pick[c]].low]);
        pms_json_array_end(j);
    }
    pms_json_object_end(j);
    pms_json_key(j, "pairs");
    pms_json_array_begin(j);
    for (size_t p = 0; p < f->n_pairs; p++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "high", d->names[f->pairs[p].high]);
        pms_json_kv_string(j, "low", d->names[f->pairs[p].low]);
        pms_json_kv_double(j, "vif", f->pairs[p].vif);
        pms_json_kv_bool(j, "rejected", f->pairs[p].rejected);
        pms_json_kv_double(j, "mean_abs_error_pct", f->pairs[p].error_pct);
        pms_json_kv_double(j, "loo_mean_abs_error_pct", f->pairs[p].loo_error_pct);
        pms_json_kv_bool(j, "candidate", f->pairs[p].candidate);
        pms_json_key(j, "test_error_pct");
        pms_json_array_begin(j);
        for (size_t t = 0; t < d->n_test; t++) pms_json_double(j, pms__report_pair_error(d, &f->pairs[p], d->test[t]));
        pms_json_array_end(j);
        pms_json_kv_bool(j, "chosen", f->applicable && p == f->best);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

void pms_estimate_write_json(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "source", d->runs->source);
    pms_json_kv_string(&j, "cycles", d->runs->cycles_name);
    pms_json_key(&j, "dropped");
    pms_json_array_begin(&j);
    for (size_t k = 0; k < d->runs->n_dropped; k++) {
        pms_json_object_begin(&j);
        pms_json_kv_uint(&j, "line", d->runs->dropped_lines[k]);
        pms_json_kv_string(&j, "why", d->runs->dropped_why[k]);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_key(&j, "train");
    pms_json_array_begin(&j);
    for (size_t a = 0; a < d->n_train; a++) pms_json_string(&j, d->runs->labels[d->train[a]]);
    pms_json_array_end(&j);
    pms_json_key(&j, "test");
    pms_json_array_begin(&j);
    for (size_t t = 0; t < d->n_test; t++) pms_json_string(&j, d->runs->labels[d->test[t]]);
    pms_json_array_end(&j);
    pms_json_key(&j, "methods");
    pms_json_array_begin(&j);
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        if (!res[k].wanted) continue;
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "method", pms_estimate_method_key(k));
        pms_json_kv_bool(&j, "applicable", res[k].ok);
        if (res[k].ok) json_model(&j, d, &res[k]);
        else pms_json_kv_string(&j, "reason", res[k].reason);
        if (res[k].ok || k == PMS_EST_MRACM) json_method_details(&j, d, k, &res[k]);
        if (res[k].boot.replicates) {
            const char *names[d->n_counters + 1];
            double est[d->n_counters + 1];
            pms__report_boot_names(d, res[k].model, names, est);
            pms_json_key(&j, "bootstrap");
            pms_bootstrap_write_json(&res[k].boot, names, &j);
        }
        if (res[k].boot_reason[0]) pms_json_kv_string(&j, "bootstrap_reason", res[k].boot_reason);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
}

