/* The intervals of a phase analysis and their outputs (table, summary, CSV, JSON, SVG). */
#include "pmuscope/phase_report.h"
#include "pmuscope/chart.h"
#include "pmuscope/json.h"

#include "util/error.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pms_phase_run_add(pms_phase_run *r, const pms_phase_event *ev)
{
    if (pms__grow(&r->rows, &r->cap, r->n + 1, sizeof *r->rows)) return pms__fail(PMS_ENOMEM, "out of memory for the interval table");
    pms_phase_row *row = &r->rows[r->n];
    row->ev = *ev;
    row->sig = malloc(ev->signature_size * sizeof *row->sig);
    if (!row->sig) return pms__fail(PMS_ENOMEM, "out of memory for the interval table");
    memcpy(row->sig, ev->signature, ev->signature_size * sizeof *row->sig);
    row->ev.signature = row->sig;
    row->truth = -1;
    r->n++;
    return PMS_OK;
}

int pms_phase_run_collect(const pms_phase_event *ev, void *run)
{
    return pms_phase_run_add(run, ev);
}

void pms_phase_run_free(pms_phase_run *r)
{
    for (size_t i = 0; i < r->n; i++) free(r->rows[i].sig);
    free(r->rows);
    for (size_t i = 0; i < r->ntruth; i++) free(r->truth_names[i]);
    free(r->truth_names);
}

int pms_phase_run_set_truth(pms_phase_run *r, size_t i, const char *name)
{
    r->has_truth = 1;
    if (!name) return PMS_OK;
    size_t k = 0;
    while (k < r->ntruth && strcmp(r->truth_names[k], name)) k++;
    if (k == r->ntruth) {
        char **names = realloc(r->truth_names, (k + 1) * sizeof *names);
        if (!names) return pms__fail(PMS_ENOMEM, "out of memory for the truth labels");
        r->truth_names = names;
        if (!(names[k] = strdup(name))) return pms__fail(PMS_ENOMEM, "out of memory for the truth labels");
        r->ntruth++;
    }
    r->rows[i].truth = (int)k;
    return PMS_OK;
}

int pms_phase_run_label(pms_phase_run *r, const pms_phase_truth *truth, const char *path)
{
    size_t labelled = 0;
    for (size_t i = 0; i < r->n; i++) {
        int label = pms_phase_truth_label(truth, r->rows[i].ev.start_time, r->rows[i].ev.end_time);
        labelled += label >= 0;
        int rc = pms_phase_run_set_truth(r, i, label >= 0 ? pms_phase_truth_name(truth, label) : NULL);
        if (rc) return rc;
    }
    if (labelled || !r->n) return PMS_OK;
    if (!r->rows[r->n - 1].ev.end_time)
        return pms__fail(PMS_EINVAL, "%s: the intervals of %s carry no times to match the known schedule "
                         "(intervals without times, as exp-bbv's, are labelled by the functions they run instead)",
                         path, r->source);
    return pms__fail(PMS_EINVAL, "%s: no interval overlaps the known schedule (the %zu intervals run from %llu "
                     "to %llu ns; the schedule's times must be on the same clock)",
                     path, r->n, (unsigned long long)r->rows[0].ev.start_time,
                     (unsigned long long)r->rows[r->n - 1].ev.end_time);
}

static const char *truth_name(const pms_phase_run *r, size_t i)
{
    int t = r->rows[i].truth;
    return t >= 0 ? r->truth_names[t] : "-";
}

/* One character per phase id: 1-9, a-z, A-Z, '+' beyond; '.' for the transition phase. */
static char phase_char(int id)
{
    static const char digits[] = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (id == PMS_PHASE_TRANSITION) return '.';
    if (id < 0) return ' ';
    return (size_t)id <= sizeof digits - 1 ? digits[id - 1] : '+';
}

static double elapsed_ms(const pms_phase_run *r, uint64_t t)
{
    uint64_t t0 = r->n ? r->rows[0].ev.start_time : 0;
    return t && t >= t0 ? (double)(t - t0) / 1e6 : NAN;
}

static const int *predictions(const pms_phase_run *r, int k)
{
    size_t n;
    return pms_phase_engine_predictions(r->engine, (pms_predictor_kind)k, &n);
}

/* A number, or "-" when it is unknown. */
static void print_num(FILE *out, int width, const char *fmt, double v)
{
    if (!isfinite(v)) fprintf(out, " %*s", width, "-");
    else {
        fputc(' ', out);
        fprintf(out, fmt, width, v);
    }
}

void pms_phase_print_table(const pms_phase_run *r, FILE *out)
{
    fprintf(out, "%8s %10s %12s %7s %5s %6s %10s", "interval", "start_ms", r->size_unit,
            r->samples_name ? r->samples_name : "samples", "phase",
            "dist", r->metric_name);
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) fprintf(out, " %10s", pms_predictor_name((pms_predictor_kind)k));
    fprintf(out, " %5s%s\n", "next", r->has_truth ? "  truth" : "");
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        fprintf(out, "%8llu", (unsigned long long)ev->index);
        print_num(out, 10, "%*.2f", elapsed_ms(r, ev->start_time));
        fprintf(out, " %12llu %7zu %5d %6.3f", (unsigned long long)ev->size, ev->samples, ev->phase, ev->distance);
        print_num(out, 10, "%*.4g", ev->metric);
        for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
            int p = predictions(r, k)[i];
            if (p < 0) fprintf(out, " %10s", "-");
            else fprintf(out, " %9d%c", p, p == ev->phase ? ' ' : '*');
        }
        fprintf(out, " %4ux", ev->next_multiple);
        if (r->has_truth) fprintf(out, "  %s", truth_name(r, i));
        fputc('\n', out);
    }
    fprintf(out, "(* marks a wrong prediction; next: the next interval in base intervals)\n\n");
}

/* The baseline a predictor must beat: "the next interval is in the same phase as this
 * one", scored on the known labels (intervals whose label and predecessor's are known). */
static double truth_last_value_accuracy(const pms_phase_run *r)
{
    size_t right = 0, n = 0;
    for (size_t i = 1; i < r->n; i++)
        if (r->rows[i].truth >= 0 && r->rows[i - 1].truth >= 0) {
            n++;
            right += r->rows[i].truth == r->rows[i - 1].truth;
        }
    return n ? (double)right / (double)n : NAN;
}

static double truth_ari(const pms_phase_run *r, size_t *used)
{
    int *a = malloc((r->n ? r->n : 1) * sizeof *a), *b = malloc((r->n ? r->n : 1) * sizeof *b);
    size_t m = 0;
    for (size_t i = 0; a && b && i < r->n; i++)
        if (r->rows[i].truth >= 0) {
            a[m] = r->rows[i].ev.phase;
            b[m++] = r->rows[i].truth;
        }
    double ari = a && b ? pms_adjusted_rand_index(a, b, m) : NAN;
    free(a);
    free(b);
    *used = m;
    return ari;
}

/* Why a summary number is unknown: the text prints "-" and this, the JSON null and this. */
#define WHY_NO_PREDICTION "fewer than 2 intervals: nothing was predicted"
#define WHY_NO_LABELS "fewer than 2 intervals carry a label of the known schedule"
#define WHY_NO_PAIRS "no two consecutive intervals carry labels of the known schedule"
#define WHY_NO_INTERVALS "no intervals"

/* A percentage, or "-" and why in the width of the number (and why after the line). */
static void print_percent(FILE *out, int width, double v)
{
    if (isfinite(v)) fprintf(out, "%*.1f%%", width, 100 * v);
    else fprintf(out, "%*s ", width, "-");
}

void pms_phase_print_summary(const pms_phase_run *r, FILE *out)
{
    pms_phase_summary s;
    pms_phase_engine_summary(r->engine, &s);
    fprintf(out, "timeline: ");
    for (size_t i = 0; i < r->n; i++) fputc(phase_char(r->rows[i].ev.phase), out);
    fprintf(out, "\n          (one character per interval; '.' = transition phase)\n\n");
    fprintf(out, "summary of %s\n", r->source);
    fprintf(out, "  intervals           %zu\n", s.intervals);
    fprintf(out, "  phases              %d\n", s.phases);
    fprintf(out, "  seed                %llu (of the signatures' random projection)\n",
            (unsigned long long)r->cfg->seed);
    if (s.intervals) {
        fprintf(out, "  transition share    %.1f%%\n", 100 * s.transition_share);
        fprintf(out, "  mean run length     %.2f intervals\n", s.mean_run_length);
    } else {
        fprintf(out, "  transition share    - (" WHY_NO_INTERVALS ")\n");
        fprintf(out, "  mean run length     - (" WHY_NO_INTERVALS ")\n");
    }
    if (r->metric_about) fprintf(out, "  metric              %s: %s\n", r->metric_name, r->metric_about);
    if (!isfinite(s.intra_phase_cov) || !isfinite(s.whole_cov))
        fprintf(out, "  intra-phase CoV     - (no per-interval %s)\n", r->metric_name);
    else
        fprintf(out, "  intra-phase CoV     %.2f%% of %s (whole run %.2f%%)\n", 100 * s.intra_phase_cov,
                r->metric_name, 100 * s.whole_cov);
    if (r->has_truth) {
        size_t m;
        double ari = truth_ari(r, &m);
        if (isfinite(ari))
            fprintf(out, "  adjusted Rand index %.3f against the known schedule (%zu intervals)\n", ari, m);
        else
            fprintf(out, "  adjusted Rand index - (" WHY_NO_LABELS ": %zu)\n", m);
    }
    fprintf(out, "\n  %-12s %9s %14s %13s\n", "predictor", "accuracy", "false changes", "metric error");
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        fprintf(out, "  %-12s", pms_predictor_name((pms_predictor_kind)k));
        print_percent(out, 9, s.accuracy[k]);
        print_percent(out, 14, s.false_change_rate[k]);
        print_num(out, 13, "%*.4g", s.metric_error[k]);
        fprintf(out, "%s\n", k == (int)r->cfg->predictor ? "  (reported in events)" : "");
    }
    if (isnan(s.accuracy[0])) fprintf(out, "  (accuracy and false changes: " WHY_NO_PREDICTION ")\n");
    if (r->has_truth) {
        double base = truth_last_value_accuracy(r);
        fprintf(out, "  %-12s", "baseline");
        print_percent(out, 9, base);
        fprintf(out, "  (last value on the known schedule's labels: %s)\n",
                isfinite(base) ? "what prediction must beat" : WHY_NO_PAIRS);
    }
    fprintf(out, "  (metric error: mean |%s of the predicted phase so far - the interval's|)\n", r->metric_name);
}

int pms_phase_write_csv(const pms_phase_run *r, FILE *out)
{
    fprintf(out, "interval,start_ns,end_ns,size,samples,phase,distance,metric");
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) fprintf(out, ",predicted_%s", pms_predictor_name((pms_predictor_kind)k));
    fprintf(out, ",confidence,next_multiple%s\n", r->has_truth ? ",truth" : "");
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        fprintf(out, "%llu,%llu,%llu,%llu,%zu,%d,%.6f,", (unsigned long long)ev->index,
                (unsigned long long)ev->start_time, (unsigned long long)ev->end_time, (unsigned long long)ev->size,
                ev->samples, ev->phase, ev->distance);
        if (isfinite(ev->metric)) fprintf(out, "%.6g", ev->metric); /* empty: no metric for this interval */
        for (int k = 0; k < PMS_PREDICT_COUNT; k++) fprintf(out, ",%d", predictions(r, k)[i]);
        fprintf(out, ",%.3f,%u", ev->prediction.confidence, ev->next_multiple);
        if (r->has_truth) fprintf(out, ",%s", truth_name(r, i));
        fputc('\n', out);
    }
    return ferror(out) ? PMS_EIO : PMS_OK;
}

void pms_phase_write_json(const pms_phase_run *r, FILE *out)
{
    pms_phase_summary s;
    pms_phase_engine_summary(r->engine, &s);
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "source", r->source);
    pms_json_key(&j, "settings");
    pms_json_object_begin(&j);
    const pms_phase_config *c = r->cfg;
    pms_json_kv_string(&j, "classifier", c->classifier.kind == PMS_CLASSIFIER_KMEANS ? "kmeans" : "distance");
    pms_json_kv_uint(&j, "signature_size", c->classifier.signature_size);
    pms_json_kv_double(&j, "threshold_percent", c->classifier.threshold);
    pms_json_kv_uint(&j, "transition_threshold", c->classifier.transition_threshold);
    pms_json_kv_uint(&j, "cache_size", c->classifier.cache_size);
    if (c->classifier.kind == PMS_CLASSIFIER_KMEANS) {
        pms_json_kv_uint(&j, "k", c->classifier.k);
        pms_json_kv_double(&j, "learning_rate", c->classifier.learning_rate);
    }
    pms_json_kv_uint(&j, "seed", c->seed);
    pms_json_kv_string(&j, "predictor", pms_predictor_name(c->predictor));
    pms_json_kv_double(&j, "interval_multiplier", c->dynamic.multiplier);
    pms_json_kv_uint(&j, "interval_maximum", c->dynamic.maximum);
    pms_json_object_end(&j);
    pms_json_key(&j, "summary");
    pms_json_object_begin(&j);
    pms_json_kv_uint(&j, "intervals", s.intervals);
    pms_json_kv_int(&j, "phases", s.phases);
    pms_json_kv_number(&j, "transition_share", s.transition_share, WHY_NO_INTERVALS);
    pms_json_kv_number(&j, "mean_run_length", s.mean_run_length, WHY_NO_INTERVALS);
    pms_json_kv_string(&j, "metric", r->metric_name);
    if (r->metric_about) pms_json_kv_string(&j, "metric_about", r->metric_about);
    char why_no_metric[64];
    snprintf(why_no_metric, sizeof why_no_metric, "no per-interval %s", r->metric_name);
    pms_json_kv_number(&j, "intra_phase_cov", s.intra_phase_cov, why_no_metric);
    pms_json_kv_number(&j, "whole_cov", s.whole_cov, why_no_metric);
    if (r->has_truth) {
        size_t m;
        pms_json_kv_number(&j, "adjusted_rand_index", truth_ari(r, &m), WHY_NO_LABELS);
        pms_json_kv_number(&j, "baseline_last_value_accuracy", truth_last_value_accuracy(r), WHY_NO_PAIRS);
    }
    pms_json_key(&j, "predictors");
    pms_json_object_begin(&j);
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        pms_json_key(&j, pms_predictor_name((pms_predictor_kind)k));
        pms_json_object_begin(&j);
        pms_json_kv_number(&j, "accuracy", s.accuracy[k], WHY_NO_PREDICTION);
        pms_json_kv_number(&j, "false_change_rate", s.false_change_rate[k], WHY_NO_PREDICTION);
        pms_json_kv_number(&j, "metric_error", s.metric_error[k], "no interval with a metric was predicted");
        pms_json_object_end(&j);
    }
    pms_json_object_end(&j);
    pms_json_object_end(&j);
    pms_json_key(&j, "intervals");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        pms_json_object_begin(&j);
        pms_json_kv_uint(&j, "index", ev->index);
        pms_json_kv_uint(&j, "start_ns", ev->start_time);
        pms_json_kv_uint(&j, "end_ns", ev->end_time);
        pms_json_kv_uint(&j, "size", ev->size);
        pms_json_kv_uint(&j, "samples", ev->samples);
        pms_json_kv_int(&j, "phase", ev->phase);
        pms_json_kv_double(&j, "distance", ev->distance);
        pms_json_kv_number(&j, "metric", ev->metric, why_no_metric);
        pms_json_key(&j, "predicted");
        pms_json_object_begin(&j);
        for (int k = 0; k < PMS_PREDICT_COUNT; k++)
            pms_json_kv_int(&j, pms_predictor_name((pms_predictor_kind)k), predictions(r, k)[i]);
        pms_json_object_end(&j);
        pms_json_kv_uint(&j, "next_multiple", ev->next_multiple);
        if (r->has_truth) pms_json_kv_string(&j, "truth", truth_name(r, i));
        pms_json_key(&j, "signature");
        pms_json_array_begin(&j);
        for (size_t k = 0; k < ev->signature_size; k++) pms_json_double(&j, ev->signature[k]);
        pms_json_array_end(&j);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
}

/* The thesis's figures in one chart: the phase of every interval in a band above a heat map
 * of the signatures (one row per signature entry, one column per interval), on one interval
 * axis. */
int pms_phase_write_svg(const pms_phase_run *r, FILE *out)
{
    size_t rows = r->cfg->classifier.signature_size, cols = r->n;
    int *labels = malloc((cols ? cols : 1) * sizeof *labels);
    double *heat = malloc((rows * cols + 1) * sizeof *heat);
    pms_chart *chart = pms_chart_new("Phase and signature of each interval", "interval", "signature entry");
    int rc = labels && heat && chart ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (!rc) {
        for (size_t i = 0; i < cols; i++) {
            int p = r->rows[i].ev.phase;
            labels[i] = p == PMS_PHASE_TRANSITION ? -1 : p;
            for (size_t k = 0; k < rows; k++) heat[k * cols + i] = r->rows[i].sig[k];
        }
        pms_chart_set_units(chart, "number, from 0", "number, from 0");
        rc = pms_chart_add_timeline(chart, "phase", "transition", labels, cols);
        if (!rc) rc = pms_chart_add_heatmap(chart, "weight (the entries sum to 1)", heat, rows, cols);
        if (!rc) rc = pms_chart_write_svg(&chart, 1, 900, out);
    }
    pms_chart_free(chart);
    free(labels);
    free(heat);
    return rc;
}
