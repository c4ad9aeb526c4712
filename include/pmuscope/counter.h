/* pmuscope: counting groups of events on a launched command or on every thread of a
 * running process, read as totals or per interval.
 *
 * Each {..} group of the event list is opened as one perf group and read with
 * read_format GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID; values are summed over
 * the threads. When the kernel multiplexes the counters, the scaled value is
 * raw x enabled / running, as perf stat reports it, with its standard uncertainty
 * (pmuscope/multiplex.h); a count that multiplexing made impossible is flagged. */
#ifndef PMUSCOPE_COUNTER_H
#define PMUSCOPE_COUNTER_H
#include "pmuscope/event.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef enum pms_count_state {
    PMS_COUNT_COUNTED,       /* ran for some time: value is meaningful */
    PMS_COUNT_NOT_COUNTED,   /* opened but never scheduled (running time 0): "<not counted>" */
    PMS_COUNT_NOT_SUPPORTED, /* could not be opened (only with PMS_COUNTER_SKIP_UNSUPPORTED) */
    PMS_COUNT_IMPOSSIBLE,    /* a count no run can give (flaw says which): "<impossible>", no value */
} pms_count_state;

/* Why a count is PMS_COUNT_IMPOSSIBLE. */
typedef enum pms_count_flaw {
    PMS_FLAW_NONE,
    PMS_FLAW_BACKWARDS,       /* the count or a time went backwards between two reads */
    PMS_FLAW_RUNNING_EXCEEDS, /* running time above enabled time */
    PMS_FLAW_ABOVE_MAXIMUM,   /* above the most the event can count in its enabled time */
} pms_count_flaw;

typedef struct pms_count {
    uint64_t raw;     /* counter value summed over threads */
    uint64_t enabled; /* ns the event was enabled, summed over threads */
    uint64_t running; /* ns it was actually on a counter */
    double value;     /* scaled: raw x enabled / running */
    pms_count_state state;
    pms_count_flaw flaw;  /* with PMS_COUNT_IMPOSSIBLE */
    double dispersion;    /* sigma2 of the windows read so far (pmuscope/multiplex.h), used when */
    uint64_t windows;     /* these are 2 or more (else, as in a zeroed count, the spread is unknown) */
    double uncertainty;   /* standard uncertainty of value from multiplexing, in value's unit:
                             0 when the event ran all its enabled time */
} pms_count;

/* "counted", "<not counted>", "<not supported>", "<impossible>". */
const char *pms_count_state_name(pms_count_state s);
/* What a flaw means: "the count went backwards between two reads", ... ("" for none). */
const char *pms_count_flaw_text(pms_count_flaw f);
/* Scales raw by enabled/running, sets the state (not counted when running is 0, impossible
 * when running exceeds enabled) and the uncertainty from c->dispersion and c->windows. A count already
 * flagged PMS_COUNT_IMPOSSIBLE stays so. */
void pms_count_scale(pms_count *c);
/* The counts of the interval between two cumulative reads, scaled, with now's dispersion; one
 * whose count or times went backwards is PMS_COUNT_IMPOSSIBLE (PMS_FLAW_BACKWARDS). */
void pms_count_delta(const pms_count *now, const pms_count *before, size_t n, pms_count *out);
/* Flags a scaled count of ev (one that multiplexing scaled) above the most ev can count in its
 * enabled time (a clock: one ns per ns, with 1% for the clocks' own skew) as
 * PMS_COUNT_IMPOSSIBLE. */
void pms_count_check(pms_count *c, const pms_event *ev);

typedef struct pms_counter pms_counter;

enum {
    /* An event this machine cannot count is reported <not supported> instead of
     * failing the whole set (as perf stat does); the default is to fail with the reason. */
    PMS_COUNTER_SKIP_UNSUPPORTED = 1u << 0,
};

/* A counter set for events (copied; groups as in pms_event.group). */
int pms_counter_create(const pms_event *events, size_t n, unsigned flags, pms_counter **out);
void pms_counter_destroy(pms_counter *c);
size_t pms_counter_count(const pms_counter *c);
const pms_event *pms_counter_event(const pms_counter *c, size_t i);
/* Why event i is <not supported> (the pms_event_open message), or NULL. */
const char *pms_counter_unsupported_reason(const pms_counter *c, size_t i);

/* Opens the events on a child held before exec (target.h): counting starts at exec
 * (enable_on_exec) and follows its threads and children (inherit). */
int pms_counter_open_child(pms_counter *c, pid_t pid);
/* Opens the events on every current thread of pid (and, by inheritance, the threads
 * they create), counting from now. */
int pms_counter_attach(pms_counter *c, pid_t pid);
/* Opens the events system-wide (every task) on the CPUs of list ("0-3,6"; NULL: every
 * online CPU), counting from now, as perf stat -a / -C. */
int pms_counter_open_cpus(pms_counter *c, const char *list);
/* System-wide in cgroups only (perf stat -G, --for-each-cgroup): every event is opened in each
 * cgroup of the list, on every CPU that pms_counter_open_cpus then opens; the units are the
 * (cgroup, CPU) pairs, cgroup by cgroup. A name is a path from the root of the cgroup hierarchy
 * that perf events use (cgroup v2, or v1's perf_event controller), "/" the root, as perf
 * names them. Call before pms_counter_open_cpus. */
int pms_counter_set_cgroups(pms_counter *c, const char *const *cgroups, size_t n);
/* The cgroups set (0 without), the name of cgroup g, and the cgroup of unit u (-1 without). */
size_t pms_counter_cgroups(const pms_counter *c);
const char *pms_counter_cgroup_name(const pms_counter *c, size_t g);
int pms_counter_unit_cgroup(const pms_counter *c, size_t u);
/* Reads the cumulative counts since opening into out[pms_counter_count(c)]. */
int pms_counter_read(pms_counter *c, pms_count *out);
/* The opened units (threads, or CPUs system-wide), the CPU of unit u (-1 per thread), and
 * every unit's counts: out[u * pms_counter_count(c) + i] (perf stat -A). Tool events are
 * measured for the whole run only: <not counted> here. */
size_t pms_counter_units(const pms_counter *c);
int pms_counter_unit_cpu(const pms_counter *c, size_t u);
int pms_counter_read_units(pms_counter *c, pms_count *out);

/* Measuring one run: launch a command or attach to a process, read at intervals,
 * and read the totals when the target ends or a stop is requested. */
typedef int (*pms_interval_fn)(double t_sec, const pms_count *delta, size_t n, void *ctx);

typedef struct pms_measure_opts {
    unsigned interval_ms;            /* 0: totals only */
    pms_interval_fn on_interval;     /* called with each interval's counts; non-zero stops */
    void *ctx;
    volatile sig_atomic_t *stop;     /* set to a signal number by the caller's handler:
                                        forwarded to a launched command, ends an attach */
    /* A launched command, held before its exec with the counters open: the caller may open
     * more on it (a phase monitor with enable_on_exec); non-zero aborts the run. May be NULL. */
    int (*on_spawn)(void *ctx, pid_t pid);
} pms_measure_opts;

typedef struct pms_measure_result {
    double elapsed_s;   /* wall time from exec (or attach) to the end */
    double user_s, sys_s; /* the command's CPU time (launched commands only) */
    int wait_status;    /* as from waitpid (launched commands only) */
    bool target_ended;  /* the attached process exited */
    int stop_signal;    /* the signal that stopped the measurement, 0 if none */
} pms_measure_result;

/* Launches argv with the counters of c, waits for it and reads the totals into
 * totals[pms_counter_count(c)]. The counter set is opened here: create a fresh one per run. */
int pms_measure_command(pms_counter *c, char *const argv[], const pms_measure_opts *o, pms_count *totals,
                        pms_measure_result *res);
/* Attaches to every thread of pid and counts until it exits or *o->stop is set. */
int pms_measure_pid(pms_counter *c, pid_t pid, const pms_measure_opts *o, pms_count *totals,
                    pms_measure_result *res);
/* System-wide on the CPUs of cpus (pms_counter_open_cpus): while argv runs (launched after
 * the counters are enabled), or, with argv NULL, until *o->stop is set. */
int pms_measure_cpus(pms_counter *c, const char *cpus, char *const argv[], const pms_measure_opts *o,
                     pms_count *totals, pms_measure_result *res);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
