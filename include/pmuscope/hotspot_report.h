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
    uint64_t samples;
    int valid;
    pms_hotspot_result result;
} pms_hotspot_sweep_point;

typedef struct pms_hotspot_sweep {
    char event[128];
    int time_based;  /* periods in nanoseconds */
    int user_only;   /* event was named without :u and perf_event_paranoid let it count user
                        space only: event carries perf's ":u" (pms_event_probe_user_fallback) */
    int randomized;
    uint64_t seed;   /* randomised: the recording at period P used seed + P */
    int od_covered;  /* the text table's and SVG's OD over covered instructions (--od covered) */
    double valgrind_seconds; /* wall time of the truth's valgrind run (0 for a given truth) */
    size_t nperiods;
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
    const char *scratch;           /* the perf.data each period overwrites (removed at the end) */
    size_t top;                    /* N of the top-N precision and recall */
    volatile sig_atomic_t *stop;   /* non-zero ends the sweep (PMS_ECHILD); may be NULL */
    void (*progress)(void *ctx, size_t done, size_t total); /* before each period; may be NULL */
    void *ctx;
} pms_hotspot_sweep_config;

/* Records the command sampling each period of sw (sw->event, sw->nperiods, points[i].period,
 * sw->randomized and sw->seed set by the caller) in this process (pmuscope/record.h): in one
 * run, one event per period, for a software event (cpu-clock: never multiplexed); one run
 * per period for a hardware event (a PMU's few counters would be multiplexed),
 * and measures each recording against truth into points[i] (samples, result, valid).
 * A recording whose command exits non-zero fails the sweep (PMS_ECHILD). Results of the
 * periods done stay in sw; free them with pms_hotspot_result_free. */
int pms_hotspot_sweep_record(pms_hotspot_sweep *sw, const pms_hotspot_truth *truth,
                             const pms_hotspot_sweep_config *cfg);

/* One valgrind pass and the recordings at once: valgrind (as pms_hotspot_truth_record)
 * writes the truth into dir while the command is recorded beside it (once for every period
 * of a software event, else once per period), as
 * pms_hotspot_sweep_record records; then the truth is loaded into *truth (the caller frees
 * it) and each recording is measured against it. sw->valgrind_seconds: wall time from
 * starting valgrind to the truth loaded. On failure valgrind is stopped, *truth may be NULL. */
int pms_hotspot_sweep_run(pms_hotspot_sweep *sw, const char *dir, pms_hotspot_truth **truth,
                          const pms_hotspot_sweep_config *cfg);

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
