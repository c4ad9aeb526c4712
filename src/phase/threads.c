/* A program's threads, each with its intervals and its engine (or all in one, per_thread
 * 0); with a shared table their engines share one classifier. */
#include "phase/assembler.h"
#include "phase/engine_internal.h"
#include "phase/threads_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct track {
    pid_t tid;
    pms_phase_engine *engine;
    int adopted;               /* the caller's engine: not destroyed here */
    pms_assembler assembler;
} track;

struct pms_phase_threads {
    pms_phase_config cfg;
    uint64_t base_size;
    int per_thread;
    pms_classifier *shared;    /* cfg.shared_table: the one classifier */
    track **v;                 /* in order of the first sample */
    size_t n, cap;
    pms_keymap index;          /* tid -> position in v */
    pms_cutting cut;
    int have_cut;
    uint64_t samples_per_interval; /* as the cutting set it */
    const pms_maps *maps;
};

int pms_phase_threads_create(pms_phase_threads **out, const pms_phase_config *cfg, uint64_t base_size, int per_thread)
{
    pms_phase_threads *t = calloc(1, sizeof *t);
    if (!t) return pms__fail(PMS_ENOMEM, "out of memory for the threads' phases");
    t->cfg = *cfg;
    t->base_size = base_size;
    t->per_thread = per_thread;
    pms__keymap_init(&t->index);
    *out = t;
    return PMS_OK;
}

void pms_phase_threads_destroy(pms_phase_threads *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        pms__assembler_free(&t->v[i]->assembler);
        if (!t->v[i]->adopted) pms_phase_engine_destroy(t->v[i]->engine);
        free(t->v[i]);
    }
    free(t->v);
    pms__keymap_free(&t->index);
    pms_classifier_destroy(t->shared);
    free(t);
}

/* The samples an interval of cutting c holds. */
static uint64_t samples_of(const pms_cutting *c)
{
    if (c->by_samples) return c->by_samples;
    if (c->interval && c->sample_period && !c->interval->attr.freq && c->interval->attr.sample_period)
        return c->interval->attr.sample_period / c->sample_period ? c->interval->attr.sample_period / c->sample_period : 1;
    return c->samples_per_interval ? c->samples_per_interval : 100;
}

/* The thread's intervals cut as t->cut says. */
static void configure(const pms_phase_threads *t, track *k)
{
    const pms_cutting *c = &t->cut;
    pms_phase_source src = {.samples_per_interval = c->samples_per_interval};
    pms__assembler_free(&k->assembler);
    pms__assembler_init(&k->assembler, k->engine, &src, c->attrs, c->nattrs, c->fn, c->ctx);
    k->assembler.tid = k->tid;
    k->assembler.maps = t->maps;
    if (c->interval) pms__assembler_set_interval_event(&k->assembler, c->interval, c->sample_period, c->per_thread_counts);
    if (c->by_samples) {
        k->assembler.cut_by_samples = 1;
        k->assembler.samples_per_interval = c->by_samples;
    }
}

void pms__phase_threads_cut(pms_phase_threads *t, const pms_cutting *c, const pms_maps *maps)
{
    t->cut = *c;
    t->have_cut = 1;
    t->maps = maps;
    t->samples_per_interval = samples_of(c);
    pms_classifier_config_for_samples(&t->cfg.classifier, pms__phase_threads_samples_per_interval(t));
    for (size_t i = 0; i < t->n; i++) configure(t, t->v[i]); /* an adopted engine's */
}

uint64_t pms__phase_threads_samples_per_interval(const pms_phase_threads *t) { return t->samples_per_interval; }

void pms__phase_threads_uncut(pms_phase_threads *t)
{
    t->cut.attrs = t->cut.interval = NULL;
    t->cut.nattrs = 0;
    t->maps = NULL;
    for (size_t i = 0; i < t->n; i++) {
        pms_assembler *a = &t->v[i]->assembler;
        a->attrs = a->interval = NULL;
        a->nattrs = 0;
        a->maps = NULL;
    }
}

static int add_track(pms_phase_threads *t, pid_t tid, pms_phase_engine *adopt, track **out)
{
    /* fed without a cutting (exact vectors): the settings left open are the thesis's, as an
     * engine's */
    if (!t->have_cut) pms_classifier_config_for_samples(&t->cfg.classifier, 100);
    if (t->cfg.shared_table && !t->shared) {
        int rc = pms_classifier_create(&t->shared, &t->cfg.classifier);
        if (!rc && t->cfg.table) rc = pms__classifier_load_table(t->shared, t->cfg.table, t->cfg.seed);
        if (rc) return rc;
    }
    track *k = calloc(1, sizeof *k); /* its assembler zeroed: freeing it frees nothing */
    if (!k || pms__grow(&t->v, &t->cap, t->n + 1, sizeof *t->v)) {
        free(k);
        return pms__fail(PMS_ENOMEM, "out of memory for the threads' phases");
    }
    int rc = adopt ? PMS_OK : pms__phase_engine_create_shared(&k->engine, &t->cfg, t->base_size, t->shared);
    if (adopt) k->engine = adopt, k->adopted = 1;
    if (rc) {
        free(k);
        return rc;
    }
    k->tid = tid;
    configure(t, k);
    if (!pms__keymap_upsert(&t->index, (uint64_t)tid, 0, t->n)) {
        pms__assembler_free(&k->assembler);
        if (!adopt) pms_phase_engine_destroy(k->engine);
        free(k);
        return pms__fail(PMS_ENOMEM, "out of memory for the threads' phases");
    }
    t->v[t->n++] = k;
    *out = k;
    return PMS_OK;
}

static track *find(const pms_phase_threads *t, pid_t tid)
{
    uint64_t *at = pms__keymap_find(&t->index, (uint64_t)tid, 0);
    return at ? t->v[*at] : NULL;
}

static int track_of(pms_phase_threads *t, pid_t tid, track **out)
{
    if (!t->per_thread) tid = 0;
    *out = find(t, tid);
    return *out ? PMS_OK : add_track(t, tid, NULL, out);
}

int pms__phase_threads_adopt(pms_phase_threads *t, pms_phase_engine *e)
{
    track *k;
    return add_track(t, 0, e, &k);
}

int pms_phase_threads_get(pms_phase_threads *t, pid_t tid, pms_phase_engine **out)
{
    track *k;
    int rc = track_of(t, tid, &k);
    if (!rc) *out = k->engine;
    return rc;
}

int pms__phase_threads_sample(pms_phase_threads *t, const pms_sample *s)
{
    track *k;
    int rc = track_of(t, (pid_t)s->tid, &k);
    return rc ? rc : pms__assembler_sample(&k->assembler, s);
}

void pms__phase_threads_final_counts(pms_phase_threads *t, pid_t tid, const pms_read_value *v, size_t n)
{
    track *k = find(t, t->per_thread ? tid : 0);
    if (k) pms__assembler_final_counts(&k->assembler, v, n);
}

int pms__phase_threads_finish(pms_phase_threads *t)
{
    for (size_t i = 0; i < t->n; i++) {
        int rc = pms__assembler_finish(&t->v[i]->assembler);
        if (rc) return rc;
    }
    return PMS_OK;
}

uint64_t pms__phase_threads_dropped(const pms_phase_threads *t)
{
    uint64_t n = 0;
    for (size_t i = 0; i < t->n; i++) n += t->v[i]->assembler.dropped_empty;
    return n;
}

uint64_t pms__phase_threads_samples_to_go(const pms_phase_threads *t)
{
    uint64_t fewest = 0;
    for (size_t i = 0; i < t->n; i++) {
        const pms_assembler *a = &t->v[i]->assembler;
        if (!a->cut_by_samples) continue;
        uint64_t want = a->samples_per_interval * pms_phase_engine_next_multiple(a->engine);
        uint64_t left = want > a->n ? want - a->n : 1;
        if (!fewest || left < fewest) fewest = left;
    }
    return fewest;
}

size_t pms_phase_threads_count(const pms_phase_threads *t) { return t->n; }
const pms_phase_config *pms_phase_threads_config(const pms_phase_threads *t) { return &t->cfg; }
uint64_t pms_phase_threads_samples_per_interval(const pms_phase_threads *t)
{
    return t->have_cut ? pms__phase_threads_samples_per_interval(t) : 0;
}

const pms_phase_engine *pms_phase_threads_engine(const pms_phase_threads *t, size_t i, pid_t *tid)
{
    if (i >= t->n) return NULL;
    if (tid) *tid = t->v[i]->tid;
    return t->v[i]->engine;
}

const pms_phase_engine *pms_phase_threads_find(const pms_phase_threads *t, pid_t tid)
{
    track *k = find(t, t->per_thread ? tid : 0);
    return k ? k->engine : NULL;
}

/* ---- the summary of every thread ---- */

/* Labels of all intervals, thread after thread; with tables of their own, made distinct
 * per thread (its position in v times a stride above every id). */
static int all_labels(const pms_phase_threads *t, int **labels, double **metrics, size_t *total)
{
    size_t n = 0;
    int stride = 1;
    for (size_t i = 0; i < t->n; i++) {
        size_t m;
        const int *l = pms_phase_engine_labels(t->v[i]->engine, &m);
        n += m;
        for (size_t j = 0; j < m; j++)
            if (l[j] + 1 > stride) stride = l[j] + 1;
    }
    *labels = malloc((n ? n : 1) * sizeof **labels);
    *metrics = malloc((n ? n : 1) * sizeof **metrics);
    if (!*labels || !*metrics) return PMS_ENOMEM;
    size_t at = 0;
    for (size_t i = 0; i < t->n; i++) {
        size_t m;
        const int *l = pms_phase_engine_labels(t->v[i]->engine, &m);
        const double *x = pms__phase_engine_metrics(t->v[i]->engine);
        for (size_t j = 0; j < m; j++, at++) {
            int own = t->shared || l[j] == PMS_PHASE_TRANSITION ? 0 : (int)i * stride;
            (*labels)[at] = l[j] + own;
            (*metrics)[at] = x[j];
        }
    }
    *total = n;
    return PMS_OK;
}

void pms_phase_threads_summary(const pms_phase_threads *t, pms_phase_summary *out)
{
    memset(out, 0, sizeof *out);
    if (t->n == 1) {
        pms_phase_engine_summary(t->v[0]->engine, out);
        return;
    }
    pms_phase_tallies sum = {0};
    size_t runs = 0, transitions = 0;
    int phases = 0;
    for (size_t i = 0; i < t->n; i++) {
        pms_phase_tallies k;
        pms__phase_engine_tallies(t->v[i]->engine, &k);
        sum.intervals += k.intervals;
        sum.predictions += k.predictions;
        for (int p = 0; p < PMS_PREDICT_COUNT; p++) {
            sum.correct[p] += k.correct[p];
            sum.false_changes[p] += k.false_changes[p];
            sum.metric_error[p] += k.metric_error[p];
            sum.metric_errors[p] += k.metric_errors[p];
        }
        sum.baseline_error += k.baseline_error;
        sum.baseline_errors += k.baseline_errors;
        pms_phase_summary one;
        pms_phase_engine_summary(t->v[i]->engine, &one);
        if (k.intervals) runs += (size_t)llround((double)k.intervals / one.mean_run_length);
        transitions += (size_t)llround(one.transition_share * (double)k.intervals);
        phases = t->shared ? (one.phases > phases ? one.phases : phases) : phases + one.phases;
    }
    out->intervals = sum.intervals;
    out->phases = phases;
    out->transition_share = sum.intervals ? (double)transitions / (double)sum.intervals : NAN;
    out->mean_run_length = runs ? (double)sum.intervals / (double)runs : NAN;
    for (int p = 0; p < PMS_PREDICT_COUNT; p++) {
        out->accuracy[p] = sum.predictions ? (double)sum.correct[p] / (double)sum.predictions : NAN;
        out->false_change_rate[p] = sum.predictions ? (double)sum.false_changes[p] / (double)sum.predictions : NAN;
        out->metric_error[p] = sum.metric_errors[p] ? sum.metric_error[p] / (double)sum.metric_errors[p] : NAN;
    }
    out->metric_error_baseline = sum.baseline_errors ? sum.baseline_error / (double)sum.baseline_errors : NAN;
    int *labels;
    double *metrics;
    size_t n;
    out->intra_phase_cov = out->whole_cov = NAN;
    if (all_labels(t, &labels, &metrics, &n) == PMS_OK) {
        out->intra_phase_cov = pms_intra_phase_cov(labels, metrics, n);
        out->whole_cov = pms_whole_cov(metrics, n);
    }
    free(labels);
    free(metrics);
}

int pms_phase_threads_write_table(const pms_phase_threads *t, FILE *out)
{
    const pms_classifier *c = t->shared;
    if (!c && t->n > 1)
        return pms__fail(PMS_EINVAL, "%zu threads each have a phase table of their own: a table for all of them "
                                     "needs one shared table (--shared-phases)", t->n);
    if (!c && t->n == 1) c = pms__phase_engine_classifier(t->v[0]->engine);
    if (!c || pms_classifier_nphases(c) == 0)
        return pms__fail(PMS_EINVAL, "no phase to write: no interval was given a phase of its own");
    return pms__phase_table_write(c, t->cfg.classifier.signature_size, t->cfg.seed, out);
}
