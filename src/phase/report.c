/* The intervals of a phase analysis and their outputs (table, summary, CSV, JSON, SVG). */
#include "pmuscope/phase_report.h"
#include "phase/report_internal.h"
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
    row->times = NULL;
    if (ev->sample_times && ev->samples) {
        if (!(row->times = malloc(ev->samples * sizeof *row->times))) {
            free(row->sig);
            return pms__fail(PMS_ENOMEM, "out of memory for the interval table");
        }
        memcpy(row->times, ev->sample_times, ev->samples * sizeof *row->times);
    }
    row->ev.sample_times = row->times;
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
    for (size_t i = 0; i < r->n; i++) {
        free(r->rows[i].sig);
        free(r->rows[i].times);
    }
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

/* The label most of the interval's samples fell in (ties: the later sample's); -1 when
 * none fell in the schedule, -2 when out of memory. */
static int majority_label(const pms_phase_truth *truth, const pms_phase_event *ev, size_t *span_samples)
{
    int nlabels = pms_phase_truth_nlabels(truth), best = -1;
    size_t *count = calloc((size_t)nlabels + 1, sizeof *count);
    if (!count) return -2;
    for (size_t k = 0; k < ev->samples; k++) {
        size_t span;
        int label = pms_phase_truth_label_at(truth, ev->tid, ev->sample_times[k], &span);
        if (label < 0) continue;
        span_samples[span]++;
        if (++count[label] >= (best >= 0 ? count[best] : 1)) best = label;
    }
    free(count);
    return best;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The median samples of the schedule's phase instances that got any. */
static double median_samples(size_t *v, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i]) v[kept++] = v[i];
    if (!kept) return 0;
    qsort(v, kept, sizeof *v, cmp_size);
    return kept % 2 ? (double)v[kept / 2] : ((double)v[kept / 2 - 1] + (double)v[kept / 2]) / 2;
}

int pms_phase_run_label(pms_phase_run *r, const pms_phase_truth *truth, const char *path)
{
    size_t labelled = 0, *span_samples = calloc(pms_phase_truth_nspans(truth) + 1, sizeof *span_samples);
    if (!span_samples) return pms__fail(PMS_ENOMEM, "out of memory for the known schedule's labels");
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        int label = ev->sample_times ? majority_label(truth, ev, span_samples)
                                     : pms_phase_truth_thread_label(truth, ev->tid, ev->start_time, ev->end_time);
        if (label == -2) {
            free(span_samples);
            return pms__fail(PMS_ENOMEM, "out of memory for the known schedule's labels");
        }
        labelled += label >= 0;
        int rc = pms_phase_run_set_truth(r, i, label >= 0 ? pms_phase_truth_name(truth, label) : NULL);
        if (rc) {
            free(span_samples);
            return rc;
        }
    }
    r->truth_span_samples = median_samples(span_samples, pms_phase_truth_nspans(truth));
    free(span_samples);
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

static double elapsed_ms(const pms_phase_run *r, uint64_t t)
{
    uint64_t t0 = r->n ? r->rows[0].ev.start_time : 0;
    return t && t >= t0 ? (double)(t - t0) / 1e6 : NAN;
}


void pms_phase_print_table(const pms_phase_run *r, FILE *out)
{
    fprintf(out, "%8s %10s %12s %7s %5s %6s %10s", "interval", "start_ms", r->size_unit,
            r->samples_name ? r->samples_name : "samples", "phase",
            "dist", r->metric_name);
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) fprintf(out, " %10s", pms_predictor_name((pms_predictor_kind)k));
    fprintf(out, " %5s %8s%s\n", "next", "tid", r->has_truth ? "  truth" : "");
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        fprintf(out, "%8llu", (unsigned long long)ev->index);
        pms__phase_print_num(out, 10, "%*.2f", elapsed_ms(r, ev->start_time));
        fprintf(out, " %12llu %7zu %5d %6.3f", (unsigned long long)ev->size, ev->samples, ev->phase, ev->distance);
        pms__phase_print_num(out, 10, "%*.4g", ev->metric);
        for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
            int p = pms__phase_row_prediction(r, i, k);
            if (p < 0) fprintf(out, " %10s", "-");
            else fprintf(out, " %9d%c", p, p == ev->phase ? ' ' : '*');
        }
        fprintf(out, " %4ux %8d", ev->next_multiple, (int)ev->tid);
        if (r->has_truth) fprintf(out, "  %s", truth_name(r, i));
        fputc('\n', out);
    }
    fprintf(out, "(* marks a wrong prediction; next: the next interval in base intervals)\n\n");
}

int pms_phase_write_csv(const pms_phase_run *r, FILE *out)
{
    fprintf(out, "interval,start_ns,end_ns,size,samples,phase,distance,metric");
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) fprintf(out, ",predicted_%s", pms_predictor_name((pms_predictor_kind)k));
    fprintf(out, ",confidence,next_multiple%s,tid\n", r->has_truth ? ",truth" : "");
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        fprintf(out, "%llu,%llu,%llu,%llu,%zu,%d,%.6f,", (unsigned long long)ev->index,
                (unsigned long long)ev->start_time, (unsigned long long)ev->end_time, (unsigned long long)ev->size,
                ev->samples, ev->phase, ev->distance);
        if (isfinite(ev->metric)) fprintf(out, "%.10g", ev->metric); /* 10 digits: the summary's means recompute from it; empty: no metric */
        for (int k = 0; k < PMS_PREDICT_COUNT; k++) fprintf(out, ",%d", pms__phase_row_prediction(r, i, k));
        fprintf(out, ",%.3f,%u", ev->prediction.confidence, ev->next_multiple);
        if (r->has_truth) fprintf(out, ",%s", truth_name(r, i));
        fprintf(out, ",%d\n", (int)ev->tid);
    }
    return ferror(out) ? PMS_EIO : PMS_OK;
}

/* Each thread's own summary, where each classified its intervals itself. */
static void write_threads_json(const pms_phase_run *r, pms_json *j)
{
    pms_json_key(j, "threads");
    pms_json_array_begin(j);
    for (size_t t = 0; r->threads && t < pms_phase_threads_count(r->threads); t++) {
        pid_t tid;
        pms_phase_summary s;
        pms_phase_engine_summary(pms_phase_threads_engine(r->threads, t, &tid), &s);
        pms_json_object_begin(j);
        pms_json_kv_int(j, "tid", tid);
        pms_json_kv_uint(j, "intervals", s.intervals);
        pms_json_kv_int(j, "phases", s.phases);
        pms_json_kv_number(j, "transition_share", s.transition_share, WHY_NO_INTERVALS);
        pms_json_kv_number(j, "mean_run_length", s.mean_run_length, WHY_NO_INTERVALS);
        if (r->has_truth) {
            size_t m;
            pms_json_kv_number(j, "adjusted_rand_index", pms__phase_truth_ari(r, tid, &m), WHY_NO_LABELS);
        }
        pms_json_key(j, "accuracy");
        pms_json_object_begin(j);
        for (int k = 0; k < PMS_PREDICT_COUNT; k++)
            pms_json_kv_number(j, pms_predictor_name((pms_predictor_kind)k), s.accuracy[k], WHY_NO_PREDICTION);
        pms_json_object_end(j);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

void pms_phase_write_json(const pms_phase_run *r, FILE *out)
{
    pms_phase_summary s;
    pms_phase_threads_summary(r->threads, &s);
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
    pms_json_kv_bool(&j, "shared_table", c->shared_table != 0);
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
        pms_json_kv_number(&j, "adjusted_rand_index", pms__phase_truth_ari(r, 0, &m), WHY_NO_LABELS);
        pms_json_kv_number(&j, "baseline_last_value_accuracy", pms__phase_truth_last_value(r), WHY_NO_PAIRS);
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
    pms_json_kv_number(&j, "metric_error_baseline", s.metric_error_baseline,
                       "fewer than 2 intervals with a metric: no program mean to guess with");
    char advice[512];
    if (pms__phase_short_phases_advice(r, &s, advice, sizeof advice)) pms_json_kv_string(&j, "note", advice);
    if (r->note) pms_json_kv_string(&j, "input_note", r->note);
    pms_json_object_end(&j);
    write_threads_json(r, &j);
    pms_json_key(&j, "intervals");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < r->n; i++) {
        const pms_phase_event *ev = &r->rows[i].ev;
        pms_json_object_begin(&j);
        pms_json_kv_uint(&j, "index", ev->index);
        pms_json_kv_int(&j, "tid", ev->tid);
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
            pms_json_kv_int(&j, pms_predictor_name((pms_predictor_kind)k), pms__phase_row_prediction(r, i, k));
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

/* The chart of one thread's intervals (all of them for tid 0): its phase band above a heat
 * map of its signatures (one row per signature entry, one column per interval). */
static int thread_chart(const pms_phase_run *r, pid_t tid, int several, pms_chart **out)
{
    size_t rows = r->cfg->classifier.signature_size, cols = 0;
    for (size_t i = 0; i < r->n; i++) cols += !several || r->rows[i].ev.tid == tid;
    int *labels = malloc((cols ? cols : 1) * sizeof *labels);
    double *heat = malloc((rows * cols + 1) * sizeof *heat);
    char title[96];
    if (several) snprintf(title, sizeof title, "Phase and signature of each interval of thread %d", (int)tid);
    else snprintf(title, sizeof title, "Phase and signature of each interval");
    pms_chart *chart = pms_chart_new(title, "interval", "signature entry");
    int rc = labels && heat && chart ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0, c = 0; !rc && i < r->n; i++) {
        if (several && r->rows[i].ev.tid != tid) continue;
        int p = r->rows[i].ev.phase;
        labels[c] = p == PMS_PHASE_TRANSITION ? -1 : p;
        for (size_t k = 0; k < rows; k++) heat[k * cols + c] = r->rows[i].sig[k];
        c++;
    }
    if (!rc) {
        pms_chart_set_units(chart, "number, from 0", "number, from 0");
        rc = pms_chart_add_timeline(chart, "phase", "transition", labels, cols);
        if (!rc) rc = pms_chart_add_heatmap(chart, "weight (the entries sum to 1)", heat, rows, cols);
    }
    free(labels);
    free(heat);
    if (rc) pms_chart_free(chart);
    else *out = chart;
    return rc;
}

/* The thesis's figures: the phase of every interval above a heat map of the signatures,
 * a chart per thread where there are several. */
int pms_phase_write_svg(const pms_phase_run *r, FILE *out)
{
    size_t n = r->threads ? pms_phase_threads_count(r->threads) : 0, made = 0;
    int several = n > 1;
    pms_chart **charts = calloc(several ? n : 1, sizeof *charts);
    int rc = charts ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t t = 0; !rc && t < (several ? n : 1); t++, made++) {
        pid_t tid = 0;
        if (several) pms_phase_threads_engine(r->threads, t, &tid);
        rc = thread_chart(r, tid, several, &charts[t]);
    }
    if (!rc) rc = pms_chart_write_svg(charts, made, 900, out);
    for (size_t t = 0; charts && t < made; t++) pms_chart_free(charts[t]);
    free(charts);
    return rc;
}
