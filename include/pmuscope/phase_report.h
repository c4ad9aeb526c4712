/* pmuscope: the intervals of a phase analysis and their outputs: per-interval table, timeline,
 * summary, CSV, JSON, SVG. The printers write to the FILE the caller gives. */
#ifndef PMUSCOPE_PHASE_REPORT_H
#define PMUSCOPE_PHASE_REPORT_H
#include "pmuscope/phase.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_phase_row {
    pms_phase_event ev;  /* ev.signature points at sig, ev.sample_times at times */
    double *sig;
    uint64_t *times;     /* NULL where the samples' times are not known */
    int truth;           /* label of the known schedule, -1 if none */
} pms_phase_row;

typedef struct pms_phase_run {
    pms_phase_row *rows;
    size_t n, cap;
    const pms_phase_threads *threads; /* every thread's engine */
    const pms_phase_config *cfg;
    int has_truth;           /* rows carry labels of a known schedule */
    char **truth_names;      /* label -> name */
    size_t ntruth;
    double truth_span_samples; /* the median samples a phase instance of the known schedule
                                  holds (where the samples' times are known); 0: not known */
    char source[512];     /* what was analysed, in words */
    const char *size_unit;   /* "instructions", "ns", "samples" */
    const char *metric_name; /* "CPI", "ns/sample" */
    const char *metric_about;/* where the metric comes from, in words (NULL: not said) */
    const char *samples_name;/* "samples", or "blocks" for exact vectors */
    const char *note;        /* what the input's reader found to say about it (NULL: nothing) */
} pms_phase_run;

/* Keeps a copy of the event (callback of the replay and the monitor). */
int pms_phase_run_add(pms_phase_run *r, const pms_phase_event *ev);
/* The same as a pms_phase_event_fn (ctx is the pms_phase_run), for replays and monitors. */
int pms_phase_run_collect(const pms_phase_event *ev, void *run);
void pms_phase_run_free(pms_phase_run *r);
/* Sets row i's known label by name (adding the name); NULL leaves it unknown. */
int pms_phase_run_set_truth(pms_phase_run *r, size_t i, const char *name);
/* Labels each interval with the phase of the known schedule `truth` (read from path) that
 * most of its samples fell in (each sample stands for one sample period of its thread's
 * CPU time: the label holds however busy the machine was), or where the samples' times
 * are not known, that overlaps it most; PMS_EINVAL, the message naming path, when it labels none (intervals
 * without times, as exp-bbv's, are labelled with pms_phase_input_function_truth instead). */
int pms_phase_run_label(pms_phase_run *r, const pms_phase_truth *truth, const char *path);

void pms_phase_print_table(const pms_phase_run *r, FILE *out);
void pms_phase_print_summary(const pms_phase_run *r, FILE *out);
int pms_phase_write_csv(const pms_phase_run *r, FILE *out);
void pms_phase_write_json(const pms_phase_run *r, FILE *out);
int pms_phase_write_svg(const pms_phase_run *r, FILE *out);
/* The timeline as Chrome trace event JSON (Perfetto, chrome://tracing): an "X" slice per
 * run of one phase, a "C" counter event per interval for the metric; microseconds from
 * the first interval (interval sizes stand in where the input has no times). PMS_EIO
 * when the stream fails. */
int pms_phase_write_trace(const pms_phase_run *r, FILE *out);

/* SimPoint 3.0's -saveSimpoints and -saveSimpointWeights files for the run's phases: per
 * phase (transition phase 0 included where it has intervals), in id order, "INTERVAL PHASE"
 * with the interval closest (Euclidean) to the mean of the phase's signatures, and
 * "WEIGHT PHASE" with the phase's share of the intervals by size. Either FILE may be NULL.
 * PMS_EINVAL for a run without intervals or with several threads. */
int pms_phase_write_simpoints(const pms_phase_run *r, FILE *simpoints, FILE *weights);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
