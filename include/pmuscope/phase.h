/* pmuscope: online phase classification and prediction (Sembrant's thesis).
 *
 * An execution interval is summarised by a signature: its sampled instruction
 * addresses (or exact basic blocks) hashed by random projection into N counters
 * and L1-normalised. A classifier gives each signature a phase id; predictors
 * guess the phase of the next interval from the history of ids; dynamic intervals
 * grow while a phase is stable. The engine ties these together over a stream of
 * intervals and is deterministic: the same intervals and settings give the same
 * ids, predictions and sizes. The monitor feeds the engine live from a ring buffer;
 * the replay functions feed it from perf.data, exp-bbv and SimPoint files.
 *
 * Phase ids: PMS_PHASE_TRANSITION (0) for intervals not (yet) given a phase of
 * their own, then 1, 2, ... in order of discovery. */
#ifndef PMUSCOPE_PHASE_H
#define PMUSCOPE_PHASE_H
#include "pmuscope/bbv.h"
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

#define PMS_PHASE_TRANSITION 0
#define PMS_PHASE_MAX_SIGNATURE 1024

/* ---- signatures ---- */

/* Random projection of 64-bit addresses onto log2(size) bits: bit j of the index is
 * the parity of (address AND mask_j), with the masks drawn from the seed. size is a
 * power of two from 2 to PMS_PHASE_MAX_SIGNATURE. */
typedef struct pms_projection {
    size_t size;
    unsigned bits;
    uint64_t masks[10];
    uint16_t table[8][256]; /* the same map, one lookup per address byte (it is linear) */
} pms_projection;

int pms_projection_init(pms_projection *p, size_t size, uint64_t seed);
size_t pms_projection_index(const pms_projection *p, uint64_t address);

/* Adds weight at the address's counter. */
void pms_signature_add(const pms_projection *p, double *sig, uint64_t address, double weight);
/* Divides by the sum of the counters (L1 norm); an all-zero signature stays zero.
 * Returns the sum before normalising. */
double pms_signature_normalize(double *sig, size_t n);
/* Manhattan distance; 2 at most between two normalised signatures. */
double pms_signature_distance(const double *a, const double *b, size_t n);

/* ---- classifiers ---- */

typedef enum pms_classifier_kind {
    PMS_CLASSIFIER_DISTANCE, /* LRU cache of signatures, similarity threshold */
    PMS_CLASSIFIER_KMEANS,   /* sequential k-means after K phases were found */
} pms_classifier_kind;

typedef struct pms_classifier_config {
    pms_classifier_kind kind;
    size_t signature_size;          /* entries per signature (default 32) */
    double threshold;               /* similarity threshold in % of the maximum distance 2 (default 35;
                                       PMS_PHASE_THRESHOLD_AUTO: by the samples per interval) */
    size_t cache_size;              /* LRU cache entries (default 32) */
    unsigned transition_threshold;  /* times a signature must be seen before it gets its own
                                       id; until then it is the transition phase (default 2;
                                       1: no transition phase) */
    size_t k;                       /* k-means: number of phases (default 4) */
    double learning_rate;           /* k-means: mean += rate * (p - mean); 0 (default): 1/weight,
                                       the running mean of equation 3.4 */
} pms_classifier_config;

void pms_classifier_config_default(pms_classifier_config *c);

/* The similarity threshold chosen by the number of samples an interval holds: the thesis's
 * 35% from 100 samples on (its defaults give about 1000), 50% below, where a signature of
 * few samples is noisy (20 timer samples an interval without a PMU: two intervals of one
 * loop lie 0.4 to 1.4 apart). On the phases workload without a PMU, adjusted Rand index
 * against the schedule, median of 6 recordings: 0.83 at 35%, 0.91 at 45%, 0.97 at 50%,
 * 0.94 at 55% (README, "Choosing the threshold"). The live monitor and the perf.data
 * replay resolve PMS_PHASE_THRESHOLD_AUTO with it; an engine created with it uses 35%. */
#define PMS_PHASE_THRESHOLD_AUTO (-1.0)
double pms_phase_default_threshold(uint64_t samples_per_interval);

typedef struct pms_classifier pms_classifier;
int pms_classifier_create(pms_classifier **out, const pms_classifier_config *cfg);
void pms_classifier_destroy(pms_classifier *c);
/* Classifies one normalised signature of cfg->signature_size entries; returns its phase
 * id (>= 0) and the distance to the closest cache entry or mean (2 when the cache was empty). */
int pms_classifier_classify(pms_classifier *c, const double *sig, double *distance);
/* Number of phase ids handed out so far (ids 1..n). */
int pms_classifier_nphases(const pms_classifier *c);

/* ---- predictors ---- */

typedef enum pms_predictor_kind {
    PMS_PREDICT_LAST,       /* the next interval is in the current phase */
    PMS_PREDICT_MARKOV,     /* the phase that followed the last N phases last time */
    PMS_PREDICT_PPM,        /* Markov N, then N-1, ... 1, then last value */
    PMS_PREDICT_RUN_LENGTH, /* the phase that followed (phase, run length so far) last time */
    PMS_PREDICT_COUNT
} pms_predictor_kind;

typedef struct pms_predictor_config {
    pms_predictor_kind kind;
    unsigned history;           /* Markov/PPM: N (default 2; PPM: the longest history, default 3) */
    size_t cache_size;          /* entries of the history table, LRU (default 256) */
    double confidence_threshold;/* a table entry is used only when its confidence is at least
                                   this (0..1; default 0.3); otherwise last value */
} pms_predictor_config;

void pms_predictor_config_default(pms_predictor_config *c, pms_predictor_kind kind);
const char *pms_predictor_name(pms_predictor_kind kind); /* "last", "markov", "ppm", "run-length" */

typedef struct pms_prediction {
    int phase;          /* predicted phase of the next interval */
    double confidence;  /* 0..1: a 2-bit saturating counter of the entry used, or the
                           running accuracy of last value when the table had none */
    int from_table;     /* 0: fell back to last value */
} pms_prediction;

typedef struct pms_predictor pms_predictor;
int pms_predictor_create(pms_predictor **out, const pms_predictor_config *cfg);
void pms_predictor_destroy(pms_predictor *p);
/* Learns that the interval just classified was in phase, then predicts the next. */
void pms_predictor_update(pms_predictor *p, int phase, pms_prediction *next);

/* ---- dynamic intervals ---- */

typedef struct pms_dynamic_config {
    double multiplier;   /* growth factor while a phase is stable (default 2; 1: fixed intervals) */
    unsigned maximum;    /* largest interval in base intervals (default 16) */
} pms_dynamic_config;

/* ---- metrics ---- */

/* Adjusted Rand index of two labellings of n items (1: identical partitions up to
 * renaming; about 0 for chance agreement). Returns NaN for n < 2. */
double pms_adjusted_rand_index(const int *a, const int *b, size_t n);
/* Mean length of runs of equal consecutive labels. */
double pms_mean_run_length(const int *labels, size_t n);
/* Intra-phase coefficient of variation of a per-interval value: each phase's CoV
 * (standard deviation / mean, population form), weighted by its number of intervals.
 * Intervals whose value is NaN are left out; the transition phase counts as a phase. */
double pms_intra_phase_cov(const int *labels, const double *values, size_t n);
/* The CoV of all values as one phase. */
double pms_whole_cov(const double *values, size_t n);

/* ---- the engine ---- */

typedef struct pms_phase_config {
    pms_classifier_config classifier;
    uint64_t seed;                      /* of the projection (default 1) */
    pms_predictor_config predictors[PMS_PREDICT_COUNT]; /* all run side by side */
    pms_predictor_kind predictor;       /* the one reported in events (default last value) */
    pms_dynamic_config dynamic;
} pms_phase_config;

void pms_phase_config_default(pms_phase_config *c);

/* One interval to classify: sampled addresses (each of weight 1, or weights[i]), or
 * anything else that projects into a signature. */
typedef struct pms_phase_interval {
    const uint64_t *addresses;
    const double *weights;      /* NULL: 1 each */
    size_t n;
    uint64_t size;              /* the interval event's count (instructions, or ns of task-clock) */
    uint64_t start_time, end_time; /* ns, 0 if unknown */
    double metric;              /* CPI, or duration per sample; NaN if unknown */
    int metric_is_cpi;          /* 1: metric is CPI; 0: ns per sample (or none) */
} pms_phase_interval;

/* What the callbacks and the engine report for every interval. */
typedef struct pms_phase_event {
    uint64_t index;             /* interval number from 0 */
    int phase;
    int previous_phase;         /* -1 for the first interval */
    int changed;                /* phase != previous_phase */
    double distance;            /* to the matched cache entry or mean */
    pms_prediction prediction;  /* of the configured predictor, for the next interval */
    double intervals_to_change; /* expected intervals until the phase changes (from the
                                   last run length of this phase); NaN if unknown */
    double time_to_change;      /* the same in the interval event's unit; NaN if unknown */
    uint64_t size;              /* this interval's size (interval event count) */
    uint64_t next_size;         /* the size the engine wants for the next interval */
    unsigned next_multiple;     /* next_size in base intervals (dynamic intervals) */
    size_t samples;             /* addresses in the interval */
    uint64_t start_time, end_time;
    double metric;
    int metric_is_cpi;
    const double *signature;    /* normalised, signature_size entries; valid during the call */
    size_t signature_size;
} pms_phase_event;

typedef struct pms_phase_summary {
    size_t intervals;
    int phases;                 /* distinct non-transition phases */
    double transition_share;    /* intervals in the transition phase / intervals */
    double mean_run_length;
    double accuracy[PMS_PREDICT_COUNT];          /* correct predictions / predictions */
    double false_change_rate[PMS_PREDICT_COUNT]; /* predicted a change that did not happen / predictions */
    double metric_error[PMS_PREDICT_COUNT]; /* mean |mean metric so far of the predicted phase - the
                                               interval's metric| (thesis fig. 4.11); NaN without one */
    double intra_phase_cov;     /* of the interval metric; NaN without one */
    double whole_cov;
} pms_phase_summary;

typedef struct pms_phase_engine pms_phase_engine;
int pms_phase_engine_create(pms_phase_engine **out, const pms_phase_config *cfg, uint64_t base_size);
void pms_phase_engine_destroy(pms_phase_engine *e);
/* Classifies the interval, updates every predictor and the dynamic size; fills *ev. */
int pms_phase_engine_push(pms_phase_engine *e, const pms_phase_interval *iv, pms_phase_event *ev);
/* Same with an already built (not yet normalised) signature of signature_size entries. */
int pms_phase_engine_push_signature(pms_phase_engine *e, double *sig, const pms_phase_interval *iv,
                                    pms_phase_event *ev);
const pms_projection *pms_phase_engine_projection(const pms_phase_engine *e);
/* The configuration in use (PMS_PHASE_THRESHOLD_AUTO resolved). */
const pms_phase_config *pms_phase_engine_config(const pms_phase_engine *e);
/* The size the next interval should have, in base intervals. */
unsigned pms_phase_engine_next_multiple(const pms_phase_engine *e);
void pms_phase_engine_summary(const pms_phase_engine *e, pms_phase_summary *out);
/* Phase ids (and predictions of predictor k for each interval, -1 for the first) so far. */
const int *pms_phase_engine_labels(const pms_phase_engine *e, size_t *n);
const int *pms_phase_engine_predictions(const pms_phase_engine *e, pms_predictor_kind k, size_t *n);

/* ---- where intervals come from ---- */

/* Called for every interval; a non-zero return stops the replay or the monitor's
 * reading and is returned by the call that was reading. */
typedef int (*pms_phase_event_fn)(const pms_phase_event *ev, void *ctx);

/* How samples are cut into intervals. */
typedef struct pms_phase_source {
    /* Name of the event whose overflows end intervals (e.g. "instructions", "task-clock");
     * its samples' periods give the interval size and, with PERF_SAMPLE_READ of cycles and
     * instructions, the interval's CPI. NULL: every samples_per_interval samples end one. */
    const char *interval_event;
    uint64_t samples_per_interval; /* default 100 */
} pms_phase_source;

/* Replays a perf.data file (perf's or pmuscope's) through the engine: every sample of
 * another event than the interval event adds its IP. With dynamic intervals, as many
 * recorded intervals are merged as the engine asks for. */
int pms_phase_replay_perfdata(pms_phase_engine *e, const char *path, const pms_phase_source *src,
                              pms_phase_event_fn fn, void *ctx);
/* Replays basic block vectors (exp-bbv or SimPoint): each vector is one base interval;
 * blocks project by their address when the PC file gave one, else by their number;
 * weights are the instruction counts. */
int pms_phase_replay_bbv(pms_phase_engine *e, const pms_bbv *b, pms_phase_event_fn fn, void *ctx);

/* ---- a known schedule to compare with ---- */

/* A true schedule, "start_ns end_ns label" per line (as `phases --trace` writes it,
 * CLOCK_MONOTONIC); labels are words (A, B, ...) or numbers. '#' lines are comments. */
typedef struct pms_phase_truth pms_phase_truth;
int pms_phase_truth_load(pms_phase_truth **out, const char *path);
void pms_phase_truth_free(pms_phase_truth *t);
/* The label (index into the distinct labels, from 0) covering most of [start, end), or
 * -1 when the interval lies outside the schedule. */
int pms_phase_truth_label(const pms_phase_truth *t, uint64_t start, uint64_t end);
const char *pms_phase_truth_name(const pms_phase_truth *t, int label);
int pms_phase_truth_nlabels(const pms_phase_truth *t);

/* ---- the live monitor ---- */

/* Samples a thread or process and classifies its intervals as they end. The IP samples
 * and the interval event's overflow records share one ring buffer, which the monitor
 * reads on its own thread or inside pms_phase_monitor_poll(); no signal handler is
 * needed. Dynamic intervals change the interval event's period, and the sample period
 * by the same factor, so that an interval keeps about the same number of samples. */
/* Defaults: with a PMU the thesis's 100K branches per sample and 100M-instruction
 * intervals (about 1000 samples per interval, 1.2% overhead in the thesis). Without one,
 * cpu-clock every 4 ms (each sample is a timer interrupt, about 25 us on a VM: 0.6%) and
 * intervals of 10 samples' worth of task-clock. Dynamic intervals are off by default. */
#define PMS_PHASE_PMU_PERIOD 100000ull
#define PMS_PHASE_PMU_INTERVAL 100000000ull
#define PMS_PHASE_SOFTWARE_PERIOD 4000000ull
#define PMS_PHASE_SAMPLES_PER_INTERVAL 10u

typedef struct pms_phase_monitor_config {
    pms_phase_config phase;
    const char *sample_event;    /* NULL: "branches" with a hardware PMU ("cycles" if it has no
                                    branch event), "cpu-clock" without */
    uint64_t sample_period;      /* 0: PMS_PHASE_PMU_PERIOD branches, or PMS_PHASE_SOFTWARE_PERIOD
                                    ns of a software event (4 ms) */
    int randomize;               /* exponentially distributed sample periods (Sembrant, 3.1.3) */
    uint64_t random_seed;        /* 0: from the clock */
    const char *interval_event;  /* NULL: "instructions" with a PMU, "task-clock" without */
    uint64_t interval_size;      /* 0: PMS_PHASE_PMU_INTERVAL instructions, or for a software
                                    interval event PMS_PHASE_SAMPLES_PER_INTERVAL sample
                                    periods (40 ms of task-clock at the default period) */
    int use_clockid, clockid;    /* timestamps from this clock (e.g. CLOCK_MONOTONIC) */
    int inherit;                 /* follow threads created later */
    int enable_on_exec;          /* pid is a child held before exec (pms_child_spawn) */
    int own_thread;              /* 1: read on a thread of the monitor; 0: in pms_phase_monitor_poll */
    pms_phase_event_fn on_interval; /* every interval (may be NULL) */
    pms_phase_event_fn on_change;   /* intervals whose phase differs from the previous (may be NULL) */
    void *user;                     /* passed to both callbacks */
} pms_phase_monitor_config;

void pms_phase_monitor_config_default(pms_phase_monitor_config *c);

typedef struct pms_phase_monitor pms_phase_monitor;
/* Opens the events on pid (0: the calling process). Fails with the reason when an event
 * named in cfg cannot be opened; unnamed events fall back to the software ones. */
int pms_phase_monitor_open(pms_phase_monitor **out, pid_t pid, const pms_phase_monitor_config *cfg);
int pms_phase_monitor_start(pms_phase_monitor *m);
/* Without own_thread: waits up to timeout_ms for records and handles them (callbacks run
 * here). Returns the number of records, or a negative status / a callback's value. */
int pms_phase_monitor_poll(pms_phase_monitor *m, int timeout_ms);
/* Stops sampling, handles what is left in the buffer (a last partial interval included,
 * whose CPI, where intervals have one and the events follow one thread, not inherited,
 * comes from the counters read at the stop) and joins the thread. Returns the first
 * failure of the reading thread, if any. */
int pms_phase_monitor_stop(pms_phase_monitor *m);
void pms_phase_monitor_close(pms_phase_monitor *m);
/* The events actually used, e.g. "cpu-clock" and "task-clock" on a machine without PMU. */
const char *pms_phase_monitor_sample_event(const pms_phase_monitor *m);
const char *pms_phase_monitor_interval_event(const pms_phase_monitor *m);
/* Non-zero when perf_event_paranoid let the monitor count user space only: its events then
 * carry perf's ":u" ("cpu-clock:u"), as perf names them at Debian's default level 2. */
int pms_phase_monitor_user_only(const pms_phase_monitor *m);
/* True once every monitored thread has exited. */
int pms_phase_monitor_target_gone(const pms_phase_monitor *m);
/* Valid until close; read it after stop. */
const pms_phase_engine *pms_phase_monitor_engine(const pms_phase_monitor *m);
/* Where each interval's metric comes from, in words: the CPI from cycles and instructions
 * read at every interval's end, or, when they are not read (no hardware PMU; or Linux before
 * 6.12, which refuses counter reads in samples of inherited events), wall-clock ns per
 * sample, and why. */
const char *pms_phase_monitor_metric_about(const pms_phase_monitor *m);
/* Records lost by the kernel (the buffer was full) and intervals without any sample. */
void pms_phase_monitor_losses(const pms_phase_monitor *m, uint64_t *lost, uint64_t *empty_intervals);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
