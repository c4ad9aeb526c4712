/* pmuscope: the report of the region markers (pmuscope/region.h) as data: taken from this
 * process, read back from its JSON file, written as JSON, and printed as a table (as
 * likwid-perfctr -m prints its regions) or as CSV. */
#ifndef PMUSCOPE_REGION_REPORT_H
#define PMUSCOPE_REGION_REPORT_H
#include "pmuscope/counter.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One region on one thread. */
typedef struct pms_region_row {
    char *region;
    int64_t thread;     /* the thread id (gettid) */
    uint64_t calls;     /* completed begin/end pairs */
    uint64_t time_ns;   /* wall time between begin and end, summed over the calls */
    pms_count *counts;  /* one per event of the report: summed over the calls, scaled, with the
                           uncertainty of a multiplexed count (each call a window) */
} pms_region_row;

typedef struct pms_region_event {
    char *name;
    char *read;         /* how it was read: "user space", "read(2)" or "not supported" */
    char *reason;       /* why it is not supported, or NULL */
} pms_region_event;

typedef struct pms_region_results {
    int64_t pid;
    pms_region_event *events;
    size_t nevents;
    pms_region_row *rows;   /* by region in order of first use, then by thread */
    size_t nrows;
    char **errors;          /* failures recorded on the way (a bad PMS_REGION_EVENTS, a region
                               left open when its thread ended, ...) */
    size_t nerrors;
} pms_region_results;

/* The regions of this process so far. */
int pms_region_results_take(pms_region_results **out);
/* Reads a report that pms_region_report (or the exit) wrote; a file that is not one, or is
 * cut short, fails with PMS_EFORMAT and a message naming the file and what was expected. */
int pms_region_results_read(pms_region_results **out, const char *path);
void pms_region_results_free(pms_region_results *r);

/* The report as JSON: {"pid", "events": [{"name", "read", ["reason"]}], "regions": [{"region",
 * "thread", "calls", "time_ns", "events": {"EVENT": {"value", "uncertainty", "raw", "enabled_ns",
 * "running_ns", "state", ["flaw"]}}}], "errors": [...]}; value and uncertainty are null where
 * the event was not counted (or the count is impossible). */
int pms_region_results_write_json(FILE *out, const pms_region_results *r);
/* A table per region: a row per event (with calls and time first) and a column per thread,
 * then their sum; a multiplexed value reads "V +- U". */
void pms_region_results_print_table(FILE *out, const pms_region_results *r);
/* One line per region, thread and event: region,thread,calls,time_ns,event,value,uncertainty,
 * running_pct (value and uncertainty empty when not counted). */
void pms_region_results_print_csv(FILE *out, const pms_region_results *r, const char *sep);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
