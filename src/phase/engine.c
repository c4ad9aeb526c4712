/* The phase engine: signature -> classifier -> predictors -> dynamic interval size,
 * over a stream of intervals, with the bookkeeping for the summary metrics. Nothing
 * here depends on time or on where the intervals come from, so a replay of the same
 * intervals with the same settings gives the same result bit for bit. */
#include "phase/engine_internal.h"
#include "pmuscope/phase.h"
#include "util/error.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pms_phase_engine {
    pms_phase_config cfg;
    uint64_t base_size;
    pms_projection proj;
    pms_classifier *classifier;
    int owns_classifier;        /* 0: a phase table shared with other engines */
    pms_predictor *predictors[PMS_PREDICT_COUNT];
    pms_prediction pending[PMS_PREDICT_COUNT]; /* predictions for the interval to come */
    uint64_t correct[PMS_PREDICT_COUNT], false_changes[PMS_PREDICT_COUNT];
    double metric_error[PMS_PREDICT_COUNT];
    uint64_t metric_errors[PMS_PREDICT_COUNT];
    /* the baseline of the metric error: the program's mean metric so far as the guess */
    double metric_total, baseline_error;
    uint64_t metric_seen, baseline_errors;
    double *sig;
    /* history, one entry per interval */
    int *labels;
    int *predicted[PMS_PREDICT_COUNT];
    double *metrics;
    size_t n, cap;
    /* per phase id: the last completed run, the interval multiple last used, and the
     * sum and count of the metric so far */
    unsigned *last_run, *last_multiple;
    double *metric_sum;
    uint64_t *metric_count;
    size_t nphase_slots;
    unsigned run;
    unsigned multiple; /* of the interval being collected */
};

void pms_phase_config_default(pms_phase_config *c)
{
    memset(c, 0, sizeof *c);
    pms_classifier_config_default(&c->classifier);
    c->seed = 1;
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) pms_predictor_config_default(&c->predictors[k], (pms_predictor_kind)k);
    /* Measured on the bundled phases workload (6 live runs, two samplings): last value
     * scored best or tied with Markov in every run, run length worst (README). */
    c->predictor = PMS_PREDICT_LAST;
    c->dynamic.multiplier = 1;
    c->dynamic.maximum = 16;
}

int pms_phase_engine_create(pms_phase_engine **out, const pms_phase_config *cfg, uint64_t base_size)
{
    return pms__phase_engine_create_shared(out, cfg, base_size, NULL);
}

int pms__phase_engine_create_shared(pms_phase_engine **out, const pms_phase_config *cfg, uint64_t base_size,
                                    pms_classifier *shared)
{
    if (!(cfg->dynamic.multiplier >= 1 && cfg->dynamic.multiplier <= 1024))
        return pms__fail(PMS_EINVAL, "interval multiplier %g: expected 1 (fixed intervals) to 1024",
                        cfg->dynamic.multiplier);
    if (cfg->dynamic.maximum < 1)
        return pms__fail(PMS_EINVAL, "maximum interval %u: expected at least 1 base interval", cfg->dynamic.maximum);
    if ((unsigned)cfg->predictor >= PMS_PREDICT_COUNT)
        return pms__fail(PMS_EINVAL, "unknown predictor %d", cfg->predictor);
    pms_phase_engine *e = calloc(1, sizeof *e);
    if (!e) return pms__fail(PMS_ENOMEM, "out of memory for the phase engine");
    e->cfg = *cfg;
    pms_classifier_config_for_samples(&e->cfg.classifier, 100); /* settings left open: the thesis's */
    e->base_size = base_size;
    e->multiple = 1;
    int rc = pms_projection_init(&e->proj, e->cfg.classifier.signature_size, cfg->seed);
    if (!rc && shared) e->classifier = shared;
    else if (!rc && !(rc = pms_classifier_create(&e->classifier, &e->cfg.classifier))) {
        e->owns_classifier = 1;
        if (cfg->table) rc = pms__classifier_load_table(e->classifier, cfg->table, cfg->seed);
    }
    for (int k = 0; !rc && k < PMS_PREDICT_COUNT; k++) {
        pms_predictor_config pc = cfg->predictors[k];
        pc.kind = (pms_predictor_kind)k;
        rc = pms_predictor_create(&e->predictors[k], &pc);
        e->pending[k].phase = -1;
    }
    if (!rc && !(e->sig = calloc(e->cfg.classifier.signature_size, sizeof *e->sig)))
        rc = pms__fail(PMS_ENOMEM, "out of memory for the phase engine");
    if (rc) {
        pms_phase_engine_destroy(e);
        return rc;
    }
    *out = e;
    return PMS_OK;
}

void pms_phase_engine_destroy(pms_phase_engine *e)
{
    if (!e) return;
    if (e->owns_classifier) pms_classifier_destroy(e->classifier);
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        pms_predictor_destroy(e->predictors[k]);
        free(e->predicted[k]);
    }
    free(e->sig);
    free(e->labels);
    free(e->metrics);
    free(e->last_run);
    free(e->last_multiple);
    free(e->metric_sum);
    free(e->metric_count);
    free(e);
}

const pms_projection *pms_phase_engine_projection(const pms_phase_engine *e) { return &e->proj; }
const pms_phase_config *pms_phase_engine_config(const pms_phase_engine *e) { return &e->cfg; }
unsigned pms_phase_engine_next_multiple(const pms_phase_engine *e) { return e->multiple; }

static int grow_history(pms_phase_engine *e, int phase)
{
    size_t cap = e->cap;
    if (pms__grow(&e->labels, &cap, e->n + 1, sizeof *e->labels)) goto oom;
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        cap = e->cap;
        if (pms__grow(&e->predicted[k], &cap, e->n + 1, sizeof *e->predicted[k])) goto oom;
    }
    cap = e->cap;
    if (pms__grow(&e->metrics, &cap, e->n + 1, sizeof *e->metrics)) goto oom;
    e->cap = cap;
    if ((size_t)phase >= e->nphase_slots) {
        size_t slots = e->nphase_slots, old = slots;
        if (pms__grow(&e->last_run, &slots, (size_t)phase + 1, sizeof *e->last_run)) goto oom;
        slots = old;
        if (pms__grow(&e->last_multiple, &slots, (size_t)phase + 1, sizeof *e->last_multiple)) goto oom;
        slots = old;
        if (pms__grow(&e->metric_sum, &slots, (size_t)phase + 1, sizeof *e->metric_sum)) goto oom;
        slots = old;
        if (pms__grow(&e->metric_count, &slots, (size_t)phase + 1, sizeof *e->metric_count)) goto oom;
        memset(e->last_run + old, 0, (slots - old) * sizeof *e->last_run);
        memset(e->last_multiple + old, 0, (slots - old) * sizeof *e->last_multiple);
        memset(e->metric_sum + old, 0, (slots - old) * sizeof *e->metric_sum);
        memset(e->metric_count + old, 0, (slots - old) * sizeof *e->metric_count);
        e->nphase_slots = slots;
    }
    return PMS_OK;
oom:
    return pms__fail(PMS_ENOMEM, "out of memory for the phase history");
}

/* Dynamic intervals (Sembrant's thesis, 3.1.4): grow while the phase repeats, start a phase that
 * comes back at the size it had last time, otherwise go back to the base size. */
static unsigned next_multiple(pms_phase_engine *e, int phase, int previous)
{
    const pms_dynamic_config *d = &e->cfg.dynamic;
    if (phase == PMS_PHASE_TRANSITION) return 1;
    unsigned next = 1;
    if (phase == previous) {
        double grown = ceil((double)e->multiple * d->multiplier);
        next = grown > d->maximum ? d->maximum : (unsigned)grown;
    } else if (e->last_multiple[phase]) {
        next = e->last_multiple[phase];
    }
    e->last_multiple[phase] = next;
    return next;
}

int pms_phase_engine_push_signature(pms_phase_engine *e, double *sig, const pms_phase_interval *iv,
                                    pms_phase_event *ev)
{
    size_t n = e->cfg.classifier.signature_size;
    pms_signature_normalize(sig, n);
    double distance;
    /* a run's last, partial interval (too few samples to tell a phase of its own) takes the
     * nearest known phase and teaches the classifier nothing */
    int phase = iv && iv->partial ? pms_classifier_nearest(e->classifier, sig, &distance)
                                  : pms_classifier_classify(e->classifier, sig, &distance);
    int rc = grow_history(e, phase);
    if (rc) return rc;
    int previous = e->n ? e->labels[e->n - 1] : -1;
    double metric = iv ? iv->metric : NAN;
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        int guess = e->pending[k].phase;
        e->predicted[k][e->n] = guess;
        if (guess < 0) continue;
        e->correct[k] += guess == phase;
        e->false_changes[k] += guess != previous && phase == previous;
        /* The metric the prediction implies: the mean so far of the predicted phase. */
        if (!isnan(metric) && (size_t)guess < e->nphase_slots && e->metric_count[guess]) {
            e->metric_error[k] += fabs(e->metric_sum[guess] / (double)e->metric_count[guess] - metric);
            e->metric_errors[k]++;
        }
    }
    if (!isnan(metric)) {
        if (e->metric_seen) {
            e->baseline_error += fabs(e->metric_total / (double)e->metric_seen - metric);
            e->baseline_errors++;
        }
        e->metric_total += metric;
        e->metric_seen++;
        e->metric_sum[phase] += metric;
        e->metric_count[phase]++;
    }
    e->labels[e->n] = phase;
    e->metrics[e->n] = metric;
    e->n++;
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) pms_predictor_update(e->predictors[k], phase, &e->pending[k]);

    if (phase != previous && previous >= 0) e->last_run[previous] = e->run;
    e->run = phase == previous ? e->run + 1 : 1;
    unsigned used = e->multiple;
    unsigned next = next_multiple(e, phase, previous);
    e->multiple = next;

    memset(ev, 0, sizeof *ev);
    ev->index = e->n - 1;
    ev->tid = iv ? iv->tid : 0;
    ev->phase = phase;
    ev->previous_phase = previous;
    ev->changed = previous >= 0 && phase != previous; /* the first interval changes nothing */
    ev->distance = distance;
    ev->prediction = e->pending[e->cfg.predictor];
    ev->intervals_to_change = NAN;
    if (e->last_run[phase] > e->run) ev->intervals_to_change = (double)(e->last_run[phase] - e->run);
    ev->size = iv && iv->size ? iv->size : e->base_size * used;
    ev->time_to_change = ev->intervals_to_change * (double)ev->size;
    ev->next_multiple = next;
    ev->next_size = e->base_size * next;
    ev->samples = iv ? iv->n : 0;
    ev->sample_times = iv ? iv->times : NULL;
    ev->start_time = iv ? iv->start_time : 0;
    ev->end_time = iv ? iv->end_time : 0;
    ev->metric = metric;
    ev->metric_is_cpi = iv ? iv->metric_is_cpi : 0;
    ev->signature = sig;
    ev->signature_size = n;
    return PMS_OK;
}

int pms_phase_engine_push(pms_phase_engine *e, const pms_phase_interval *iv, pms_phase_event *ev)
{
    size_t n = e->cfg.classifier.signature_size;
    memset(e->sig, 0, n * sizeof *e->sig);
    for (size_t i = 0; i < iv->n; i++)
        pms_signature_add(&e->proj, e->sig, iv->addresses[i], iv->weights ? iv->weights[i] : 1.0);
    return pms_phase_engine_push_signature(e, e->sig, iv, ev);
}

void pms_phase_engine_summary(const pms_phase_engine *e, pms_phase_summary *out)
{
    memset(out, 0, sizeof *out);
    out->intervals = e->n;
    out->phases = 0;
    size_t transitions = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (e->labels[i] == PMS_PHASE_TRANSITION) transitions++;
        if (e->labels[i] > out->phases) out->phases = e->labels[i];
    }
    out->transition_share = e->n ? (double)transitions / (double)e->n : NAN;
    out->mean_run_length = pms_mean_run_length(e->labels, e->n);
    size_t predictions = e->n > 1 ? e->n - 1 : 0;
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        out->accuracy[k] = predictions ? (double)e->correct[k] / (double)predictions : NAN;
        out->false_change_rate[k] = predictions ? (double)e->false_changes[k] / (double)predictions : NAN;
        out->metric_error[k] = e->metric_errors[k] ? e->metric_error[k] / (double)e->metric_errors[k] : NAN;
    }
    out->metric_error_baseline = e->baseline_errors ? e->baseline_error / (double)e->baseline_errors : NAN;
    out->intra_phase_cov = pms_intra_phase_cov(e->labels, e->metrics, e->n);
    out->whole_cov = pms_whole_cov(e->metrics, e->n);
}

const int *pms_phase_engine_labels(const pms_phase_engine *e, size_t *n)
{
    *n = e->n;
    return e->labels;
}

const int *pms_phase_engine_predictions(const pms_phase_engine *e, pms_predictor_kind k, size_t *n)
{
    *n = e->n;
    return (unsigned)k < PMS_PREDICT_COUNT ? e->predicted[k] : NULL;
}

void pms__phase_engine_tallies(const pms_phase_engine *e, pms_phase_tallies *out)
{
    memset(out, 0, sizeof *out);
    out->intervals = e->n;
    out->predictions = e->n > 1 ? e->n - 1 : 0;
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        out->correct[k] = e->correct[k];
        out->false_changes[k] = e->false_changes[k];
        out->metric_error[k] = e->metric_error[k];
        out->metric_errors[k] = e->metric_errors[k];
    }
    out->baseline_error = e->baseline_error;
    out->baseline_errors = e->baseline_errors;
}

const pms_classifier *pms__phase_engine_classifier(const pms_phase_engine *e) { return e->classifier; }
const double *pms__phase_engine_metrics(const pms_phase_engine *e) { return e->metrics; }
