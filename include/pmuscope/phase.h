/* pmuscope: online phase classification and prediction (seed 003).
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
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    double threshold;               /* similarity threshold in % of the maximum distance 2 (default 35) */
    size_t cache_size;              /* LRU cache entries (default 32) */
    unsigned transition_threshold;  /* times a signature must be seen before it gets its own
                                       id; until then it is the transition phase (default 2;
                                       1: no transition phase) */
    size_t k;                       /* k-means: number of phases (default 4) */
    double learning_rate;           /* k-means: mean += rate * (p - mean); 0 (default): 1/weight,
                                       the running mean of equation 3.4 */
} pms_classifier_config;

void pms_classifier_config_default(pms_classifier_config *c);

typedef struct pms_classifier pms_classifier;
int pms_classifier_create(pms_classifier **out, const pms_classifier_config *cfg);
void pms_classifier_destroy(pms_classifier *c);
/* Classifies one normalised signature of cfg->signature_size entries; returns its phase
 * id (>= 0) and the distance to the cache entry or mean it matched (2 for a new one). */
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
    pms_predictor_kind predictor;       /* the one reported in events (default run length) */
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
/* The size the next interval should have, in base intervals. */
unsigned pms_phase_engine_next_multiple(const pms_phase_engine *e);
void pms_phase_engine_summary(const pms_phase_engine *e, pms_phase_summary *out);
/* Phase ids (and predictions of predictor k for each interval, -1 for the first) so far. */
const int *pms_phase_engine_labels(const pms_phase_engine *e, size_t *n);
const int *pms_phase_engine_predictions(const pms_phase_engine *e, pms_predictor_kind k, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
