/* pmuscope: writing counting results as `perf stat` does (the plain table, the -x SEP
 * CSV in perf's column order, interval lines), the --wide table (one row per interval,
 * one column per event) and the runs table of `stat --schedule=runs --sizes`. */
#ifndef PMUSCOPE_STATFMT_H
#define PMUSCOPE_STATFMT_H
#include "pmuscope/counter.h"
#include "pmuscope/json.h"

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One event's result, in the unit perf prints (msec for task-clock and cpu-clock). */
typedef struct pms_stat_value {
    char name[PMS_EVENT_NAME_MAX]; /* as the user wrote it */
    uint32_t type;                 /* perf_event_attr type and config: to find metrics */
    uint64_t config;
    double value;                  /* scaled value (mean over runs) in the unit */
    double rel_stddev;             /* stddev of the mean over runs, % of the mean (perf's +- x%); NAN for one run */
    uint64_t enabled, running;     /* ns, summed over threads */
    pms_count_state state;
} pms_stat_value;

/* Averages nruns repetitions of the same n values (runs[r * n + i]) into out[i]: the
 * mean of the scaled values and of the times, and the standard deviation of the mean
 * as a % of the mean (what perf stat -r prints as "+- x%"). The state is counted if any run counted.
 * Returns PMS_OK, or PMS_ENOMEM (out is then not filled). */
int pms_stat_average_runs(const pms_stat_value *runs, size_t nruns, size_t n, pms_stat_value *out);
/* Mean of x[n] and the standard deviation of that mean (sample sd / sqrt(n); 0 for n < 2). */
void pms_stat_mean_sem(const double *x, size_t n, double *mean, double *sem);
/* The coefficient of variation (sample stddev / mean, in %) of value i over the runs; NAN if undefined. */
double pms_stat_cv(const pms_stat_value *runs, size_t nruns, size_t n, size_t i);

/* Fills v from an event and its count. */
void pms_stat_value_set(pms_stat_value *v, const pms_event *ev, const pms_count *c);
/* "msec" for the clock events, "" otherwise. */
const char *pms_stat_unit(const pms_stat_value *v);
/* The share of time the event was on a counter, in % (100 when it never ran, as perf). */
double pms_stat_running_pct(const pms_stat_value *v);
/* perf's derived metric for value i ("CPUs utilized", "K/sec", "insn per cycle", "GHz",
 * "of all branches", "of all cache refs") from the other values; false if none. */
bool pms_stat_metric(const pms_stat_value *v, size_t n, size_t i, double elapsed_s, double *metric,
                     const char **unit);

typedef struct pms_stat_summary {
    const char *target;      /* "'./prog arg'" or "process id '123'" */
    unsigned runs;           /* > 1 with -r */
    double elapsed_s;        /* mean wall time */
    double elapsed_stddev_s; /* stddev of the mean (runs > 1) */
    bool has_rusage;
    double user_s, sys_s;
    const char *const *notes; /* lines printed as "# note" under the table (substitutions, ...) */
    size_t nnotes;
} pms_stat_summary;

/* The plain `perf stat` report. */
void pms_stat_print_plain(FILE *out, const pms_stat_summary *s, const pms_stat_value *v, size_t n);
/* One interval of `perf stat -I` in plain form (header first if header is true). */
void pms_stat_print_plain_interval(FILE *out, double t, double interval_s, const pms_stat_value *v, size_t n,
                                   bool header);
/* perf stat -x SEP lines: [time,]value,unit,event,[variance,]run time,running %,metric value,metric unit.
 * t < 0 leaves out the time column; the variance column appears when runs > 1. */
void pms_stat_print_csv(FILE *out, const char *sep, double t, double elapsed_s, unsigned runs,
                        const pms_stat_value *v, size_t n);

/* The values as a JSON array of {"event", "value", "unit", "state", "run_time_ns", "running_pct",
 * "stddev_pct", "metric", "metric_unit"} objects. */
void pms_stat_json_values(pms_json *j, const pms_stat_value *v, size_t n, double elapsed_s);

/* A CSV cell, quoted when it holds the separator, a quote or a newline. */
void pms_csv_cell(FILE *out, const char *s, const char *sep);
/* The --wide table: header "time,<event1>,<event2>,..." then one row per interval
 * (value in perf's unit; empty when not counted or not supported). */
void pms_stat_wide_header(FILE *out, const pms_stat_value *v, size_t n);
void pms_stat_wide_row(FILE *out, double t, const pms_stat_value *v, size_t n);
/* The runs table: header "run,size,<columns...>", rows "TEST<size>,<size>,<values...>". */
void pms_stat_runs_header(FILE *out, const pms_stat_value *v, size_t n);
void pms_stat_runs_row(FILE *out, long size, const pms_stat_value *v, size_t n);

#ifdef __cplusplus
}
#endif
#endif
