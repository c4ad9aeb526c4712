/* The text report of a cycle-estimation comparison: the TABLE X summary with the held-out
 * error first, the prediction intervals of the test runs, then each model. JSON is in
 * report_json.c, CSV and SVG in report_table.c. */
#include "estimate/report_internal.h"
#include "estimate/model.h"
#include "pmuscope/stats.h"
#include "util/number_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double pms__report_estimate(const pms_estimate_data *d, const pms_cycle_model *m, size_t run)
{
    double chosen[d->n_counters ? d->n_counters : 1];
    pms__estimate_counters_of(d, run, chosen);
    return pms_cycle_model_predict(m, chosen);
}

double pms__report_error(const pms_estimate_data *d, const pms_cycle_model *m, size_t run)
{
    return pms_estimate_error_pct(pms__report_estimate(d, m, run), d->runs->cycles[run]);
}

double pms__report_pair_error(const pms_estimate_data *d, const pms_mracm_pair *q, size_t run)
{
    double chosen[d->n_counters ? d->n_counters : 1];
    pms__estimate_counters_of(d, run, chosen);
    return pms_estimate_error_pct(pms_mracm_pair_predict(q, chosen), d->runs->cycles[run]);
}

static double mean_abs_error(const pms_estimate_data *d, const pms_cycle_model *m, const size_t *runs, size_t n)
{
    double sum = 0;
    for (size_t a = 0; a < n; a++) sum += fabs(pms__report_error(d, m, runs[a]));
    return n ? sum / (double)n : NAN;
}

double pms__report_fit_error(const pms_estimate_data *d, const pms_cycle_model *m)
{
    return mean_abs_error(d, m, d->train, d->n_train);
}

double pms__report_test_error(const pms_estimate_data *d, const pms_cycle_model *m)
{
    return mean_abs_error(d, m, d->test, d->n_test);
}

const char *pms__report_interval_name(pms_estimate_interval kind)
{
    return kind == PMS_INTERVAL_T ? "t" : kind == PMS_INTERVAL_JACKKNIFE ? "jackknife+" : "none";
}

const char *pms__report_folds_name(const pms_estimate_data *d, const pms_estimate_result *r, char *buf, size_t size)
{
    if (r->folds == d->n_train) return "leave-one-out";
    snprintf(buf, size, "%zu-fold", r->folds);
    return buf;
}

void pms__report_boot_names(const pms_estimate_data *d, const pms_cycle_model *m, const char **names, double *est)
{
    names[0] = "(intercept)", est[0] = m->intercept;
    for (size_t i = 0; i < d->n_counters; i++) names[1 + i] = d->names[i], est[1 + i] = m->used[i] ? m->coef[i] : 0.0;
}

const char *pms__report_alias_reason(pms_alias_reason why)
{
    return why == PMS_ALIAS_CONSTANT ? "constant" : why == PMS_ALIAS_NO_RUNS_LEFT ? "no runs left" : "collinear";
}

static void print_runs(FILE *out, const char *what, const pms_estimate_data *d, const size_t *idx, size_t n)
{
    fprintf(out, "%s (%zu):", what, n);
    for (size_t k = 0; k < n && k < 12; k++) fprintf(out, " %s", d->runs->labels[idx[k]]);
    if (n > 12) fprintf(out, " ... %s", d->runs->labels[idx[n - 1]]);
    fputc('\n', out);
}

/* TABLE X: the held-out error first (the honest one), then the test and the fit error. */
static void print_table(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    fprintf(out, "\n%-7s %8s %16s %13s %12s", "method", "counters", "held-out |err| %", "test |err| %", "fit |err| %");
    for (size_t t = 0; t < d->n_test; t++) fprintf(out, " %13.13s", d->runs->labels[d->test[t]]);
    fprintf(out, "%s\n", d->n_test ? "   (error %)" : "");
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        if (!res[k].wanted) continue;
        const char *label = pms_estimate_method_label(k);
        if (!res[k].ok) {
            fprintf(out, "%-7s %8s  %s\n", label, "NA", res[k].reason);
            continue;
        }
        pms__num_text a, b, c;
        fprintf(out, "%-7s %8zu %16s %13s %12s", label, res[k].model->n_used,
                pms__num(&a, "%.4g", res[k].heldout_error_pct), pms__num(&b, "%.4g", pms__report_test_error(d, res[k].model)),
                pms__num(&c, "%.4g", pms__report_fit_error(d, res[k].model)));
        for (size_t t = 0; t < d->n_test; t++)
            fprintf(out, " %13s", pms__num(&a, "%.4g", pms__report_error(d, res[k].model, d->test[t])));
        fputc('\n', out);
    }
}

/* How the held-out error was made, and where refits failed. */
static void print_heldout_note(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    char buf[32];
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        if (!res[k].ok) continue;
        if (!res[k].folds) {
            fprintf(out, "%s: no held-out error: %s\n", pms_estimate_method_label(k), res[k].heldout_reason);
            continue;
        }
        if (res[k].heldout_failed)
            fprintf(out, "%s: %zu of %zu fitting runs have no held-out estimate: %s\n", pms_estimate_method_label(k),
                    res[k].heldout_failed, d->n_train, res[k].heldout_reason);
    }
    for (size_t k = 0; k < PMS_EST_METHODS; k++)
        if (res[k].ok && res[k].folds) {
            fprintf(out, "held-out: each fitting run estimated by the method refitted without it (%s, %zu fits; "
                         "selection and tuning redone in each)\n",
                    pms__report_folds_name(d, &res[k], buf, sizeof buf), res[k].folds);
            return;
        }
}

/* MRACM explaining itself under the table: a pair its own fit does not support, and the
 * partial-correlation pick beside the chosen pair when they differ. */
static void print_mracm_notes(FILE *out, const pms_estimate_data *d, const pms_estimate_result *r)
{
    const pms_mracm_fit *f = &r->mracm;
    if (r->ok && f->warning[0]) fprintf(out, "MRACM warning: %s\n", f->warning);
    size_t p = f->pick[PMS_MRACM_BY_PARTIAL];
    if (!f->correlation || p == PMS_MRACM_NONE || (r->ok && p == f->best)) return;
    const pms_mracm_pair *q = &f->pairs[p];
    pms__num_text e1, e2;
    if (r->ok)
        fprintf(out, "MRACM: the chosen pair is %s + %s; ", d->names[f->pairs[f->best].high], d->names[f->pairs[f->best].low]);
    else
        fprintf(out, "MRACM: not applicable; ");
    fprintf(out, "--criterion partial picks %s + %s (fit |err| %s%%, leave-one-run-out |err| %s%%)\n", d->names[q->high],
            d->names[q->low], pms__num(&e1, "%.4g", q->error_pct), pms__num(&e2, "%.4g", q->loo_error_pct));
}

static const char *bound_text(pms__num_text *buf, double v)
{
    return isinf(v) ? "unbounded" : pms__num(buf, "%.6g", v);
}

static void print_intervals(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    double level = 0;
    for (size_t k = 0; k < PMS_EST_METHODS; k++)
        if (res[k].ok && res[k].lower) level = res[k].level;
    if (!d->n_test || level == 0) return;
    fprintf(out, "\nprediction intervals of the test runs' cycles, %g%% (t: R's predict.lm of the least-squares fit; "
                 "jackknife+: from the held-out error %%)\n", 100 * level);
    fprintf(out, "  %-16s %-7s %14s %14s %14s %14s  %s\n", "run", "method", "measured", "estimate", "lower", "upper",
            "interval");
    for (size_t t = 0; t < d->n_test; t++) {
        size_t run = d->test[t];
        for (size_t k = 0; k < PMS_EST_METHODS; k++) {
            if (!res[k].ok || !res[k].lower) continue;
            pms__num_text a, b, c, e;
            double lo = res[k].lower[t], hi = res[k].upper[t], c0 = d->runs->cycles[run];
            fprintf(out, "  %-16.16s %-7s %14s %14s %14s %14s  %s%s\n", d->runs->labels[run], pms_estimate_method_label(k),
                    pms__num(&a, "%.6g", c0), pms__num(&b, "%.6g", pms__report_estimate(d, res[k].model, run)),
                    bound_text(&c, lo), bound_text(&e, hi), pms__report_interval_name(res[k].interval),
                    c0 >= lo && c0 <= hi ? "" : "  (measured outside)");
        }
    }
    for (size_t k = 0; k < PMS_EST_METHODS; k++)
        if (res[k].ok && res[k].interval == PMS_INTERVAL_JACKKNIFE && res[k].lower && d->n_test &&
            (isinf(res[k].lower[0]) || isinf(res[k].upper[0]))) {
            fprintf(out, "  (unbounded: %zu fitting runs are too few for a %g%% jackknife+ interval: it needs at least %.0f)\n",
                    d->n_train, 100 * level, ceil(level / (1 - level)));
            break;
        }
}

static void print_coefficients(FILE *out, const pms_estimate_data *d, const pms_cycle_model *m)
{
    fprintf(out, "  %-24s %16.8g\n", "(intercept)", m->intercept);
    for (size_t i = 0; i < d->n_counters; i++)
        if (m->used[i]) fprintf(out, "  %-24s %16.8g\n", d->names[i], m->coef[i]);
}

static void print_names(FILE *out, const char *what, const pms_estimate_data *d, const size_t *idx, size_t n)
{
    if (!n) return;
    fprintf(out, "  %s:", what);
    for (size_t k = 0; k < n; k++) fprintf(out, " %s", d->names[idx[k]]);
    fputc('\n', out);
}

static void print_lp(FILE *out, const pms_estimate_data *d, const pms_lp_fit *f)
{
    fprintf(out, "\nLP: minimum sum of eps %.8g, %zu of %zu counters kept (x > 0), tight runs (%zu):", f->objective,
            f->model.n_used, d->n_counters, f->n_tight);
    for (size_t a = 0; a < f->n_runs; a++)
        if (f->tight[a]) fprintf(out, " %s", d->runs->labels[d->train[a]]);
    fputc('\n', out);
    print_names(out, "left out, constant over the fitting runs (a second intercept)", d, f->dropped, f->n_dropped);
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
    if (lm->df_residual == 0)
        fprintf(out, "  ALL %zu residuals are 0: no residual degrees of freedom (as R's lm: no standard errors)\n", lm->n);
    else
        fprintf(out, "  Residual standard error: %s on %zu degrees of freedom\n", pms__num(&a, "%.6g", lm->sigma),
                lm->df_residual);
    if (lm->perfect_fit) fputs("  Warning: essentially perfect fit: summary may be unreliable\n", out);
    fprintf(out, "  Multiple R-squared: %s, Adjusted R-squared: %s\n", pms__num(&a, "%.6g", lm->r_squared),
            pms__num(&b, "%.6g", lm->adj_r_squared));
    if (lm->df_residual > 0 && (!isfinite(lm->r_squared) || !isfinite(lm->t_value[0])))
        fputs("  (-: undefined, 0/0: the residuals are all 0)\n", out);
}

static void print_constant_and_coefficients(FILE *out, const pms_estimate_data *d, const size_t *dropped,
                                            size_t n_dropped, const pms_cycle_model *m)
{
    print_names(out, "left out, constant over the fitting runs", d, dropped, n_dropped);
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

static void print_nnls(FILE *out, const pms_estimate_data *d, const pms_nnls_fit *f)
{
    fprintf(out, "\nNNLS: least squares with every coefficient >= 0 (as R's nnls(cbind(1, E), cycles)), %zu of %zu "
                 "counters above 0, RSS %.6g\n", f->model.n_used, d->n_counters, f->rss);
    print_coefficients(out, d, &f->model);
}

static void print_lasso(FILE *out, const pms_estimate_data *d, const pms_lasso_fit *f)
{
    const pms_lasso *p = f->path;
    if (p)
        fprintf(out, "\nlasso: lambda %.6g (cv.glmnet's lambda.%s: %zu-fold cross-validation, mean squared error %.6g; "
                     "lambda.min %.6g, lambda.1se %.6g), %zu of %zu counters kept\n",
                f->lambda, f->lambda == p->lambda[p->index_min] ? "min" : "1se", p->nfolds,
                p->cvm[f->lambda == p->lambda[p->index_min] ? p->index_min : p->index_1se], p->lambda[p->index_min],
                p->lambda[p->index_1se], f->model.n_used, d->n_counters);
    else
        fprintf(out, "\nlasso: lambda %.6g (given), %zu of %zu counters kept\n", f->lambda, f->model.n_used, d->n_counters);
    fputs("  (as glmnet: counters standardised with divisor n, lambda in cycles, the intercept not penalised)\n", out);
    print_coefficients(out, d, &f->model);
}

static void print_bootstrap(FILE *out, const pms_estimate_data *d, const pms_estimate_result *r)
{
    if (r->boot_reason[0]) fprintf(out, "  no bootstrap intervals: %s\n", r->boot_reason);
    if (!r->boot.replicates) return;
    const char *names[d->n_counters + 1];
    double est[d->n_counters + 1];
    pms__report_boot_names(d, r->model, names, est);
    pms_bootstrap_write_text(&r->boot, "fitting runs", names, est, out);
}

static void print_mra(FILE *out, const pms_estimate_data *d, const pms_estimate_result *r, const pms_mra_fit *f,
                      const char *label)
{
    pms__num_text aic;
    fprintf(out, "\n%s: OLS on %zu counter%s (selection: %s), AIC %s\n", label, f->model.n_used,
            f->model.n_used == 1 ? "" : "s", r->select, isinf(f->aic) ? "- (none finite: the residuals are all 0)"
                                                                   : pms__num(&aic, "%.6g", f->aic));
    if (f->n_aliased) {
        fprintf(out, "  NA in R's lm (aliased, left out):");
        for (size_t k = 0; k < f->n_aliased; k++)
            fprintf(out, " %s (%s)", d->names[f->dropped[k]], pms__report_alias_reason(f->alias_reason[k]));
        fputc('\n', out);
    }
    print_names(out, "added by forward selection, in order", d, f->added, f->n_added);
    if (f->n_added)
        print_names(out, "never added (none lowered the AIC, or aliased with those in)", d, f->dropped, f->n_dropped);
    else
        print_names(out, "removed by the stepwise selection, in order", d, f->dropped + f->n_aliased,
                    f->n_dropped - f->n_aliased);
    print_lm(out, f->lm);
}

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
        for (size_t t = 0; t < d->n_test; t++)
            fprintf(out, " %13s", pms__num(&a, "%.4g", pms__report_pair_error(d, q, d->test[t])));
        fprintf(out, "%s%s\n", q->rejected ? "  rejected (VIF)" : f->applicable && p == f->best ? "  chosen" : "",
                q->candidate ? "" : "  (partial correlation pick)");
    }
    if (f->correlation) print_picks(out, d, f);
    if (f->warning[0]) fprintf(out, "  warning: %s\n", f->warning);
    if (f->applicable) print_lm(out, f->lm);
}

void pms_estimate_write_text(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    const pms_runs *r = d->runs;
    fprintf(out, "%s: %zu runs, %zu counters, cycles from %s\n", r->source, r->n_runs, d->n_counters, r->cycles_name);
    if (r->n_dropped) {
        fprintf(out, "left out for a missing or bad count (%zu):", r->n_dropped);
        for (size_t k = 0; k < r->n_dropped && k < 10; k++)
            fprintf(out, "%s line %zu (%s)", k ? ";" : "", r->dropped_lines[k], r->dropped_why[k]);
        fprintf(out, "%s\n", r->n_dropped > 10 ? "; ..." : "");
    }
    print_runs(out, "fitting runs", d, d->train, d->n_train);
    if (d->n_test) print_runs(out, "test runs", d, d->test, d->n_test);
    print_table(out, d, res);
    print_heldout_note(out, d, res);
    if (res[PMS_EST_MRACM].wanted) print_mracm_notes(out, d, &res[PMS_EST_MRACM]);
    print_intervals(out, d, res);
    if (res[PMS_EST_LP].ok) print_lp(out, d, &res[PMS_EST_LP].lp), print_bootstrap(out, d, &res[PMS_EST_LP]);
    if (res[PMS_EST_MRA].ok) print_mra(out, d, &res[PMS_EST_MRA], &res[PMS_EST_MRA].mra, "MRA");
    if (res[PMS_EST_FORWARD].ok) print_mra(out, d, &res[PMS_EST_FORWARD], &res[PMS_EST_FORWARD].forward, "forward");
    if (res[PMS_EST_MRACM].wanted && res[PMS_EST_MRACM].mracm.correlation) print_mracm(out, d, &res[PMS_EST_MRACM]);
    if (res[PMS_EST_RIDGE].ok) print_ridge(out, d, &res[PMS_EST_RIDGE].ridge), print_bootstrap(out, d, &res[PMS_EST_RIDGE]);
    if (res[PMS_EST_PCR].ok) print_pcr(out, d, &res[PMS_EST_PCR].pcr), print_bootstrap(out, d, &res[PMS_EST_PCR]);
    if (res[PMS_EST_NNLS].ok) print_nnls(out, d, &res[PMS_EST_NNLS].nnls), print_bootstrap(out, d, &res[PMS_EST_NNLS]);
    if (res[PMS_EST_LASSO].ok) print_lasso(out, d, &res[PMS_EST_LASSO].lasso), print_bootstrap(out, d, &res[PMS_EST_LASSO]);
}
