/* pmuscope: a whole `perf stat`-like measurement as one call: count events on a launched
 * command (repeated -r times), on every thread of a running process, or system-wide on
 * CPUs, with a callback at every interval, each CPU's values on their own (perf stat -A),
 * and the mean and spread over the runs (pmuscope/stat.h). Printing is pmuscope/statfmt.h. */
#ifndef PMUSCOPE_STAT_SESSION_H
#define PMUSCOPE_STAT_SESSION_H
#include "pmuscope/counter.h"
#include "pmuscope/stat.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_stat_config {
    const pms_event *events;   /* counted as one set (pms_counter_create, unsupported ones skipped) */
    size_t nevents;
    char *const *argv;         /* the command to launch (or, system-wide, to run while counting; may be NULL) */
    pid_t pid;                 /* without argv: the process to attach to */
    bool system_wide;          /* every task of the CPUs (perf stat -a) */
    const char *cpus;          /* system-wide: "0-3,6"; NULL: every online CPU */
    bool per_cpu;              /* system-wide: each CPU's values, not their sum (perf stat -A) */
    const char *const *cgroups; /* system-wide in these cgroups (perf stat -G): each event's value
                                   per cgroup, cgroup by cgroup (pms_counter_set_cgroups) */
    size_t ncgroups;
    unsigned repeat;           /* launches of the command (perf stat -r); 0 counts as 1 */
    unsigned interval_ms;      /* 0: totals only */
    volatile sig_atomic_t *stop; /* set by the caller's signal handler: ends the run, and no other starts */
    /* Every interval_ms: the interval's values (each CPU's with per_cpu, event by event); a
     * non-zero return stops. May be NULL. */
    int (*on_interval)(void *ctx, double t, const pms_stat_value *v, size_t n);
    /* A launched command held before its exec (pms_measure_opts.on_spawn). May be NULL. */
    int (*on_spawn)(void *ctx, pid_t pid);
    /* After each run (run counts from 0), with its wall time and wait status. May be NULL. */
    void (*on_run)(void *ctx, unsigned run, const pms_measure_result *res);
    void *ctx;
} pms_stat_config;

typedef struct pms_stat_result {
    unsigned runs;             /* the runs measured: fewer than repeat when stopped or failed */
    pms_stat_value *values;    /* the mean over the runs of each event (with per_cpu: of each
                                * event and CPU, event by event, as perf stat -A prints them;
                                * with cgroups: of each cgroup and event, cgroup by cgroup) */
    size_t n;
    double elapsed_s, elapsed_sem_s; /* the runs' mean wall time and the standard deviation of that mean */
    double user_s, sys_s;      /* the launched command's mean CPU time */
    double *run_values;        /* runs x n: each run's value of each event in its unit (run r's
                                * at run_values[r * n + i]; NaN where it did not count) */
    double *run_elapsed_s;     /* the runs' wall times */
} pms_stat_result;

/* Measures cfg->repeat runs. On a failure after some runs, the status says why and out
 * holds the mean of the runs measured until then (out->runs > 0), as perf stat prints what
 * was counted; out->runs is 0 when there is nothing to show. Free out with
 * pms_stat_result_free in every case. */
int pms_stat_measure(pms_stat_result *out, const pms_stat_config *cfg);
void pms_stat_result_free(pms_stat_result *r);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
