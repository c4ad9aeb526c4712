/* pmuscope: counting named regions of your own code, as LIKWID's markers or PAPI's high-level
 * regions do.
 *
 *     pms_region_begin("solve");
 *     solve();
 *     pms_region_end("solve");
 *
 * Any thread may call them; regions nest (an inner region's counts are also in the outer
 * one's) and end innermost first. Each thread counts its own code: per region and thread,
 * the calls, the wall time between begin and end, and each event's total. A thread's
 * counters open at its first pms_region_begin and close when it ends.
 *
 * The events are PMS_REGION_EVENTS (comma-separated pmuscope event names, {a,b} for groups);
 * by default task-clock, page-faults and context-switches, with cycles and instructions where
 * the machine has a PMU. An event the machine cannot count is reported <not supported> with
 * its reason; an event the kernel refuses in kernel mode (perf_event_paranoid) is counted in
 * user mode (NAME:u), as perf does. Reads cost no system call where the kernel allows
 * user-space reads (pmuscope/counterset.h).
 *
 * At exit (from the first thread that began a region: exit() or a return from main), the
 * report is written as JSON to the file PMS_REGION_OUT names (default pmuscope-regions.json;
 * empty: no report), to a temporary file renamed into place, so that a report is whole or
 * absent. A process made by fork() starts with no regions and writes its own to
 * PMS_REGION_OUT.<pid>, if it has any. The library prints nothing: a failure at exit is lost
 * unless PMS_REGION_VERBOSE=1, which prints it on the standard error. The report's shape is in
 * docs/regions.md; pmuscope/region_report.h reads it back, and `pmuscope stat --regions --
 * COMMAND` prints it as a table. */
#ifndef PMUSCOPE_REGION_H
#define PMUSCOPE_REGION_H
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* Starts counting region name on the calling thread. Returns a pms_status (pmuscope/error.h):
 * PMS_OK, or why not (bad PMS_REGION_EVENTS, events that cannot be opened) with its message in
 * pms_strerror(). */
int pms_region_begin(const char *name);
/* Ends region name, the innermost one open on the calling thread (PMS_EINVAL otherwise). */
int pms_region_end(const char *name);
/* Writes the report of every region and thread so far, as JSON, to out. */
int pms_region_report(FILE *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
