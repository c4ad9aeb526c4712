/* pmuscope: recording a command or a running process into a perf.data file, as perf
 * record does, as one library call.
 *
 * pms_record_run() opens the sampling events (pmuscope/sampler.h) on a launched command
 * (held before exec until the events are open, so counting starts at exec; its threads
 * and children are followed unless the first event reads a group), on every thread of
 * process pid, or system-wide on every task of the CPUs (with the processes already
 * running described from /proc, as perf record -a does), drains the ring buffers into the file until the target ends or the
 * caller's stop flag is set, and leaves a valid file (it is also made valid every second
 * while recording, so a crash of the caller loses at most the last second).
 *
 * No recording loses a file that was there: the file is written beside the output as
 * OUTPUT.tmp-XXXXXX and renamed to OUTPUT at the first sync that finds it the record of a
 * sample (one a tap left out of the file counts) (from then on a crash of the caller leaves OUTPUT readable) or at the end. A
 * non-empty OUTPUT that was there is kept as OUTPUT.old, as perf record does; a
 * recording that fails, or is stopped (*stop), before its first sample leaves OUTPUT
 * untouched and no temporary file (one killed before its first sync leaves the temporary
 * file). A launched command dies with the caller (pmuscope/target.h). An OUTPUT that
 * exists and is not a regular file (a device, a FIFO) is written in place, never replaced;
 * one that cannot seek (a FIFO) gets perf's pipe format, as "-" does. A symbolic link is
 * followed to the file it names.
 *
 * A tap sees every record as it is drained, before it is written, and may leave it out
 * of the file: the online line-segment fitter (pmuscope/olr_live.h) is one. */
#ifndef PMUSCOPE_RECORD_H
#define PMUSCOPE_RECORD_H
#include "pmuscope/perfdata.h"
#include "pmuscope/sampler.h"
#include "pmuscope/target.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* Callbacks on the drained stream; any may be NULL. A non-zero return stops the recording
 * with that status (the file is still closed valid). */
typedef struct pms_record_tap {
    /* Once the events are open, before the first record: the recorded events with their
     * sample ids (valid until pms_record_run returns). */
    int (*start)(void *ctx, const pms_perfdata_attr *attrs, size_t nattrs);
    /* Every record in the order drained; *keep is true on entry, false leaves it out of the file. */
    int (*record)(void *ctx, const struct perf_event_header *h, bool *keep);
    /* After each drain of every ring buffer (perf's FINISHED_ROUND): no record older than
     * the previous round's newest can arrive any more. */
    int (*round)(void *ctx);
    void *ctx;
    /* At each checkpoint of the recording (about every second, when the perf.data is made
     * valid): the tap makes what it has written whole, so that a crash from here on leaves
     * it readable too (the live fit's segment file writes its checkpoint). Last, so that
     * a tap written as {start, record, round, ctx} goes on compiling. */
    int (*sync)(void *ctx);
} pms_record_tap;

typedef struct pms_record_config {
    const pms_sampling_event *events;  /* events[0].read: counters read at every sample */
    size_t nevents;
    size_t mmap_pages;                 /* data pages per buffer, a power of 2; 0: 128 */
    char *const *argv;                 /* the command to launch (argv[0] searched in PATH), or NULL */
    pid_t pid;                         /* without argv: the process to attach to */
    bool system_wide;                  /* every task of the CPUs (perf record -a), while argv runs
                                        * (if given) or until *stop; pid must be 0 */
    const char *cpus;                  /* system-wide: the CPUs ("0-3,6", perf's -C); NULL: all online */
    const char *output;                /* the perf.data path */
    int cmdline_argc;                  /* the command line stored in the file's header */
    char *const *cmdline_argv;
    volatile sig_atomic_t *stop;       /* non-zero (set by the caller's signal handler) ends it; may be NULL */
    const pms_record_tap *tap;         /* may be NULL */
    int callchain;                     /* non-zero: frame-pointer callchains (perf record -g) */
    uint32_t dwarf_stack_size;         /* non-zero: --call-graph dwarf,SIZE instead (see
                                        * pms_sampler_config.dwarf_stack_size) */
    int compression_level;             /* perf record -z: 0 none, 1-22 zstd (pms_perfdata_writer_compress) */
    const pms_child_setup *child;      /* the launched command's standard input and output and
                                        * environment (pmuscope/target.h); NULL: inherited */
} pms_record_config;

typedef struct pms_record_result {
    uint64_t samples;                  /* samples written to the file */
    pms_sampler_stats stats;           /* records, lost samples, throttling, period changes */
    bool exited;                       /* the launched command ended on its own ... */
    int wait_status;                   /* ... with this waitpid status (also filled when stopped) */
    bool stopped;                      /* the stop flag ended it (a launched command got SIGTERM) */
    int exit_code;                     /* the launched command's exit status, or 128 + N when signal N
                                        * ended it (the SIGTERM of a stop included), as perf record
                                        * returns it; 0 when attached to a pid */
    double seconds;                    /* from the start of the target to the end (CLOCK_MONOTONIC) */
    bool target_ended;                 /* attached (pid): every thread of the process ended, which
                                        * ended the recording (its exit status is its parent's) */
} pms_record_result;

/* Records until the launched command exits, every attached thread has exited, *stop is
 * set or an error. out is filled in every case where the file was made. If the command
 * cannot be started (PMS_ECHILD), no new file is left and the output is as it was. On
 * another error the output holds what was recorded until then if that was a sample or
 * more, else it is as it was. */
int pms_record_run(pms_record_result *out, const pms_record_config *cfg);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
