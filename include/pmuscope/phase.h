/* pmuscope: online phase classification and prediction (Sembrant's thesis).
 *
 * An execution interval is summarised by a signature: its sampled instruction
 * addresses (or exact basic blocks) hashed by random projection into N counters
 * and L1-normalised. A classifier gives each signature a phase id; predictors
 * guess the phase of the next interval from the history of ids; dynamic intervals
 * grow while a phase is stable. The engine ties these together over a stream of
 * intervals and is deterministic: the same intervals and settings give the same
 * ids, predictions and sizes. The monitor feeds the engine live from a ring buffer;
 * the replay functions feed it from perf.data, exp-bbv and SimPoint files. A program's
 * threads each have an engine of their own (pms_phase_threads): a thread's intervals are
 * cut from its own samples, and every event carries its thread id.
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
#include <stdio.h>
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
    size_t signature_size;          /* entries per signature (default 32; 0: by the samples per
                                       interval, see pms_classifier_config_for_samples) */
    double threshold;               /* similarity threshold in % of the maximum distance 2 (default 35;
                                       PMS_PHASE_THRESHOLD_AUTO: by the samples per interval) */
    size_t cache_size;              /* LRU cache entries (default 32) */
    unsigned transition_threshold;  /* times a signature must be seen before it gets its own
                                       id; until then it is the transition phase (default 2;
                                       1: no transition phase; 0: by the samples per interval) */
    size_t k;                       /* k-means: number of phases (default 4) */
    double learning_rate;           /* k-means: mean += rate * (p - mean); 0 (default): 1/weight,
                                       the running mean of equation 3.4 */
} pms_classifier_config;

void pms_classifier_config_default(pms_classifier_config *c);

/* The settings chosen by the number of samples an interval holds, for the ones left to
 * it (threshold PMS_PHASE_THRESHOLD_AUTO, transition threshold 0, signature size 0). From
 * 100 samples on, the thesis's: 35%, 2 sightings, 32 entries (its defaults give about 1000
 * samples). Fewer samples make noisier signatures: two intervals of one loop differ by the
 * sampling alone, by about 1/sqrt(samples), while two different loops lie 2 apart
 * (disjoint code). So the threshold widens as samples get fewer (80% below 8 samples, 65%
 * below 16, 50% below 40, 40% below 100); a new phase gets its id at its first sighting
 * below 16 samples (a signature far from every known phase at such a threshold is a new
 * phase, not noise, and waiting one interval misses a fifth of a 100 ms phase at 5 samples
 * of 4 ms); and signatures have 256 entries below 100 samples, where a few addresses make
 * each signature and a collision of two phases' addresses in 32 entries could merge them.
 * Measured on the bundled phases workload without a PMU (12 recordings, 4 ms samples,
 * 100 to 200 ms phases): 5 samples an interval, adjusted Rand index median 0.95, lowest
 * 0.91 (with 2 sightings: 0.92 and 0.83; with 32 entries: 0.93 and 0.88); see
 * docs/phase.md. The live monitor and the perf.data replays resolve them by their samples
 * per interval; an engine created with them takes the thesis's. */
#define PMS_PHASE_THRESHOLD_AUTO (-1.0)
void pms_classifier_config_for_samples(pms_classifier_config *c, uint64_t samples_per_interval);
double pms_phase_default_threshold(uint64_t samples_per_interval);

typedef struct pms_classifier pms_classifier;
int pms_classifier_create(pms_classifier **out, const pms_classifier_config *cfg);
void pms_classifier_destroy(pms_classifier *c);
/* Classifies one normalised signature of cfg->signature_size entries; returns its phase
 * id (>= 0) and the distance to the closest cache entry or mean (2 when the cache was empty). */
int pms_classifier_classify(pms_classifier *c, const double *sig, double *distance);
/* The phase whose centroid (or k-means mean) is nearest to sig, however far, and the
 * distance; the transition phase (distance 2) when there is none. The classifier learns
 * nothing (a run's last, partial interval is classified so). */
int pms_classifier_nearest(const pms_classifier *c, const double *sig, double *distance);
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
                                   this (0..1; default 0.5: an entry seen once, whose
                                   confidence is 1/3, is not used until it came true again);
                                   otherwise last value. A table entry's confidence is 1/3,
                                   2/3 or 1 (its 2-bit counter) */
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
    double multiplier;   /* growth factor while a phase is stable (default 1: fixed intervals;
                            the thesis's 2 grows a stable phase's interval to the maximum) */
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

/* ---- phase tables that outlive a run ---- */

/* The phases a run found: each one's id, weight (the intervals it holds) and centroid
 * signature, with the signature size and projection seed they were made with. Written by
 * pms_phase_threads_write_table(); a run configured with one (pms_phase_config.table)
 * starts its classifiers with these phases, so that a phase keeps its id from run to run.
 * The text format: a line "pmuscope-phase-table 1", "signature-size N", "seed N", then
 * "phase ID WEIGHT" and N signature entries per phase; '#' lines are comments. */
typedef struct pms_phase_table pms_phase_table;
int pms_phase_table_load(pms_phase_table **out, const char *path);
void pms_phase_table_free(pms_phase_table *t);
size_t pms_phase_table_count(const pms_phase_table *t);
size_t pms_phase_table_signature_size(const pms_phase_table *t);
uint64_t pms_phase_table_seed(const pms_phase_table *t);
/* Phase i (0 <= i < count): its id, weight and centroid (signature-size entries). */
void pms_phase_table_get(const pms_phase_table *t, size_t i, int *id, uint64_t *weight, const double **centroid);

/* ---- the engine ---- */

typedef struct pms_phase_config {
    pms_classifier_config classifier;
    uint64_t seed;                      /* of the projection (default 1) */
    pms_predictor_config predictors[PMS_PREDICT_COUNT]; /* all run side by side */
    pms_predictor_kind predictor;       /* the one reported in events (default last value) */
    pms_dynamic_config dynamic;
    const pms_phase_table *table;       /* phases known from an earlier run (NULL: none); kept
                                           by the caller while engines use it */
    int shared_table;                   /* several threads (pms_phase_threads): one phase table
                                           for all, as ScarPhase offers (default 0: one each) */
} pms_phase_config;

void pms_phase_config_default(pms_phase_config *c);

/* One interval to classify: sampled addresses (each of weight 1, or weights[i]), or
 * anything else that projects into a signature. */
typedef struct pms_phase_interval {
    pid_t tid;                  /* the thread it ran on (0: not known, or several) */
    const uint64_t *addresses;
    const double *weights;      /* NULL: 1 each */
    const uint64_t *times;      /* when each address was sampled (NULL: not known) */
    int partial;                /* a run's last interval, cut short with fewer samples than
                                   half an interval: it takes the nearest known phase (too
                                   few samples to found one) and the classifier learns
                                   nothing from it */
    size_t n;
    uint64_t size;              /* the interval event's count (instructions, or ns of task-clock) */
    uint64_t start_time, end_time; /* ns, 0 if unknown */
    double metric;              /* CPI, or duration per sample; NaN if unknown */
    int metric_is_cpi;          /* 1: metric is CPI; 0: ns per sample (or none) */
} pms_phase_interval;

/* What the callbacks and the engine report for every interval. */
typedef struct pms_phase_event {
    uint64_t index;             /* interval number from 0, of its thread */
    pid_t tid;                  /* the thread (0: not known, or several) */
    int phase;
    int previous_phase;         /* -1 for the first interval */
    int changed;                /* phase != previous_phase, from the second interval on */
    double distance;            /* to the matched cache entry or mean */
    pms_prediction prediction;  /* of the configured predictor, for the next interval */
    double intervals_to_change; /* expected intervals until the phase changes (from the
                                   last run length of this phase); NaN if unknown */
    double time_to_change;      /* the same in the interval event's unit; NaN if unknown */
    uint64_t size;              /* this interval's size (interval event count) */
    uint64_t next_size;         /* the size the engine wants for the next interval */
    unsigned next_multiple;     /* next_size in base intervals (dynamic intervals) */
    size_t samples;             /* addresses in the interval */
    const uint64_t *sample_times; /* when each was sampled (NULL: not known); valid during the call */
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
    double metric_error_baseline; /* the same with the program's mean metric so far as the guess:
                                     what a phase's prediction must beat; NaN without one */
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
    uint64_t samples_per_interval; /* 0: as many as make PMS_PHASE_SAMPLES_PER_INTERVAL
                                      software sample periods (28 ms) where the samples' event
                                      counts CPU time at a fixed period (cpu-clock, task-clock),
                                      as live; else 100 */
} pms_phase_source;

/* Replays a perf.data file (perf's or pmuscope's) through the engine: every sample of
 * another event than the interval event adds its IP (as a run-independent address, its
 * offset in the file mapped there). With dynamic intervals, as many recorded intervals are
 * merged as the engine asks for. All threads' samples go to the one engine, in time order:
 * pms_phase_replay_perfdata_threads() gives each thread its own. Where the interval
 * event's counts are not one thread's own (perf record counts per CPU, and inherited
 * copies in one buffer), every interval-period/sample-period samples make an interval. */
int pms_phase_replay_perfdata(pms_phase_engine *e, const char *path, const pms_phase_source *src,
                              pms_phase_event_fn fn, void *ctx);

/* ---- a program's threads ---- */

/* One engine per thread, created as each thread's first sample comes; with
 * cfg->shared_table they share one classifier (phase ids mean the same in every thread),
 * else each has its own. A threshold of PMS_PHASE_THRESHOLD_AUTO is resolved by the
 * samples per interval of the replay or monitor that feeds it. per_thread 0: every
 * thread's samples go to one engine (thread id 0). */
typedef struct pms_phase_threads pms_phase_threads;
int pms_phase_threads_create(pms_phase_threads **out, const pms_phase_config *cfg, uint64_t base_size,
                             int per_thread);
void pms_phase_threads_destroy(pms_phase_threads *t);
/* The engine of thread tid (0 with per_thread 0), created if it has none yet. */
int pms_phase_threads_get(pms_phase_threads *t, pid_t tid, pms_phase_engine **out);
size_t pms_phase_threads_count(const pms_phase_threads *t);
/* Thread i (0 <= i < count, in order of their first sample): its engine and id. */
const pms_phase_engine *pms_phase_threads_engine(const pms_phase_threads *t, size_t i, pid_t *tid);
/* The engine of thread tid, or NULL. */
const pms_phase_engine *pms_phase_threads_find(const pms_phase_threads *t, pid_t tid);
/* The configuration in use (the threshold resolved once samples came). */
const pms_phase_config *pms_phase_threads_config(const pms_phase_threads *t);
/* The samples an interval holds, as the replay or monitor that fed t cut them (0 when
 * none did). */
uint64_t pms_phase_threads_samples_per_interval(const pms_phase_threads *t);
/* Every thread's intervals together: counts and rates added up over the threads; with
 * tables of their own, a phase is a thread's phase (thread 1's phase 1 and thread 2's
 * phase 1 count as two). */
void pms_phase_threads_summary(const pms_phase_threads *t, pms_phase_summary *out);
/* Writes the phase table (see pms_phase_table): the shared table, or the one thread's;
 * PMS_EINVAL when several threads have tables of their own (pms_phase_config.shared_table
 * makes one) or none has a phase. */
int pms_phase_threads_write_table(const pms_phase_threads *t, FILE *out);
/* pms_phase_replay_perfdata() with each thread's samples cut into intervals of its own
 * and classified by its own engine. */
int pms_phase_replay_perfdata_threads(pms_phase_threads *t, const char *path, const pms_phase_source *src,
                                      pms_phase_event_fn fn, void *ctx);
/* Replays basic block vectors (exp-bbv or SimPoint): each vector is one base interval;
 * blocks project by their address when the PC file gave one, else by their number;
 * weights are the instruction counts. */
int pms_phase_replay_bbv(pms_phase_engine *e, const pms_bbv *b, pms_phase_event_fn fn, void *ctx);

/* ---- a known schedule to compare with ---- */

/* A true schedule, "start_ns end_ns label [tid]" per line (as `phases --trace` writes it,
 * CLOCK_MONOTONIC); labels are words (A, B, ...) or numbers; the thread id, where given,
 * says which thread ran the span. '#' lines are comments. */
typedef struct pms_phase_truth pms_phase_truth;
int pms_phase_truth_load(pms_phase_truth **out, const char *path);
void pms_phase_truth_free(pms_phase_truth *t);
/* The label (index into the distinct labels, from 0) covering most of [start, end), or
 * -1 when the interval lies outside the schedule. */
int pms_phase_truth_label(const pms_phase_truth *t, uint64_t start, uint64_t end);
/* The same for thread tid's interval: spans of other threads are left out (spans without a
 * thread id count for every thread; tid 0: every span counts). */
int pms_phase_truth_thread_label(const pms_phase_truth *t, pid_t tid, uint64_t start, uint64_t end);
/* The label of thread tid's span that holds the instant `time`, or -1; *span (if not NULL)
 * gets the span's number (its line among the schedule's spans, from 0). */
int pms_phase_truth_label_at(const pms_phase_truth *t, pid_t tid, uint64_t time, size_t *span);
/* The number of spans (phase instances) of the schedule. */
size_t pms_phase_truth_nspans(const pms_phase_truth *t);
const char *pms_phase_truth_name(const pms_phase_truth *t, int label);
int pms_phase_truth_nlabels(const pms_phase_truth *t);

/* ---- the live monitor ---- */

/* Samples a thread, a process or a launched command and classifies each thread's
 * intervals as they end; no signal handler is needed. Every thread has its own intervals,
 * its own engine (pms_phase_monitor_threads) and its id in every event.
 *
 * Where each thread has its own buffer (an attached process, one thread, the caller's own
 * process, a command followed without its children), a thread's interval ends when its own
 * interval count (task-clock: its CPU time; instructions with a PMU) overflows, and the
 * reader wakes at that record. Where the command's children are followed (inherit), the
 * kernel keeps one buffer per CPU and counts per CPU: a thread's interval is then a fixed
 * number of its own samples (interval size / sample period), and the reader wakes when a
 * buffer holds that many, or when the thread nearest the end of its interval should have
 * them. Either way each drain is handled at once (no waiting for other CPUs' buffers): the
 * decision on an interval comes within about one sample period of the thread's CPU time
 * after it ends (tests/unit/test_phase_latency.c, bench/bench-phase-latency.sh).
 *
 * Dynamic intervals merge as many base intervals as the engine asks for (the periods stay
 * as set). The reader thread exists before the events are opened: it is never sampled.
 *
 * Defaults: with a PMU the thesis's 100K branches per sample and 100M-instruction
 * intervals (about 1000 samples per interval, 1.2% overhead in the thesis). Without one,
 * cpu-clock every 4 ms (each sample is a timer interrupt, about 25 us on a VM: 0.6%) and
 * intervals of 5 samples' worth of task-clock (20 ms): short enough for phases of 100 ms
 * (the bundled phases workload's), with the similarity threshold chosen for 5 samples
 * (pms_phase_default_threshold). */
#define PMS_PHASE_PMU_PERIOD 100000ull
#define PMS_PHASE_PMU_INTERVAL 100000000ull
#define PMS_PHASE_SOFTWARE_PERIOD 4000000ull
#define PMS_PHASE_SAMPLES_PER_INTERVAL 7u

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
                                    periods (20 ms of task-clock at the default period) */
    int use_clockid, clockid;    /* timestamps from this clock (e.g. CLOCK_MONOTONIC) */
    int inherit;                 /* follow threads and processes created later */
    int thread_only;             /* pid is a thread id: that thread alone (perf's -t), not its
                                    process's other threads; not with inherit */
    int enable_on_exec;          /* pid is a child held before exec (pms_child_spawn) */
    int own_thread;              /* 1: read on a thread of the monitor; 0: in pms_phase_monitor_poll
                                    (the caller's thread, which is sampled when it is the target's) */
    pms_phase_event_fn on_interval; /* every interval (may be NULL) */
    pms_phase_event_fn on_change;   /* intervals whose phase differs from the thread's previous
                                       one, from the second on (may be NULL) */
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
/* Stops sampling, handles what is left in the buffers (each thread's last partial interval
 * included, whose CPI, where intervals have one and the events follow one thread, not
 * inherited, comes from the counters read at the stop) and joins the thread. Returns the
 * first failure of the reading thread, if any. */
int pms_phase_monitor_stop(pms_phase_monitor *m);
void pms_phase_monitor_close(pms_phase_monitor *m);
/* The events actually used, e.g. "cpu-clock" and "task-clock" on a machine without PMU. */
const char *pms_phase_monitor_sample_event(const pms_phase_monitor *m);
const char *pms_phase_monitor_interval_event(const pms_phase_monitor *m);
/* Non-zero when perf_event_paranoid let the monitor count user space only: its events then
 * carry perf's ":u" ("cpu-clock:u"), as perf names them at Debian's default level 2. */
int pms_phase_monitor_user_only(const pms_phase_monitor *m);
/* The samples an interval holds (interval size / sample period). */
uint64_t pms_phase_monitor_samples_per_interval(const pms_phase_monitor *m);
/* True once every monitored thread has exited. */
int pms_phase_monitor_target_gone(const pms_phase_monitor *m);
/* Every thread's engine; valid until close, read it after stop. */
const pms_phase_threads *pms_phase_monitor_threads(const pms_phase_monitor *m);
/* The engine of the target's own thread (pid's), valid until close. */
const pms_phase_engine *pms_phase_monitor_engine(const pms_phase_monitor *m);
/* Where each interval's metric comes from, in words: the CPI from cycles and instructions
 * read in the interval, or, when they are not read (no hardware PMU; or Linux before
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
