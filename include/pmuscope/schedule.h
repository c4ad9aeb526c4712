/* pmuscope: measuring more events than the PMU counts at once, over several runs
 * (Hattori's paper): the events are split into runs that fit the counters, the anchor events
 * (cycles and instructions, or task-clock without a PMU) are measured in every run,
 * and the runs are merged into one table with the anchors' variation between runs. */
#ifndef PMUSCOPE_SCHEDULE_H
#define PMUSCOPE_SCHEDULE_H
#include "pmuscope/stat.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_schedule pms_schedule;

/* Splits events into runs of at most per_run events each (besides the anchors, which
 * like Intel's fixed counters are not counted against per_run); per_run 0 probes how many
 * fit (pms_schedule_probe_capacity). Events that are also anchors (by name) are left out;
 * none left is PMS_EINVAL. */
int pms_schedule_create(const pms_event *anchors, size_t na, const pms_event *events, size_t ne, unsigned per_run,
                        pms_schedule **out);
/* The events per run besides the anchors (as given, or probed). */
unsigned pms_schedule_per_run(const pms_schedule *s);
void pms_schedule_destroy(pms_schedule *s);
size_t pms_schedule_runs(const pms_schedule *s);
/* The events of run r: the anchors, then its share of the events, as one perf group. */
const pms_event *pms_schedule_run_events(const pms_schedule *s, size_t r, size_t *n);
/* Stores the totals of run r, in the order of pms_schedule_run_events. */
int pms_schedule_record(pms_schedule *s, size_t r, const pms_count *totals);
/* The merged table, na + ne values: the anchors (mean over the runs) then the events,
 * each from its run; anchor_cv[na] gets each anchor's coefficient of variation between
 * the runs in % (NAN with a single run). Fails if a run has not been recorded. */
int pms_schedule_merge(const pms_schedule *s, pms_stat_value *out, double *anchor_cv);
/* Forgets the recorded runs (to measure the next size). */
void pms_schedule_reset(pms_schedule *s);

/* The number of anchors and of scheduled events (events that are also anchors are left
 * out by pms_schedule_create: the anchors are measured in every run anyway). */
size_t pms_schedule_anchor_count(const pms_schedule *s);
size_t pms_schedule_event_count(const pms_schedule *s);
/* The anchors a machine has: "cycles,instructions" where it counts both, else "task-clock". */
const char *pms_schedule_default_anchors(void);

/* Measuring a schedule: one launch of the command per run, each counted from its exec. */
typedef struct pms_schedule_measure_opts {
    volatile sig_atomic_t *stop; /* set (to a signal number) by the caller's handler: forwarded
                                    to the running command, and no further run starts */
    /* Called before each run with its events (anchors first); may be NULL. */
    void (*on_run)(void *ctx, size_t run, size_t nruns, const pms_event *events, size_t nevents);
    void *ctx;
} pms_schedule_measure_opts;

/* Runs argv once per run of s (forgetting runs recorded before) and records each run's totals;
 * *elapsed_s gets the mean wall time of the runs. Fails with PMS_ECHILD ("run 2/3: the command exited
 * with status 4") when a run's command does not exit with status 0 (its counts would make
 * an incomplete table), and with PMS_EIO when *stop ended it. */
int pms_schedule_measure(double *elapsed_s, pms_schedule *s, char *const argv[], const pms_schedule_measure_opts *o);

/* Sizes as "1-10,50" (ranges and single sizes, 0 or more, comma-separated) into a malloc'ed
 * list in the order given. */
int pms_schedule_parse_sizes(long **sizes, size_t *count, const char *spec);

/* Measuring a schedule once per input size, as the runs table of Hattori's paper. */
typedef struct pms_schedule_sizes_opts {
    volatile sig_atomic_t *stop; /* as pms_schedule_measure_opts' */
    /* Before each run of size k (sizes[k]); may be NULL. */
    void (*on_run)(void *ctx, size_t k, size_t run, size_t nruns, const pms_event *events, size_t nevents);
    /* After size k: its merged table (pms_schedule_merge: the anchors, then the events) and
     * each anchor's coefficient of variation between the runs, in %. A non-zero return
     * stops with that status. May be NULL. */
    int (*on_size)(void *ctx, size_t k, const pms_stat_value *merged, const double *anchor_cv);
    void *ctx;
} pms_schedule_sizes_opts;

/* Measures s (pms_schedule_measure) once per size, the size appended to argv as the
 * command's last argument, and merges each size's runs; worst_cv[na] gets each anchor's
 * largest coefficient of variation over the sizes (0 where none is defined). A failure
 * names the size: "TEST3 (3/4): run 1/2: the command exited with status 4" (PMS_ECHILD);
 * the sizes before it have been passed to on_size. */
int pms_schedule_measure_sizes(double *worst_cv, pms_schedule *s, char *const argv[], const long *sizes,
                               size_t nsizes, const pms_schedule_sizes_opts *o);

/* How many of events (at most limit) the PMU counts in one group beside the anchors,
 * found by opening growing groups on the calling thread and checking that they are
 * scheduled. Software events take no counter: a list of them all fits. */
int pms_schedule_probe_capacity(const pms_event *anchors, size_t na, const pms_event *events, size_t ne,
                                unsigned *capacity);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
