/* CPI stack reports: text (R-like), JSON and SVG charts. */
#include "pmuscope/cpistack.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int event_width(const pms_cpistack *s)
{
    int w = 12;
    for (size_t j = 0; j < s->nevents; j++)
        if ((int)strlen(s->events[j]) > w) w = (int)strlen(s->events[j]);
    return w;
}

/* A component's share of the model CPI, "-" when that is 0. */
static void print_share(FILE *out, double part, double total)
{
    if (total != 0 && isfinite(part / total)) fprintf(out, " %6.1f%%", 100 * part / total);
    else fprintf(out, " %6s ", "-");
}

static void write_correlation(const pms_cpistack *s, FILE *out, int w)
{
    size_t p = s->nevents;
    fprintf(out, "\nCorrelation of the regressors (training intervals) and VIF:\n%-*s", w, "");
    for (size_t j = 0; j < p; j++) fprintf(out, " %7.7s", s->events[j]);
    fprintf(out, " %9s\n", "VIF");
    for (size_t a = 0; a < p; a++) {
        fprintf(out, "%-*s", w, s->events[a]);
        for (size_t b = 0; b < p; b++)
            if (isfinite(s->cor[a * p + b])) fprintf(out, " %7.3f", s->cor[a * p + b]);
            else fprintf(out, " %7s", "-"); /* a constant regressor: no correlation */
        if (isfinite(s->vif[a])) fprintf(out, " %9.3g%s\n", s->vif[a], s->vif[a] > 10 ? "  (high: collinear)" : "");
        else fprintf(out, " %9s\n", "-"); /* vif_note says why */
    }
    if (s->vif_note[0]) fprintf(out, "VIF not defined: %s\n", s->vif_note);
}

int pms_cpistack_write_text(const pms_cpistack *s, FILE *out)
{
    fprintf(out, "intervals: %zu used, %zu for training, %zu for testing", s->nrows, s->ntrain, s->ntest);
    if (s->ndropped) fprintf(out, " (%zu dropped: no instructions)", s->ndropped);
    if (s->nmissing) fprintf(out, " (%zu dropped: missing counts)", s->nmissing);
    if (s->nmux_dropped) fprintf(out, " (%zu dropped: multiplexed counts)", s->nmux_dropped);
    if (s->seeded) fprintf(out, "; random split, seed %llu", (unsigned long long)s->seed);
    fputc('\n', out);
    if (s->cpi_source)
        fprintf(out, "CPI = %s / %s, both counted in run %zu of the merged files\n", s->cycles_name, s->instructions_name,
                s->cpi_source);
    if (s->cpi_note[0]) fprintf(out, "warning: %s: CPI divides counts of two runs\n", s->cpi_note);
    if (s->nmultiplexed)
        fprintf(out, "multiplexed: %zu of the intervals used have counts perf scaled from part of the time (as little "
                     "as %.2f%%)%s\n", s->nmultiplexed, s->min_running_pct,
                s->mux_weighted ? ", weighted by that share" : ", fitted as they are");
    fputc('\n', out);
    int rc = pms_lm_write_summary(s->model, "CPI", out);
    if (rc < 0) return rc;
    if (s->model->method == PMS_LM_RIDGE)
        fprintf(out, "Ridge: lambda %.6g on the standardised regressors (chosen by GCV, score %.6g), effective df %.4g\n",
                s->ridge_lambda, s->ridge_gcv, s->ridge_df);
    if (s->ntest)
        fprintf(out, "\nTest RMSE: %.4g CPI on %zu intervals (MAE %.4g)\n", s->test_rmse, s->ntest, s->test_mae);
    else
        fputs("\nTest RMSE: no test intervals (every interval fitted)\n", out);
    if (!isfinite(s->durbin_watson))
        fprintf(out, "Durbin-Watson: - (undefined: the residuals are all 0)\n");
    else
        fprintf(out, "Durbin-Watson: %.4f over the %zu training intervals in time order%s\n", s->durbin_watson, s->ntrain,
                s->durbin_watson < 1.5 ? " (positively autocorrelated residuals: the standard errors above are too "
                                         "small; Newey-West standard errors allow for it)" : "");
    if (s->hac_se) {
        fprintf(out, "\nNewey-West standard errors (lag %zu, Bartlett weights):\n", s->hac_lag);
        fprintf(out, "  %-20s %12s %12s %9s %10s\n", "", "Estimate", "HAC Std.Err", "t value", "Pr(>|t|)");
        for (size_t c = 0; c < s->model->ncoef; c++) {
            double tv = s->model->coef[c] / s->hac_se[c];
            fprintf(out, "  %-20s %12.4g %12.4g %9.3f %10.3g\n", s->model->names[c], s->model->coef[c], s->hac_se[c], tv,
                    pms_t_p_value(tv, (double)s->model->df_residual));
        }
    }
    if (s->boot.replicates) {
        fputc('\n', out);
        if ((rc = pms_bootstrap_write_text(&s->boot, "training intervals", (const char *const *)s->model->names,
                                           s->model->coef, out)) < 0)
            return rc;
    }
    int w = event_width(s);
    write_correlation(s, out, w);

    fprintf(out, "\nCPI stack (coefficient x mean over the training intervals):\n");
    double total = s->model_cpi;
    fprintf(out, "  %-*s %10.4f", w, "base", s->base);
    print_share(out, s->base, total);
    fputc('\n', out);
    for (size_t j = 0; j < s->nevents; j++) {
        fprintf(out, "  %-*s %10.4f", w, s->events[j], s->component[j]);
        print_share(out, s->component[j], total);
        fprintf(out, "%s\n", s->component[j] < 0 ? "  (negative: see VIF, or fit with non-negative least squares)" : "");
    }
    if (total == 0) fprintf(out, "  (no shares: the model CPI is 0)\n");
    fprintf(out, "  %-*s %10.4f\n  %-*s %10.4f  (mean of the interval CPIs)\n", w, "model CPI", s->model_cpi, w,
            "observed CPI", s->observed_cpi);
    fprintf(out, "  %-*s %10.4f  (total cycles / total instructions of the training intervals; %.4f over all)\n", w,
            "true CPI", s->true_cpi, s->program_cpi);
    if (ferror(out)) return pms__fail(PMS_EIO, "error writing the CPI stack");
    return PMS_OK;
}

int pms_cpistack_write_row(const pms_cpistack *s, const char *group, bool first, FILE *out)
{
    if (first) {
        fprintf(out, "%-24s %5s %6s %9s %8s", "group", "n", "R2", "test_RMSE", "base");
        for (size_t j = 0; j < s->nevents; j++) fprintf(out, " %10.10s", s->events[j]);
        fprintf(out, " %9s %9s %9s\n", "model_CPI", "obs_CPI", "true_CPI");
    }
    fprintf(out, "%-24.24s %5zu", group, s->nrows);
    if (isfinite(s->model->r_squared)) fprintf(out, " %6.3f", s->model->r_squared);
    else fprintf(out, " %6s", "-"); /* 0/0: the residuals are all 0 */
    if (isnan(s->test_rmse))
        fprintf(out, " %9s", "-"); /* no test intervals */
    else
        fprintf(out, " %9.4f", s->test_rmse);
    fprintf(out, " %8.4f", s->base);
    for (size_t j = 0; j < s->nevents; j++) fprintf(out, " %10.4f", s->component[j]);
    fprintf(out, " %9.4f %9.4f %9.4f\n", s->model_cpi, s->observed_cpi, s->true_cpi);
    if (ferror(out)) return pms__fail(PMS_EIO, "error writing the CPI stack");
    return PMS_OK;
}

static void json_model(const pms_lm *m, pms_json *j)
{
    pms_json_key(j, "coefficients");
    pms_json_array_begin(j);
    for (size_t k = 0; k < m->ncoef; k++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "name", m->names[k]);
        pms_json_kv_double(j, "estimate", m->coef[k]);
        pms_json_kv_double(j, "std_error", m->std_error[k]);
        pms_json_kv_double(j, "t_value", m->t_value[k]);
        pms_json_kv_double(j, "p_value", m->p_value[k]);
        if (m->at_bound) pms_json_kv_bool(j, "at_bound", m->at_bound[k]);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    double rq[5];
    bool have_rq = pms_lm_resid_quantiles(m, rq) == PMS_OK; /* fails only out of memory for their copy */
    pms_json_key(j, "residual_quantiles");
    pms_json_array_begin(j);
    for (int q = 0; have_rq && q < 5; q++) pms_json_double(j, rq[q]);
    pms_json_array_end(j);
    if (!have_rq) pms_json_kv_string(j, "residual_quantiles_reason", pms_strerror());
    pms_json_kv_double(j, "sigma", m->sigma);
    pms_json_kv_uint(j, "df_residual", m->df_residual);
    pms_json_kv_double(j, "r_squared", m->r_squared);
    pms_json_kv_double(j, "adj_r_squared", m->adj_r_squared);
    pms_json_kv_double(j, "f_statistic", m->f_statistic);
    pms_json_kv_double(j, "f_df1", m->f_df1);
    pms_json_kv_double(j, "f_df2", m->f_df2);
    pms_json_kv_double(j, "f_p_value", m->f_p_value);
}

void pms_cpistack_write_json(const pms_cpistack *s, pms_json *j)
{
    size_t p = s->nevents;
    pms_json_object_begin(j);
    pms_json_kv_string(j, "method", s->model->method == PMS_LM_NNLS ? "nnls" : s->model->method == PMS_LM_RIDGE ? "ridge" : "ols");
    if (s->model->method == PMS_LM_RIDGE) {
        pms_json_key(j, "ridge");
        pms_json_object_begin(j);
        pms_json_kv_double(j, "lambda", s->ridge_lambda);
        pms_json_kv_double(j, "df", s->ridge_df);
        pms_json_kv_double(j, "gcv", s->ridge_gcv);
        pms_json_object_end(j);
    }
    pms_json_kv_uint(j, "intervals", s->nrows);
    pms_json_kv_uint(j, "train", s->ntrain);
    pms_json_kv_uint(j, "test", s->ntest);
    if (s->seeded) pms_json_kv_uint(j, "seed", s->seed);
    pms_json_kv_uint(j, "dropped", s->ndropped);
    pms_json_kv_uint(j, "missing", s->nmissing);
    pms_json_kv_string(j, "cycles", s->cycles_name);
    pms_json_kv_string(j, "instructions", s->instructions_name);
    pms_json_kv_uint(j, "cpi_run", s->cpi_source);
    if (s->cpi_note[0]) pms_json_kv_string(j, "cpi_warning", s->cpi_note);
    pms_json_kv_uint(j, "multiplexed", s->nmultiplexed);
    pms_json_kv_uint(j, "multiplexed_dropped", s->nmux_dropped);
    pms_json_kv_double(j, "min_running_pct", s->min_running_pct);
    pms_json_key(j, "multiplexed_intervals"); /* 1-based rows of the table */
    pms_json_array_begin(j);
    for (size_t i = 0; i < s->nrows; i++)
        if (s->running_pct[i] < 100) pms_json_uint(j, s->rows[i] + 1);
    pms_json_array_end(j);
    pms_json_key(j, "model");
    pms_json_object_begin(j);
    json_model(s->model, j);
    pms_json_object_end(j);
    pms_json_kv_double(j, "test_rmse", s->test_rmse);
    pms_json_kv_double(j, "test_mae", s->test_mae);
    pms_json_key(j, "events");
    pms_json_array_begin(j);
    for (size_t a = 0; a < p; a++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "name", s->events[a]);
        pms_json_kv_double(j, "vif", s->vif[a]);
        pms_json_kv_double(j, "component", s->component[a]);
        pms_json_key(j, "correlation");
        pms_json_array_begin(j);
        for (size_t b = 0; b < p; b++) pms_json_double(j, s->cor[a * p + b]);
        pms_json_array_end(j);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    pms_json_key(j, "stack");
    pms_json_object_begin(j);
    pms_json_kv_double(j, "base", s->base);
    for (size_t a = 0; a < p; a++) pms_json_kv_double(j, s->events[a], s->component[a]);
    pms_json_kv_double(j, "model_cpi", s->model_cpi);
    pms_json_kv_double(j, "observed_cpi", s->observed_cpi);
    pms_json_kv_double(j, "true_cpi", s->true_cpi);
    pms_json_kv_double(j, "durbin_watson", s->durbin_watson);
    if (s->hac_se) {
        pms_json_kv_uint(j, "newey_west_lag", s->hac_lag);
        pms_json_key(j, "newey_west_std_error");
        pms_json_array_begin(j);
        for (size_t c = 0; c < s->model->ncoef; c++) pms_json_double(j, s->hac_se[c]);
        pms_json_array_end(j);
    }
    pms_json_kv_double(j, "program_cpi", s->program_cpi);
    pms_json_object_end(j);
    if (s->boot.replicates) {
        pms_json_key(j, "bootstrap");
        pms_bootstrap_write_json(&s->boot, (const char *const *)s->model->names, j);
    }
    pms_json_object_end(j);
}

int pms_cpistack_write_bootstrap_replicates(const pms_cpistack *s, const char *what, bool header, FILE *out)
{
    return pms_bootstrap_write_replicates(&s->boot, what, (const char *const *)s->model->names, header, out);
}

/* Component names for charts: "base" then the events. */
static const char **stack_names(const pms_cpistack *s)
{
    const char **names = malloc((s->nevents + 1) * sizeof *names);
    if (!names) return NULL;
    names[0] = "base";
    for (size_t j = 0; j < s->nevents; j++) names[j + 1] = s->events[j];
    return names;
}

int pms_cpistack_charts(const pms_cpistack *s, const char *title, pms_chart **stacks, pms_chart **cpi)
{
    char t1[300], t2[300];
    snprintf(t1, sizeof t1, "CPI stack per interval%s%s", title ? ": " : "", title ? title : "");
    snprintf(t2, sizeof t2, "Observed and model CPI%s%s", title ? ": " : "", title ? title : "");
    size_t n = s->nrows, p = s->nevents;
    const char **names = stack_names(s);
    char (*cat)[24] = malloc((n ? n : 1) * sizeof *cat);
    const char **cats = malloc((n ? n : 1) * sizeof *cats);
    double *xs = malloc((n ? n : 1) * sizeof *xs), *fit = malloc((n ? n : 1) * sizeof *fit);
    *stacks = pms_chart_new(t1, "interval", "CPI");
    *cpi = pms_chart_new(t2, "interval", "CPI");
    int rc = names && cat && cats && xs && fit && *stacks && *cpi ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        pms_chart_set_units(*stacks, NULL, "cycles per instruction");
        pms_chart_set_units(*cpi, "number, from 1", "cycles per instruction");
    }
    for (size_t i = 0; rc == PMS_OK && i < n; i++) {
        snprintf(cat[i], sizeof cat[i], "%zu", i + 1);
        cats[i] = cat[i];
        xs[i] = (double)(i + 1);
        fit[i] = 0;
        for (size_t c = 0; c <= p; c++) fit[i] += s->stack[i * (p + 1) + c];
    }
    if (rc == PMS_OK) rc = pms_chart_add_stacked_bars(*stacks, cats, n, names, p + 1, s->stack);
    if (rc == PMS_OK) rc = pms_chart_add_bar_sums(*stacks, "model CPI (the sum)");
    if (rc == PMS_OK) rc = pms_chart_add_line(*cpi, "observed", xs, s->cpi, n, NULL);
    if (rc == PMS_OK) rc = pms_chart_add_line(*cpi, "model", xs, fit, n, NULL);
    free(names);
    free(cat);
    free(cats);
    free(xs);
    free(fit);
    if (rc < 0) {
        pms_chart_free(*stacks);
        pms_chart_free(*cpi);
        *stacks = *cpi = NULL;
    }
    return rc;
}

int pms_cpistack_bar_chart(const pms_cpistack *const *s, const char *const *labels, size_t n, pms_chart **out)
{
    if (n == 0) return pms__fail(PMS_EINVAL, "no CPI stacks to draw");
    size_t p = s[0]->nevents;
    double *v = malloc(n * (p + 1) * sizeof *v);
    const char **names = stack_names(s[0]);
    pms_chart *c = pms_chart_new("CPI stack", NULL, "CPI");
    int rc = v && names && c ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) pms_chart_set_units(c, NULL, "cycles per instruction");
    for (size_t g = 0; rc == PMS_OK && g < n; g++) {
        if (s[g]->nevents != p) {
            rc = pms__fail(PMS_EINVAL, "CPI stacks with different events cannot share a chart");
            break;
        }
        v[g * (p + 1)] = s[g]->base;
        for (size_t j = 0; j < p; j++) v[g * (p + 1) + 1 + j] = s[g]->component[j];
    }
    if (rc == PMS_OK) rc = pms_chart_add_stacked_bars(c, labels, n, names, p + 1, v);
    if (rc == PMS_OK) rc = pms_chart_add_bar_sums(c, "model CPI (the sum)");
    free(v);
    free(names);
    if (rc < 0) {
        pms_chart_free(c);
        return rc;
    }
    *out = c;
    return PMS_OK;
}
