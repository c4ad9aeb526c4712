/* pmuscope: writing counting results (pmuscope/stat.h) as `perf stat` does (the plain table, the -x SEP
 * CSV in perf's column order, interval lines), the --wide table (one row per interval,
 * one column per event) and the runs table of `stat --schedule=runs --sizes`. */
#ifndef PMUSCOPE_STATFMT_H
#define PMUSCOPE_STATFMT_H
#include "pmuscope/json.h"
#include "pmuscope/stat.h"

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

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
/* perf stat -x SEP lines: [time,][CPU<n>,]value,unit,event,[variance,]run time,running %,metric value,
 * metric unit (CPU<n> for a per-CPU value, as perf stat -A; the plain table prints it first too).
 * t < 0 leaves out the time column; the variance column appears when runs > 1. */
void pms_stat_print_csv(FILE *out, const char *sep, double t, double elapsed_s, unsigned runs,
                        const pms_stat_value *v, size_t n);

/* perf stat -j lines: one JSON object per event, with perf 6.1's keys in its order:
 * ["interval",] "counter-value" (a string: "%f" or "<not counted>"), "unit", "event",
 * ["variance" (runs > 1),] "event-runtime", "pcnt-running", "metric-value", "metric-unit";
 * "cpu" (a string) after the interval for a per-CPU value. t < 0 leaves out the interval. */
void pms_stat_print_json_lines(FILE *out, double t, double elapsed_s, unsigned runs, const pms_stat_value *v,
                               size_t n);

/* The values as a JSON array of {"event", ["cpu",] "value", "unit", "state", "run_time_ns", "running_pct",
 * "stddev_pct", "metric", "metric_unit"} objects. */
void pms_stat_json_values(pms_json *j, const pms_stat_value *v, size_t n, double elapsed_s);

/* The --wide table: header "time,<event1>,<event2>,..." then one row per interval
 * (value in perf's unit; empty when not counted or not supported). */
void pms_stat_wide_header(FILE *out, const pms_stat_value *v, size_t n);
void pms_stat_wide_row(FILE *out, double t, const pms_stat_value *v, size_t n);
/* The runs table: header "run,size,<columns...>", rows "TEST<size>,<size>,<values...>". */
void pms_stat_runs_header(FILE *out, const pms_stat_value *v, size_t n);
void pms_stat_runs_row(FILE *out, long size, const pms_stat_value *v, size_t n);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
