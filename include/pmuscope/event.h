/* pmuscope: event names to perf_event_attr, and opening events with explained errors.
 *
 * Accepted names (as perf accepts them):
 *   generic hardware   cycles, instructions, cache-misses, branch-misses, ...
 *   generic cache      L1-dcache-load-misses, LLC-loads, dTLB-load-misses, ...
 *   software           cpu-clock, task-clock, page-faults, context-switches, ...
 *   raw                rNNNN (hex config)
 *   sysfs PMU          pmu/event=0x3c,umask=0x1/ using /sys/bus/event_source/devices/PMU/format
 *   libpfm4            INST_RETIRED:ANY_P, skl::L1D:REPLACEMENT, ...
 *   tool               duration_time, user_time, system_time (perf's; measured, not opened)
 * each optionally followed by modifiers :u :k :h :p :pp :ppp (combinations such as :uk, :upp) and
 * :D (pinned: on a counter all the time it is enabled, never multiplexed, as perf's D).
 * Lists are comma-separated; {a,b,c} makes a group led by its first member.
 * The sysfs tree is read under $PMS_SYSFS_ROOT (default /sys), so tests can use a fake one. */
#ifndef PMUSCOPE_EVENT_H
#define PMUSCOPE_EVENT_H
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

#define PMS_EVENT_NAME_MAX 128

typedef enum pms_event_source {
    PMS_EVSRC_GENERIC,  /* perf's generic hardware/cache/software names */
    PMS_EVSRC_RAW,      /* rNNNN */
    PMS_EVSRC_SYSFS,    /* pmu/term=value,.../ */
    PMS_EVSRC_PFM,      /* a libpfm4 name */
    PMS_EVSRC_TOOL,     /* perf's tool events duration_time, user_time, system_time */
} pms_event_source;

/* perf's tool events are not perf_event_open events: a counter set (pmuscope/counter.h)
 * measures them itself, in ns: duration_time is the wall time of the run (of the interval
 * with -I), user_time and system_time the launched command's rusage. Their attr.type is
 * PMS_EVENT_TOOL_TYPE and attr.config one of PMS_EVENT_TOOL_*. */
#define PMS_EVENT_TOOL_TYPE 0x7f7f0000u
enum { PMS_EVENT_TOOL_DURATION, PMS_EVENT_TOOL_USER, PMS_EVENT_TOOL_SYSTEM };

typedef struct pms_event {
    char name[PMS_EVENT_NAME_MAX]; /* as written by the user, e.g. "cycles:u" */
    struct perf_event_attr attr;   /* type, config, config1/2, exclude_* set; size set;
                                      sampling and read_format fields left zero */
    int group;                     /* events with the same group number form one group;
                                      ungrouped events each get their own number */
    pms_event_source source;
} pms_event;

/* Parses one event name with modifiers. */
int pms_event_parse(const char *spec, pms_event *out);

/* Parses a comma-separated list with {..} groups into a malloc'ed array (free()).
 * Group numbers are assigned in order; a group's leader is its first event. */
int pms_event_list_parse(const char *spec, pms_event **events, size_t *count);

/* perf_event_open(2) with an explained failure: the message names the event and the
 * reason, e.g. "cycles: not supported on this machine: no hardware PMU is exposed
 * (ENOENT), as in many virtual machines" or "cycles: permission denied: perf_event_paranoid
 * is 3; run as root or set kernel.perf_event_paranoid=1". Returns the fd, or a negative
 * pms_status (PMS_ENOTSUP, PMS_EPERM, PMS_ENOENT for a missing process, PMS_EINVAL). */
int pms_event_open(const char *name, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                   unsigned long flags);

/* Checks whether this machine can count the event (opens and closes it on the calling
 * process). Returns PMS_OK or the status pms_event_open gave, with its message. */
int pms_event_probe(const pms_event *ev);

/* The kernel's perf_event_paranoid level (/proc/sys/kernel/perf_event_paranoid; 2 where it
 * cannot be read): 2, Debian's default, lets a user count its own processes in user space only. */
int pms_event_paranoid(void);

/* pms_event_probe with perf's fallback for perf_event_paranoid: where the kernel refuses ev
 * because it would count the kernel (paranoid 2 or more) and ev asked for both user space and
 * the kernel, ev becomes user-space-only (exclude_kernel and exclude_hv set, ":u" appended to
 * its name as perf does: "task-clock:u") and *user_only is set; the result is the probe of
 * that variant. An event that needs no fallback is left alone (*user_only 0). */
int pms_event_probe_user_fallback(pms_event *ev, int *user_only);

/* True for perf's tool events (source PMS_EVSRC_TOOL). */
int pms_event_is_tool(const pms_event *ev);
/* True if the event is a software event that works without a hardware PMU. */
int pms_event_is_software(const pms_event *ev);
/* True for the clock events (cpu-clock, task-clock): they count nanoseconds, so their
 * values are times and their sampling periods are in ns. */
int pms_event_counts_time(uint32_t type, uint64_t config);

/* The time-based software event that can stand in for ev when the machine cannot
 * count it (--fallback): cpu-clock for sampling, task-clock for counting/intervals. */
typedef enum pms_fallback_use { PMS_FALLBACK_SAMPLING, PMS_FALLBACK_COUNTING } pms_fallback_use;
int pms_event_fallback(const pms_event *ev, pms_fallback_use use, pms_event *out);

/* An event list prepared for a command (stat, record): parsed, every event checked on this
 * machine (pms_event_probe_user_fallback: counted in user space only where perf_event_paranoid
 * allows no more, as perf does), and the ones it cannot count (PMS_ENOTSUP) handled by policy.
 * Any other failure (an unknown name, permission) fails the list. */
typedef enum pms_unsupported_policy {
    PMS_UNSUPPORTED_FAIL,     /* the list fails with the reason */
    PMS_UNSUPPORTED_KEEP,     /* kept: a counter set with PMS_COUNTER_SKIP_UNSUPPORTED reports
                                 it <not supported>, as perf stat does */
    PMS_UNSUPPORTED_FALLBACK, /* pms_event_fallback's time event stands in for it; a counting
                                 substitute is named "task-clock(for cycles)" */
} pms_unsupported_policy;

typedef struct pms_event_note {
    char event[PMS_EVENT_NAME_MAX];      /* the event asked for */
    char substitute[PMS_EVENT_NAME_MAX]; /* what stands in for it, "" when kept as it is */
    char reason[512];                    /* why this machine cannot count it (pms_event_probe's message),
                                            or why only its user space is counted */
    int user_only; /* non-zero: the note says that substitute is event in user space only
                      (perf_event_paranoid; pms_event_probe_user_fallback), not a stand-in */
} pms_event_note;

typedef struct pms_event_set {
    pms_event *events; /* n events, substitutes in place */
    size_t n;
    pms_event_note *notes; /* one per event this machine cannot count, and one per event
                              counted in user space only for perf_event_paranoid */
    size_t nnotes;
} pms_event_set;

/* Prepares spec for use (sampling or counting: tool events cannot be sampled, and the
 * substitute differs); free with pms_event_set_free (also after a failure). */
int pms_event_set_prepare(pms_event_set *out, const char *spec, pms_fallback_use use, pms_unsupported_policy policy);
void pms_event_set_free(pms_event_set *s);

/* Calls fn for every event name this machine knows (generic, cache, software, the
 * sysfs events of each PMU, libpfm4's events for the detected PMUs); stops early and
 * returns fn's value if it returns non-zero. */
typedef int (*pms_event_visit_fn)(const char *name, const char *description, pms_event_source source,
                                  void *ctx);
int pms_event_foreach(pms_event_visit_fn fn, void *ctx);

/* One event of pms_event_foreach, parsed and probed on this machine (pmuscope list). */
typedef struct pms_event_listing {
    const char *name, *description;
    const char *kind;   /* "hardware", "cache", "software", "raw", "sysfs", "libpfm4" or "tool" */
    int available;      /* non-zero: this machine counts it */
    const char *reason; /* why not: the probe's message without the leading "NAME: " ("" if available) */
    int user_only;      /* available in user space only (what stat and record count where
                           perf_event_paranoid allows no more): the paranoid level; 0 otherwise */
    const char *counted_as; /* the name stat and record give it: NAME:u where user_only, else NAME */
} pms_event_listing;
typedef int (*pms_event_listing_fn)(const pms_event_listing *e, void *ctx);
/* Calls fn for every event of pms_event_foreach whose name contains pattern (ignoring case;
 * NULL: every one), with whether this machine counts it; the strings are valid during the
 * call. Stops early and returns fn's value if it returns non-zero. */
int pms_event_foreach_probed(const char *pattern, pms_event_listing_fn fn, void *ctx);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
