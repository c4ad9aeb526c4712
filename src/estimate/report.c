/* The reports of a cycle-estimation comparison: the TABLE X summary and each model, as text, JSON, CSV or SVG. */
#include "pmuscope/estimate_report.h"
#include "pmuscope/chart.h"
#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/stats.h"
#include "pmuscope/table.h"
#include "util/error.h"
#include "util/number_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const labels[PMS_EST_METHODS] = {"LP", "MRA", "MRACM", "ridge", "PCR"};
static const char *const keys[PMS_EST_METHODS] = {"lp", "mra", "mracm", "ridge", "pcr"};

/* The chosen counters of run j (a row of runs), as the models were fitted on them. */
static void chosen_counters(const pms_estimate_data *d, size_t run, double *out)
{
    const double *row = &d->runs->events[run * d->runs->n_counters];
    for (size_t i = 0; i < d->n_counters; i++) out[i] = row[d->counter_col[i]];
}

/* The estimate of run j by a model over the chosen counters. */
static double est_predict(const pms_estimate_data *d, const pms_cycle_model *m, size_t run)
{
    double chosen[d->n_counters ? d->n_counters : 1];
    chosen_counters(d, run, chosen);
    return pms_cycle_model_predict(m, chosen);
}

static double error_of(const pms_estimate_data *d, const pms_cycle_model *m, size_t run)
{
    return pms_estimate_error_pct(est_predict(d, m, run), d->runs->cycles[run]);
}

/* error % of one run by an MRACM pair's own fit (NaN for a rejected pair) */
static double pair_error_of(const pms_estimate_data *d, const pms_mracm_pair *q, size_t run)
{
    double chosen[d->n_counters ? d->n_counters : 1];
    chosen_counters(d, run, chosen);
    return pms_estimate_error_pct(pms_mracm_pair_predict(q, chosen), d->runs->cycles[run]);
}

static double fit_mean_abs_error(const pms_estimate_data *d, const pms_cycle_model *m)
{
    double sum = 0;
    for (size_t a = 0; a < d->n_train; a++) sum += fabs(error_of(d, m, d->train[a]));
    return sum / (double)d->n_train;
}

static void print_runs(FILE *out, const char *what, const pms_estimate_data *d, const size_t *idx, size_t n)
{
    fprintf(out, "%s (%zu):", what, n);
    for (size_t k = 0; k < n && k < 12; k++) fprintf(out, " %s", d->runs->labels[idx[k]]);
    if (n > 12) fprintf(out, " ... %s", d->runs->labels[idx[n - 1]]);
    fputc('\n', out);
}

static void print_table(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    fprintf(out, "\n%-7s %8s %14s", "method", "counters", "fit |err| %");
    for (size_t t = 0; t < d->n_test; t++) fprintf(out, " %13.13s", d->runs->labels[d->test[t]]);
    fprintf(out, "%s\n", d->n_test ? "   (error %)" : "");
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        if (!res[k].wanted) continue;
        if (!res[k].ok) {
            fprintf(out, "%-7s %8s  %s\n", labels[k], "NA", res[k].reason);
            continue;
        }
        pms__num_text a;
        fprintf(out, "%-7s %8zu %14s", labels[k], res[k].model->n_used,
                pms__num(&a, "%.4g", fit_mean_abs_error(d, res[k].model)));
        for (size_t t = 0; t < d->n_test; t++) fprintf(out, " %13s", pms__num(&a, "%.4g", error_of(d, res[k].model, d->test[t])));
        fputc('\n', out);
    }
}

static void print_coefficients(FILE *out, const pms_estimate_data *d, const pms_cycle_model *m)
{
    fprintf(out, "  %-24s %16.8g\n", "(intercept)", m->intercept);
    for (size_t i = 0; i < d->n_counters; i++)
        if (m->used[i]) fprintf(out, "  %-24s %16.8g\n", d->names[i], m->coef[i]);
}

static void print_lp(FILE *out, const pms_estimate_data *d, const pms_lp_fit *f)
{
    fprintf(out, "\nLP: minimum sum of eps %.8g, %zu of %zu counters kept (x > 0), tight runs (%zu):", f->objective,
            f->model.n_used, d->n_counters, f->n_tight);
    for (size_t a = 0; a < f->n_runs; a++)
        if (f->tight[a]) fprintf(out, " %s", d->runs->labels[d->train[a]]);
    fputc('\n', out);
    print_coefficients(out, d, &f->model);
}

static void print_lm(FILE *out, const struct pms_lm *lm)
{
    fprintf(out, "  %-24s %14s %12s %9s %10s\n", "", "Estimate", "Std. Error", "t value", "Pr(>|t|)");
    pms__num_text a, b, c2, d;
    for (size_t c = 0; c < lm->ncoef; c++)
        fprintf(out, "  %-24s %14s %12s %9s %10s\n", lm->names[c], pms__num(&a, "%.7g", lm->coef[c]),
                pms__num(&b, "%.5g", lm->std_error[c]),
                /* t values of a near-perfect fit run to 1e15 and more: %g keeps the columns */
                pms__num(&c2, fabs(lm->t_value[c]) < 1e5 ? "%.3f" : "%.3g", lm->t_value[c]),
                pms__num(&d, "%.3g", lm->p_value[c]));
    fprintf(out, "  Residual standard error: %.6g on %zu degrees of freedom\n", lm->sigma, lm->df_residual);
    if (lm->perfect_fit) fputs("  Warning: essentially perfect fit: summary may be unreliable\n", out);
    fprintf(out, "  Multiple R-squared: %s, Adjusted R-squared: %s\n", pms__num(&a, "%.6g", lm->r_squared),
            pms__num(&b, "%.6g", lm->adj_r_squared));
    if (!isfinite(lm->r_squared) || !isfinite(lm->t_value[0]))
        fputs("  (-: undefined, 0/0: the residuals are all 0)\n", out);
}

static void print_constant_and_coefficients(FILE *out, const pms_estimate_data *d, const size_t *dropped,
                                            size_t n_dropped, const pms_cycle_model *m)
{
    if (n_dropped) {
        fprintf(out, "  left out, constant over the fitting runs:");
        for (size_t k = 0; k < n_dropped; k++) fprintf(out, " %s", d->names[dropped[k]]);
        fputc('\n', out);
    }
    print_coefficients(out, d, m);
}

static void print_ridge(FILE *out, const pms_estimate_data *d, const pms_ridge_fit *f)
{
    fprintf(out, "\nridge: lambda %.6g on the standardised counters (chosen by GCV, score %.6g), effective df %.4g, "
                 "RSS %.6g\n", f->lambda, f->gcv, f->df, f->rss);
    print_constant_and_coefficients(out, d, f->dropped, f->n_dropped, &f->model);
}

static void print_pcr(FILE *out, const pms_estimate_data *d, const pms_pcr_fit *f)
{
    fprintf(out, "\nPCR: %zu of %zu principal components of the standardised counters kept, explaining %.6g%% of "
                 "their variance (asked: %.6g%%)\n", f->n_components, f->n_total, 100 * f->kept_share, 100 * f->share);
    print_constant_and_coefficients(out, d, f->dropped, f->n_dropped, &f->model);
}

/* The names and estimates of the bootstrapped coefficients: the intercept, then every counter. */
static void boot_names(const pms_estimate_data *d, const pms_cycle_model *m, const char **names, double *est)
{
    names[0] = "(intercept)", est[0] = m->intercept;
    for (size_t i = 0; i < d->n_counters; i++) names[1 + i] = d->names[i], est[1 + i] = m->used[i] ? m->coef[i] : 0.0;
}

static void print_bootstrap(FILE *out, const pms_estimate_data *d, const pms_estimate_result *r)
{
    if (r->boot_reason[0]) fprintf(out, "  no bootstrap intervals: %s\n", r->boot_reason);
    if (!r->boot.replicates) return;
    const char *names[d->n_counters + 1];
    double est[d->n_counters + 1];
    boot_names(d, r->model, names, est);
    pms_bootstrap_write_text(&r->boot, "fitting runs", names, est, out);
}

static void print_mra(FILE *out, const pms_estimate_data *d, const pms_estimate_result *r)
{
    const pms_mra_fit *f = &r->mra;
    pms__num_text aic;
    fprintf(out, "\nMRA: OLS on %zu counter%s (selection: %s), AIC %s\n", f->model.n_used,
            f->model.n_used == 1 ? "" : "s", r->select, pms__num(&aic, "%.6g", f->aic));
    if (f->n_aliased) {
        fprintf(out, "  left out, constant or collinear over the fitting runs:");
        for (size_t k = 0; k < f->n_aliased; k++) fprintf(out, " %s", d->names[f->dropped[k]]);
        fputc('\n', out);
    }
    if (f->n_dropped > f->n_aliased) {
        fprintf(out, "  removed by the stepwise selection, in order:");
        for (size_t k = f->n_aliased; k < f->n_dropped; k++) fprintf(out, " %s", d->names[f->dropped[k]]);
        fputc('\n', out);
    }
    print_lm(out, f->lm);
}

static const char *const criterion_keys[PMS_MRACM_CRITERIA] = {"fit", "loo", "partial"};

static void print_picks(FILE *out, const pms_estimate_data *d, const pms_mracm_fit *f)
{
    static const char *const what[PMS_MRACM_CRITERIA] = {"best fit", "leave-one-run-out", "partial correlation"};
    fprintf(out, "  picks by criterion:");
    for (size_t c = 0; c < PMS_MRACM_CRITERIA; c++) {
        size_t p = f->pick[c];
        if (p == PMS_MRACM_NONE) fprintf(out, "%s %s: none", c ? ";" : "", what[c]);
        else fprintf(out, "%s %s: %s + %s", c ? ";" : "", what[c], d->names[f->pairs[p].high], d->names[f->pairs[p].low]);
    }
    fputc('\n', out);
}

static void print_mracm(FILE *out, const pms_estimate_data *d, const pms_estimate_result *r)
{
    const pms_mracm_fit *f = &r->mracm;
    bool paper = f->procedure == PMS_MRACM_PAPER, partial = f->instructions != PMS_MRACM_NONE;
    fprintf(out, "\nMRACM (%s): correlation of each counter with cycles over the fitting runs%s%s%s\n",
            paper ? "the paper's procedure" : "thresholds", paper ? ", MRA's selection by p value" : "",
            partial ? ", partial correlation given " : "", partial ? d->names[f->instructions] : "");
    int constant = 0;
    for (size_t i = 0; i < d->n_counters; i++) {
        pms__num_text a;
        double cor = f->correlation ? f->correlation[i] : NAN;
        constant |= !isfinite(cor);
        fprintf(out, "  %-24s %8s", d->names[i], pms__num(&a, "%.4f", cor));
        if (partial) fprintf(out, " %8s", pms__num(&a, "%.4f", f->partial[i]));
        fprintf(out, "%s\n", paper && f->selected && f->selected[i] ? (i == f->low ? "  selected, lowest" : "  selected") : "");
    }
    if (constant && f->correlation) fputs("  (-: no correlation: the counter is constant over the fitting runs)\n", out);
    if (f->n_held_out)
        fprintf(out, "  pairs judged on %zu fitting runs held out by a random split, seed %llu\n", f->n_held_out, f->seed);
    if (!r->ok && f->correlation) fprintf(out, "  %s\n", r->reason);
    if (f->n_pairs) {
        fprintf(out, "  %-24s %-24s %8s %12s %12s", "high", "low", "VIF", "fit |err| %", "LOO |err| %");
        for (size_t t = 0; t < d->n_test; t++) fprintf(out, " %13.13s", d->runs->labels[d->test[t]]);
        fputc('\n', out);
    }
    for (size_t p = 0; p < f->n_pairs; p++) {
        const pms_mracm_pair *q = &f->pairs[p];
        pms__num_text a, b, c;
        fprintf(out, "  %-24s %-24s %8s %12s %12s", d->names[q->high], d->names[q->low], pms__num(&a, "%.4g", q->vif),
                pms__num(&b, "%.4g", q->error_pct), pms__num(&c, "%.4g", q->loo_error_pct));
        for (size_t t = 0; t < d->n_test; t++) fprintf(out, " %13s", pms__num(&a, "%.4g", pair_error_of(d, q, d->test[t])));
        fprintf(out, "%s%s\n", q->rejected ? "  rejected (VIF)" : f->applicable && p == f->best ? "  chosen" : "",
                q->candidate ? "" : "  (partial correlation pick)");
    }
    if (f->correlation) print_picks(out, d, f);
    if (f->applicable) print_lm(out, f->lm);
}

void pms_estimate_write_text(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    const pms_runs *r = d->runs;
    fprintf(out, "%s: %zu runs, %zu counters, cycles from %s\n", r->source, r->n_runs, d->n_counters, r->cycles_name);
    print_runs(out, "fitting runs", d, d->train, d->n_train);
    if (d->n_test) print_runs(out, "test runs", d, d->test, d->n_test);
    print_table(out, d, res);
    if (res[PMS_EST_LP].ok) print_lp(out, d, &res[PMS_EST_LP].lp), print_bootstrap(out, d, &res[PMS_EST_LP]);
    if (res[PMS_EST_MRA].ok) print_mra(out, d, &res[PMS_EST_MRA]);
    if (res[PMS_EST_MRACM].wanted && res[PMS_EST_MRACM].mracm.correlation) print_mracm(out, d, &res[PMS_EST_MRACM]);
    if (res[PMS_EST_RIDGE].ok) print_ridge(out, d, &res[PMS_EST_RIDGE].ridge), print_bootstrap(out, d, &res[PMS_EST_RIDGE]);
    if (res[PMS_EST_PCR].ok) print_pcr(out, d, &res[PMS_EST_PCR].pcr), print_bootstrap(out, d, &res[PMS_EST_PCR]);
}

static void json_model(pms_json *j, const pms_estimate_data *d, const pms_cycle_model *m)
{
    pms_json_kv_uint(j, "counters", m->n_used);
    pms_json_kv_double(j, "intercept", m->intercept);
    pms_json_key(j, "coefficients");
    pms_json_object_begin(j);
    for (size_t i = 0; i < d->n_counters; i++)
        if (m->used[i]) pms_json_kv_double(j, d->names[i], m->coef[i]);
    pms_json_object_end(j);
    pms_json_kv_double(j, "fit_mean_abs_error_pct", fit_mean_abs_error(d, m));
    pms_json_key(j, "test");
    pms_json_array_begin(j);
    for (size_t t = 0; t < d->n_test; t++) {
        size_t run = d->test[t];
        pms_json_object_begin(j);
        pms_json_kv_string(j, "run", d->runs->labels[run]);
        pms_json_kv_double(j, "measured", d->runs->cycles[run]);
        pms_json_kv_double(j, "estimate", est_predict(d, m, run));
        pms_json_kv_double(j, "error_pct", error_of(d, m, run));
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

static void json_names(pms_json *j, const char *key, const pms_estimate_data *d, const size_t *idx, size_t n)
{
    pms_json_key(j, key);
    pms_json_array_begin(j);
    for (size_t k = 0; k < n; k++) pms_json_string(j, d->names[idx[k]]);
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
    } else if (k == PMS_EST_MRA) {
        pms_json_kv_string(j, "select", r->select);
        json_names(j, "collinear_left_out", d, r->mra.dropped, r->mra.n_aliased);
        json_names(j, "stepwise_removed", d, r->mra.dropped + r->mra.n_aliased, r->mra.n_dropped - r->mra.n_aliased);
        pms_json_kv_double(j, "r_squared", r->mra.lm->r_squared);
        pms_json_kv_double(j, "adj_r_squared", r->mra.lm->adj_r_squared);
        pms_json_kv_double(j, "aic", r->mra.aic);
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
        for (size_t t = 0; t < d->n_test; t++) pms_json_double(j, pair_error_of(d, &f->pairs[p], d->test[t]));
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
        pms_json_kv_string(&j, "method", keys[k]);
        pms_json_kv_bool(&j, "applicable", res[k].ok);
        if (res[k].ok) json_model(&j, d, res[k].model);
        else pms_json_kv_string(&j, "reason", res[k].reason);
        if (res[k].ok || k == PMS_EST_MRACM) json_method_details(&j, d, k, &res[k]);
        if (res[k].boot.replicates) {
            const char *names[d->n_counters + 1];
            double est[d->n_counters + 1];
            boot_names(d, res[k].model, names, est);
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

/* x of a run in the chart: its label number (TEST7 is 7) when the table is numbered, else its row. */
static double run_x(const pms_estimate_data *d, size_t run, bool numbered)
{
    if (!numbered) return (double)run + 1;
    const char *l = d->runs->labels[run], *p = l + strlen(l);
    while (p > l && p[-1] >= '0' && p[-1] <= '9') p--;
    return strtod(p, NULL);
}

int pms_estimate_write_svg(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    static const char *const colors[PMS_EST_METHODS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b"};
    bool numbered = pms_runs_numbered(d->runs);
    pms_chart *c = pms_chart_new("Estimated cycles: error per run (fitting runs and test runs)",
                                 numbered ? "run number" : "run", "error");
    size_t n = d->n_train + d->n_test;
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    int rc = c && x && y ? PMS_OK : PMS_ENOMEM;
    /* a method's fitting runs as a line with rings, its test runs as dots: the legend tells them apart */
    if (rc == PMS_OK) pms_chart_set_units(c, numbered ? "from the run's label" : "row of the table", "% of measured cycles");
    for (size_t k = 0; rc == PMS_OK && k < PMS_EST_METHODS; k++) {
        if (!res[k].ok) continue;
        char label[32];
        for (size_t part = 0; part < 2 && rc == PMS_OK; part++) {
            const size_t *idx = part ? d->test : d->train;
            size_t m = part ? d->n_test : d->n_train;
            if (m == 0) continue;
            for (size_t a = 0; a < m; a++) x[a] = run_x(d, idx[a], numbered), y[a] = error_of(d, res[k].model, idx[a]);
            snprintf(label, sizeof label, "%s %s", labels[k], part ? "test" : "fit");
            rc = part ? pms_chart_add_points(c, label, x, y, m, colors[k]) : pms_chart_add_line(c, label, x, y, m, colors[k]);
        }
    }
    if (rc == PMS_OK) rc = pms_chart_write_svg(&c, 1, 900, out);
    pms_chart_free(c);
    free(x);
    free(y);
    return rc;
}

/* With bootstrap intervals: lower_<coef>,upper_<coef> for the intercept and each counter
 * (empty for a method without them). */
static int add_bootstrap_columns(pms_table *t, const pms_estimate_data *d, const pms_estimate_result *res, size_t n)
{
    bool any = false;
    for (size_t k = 0; k < PMS_EST_METHODS; k++) any |= res[k].wanted && res[k].boot.replicates;
    int rc = PMS_OK;
    double v[PMS_EST_METHODS];
    char name[512];
    for (size_t c = 0; any && rc == PMS_OK && c <= 2 * d->n_counters + 1; c++) {
        size_t coef = c / 2, m = 0;
        for (size_t k = 0; k < PMS_EST_METHODS; k++)
            if (res[k].wanted)
                v[m++] = !res[k].boot.replicates ? NAN : c % 2 ? res[k].boot.upper[coef] : res[k].boot.lower[coef];
        snprintf(name, sizeof name, "%s_%s", c % 2 ? "upper" : "lower", coef ? d->names[coef - 1] : "intercept");
        rc = pms_table_add_numeric(t, name, v, n);
    }
    return rc;
}

int pms_estimate_write_csv(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    const char *method[PMS_EST_METHODS], *note[PMS_EST_METHODS];
    double counters[PMS_EST_METHODS], fit[PMS_EST_METHODS], err[PMS_EST_METHODS];
    size_t n = 0;
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        if (!res[k].wanted) continue;
        method[n] = labels[k];
        note[n] = res[k].ok ? "" : res[k].reason;
        counters[n] = res[k].ok ? (double)res[k].model->n_used : NAN;
        fit[n] = res[k].ok ? fit_mean_abs_error(d, res[k].model) : NAN;
        n++;
    }
    pms_table *t = pms_table_new("TABLE X");
    if (!t) return pms__fail(PMS_ENOMEM, "out of memory");
    int rc = pms_table_add_string(t, "method", method, n);
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "counters", counters, n);
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "fit_abs_error_pct", fit, n);
    for (size_t j = 0; j < d->n_test && rc == PMS_OK; j++) {
        size_t m = 0;
        for (size_t k = 0; k < PMS_EST_METHODS; k++)
            if (res[k].wanted) err[m++] = res[k].ok ? error_of(d, res[k].model, d->test[j]) : NAN;
        rc = pms_table_add_numeric(t, d->runs->labels[d->test[j]], err, n);
    }
    if (rc == PMS_OK) rc = pms_table_add_string(t, "note", note, n);
    if (rc == PMS_OK) rc = add_bootstrap_columns(t, d, res, n);
    if (rc == PMS_OK) rc = pms_table_write(t, out, ',');
    pms_table_free(t);
    return rc;
}

int pms_estimate_write_bootstrap_replicates(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    const char *names[d->n_counters + 1];
    double est[d->n_counters + 1];
    bool first = true;
    int rc = PMS_OK;
    for (size_t k = 0; rc == PMS_OK && k < PMS_EST_METHODS; k++) {
        if (!res[k].boot.replicates) continue;
        boot_names(d, res[k].model, names, est);
        rc = pms_bootstrap_write_replicates(&res[k].boot, keys[k], names, first, out);
        first = false;
    }
    return rc;
}
