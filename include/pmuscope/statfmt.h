/* pmuscope: writing counting results (pmuscope/stat.h) as `perf stat` does (the plain table, the -x SEP
 * CSV in perf's column order, interval lines), the --wide table (one row per interval,
 * one column per event) and the runs table of `stat --schedule=runs --sizes`. */
#ifndef PMUSCOPE_STATFMT_H
#define PMUSCOPE_STATFMT_H
#include "pmuscope/json.h"
#include "pmuscope/stat.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

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
    /* NULL, or each run's values (runs x n, run r's at [r * n + i], NaN where not counted)
     * and wall times (runs), as pms_stat_result has them: the JSON keeps them */
    const double *run_values;
    const double *run_elapsed_s;
} pms_stat_summary;

/* The target as perf stat's header names it, for pms_stat_summary.target: "'system wide'"
 * or "'CPU(s) 0-3'" (system_wide, with or without a command), "process id '123'" (pid), or
 * the command "'./prog arg ...'" (cut to size). */
void pms_stat_describe_target(char *buf, size_t size, char *const argv[], pid_t pid, bool system_wide, const char *cpus);

/* The plain `perf stat` report. */
void pms_stat_print_plain(FILE *out, const pms_stat_summary *s, const pms_stat_value *v, size_t n);
/* One interval of `perf stat -I` in plain form (header first if header is true). */
void pms_stat_print_plain_interval(FILE *out, double t, double interval_s, const pms_stat_value *v, size_t n,
                                   bool header);
/* perf stat -x SEP lines: [time,][CPU<n>,]value,unit,event,[variance,]run time,running %,metric value,
 * metric unit (CPU<n> for a per-CPU value, as perf stat -A; the plain table prints it first too).
 * t < 0 leaves out the time column; the variance column appears when runs > 1. A multiplexed
 * count (pms_stat_multiplexed) has one more field, its uncertainty in the value's unit; an
 * impossible one reads <impossible> in place of the value. The plain forms print a multiplexed
 * count's uncertainty as "( +- x% multiplexing )" and name an impossible count's flaw under
 * the table. */
void pms_stat_print_csv(FILE *out, const char *sep, double t, double elapsed_s, unsigned runs,
                        const pms_stat_value *v, size_t n);

/* perf stat -j lines: one JSON object per event, with perf 6.1's keys in its order:
 * ["interval",] "counter-value" (a string: "%f" or "<not counted>"), "unit", "event",
 * ["variance" (runs > 1),] "event-runtime", "pcnt-running", ["uncertainty" (pmuscope's, of a
 * multiplexed count),] "metric-value", "metric-unit";
 * "cpu" (a string) after the interval for a per-CPU value. t < 0 leaves out the interval. */
void pms_stat_print_json_lines(FILE *out, double t, double elapsed_s, unsigned runs, const pms_stat_value *v,
                               size_t n);

/* The values as a JSON array of {"event", ["cpu",] "value", "unit", ["uncertainty", "multiplexed"
 * (counted values),] "state", ["flaw" (impossible ones),] "run_time_ns", "running_pct",
 * "stddev_pct", "metric", "metric_unit"} objects. */
void pms_stat_json_values(pms_json *j, const pms_stat_value *v, size_t n, double elapsed_s);

/* The --wide table: header "time,<event1>,<event2>,..." then one row per interval
 * (value in perf's unit; empty when not counted or not supported); an event that can be
 * multiplexed (all but software and tool events) has an "uncertainty(<event>)" column after it. */
void pms_stat_wide_header(FILE *out, const pms_stat_value *v, size_t n);
void pms_stat_wide_row(FILE *out, double t, const pms_stat_value *v, size_t n);
/* The runs table: header "run,size,<columns...>", rows "TEST<size>,<size>,<values...>" (with the
 * wide table's uncertainty columns). */
void pms_stat_runs_header(FILE *out, const pms_stat_value *v, size_t n);
void pms_stat_runs_row(FILE *out, long size, const pms_stat_value *v, size_t n);

/* The text formats, each with its printers above. */
typedef enum pms_stat_format {
    PMS_STAT_PLAIN,      /* perf stat's table (pms_stat_print_plain) */
    PMS_STAT_CSV,        /* perf stat -x SEP (pms_stat_print_csv) */
    PMS_STAT_JSON_LINES, /* perf stat -j (pms_stat_print_json_lines) */
    PMS_STAT_WIDE,       /* the --wide table */
} pms_stat_format;
typedef struct pms_stat_style {
    pms_stat_format format;
    const char *sep; /* PMS_STAT_CSV: the separator */
} pms_stat_style;

/* One interval (perf stat -I) in the style's format; first: the run's first interval, which
 * the plain and wide forms head with their header. */
void pms_stat_print_interval(FILE *out, const pms_stat_style *st, double t, double interval_s,
                             const pms_stat_value *v, size_t n, bool first);
/* The totals in the style's format: the plain table (with s's header, footer and notes), or
 * the CSV/JSON lines over s->runs runs with rates over s->elapsed_s, or a wide row at
 * s->elapsed_s. */
void pms_stat_print_totals(FILE *out, const pms_stat_style *st, const pms_stat_summary *s, const pms_stat_value *v,
                           size_t n);

/* The JSON of --json: one interval as {"time", "counts": pms_stat_json_values}; */
void pms_stat_json_interval(pms_json *j, double t, double interval_s, const pms_stat_value *v, size_t n);
/* the totals as keys "counts", "elapsed_s", "runs", ["user_s", "sys_s",] "notes" of the
 * object open in j, and with s->run_values each count's "run_values" (one per run, null
 * where not counted) and "run_elapsed_s"; */
void pms_stat_json_totals(pms_json *j, const pms_stat_summary *s, const pms_stat_value *v, size_t n);
/* a merged table of pms_schedule_merge (its first nanchors values the anchors) as keys
 * "counts" and "anchor_cv_pct" (each anchor's name: its coefficient of variation in %); */
void pms_stat_json_merged(pms_json *j, const pms_stat_value *merged, size_t n, size_t nanchors,
                          const double *anchor_cv);
/* one size of the runs table as {"run": "TEST<size>", "size", "counts", "anchor_cv_pct"}. */
void pms_stat_json_size(pms_json *j, long size, const pms_stat_value *merged, size_t n, size_t nanchors,
                        const double *anchor_cv);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
