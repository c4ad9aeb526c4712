/* The CSV and SVG reports of a cycle-estimation comparison, and the bootstrap replicates:
 * the held-out error before the fit error, and the test runs' prediction intervals. */
#include "estimate/report_internal.h"
#include "pmuscope/chart.h"
#include "pmuscope/stats.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* x of a run in the chart: its label number (TEST7 is 7) when the table is numbered, else its row. */
static double run_x(const pms_estimate_data *d, size_t run, bool numbered)
{
    if (!numbered) return (double)run + 1;
    const char *l = d->runs->labels[run], *p = l + strlen(l);
    while (p > l && p[-1] >= '0' && p[-1] <= '9') p--;
    return strtod(p, NULL);
}

/* The chart's points of one series of method k: the held-out, fit or test error % of runs,
 * only finite ones. */
enum series { HELDOUT, FIT, TEST, INTERVAL, SERIES };

static size_t series_points(const pms_estimate_data *d, const pms_estimate_result *r, enum series s, bool numbered,
                            double *x, double *y)
{
    size_t n = 0;
    const size_t *idx = s == TEST ? d->test : d->train;
    size_t m = s == TEST ? d->n_test : d->n_train;
    for (size_t a = 0; a < m; a++) {
        size_t run = idx[a];
        double v = s == HELDOUT ? pms_estimate_error_pct(r->heldout ? r->heldout[a] : NAN, d->runs->cycles[run])
                                : pms__report_error(d, r->model, run);
        if (isfinite(v)) x[n] = run_x(d, run, numbered), y[n++] = v;
    }
    return n;
}

/* The prediction intervals of the test runs as boxes, their bounds' error % (0 lies inside
 * when the interval holds the measured cycles); an unbounded interval is left out. */
static size_t interval_boxes(const pms_estimate_data *d, const pms_estimate_result *r, bool numbered, double *x0,
                             double *x1, double *lo, double *hi)
{
    size_t n = 0;
    for (size_t t = 0; r->lower && t < d->n_test; t++) {
        double c = d->runs->cycles[d->test[t]], x = run_x(d, d->test[t], numbered);
        lo[n] = pms_estimate_error_pct(r->lower[t], c), hi[n] = pms_estimate_error_pct(r->upper[t], c);
        if (isfinite(lo[n]) && isfinite(hi[n])) x0[n] = x - 0.3, x1[n] = x + 0.3, n++;
    }
    return n;
}

/* "#rrggbb" halfway to white: the held-out points beside the method's own colour. */
static void lighter(const char *color, char out[16])
{
    unsigned rgb = (unsigned)strtoul(color + 1, NULL, 16), r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
    snprintf(out, 16, "#%02x%02x%02x", (r + 255) / 2 & 255, (g + 255) / 2 & 255, (b + 255) / 2 & 255);
}

int pms_estimate_write_svg(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    static const char *const colors[PMS_EST_METHODS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};
    bool numbered = pms_runs_numbered(d->runs);
    pms_chart *c = pms_chart_new("Estimated cycles: error per run (held-out, fit, test, prediction intervals)",
                                 numbered ? "run number" : "run", "error");
    size_t n = d->n_train + d->n_test;
    double *x = malloc((n ? n : 1) * 4 * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    int rc = c && x && y ? PMS_OK : PMS_ENOMEM;
    /* a method's fitting runs as a line with rings, its test runs as dots, its held-out estimates as
     * dots of a lighter colour and its intervals as boxes: the legend tells them apart */
    if (rc == PMS_OK) pms_chart_set_units(c, numbered ? "from the run's label" : "row of the table", "% of measured cycles");
    for (size_t k = 0; rc == PMS_OK && k < PMS_EST_METHODS; k++) {
        if (!res[k].ok) continue;
        for (enum series s = HELDOUT; s < SERIES && rc == PMS_OK; s++) {
            char label[64], light[16];
            const char *label_label = pms_estimate_method_label(k);
            if (s == INTERVAL) {
                size_t m = interval_boxes(d, &res[k], numbered, x, x + n, x + 2 * n, x + 3 * n);
                snprintf(label, sizeof label, "%s %g%% interval", label_label, 100 * res[k].level);
                if (m) rc = pms_chart_add_ranges(c, label, x, x + n, x + 2 * n, x + 3 * n, m, colors[k]);
                continue;
            }
            size_t m = series_points(d, &res[k], s, numbered, x, y);
            if (m == 0) continue;
            snprintf(label, sizeof label, "%s %s", label_label, s == HELDOUT ? "held-out" : s == FIT ? "fit" : "test");
            lighter(colors[k], light);
            rc = s == FIT ? pms_chart_add_line(c, label, x, y, m, colors[k])
                          : pms_chart_add_points(c, label, x, y, m, s == HELDOUT ? light : colors[k]);
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
    const char *method[PMS_EST_METHODS], *note[PMS_EST_METHODS], *kind[PMS_EST_METHODS];
    char heldout_note[PMS_EST_METHODS][700];
    double counters[PMS_EST_METHODS], heldout[PMS_EST_METHODS], test[PMS_EST_METHODS], fit[PMS_EST_METHODS];
    double v[PMS_EST_METHODS];
    size_t n = 0;
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        if (!res[k].wanted) continue;
        bool ok = res[k].ok;
        method[n] = pms_estimate_method_label(k);
        /* a fitted method's note is why some of its held-out refits failed */
        if (res[k].folds)
            snprintf(heldout_note[n], sizeof heldout_note[n], "held-out: %zu of %zu refits failed: %s",
                     res[k].heldout_failed, d->n_train, res[k].heldout_reason);
        else
            snprintf(heldout_note[n], sizeof heldout_note[n], "no held-out error: %s", res[k].heldout_reason);
        note[n] = !ok ? res[k].reason : res[k].heldout_failed || !res[k].folds ? heldout_note[n] : "";
        kind[n] = ok && d->n_test ? pms__report_interval_name(res[k].interval) : "";
        counters[n] = ok ? (double)res[k].model->n_used : NAN;
        heldout[n] = ok ? res[k].heldout_error_pct : NAN;
        test[n] = ok ? pms__report_test_error(d, res[k].model) : NAN;
        fit[n] = ok ? pms__report_fit_error(d, res[k].model) : NAN;
        n++;
    }
    pms_table *t = pms_table_new("TABLE X");
    if (!t) return pms__fail(PMS_ENOMEM, "out of memory");
    int rc = pms_table_add_string(t, "method", method, n);
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "counters", counters, n);
    /* the held-out error first: the fit error flatters every method */
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "heldout_abs_error_pct", heldout, n);
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "test_abs_error_pct", test, n);
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "fit_abs_error_pct", fit, n);
    for (size_t j = 0; j < d->n_test && rc == PMS_OK; j++) {
        size_t m = 0;
        for (size_t k = 0; k < PMS_EST_METHODS; k++)
            if (res[k].wanted) v[m++] = res[k].ok ? pms__report_error(d, res[k].model, d->test[j]) : NAN;
        rc = pms_table_add_numeric(t, d->runs->labels[d->test[j]], v, n);
    }
    for (size_t c = 0; c < 2 * d->n_test && rc == PMS_OK; c++) { /* <run>_lower, <run>_upper in cycles */
        size_t j = c / 2, m = 0;
        char name[512];
        for (size_t k = 0; k < PMS_EST_METHODS; k++)
            if (res[k].wanted) v[m++] = !res[k].ok || !res[k].lower ? NAN : c % 2 ? res[k].upper[j] : res[k].lower[j];
        snprintf(name, sizeof name, "%s_%s", d->runs->labels[d->test[j]], c % 2 ? "upper" : "lower");
        rc = pms_table_add_numeric(t, name, v, n);
    }
    if (rc == PMS_OK && d->n_test) rc = pms_table_add_string(t, "interval", kind, n);
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
        pms__report_boot_names(d, res[k].model, names, est);
        rc = pms_bootstrap_write_replicates(&res[k].boot, pms_estimate_method_key(k), names, first, out);
        first = false;
    }
    return rc;
}
