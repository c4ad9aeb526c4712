/* pmuscope: where a phase analysis gets its intervals: a file replayed (perf.data, exp-bbv,
 * SimPoint .bb) or a live program (launched or attached), collected into a pms_phase_run. */
#ifndef PMUSCOPE_PHASE_INPUT_H
#define PMUSCOPE_PHASE_INPUT_H
#include "pmuscope/bbv.h"
#include "pmuscope/phase.h"
#include "pmuscope/phase_report.h"

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef enum pms_phase_format {
    PMS_PHASE_FORMAT_AUTO,
    PMS_PHASE_FORMAT_PERF,
    PMS_PHASE_FORMAT_BBV,
    PMS_PHASE_FORMAT_SIMPOINT
} pms_phase_format;

typedef struct pms_phase_input {
    pms_phase_config cfg;
    pms_phase_monitor_config live;  /* its .phase is set from cfg */
    pms_phase_source source;        /* perf.data */
    pms_phase_format format;
    const char *path, *pc_path;     /* a file to replay (and its exp-bbv PC file) */
    pid_t pid;                      /* live: a process to attach to (a thread that does not
                                       lead its process: that thread alone) ... */
    char **argv;                    /* ... or a command to launch */
    /* Launched: follow the command's own process only, not the children it starts (perf's
     * --no-inherit). Linux before 6.12 reads cycles and instructions in samples of
     * per-process events only: the CPI per interval then, instead of ns per sample. */
    int no_inherit;
    /* Attached: the caller sets *stop (from its SIGINT handler) to end the session; may be NULL.
     * A launched command runs to its end (the caller decides what Ctrl-C does). */
    volatile sig_atomic_t *stop;
    /* Results of a live session, for the caller to report. */
    uint64_t lost_samples;          /* ring buffer full */
    uint64_t empty_intervals;       /* intervals without samples, not classified */
    int user_only;                  /* live: the events count user space only (perf_event_paranoid) */
    char user_only_events[272];     /* and their names, "cpu-clock:u, task-clock:u" */
    int exit_status;                /* a launched command's wait status */
    pms_phase_threads *threads;     /* replay: owned here */
    pms_phase_monitor *monitor;     /* live: owned here */
    pms_bbv *bbv;
} pms_phase_input;

void pms_phase_input_defaults(pms_phase_input *in);
/* "auto", "perf", "bbv" or "simpoint"; returns 1 if s is one of them. */
int pms_phase_input_parse_format(const char *s, pms_phase_format *out);
/* Runs the analysis into run (sets run->engine, source, units); returns a pms_status. */
int pms_phase_input_run(pms_phase_input *in, pms_phase_run *run);
void pms_phase_input_close(pms_phase_input *in);

/* Labels each row of an exp-bbv replay with the function that ran most of its instructions. */
int pms_phase_input_function_truth(const pms_phase_input *in, pms_phase_run *run);

/* The signatures as SimPoint .bb vectors (parts per million of each interval). */
int pms_phase_write_bb(const pms_phase_run *r, FILE *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
