/* pmuscope: the results of hotspot detection from sampled IPs measured against exact
 * counts (Wu & Mencer, "Evaluating Sampling Based Hotspot Detection") as text, JSON, CSV
 * and SVG, written to streams the caller opened (`pmuscope hotspot` prints them). */
#ifndef PMUSCOPE_HOTSPOT_REPORT_H
#define PMUSCOPE_HOTSPOT_REPORT_H
#include "pmuscope/hotspot.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

#define PMS_HOTSPOT_MAX_PERIODS 64

/* One sampling period of a sweep and its measures. */
typedef struct pms_hotspot_sweep_point {
    uint64_t period;
    uint64_t samples;          /* all samples of the period's event */
    int valid;                 /* measured: some sample fell in a file; 0: no measures (none did) */
    pms_hotspot_result result; /* valid: the measures against the truth */
    pms_hotspot_ideal ideal;   /* valid and ideal draws asked for: an ideal sampler with the
                                  same NS (result.measures.ns) */
} pms_hotspot_sweep_point;

typedef struct pms_hotspot_sweep {
    /* set by the caller */
    char event[128];
    int time_based;  /* periods in nanoseconds */
    int user_only;   /* event was named without :u and perf_event_paranoid let it count user
                        space only: event carries perf's ":u" (pms_event_probe_user_fallback) */
    int randomized;
    uint64_t seed;   /* randomised: the recording at period P used seed + P; the ideal draws too */
    int od_covered;  /* the text table's and SVG's OD over covered instructions (--od covered) */
    const char *stdin_path; /* what every run reads as its standard input (NULL: /dev/null),
                               opened for each run: no run shares a file offset with another */
    int no_cpu_mask; /* run natively as is: no GLIBC_TUNABLES for valgrind's CPU */
    size_t ideal_draws; /* draws of the ideal sampler per period (0: none) */
    size_t nperiods;
    /* set by the sweep */
    double valgrind_seconds; /* wall time of the truth's valgrind run (0 for a given truth) */
    pms_hotspot_cpu_mask cpu_mask; /* what the native runs were given (pms_hotspot_cpu_mask_probe) */
    char runs_differ[512];   /* "" if every run wrote the same standard output, else which and how */
    pms_hotspot_sweep_point points[PMS_HOTSPOT_MAX_PERIODS];
} pms_hotspot_sweep;

/* Chooses the sampling event of a sweep into sw->event, sw->time_based and sw->user_only:
 * `event`, or cycles:u when NULL. Where this machine cannot count it (pms_event_probe: PMS_ENOTSUP),
 * the time event of pms_event_fallback (cpu-clock) samples instead when event is NULL or
 * fallback is set. On failure *machine_refused (may be NULL) tells a name this machine
 * cannot sample (true) from a name that does not parse (false). */
int pms_hotspot_sweep_choose_event(pms_hotspot_sweep *sw, const char *event, bool fallback, bool *machine_refused);

/* How pms_hotspot_sweep_record records. */
typedef struct pms_hotspot_sweep_config {
    char *const *argv;             /* the command, NULL-terminated */
    const char *scratch;           /* the perf.data each run writes (removed at the end, unless ...) */
    int keep_recordings;           /* ... kept: SCRATCH itself when one run records every period,
                                      else SCRATCH.PERIOD for each period's run */
    size_t top;                    /* N of the top-N precision and recall */
    volatile sig_atomic_t *stop;   /* non-zero ends the sweep (PMS_ECHILD); may be NULL */
    void (*progress)(void *ctx, size_t done, size_t total); /* before each period; may be NULL */
    /* What the sweep is doing, in words (valgrind started, each period recorded, valgrind
     * done and its time); may be NULL. */
    void (*note)(void *ctx, const char *text);
    void *ctx;
} pms_hotspot_sweep_config;

/* Records the command sampling each period of sw (sw->event, sw->nperiods, points[i].period,
 * sw->randomized and sw->seed set by the caller) in this process (pmuscope/record.h): in one
 * run, one event per period, for a software event (cpu-clock: never multiplexed); one run
 * per period for a hardware event (a PMU's few counters would be multiplexed), and
 * measures each recording against truth into points[i]. Every run reads sw->stdin_path
 * (or /dev/null) and runs with the CPU features valgrind lacks masked (unless
 * sw->no_cpu_mask: sw->cpu_mask says what was done); its standard output goes to a file
 * in the scratch file's directory, compared with the other runs' (sw->runs_differ). A
 * period whose samples all fall outside any file (none at all: a period longer than the
 * command) is a point with valid 0; the others are measured, and with sw->ideal_draws the
 * ideal sampler's spread is computed for each. A recording whose command exits non-zero
 * fails the sweep (PMS_ECHILD). Results of the periods done stay in sw; free them with
 * pms_hotspot_result_free. */
int pms_hotspot_sweep_record(pms_hotspot_sweep *sw, const pms_hotspot_truth *truth,
                             const pms_hotspot_sweep_config *cfg);

/* One valgrind pass and the recordings at once: valgrind (as pms_hotspot_truth_record,
 * without branches) writes the truth into dir while the command is recorded beside it
 * (once for every period of a software event, else once per period), as
 * pms_hotspot_sweep_record records and measures; valgrind reads the same input, and its
 * output is compared too. sw->valgrind_seconds: wall time from starting valgrind to the
 * truth loaded. On failure valgrind is stopped, *truth may be NULL. */
int pms_hotspot_sweep_run(pms_hotspot_sweep *sw, const char *dir, pms_hotspot_truth **truth,
                          const pms_hotspot_sweep_config *cfg);

/* 65536 -> "64K": a period as the paper writes it (K, M, G: powers of 1024, as --sweep reads them). */
const char *pms_hotspot_period_name(uint64_t p, char *buf, size_t size);

/* The share of a result's samples in files (NS + outside) that lie outside the truth: in
 * files valgrind never ran, or at instructions it never ran. */
double pms_hotspot_outside_share(const pms_hotspot_result *r);
/* Above this share a sweep's period deserves a warning (pms_hotspot_sweep_explain). */
#define PMS_HOTSPOT_OUTSIDE_WARN 0.03
/* Why period i's samples lie outside the truth, in words naming the cause (the functions
 * valgrind never ran code of and the CPU mask, the files it never ran, runs that differ);
 * 0 (and buf "") when none does. */
int pms_hotspot_sweep_explain(const pms_hotspot_sweep *sw, size_t i, char *buf, size_t size);

/* One recording against the truth: the measures and the first `rows` IPs (text), or
 * every IP (json). PMS_EIO if the stream fails. */
int pms_hotspot_write_one(FILE *out, const pms_hotspot_truth *t, const pms_hotspot_recording *rec,
                          const pms_hotspot_result *r, size_t rows, bool json);
/* A sweep: one row (text) or object (json) of measures per period. */
int pms_hotspot_write_sweep(FILE *out, const pms_hotspot_sweep *sw, const pms_hotspot_truth *t, bool json);
/* One CSV row per period: period,samples,m,NRMSE_SR,SC,OD,tau_b,top_precision,top_recall. */
int pms_hotspot_write_sweep_csv(FILE *out, const pms_hotspot_sweep *sw);
/* NRMSE_SR, SC and OD against the period, one SVG chart each. */
int pms_hotspot_write_sweep_svg(FILE *out, const pms_hotspot_sweep *sw);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
