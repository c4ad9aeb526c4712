/* pmuscope: a counter set of the calling thread, as PAPI's event sets: start, stop, reset,
 * read and accum, read in user space where the kernel allows it.
 *
 * The events are opened on the calling thread only (not its other threads, not its children),
 * stopped, and counted between start and stop. Reads give the counts since the last reset (or
 * the first start) as pms_count values: raw, enabled and running time, the scaled value and,
 * for a multiplexed event, its uncertainty (pmuscope/multiplex.h; each read closes a window).
 *
 * A read costs no system call where the kernel lets this thread read the event's counter in
 * user space: on x86 with rdpmc (the default, /sys/bus/event_source/devices/cpu/rdpmc = 1), on
 * arm64 with kernel.perf_user_access = 1 (Linux 5.17 and later), through the event's mmap
 * page and its seqlock, with the enabled and running times brought up to now from the page's
 * time fields. Everything else (software events, an event off the counters at the moment,
 * kernels that do not allow it) is read with read(2): one call per group. Groups are those of
 * the events (pms_event.group: {a,b} in an event list; events with the same number form one
 * group wherever they are in the list).
 *
 * Use a set on the thread that made it (user-space reads only see that thread's counters).
 * The events are opened as given: pms_event_probe_user_fallback (or pms_event_set_prepare)
 * first gives perf's user-mode fallback where perf_event_paranoid refuses the kernel. */
#ifndef PMUSCOPE_COUNTERSET_H
#define PMUSCOPE_COUNTERSET_H
#include "pmuscope/counter.h"
#include "pmuscope/event.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_counterset pms_counterset;

enum {
    /* An event this machine cannot count is reported <not supported> (with its reason) instead
     * of failing the set. */
    PMS_COUNTERSET_SKIP_UNSUPPORTED = 1u << 0,
    /* Every read through read(2), never in user space (to compare the two). */
    PMS_COUNTERSET_NO_USER_READ = 1u << 1,
};

/* Opens events[n] (copied) on the calling thread, stopped. */
int pms_counterset_create(pms_counterset **out, const pms_event *events, size_t n, unsigned flags);
void pms_counterset_destroy(pms_counterset *s);

size_t pms_counterset_count(const pms_counterset *s);
/* Event i. */
const pms_event *pms_counterset_event(const pms_counterset *s, size_t i);
/* Why event i is <not supported>, or NULL. */
const char *pms_counterset_unsupported_reason(const pms_counterset *s, size_t i);
/* Whether event i has been read in user space at the last read (false: read(2)). */
bool pms_counterset_read_in_user_space(const pms_counterset *s, size_t i);

/* Starts counting (PMS_EINVAL if started). */
int pms_counterset_start(pms_counterset *s);
/* Stops counting and, with out non-NULL, reads the counts into out[n] (PMS_EINVAL if stopped). */
int pms_counterset_stop(pms_counterset *s, pms_count *out);
/* Sets the counts to zero (they go on counting if started). */
int pms_counterset_reset(pms_counterset *s);
/* The counts since the last reset into out[n]. */
int pms_counterset_read(pms_counterset *s, pms_count *out);
/* Adds the counts since the last reset to sum[n] (raw, times, then scaled again) and resets. */
int pms_counterset_accum(pms_counterset *s, pms_count *sum);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
