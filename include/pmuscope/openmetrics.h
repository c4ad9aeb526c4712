/* pmuscope: counting results (pmuscope/stat.h) as a Prometheus scrape target serves them, in
 * OpenMetrics 1.0 text or in Prometheus's text format 0.0.4 (what promtool and older scrapers
 * read). Every series carries the labels of its value: event, and cpu (stat -A), cgroup
 * (stat -G) or pid where the snapshot has one.
 *
 * The families (OpenMetrics names; the text format gives counters their _total name):
 *   pmuscope_events                counter  the scaled count of each event since counting
 *                                           started (task-clock and cpu-clock: nanoseconds),
 *                                           with _created, the Unix time it started
 *   pmuscope_event_enabled_seconds counter  time each event was enabled
 *   pmuscope_event_running_seconds counter  time it was on a counter (below enabled when the
 *                                           kernel multiplexed it)
 *   pmuscope_event_uncertainty     gauge    the standard uncertainty of the scaled count where it
 *                                           was multiplexed (pmuscope/multiplex.h; 0 where it
 *                                           ran all the time)
 *   pmuscope_events_per_second     gauge    each event's rate over the last interval
 *   pmuscope_ipc                   gauge    instructions per cycle over the last interval
 *   pmuscope_misses_per_kilo_instructions gauge  each *miss* event per 1000 instructions, likewise
 *   pmuscope_phase_id              gauge    the phase of the last interval (a phase monitor)
 *   pmuscope_phase_metric          gauge    its metric (metric="CPI" with a PMU, else ns/sample)
 *   pmuscope_target_running        gauge    1 while the counted command or process runs
 * A counter whose target was restarted starts again from 0 with a new _created, which is how
 * OpenMetrics marks a reset. */
#ifndef PMUSCOPE_OPENMETRICS_H
#define PMUSCOPE_OPENMETRICS_H
#include "pmuscope/stat.h"

#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef enum pms_exposition_format {
    PMS_EXPOSITION_OPENMETRICS, /* application/openmetrics-text; version=1.0.0, ends in "# EOF" */
    PMS_EXPOSITION_TEXT,        /* text/plain; version=0.0.4 */
} pms_exposition_format;

/* The Content-Type header of a format. */
const char *pms_exposition_content_type(pms_exposition_format f);

/* The current phase of a phase monitor (pmuscope/phase.h). */
typedef struct pms_exposition_phase {
    int id;                  /* -1: none yet (transition) */
    const char *metric_name; /* "CPI", "ns/sample" */
    double metric;           /* NAN: not known */
} pms_exposition_phase;

typedef struct pms_exposition {
    const pms_stat_value *totals; /* n values since counting started, in stat's units (msec for the
                                     clock events, as pms_stat_value_set gives them) */
    const pms_stat_value *last;   /* the last interval's n values (same order), or NULL */
    size_t n;
    double last_s;                /* the last interval's length in seconds */
    double created;               /* Unix time (s) counting started */
    pid_t pid;                    /* > 0: a pid label on every event series */
    int target_running;           /* 1 running, 0 ended, -1 no target (system-wide) */
    const pms_exposition_phase *phase; /* NULL without a phase monitor */
} pms_exposition;

/* Writes the snapshot in format f. Returns PMS_OK, or PMS_EIO when writing to out failed. */
int pms_exposition_write(FILE *out, const pms_exposition *e, pms_exposition_format f);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
