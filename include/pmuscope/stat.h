/* pmuscope: counting results in perf's units: one event's value, the mean and spread of
 * repeated runs (-r, the anchors of --schedule=runs) and perf stat's derived metrics.
 * Printing them is pmuscope/statfmt.h. */
#ifndef PMUSCOPE_STAT_H
#define PMUSCOPE_STAT_H
#include "pmuscope/counter.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One event's result, in the unit perf prints (msec for task-clock and cpu-clock). */
typedef struct pms_stat_value {
    char name[PMS_EVENT_NAME_MAX]; /* as the user wrote it */
    uint32_t type;                 /* perf_event_attr type and config: to find metrics */
    uint64_t config;
    double value;                  /* scaled value (mean over runs) in the unit */
    double rel_stddev;             /* stddev of the mean over runs, % of the mean (perf's +- x%); 0 for a mean of 0, NAN for one run */
    uint64_t enabled, running;     /* ns, summed over threads */
    double uncertainty;            /* standard uncertainty of value from multiplexing, in the unit
                                      (pmuscope/multiplex.h): 0 when the event was never off the
                                      counters; over runs, that of the mean */
    pms_count_state state;
    pms_count_flaw flaw;           /* with PMS_COUNT_IMPOSSIBLE: why */
    bool per_cpu;                  /* the value of one CPU (perf stat -A), printed with "CPU<cpu>" */
    int cpu;
    char cgroup[256];              /* the value of one cgroup (perf stat -G), "" otherwise */
} pms_stat_value;

/* Averages nruns repetitions of the same n values (runs[r * n + i]) into out[i]: the
 * mean of the scaled values and of the times, and the standard deviation of the mean
 * as a % of the mean (what perf stat -r prints as "+- x%"); the multiplexing uncertainty of
 * the mean is sqrt(sum of the runs' squared uncertainties) / runs (the runs are independent).
 * The state is counted if any run counted.
 * Returns PMS_OK, or PMS_ENOMEM (out is then not filled). */
int pms_stat_average_runs(const pms_stat_value *runs, size_t nruns, size_t n, pms_stat_value *out);
/* Mean of x[n] and the standard deviation of that mean (sample sd / sqrt(n); 0 for n < 2). */
void pms_stat_mean_sem(const double *x, size_t n, double *mean, double *sem);
/* The coefficient of variation (sample stddev / mean, in %) of value i over the runs; NAN if undefined. */
double pms_stat_cv(const pms_stat_value *runs, size_t nruns, size_t n, size_t i);

/* The events to count when the caller names none, as perf stat's default set:
 * "task-clock,context-switches,cpu-migrations,page-faults", and with a hardware PMU
 * ",cycles,instructions,branches,branch-misses" after them. */
const char *pms_stat_default_events(void);

/* Fills v from an event and its count. */
void pms_stat_value_set(pms_stat_value *v, const pms_event *ev, const pms_count *c);
/* "msec" for the clock events, "ns" for the tool events, "" otherwise. */
const char *pms_stat_unit(const pms_stat_value *v);
/* The share of time the event was on a counter, in % (100 when it never ran, as perf). */
double pms_stat_running_pct(const pms_stat_value *v);
/* Whether v is a count scaled for multiplexing (counted, and off the counters some of the time):
 * every output prints its uncertainty beside it. */
bool pms_stat_multiplexed(const pms_stat_value *v);
/* perf's derived metric for value i ("CPUs utilized", "K/sec", "insn per cycle", "GHz",
 * "of all branches", "of all cache refs") from the other values; false if none. */
bool pms_stat_metric(const pms_stat_value *v, size_t n, size_t i, double elapsed_s, double *metric,
                     const char **unit);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
