/* The phase timeline as Chrome's trace event format (JSON object form), which Perfetto's
 * UI and chrome://tracing open: one complete ("X") slice per run of consecutive intervals
 * of one thread in one phase, a counter ("C") event per interval for the metric, metadata
 * ("M") naming the process and each thread's track (intervals without a metric get no
 * counter event). Timestamps and durations are microseconds from the first
 * interval's start; where the input has no times (exact basic-block vectors) the
 * intervals' sizes stand in as the time axis, and otherData says so. */
#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/phase_report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_PID 1
#define TRACE_TID 1 /* the track of intervals without a thread id */

static int track_of(const pms_phase_event *ev) { return ev->tid > 0 ? (int)ev->tid : TRACE_TID; }

static int has_times(const pms_phase_run *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].ev.end_time) return 1;
    return 0;
}

/* Start and end of interval i in microseconds from the earliest start (records of a
 * perf.data need not come in time order, so neither need the intervals); an end before
 * its start is taken as the start. */
static void span(const pms_phase_run *r, size_t i, int timed, double *start, double *end)
{
    if (timed) {
        uint64_t t0 = UINT64_MAX;
        for (size_t k = 0; k < r->n; k++)
            if (r->rows[k].ev.start_time < t0) t0 = r->rows[k].ev.start_time;
        const pms_phase_event *ev = &r->rows[i].ev;
        *start = (double)(ev->start_time - t0) / 1e3;
        *end = ev->end_time > ev->start_time ? (double)(ev->end_time - t0) / 1e3 : *start;
        return;
    }
    double at = 0;
    for (size_t k = 0; k < i; k++) at += (double)r->rows[k].ev.size;
    *start = at;
    *end = at + (double)r->rows[i].ev.size;
}

/* Opens an event object with the fields every event has. */
static void event_begin(pms_json *j, const char *name, const char *ph)
{
    pms_json_object_begin(j);
    pms_json_kv_string(j, "name", name);
    pms_json_kv_string(j, "ph", ph);
    pms_json_kv_int(j, "pid", TRACE_PID);
}

/* The event's "args" object; args_end closes it and the event. */
static void args_begin(pms_json *j)
{
    pms_json_key(j, "args");
    pms_json_object_begin(j);
}

static void args_end(pms_json *j)
{
    pms_json_object_end(j);
    pms_json_object_end(j);
}

static void metadata(pms_json *j, const char *what, int tid, const char *name)
{
    event_begin(j, what, "M");
    pms_json_kv_int(j, "tid", tid);
    args_begin(j);
    pms_json_kv_string(j, "name", name);
    args_end(j);
}

/* The slice of intervals [first, last]: all in one phase. */
static void slice(pms_json *j, const pms_phase_run *r, size_t first, size_t last, int timed)
{
    double start, end, s2, e2;
    span(r, first, timed, &start, &e2);
    span(r, last, timed, &s2, &end);
    int phase = r->rows[first].ev.phase;
    char name[32];
    if (phase == PMS_PHASE_TRANSITION) snprintf(name, sizeof name, "transition");
    else snprintf(name, sizeof name, "phase %d", phase);
    event_begin(j, name, "X");
    pms_json_kv_string(j, "cat", "phase");
    pms_json_kv_double(j, "ts", start);
    pms_json_kv_double(j, "dur", end > start ? end - start : 0);
    pms_json_kv_int(j, "tid", track_of(&r->rows[first].ev));
    args_begin(j);
    pms_json_kv_int(j, "phase", phase);
    pms_json_kv_uint(j, "first_interval", r->rows[first].ev.index);
    pms_json_kv_uint(j, "intervals", last - first + 1);
    args_end(j);
}

static void counter(pms_json *j, const pms_phase_run *r, size_t i, int timed)
{
    double start, end;
    span(r, i, timed, &start, &end);
    double v = r->rows[i].ev.metric;
    event_begin(j, r->metric_name ? r->metric_name : "metric", "C");
    pms_json_kv_double(j, "ts", start);
    args_begin(j);
    pms_json_kv_double(j, "value", v);
    args_end(j);
}

int pms_phase_write_trace(const pms_phase_run *r, FILE *out)
{
    int timed = has_times(r);
    pms_json j;
    pms_json_init(&j, out, false);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "displayTimeUnit", "ms");
    pms_json_key(&j, "otherData");
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "source", r->source);
    pms_json_kv_string(&j, "time_axis", timed ? "microseconds" : r->size_unit ? r->size_unit : "interval sizes");
    pms_json_kv_string(&j, "metric", r->metric_name ? r->metric_name : "metric");
    pms_json_object_end(&j);
    pms_json_key(&j, "traceEvents");
    pms_json_array_begin(&j);
    metadata(&j, "process_name", 0, "pmuscope phase");
    for (size_t i = 0; i < r->n; i++) {
        int tid = track_of(&r->rows[i].ev);
        size_t seen = 0; /* each thread's track: its intervals, run by run of one phase */
        while (seen < i && track_of(&r->rows[seen].ev) != tid) seen++;
        if (seen < i) continue;
        char name[48];
        snprintf(name, sizeof name, tid == TRACE_TID && !r->rows[i].ev.tid ? "phases" : "phases of thread %d", tid);
        metadata(&j, "thread_name", tid, name);
        size_t first = i, last = i;
        for (size_t k = i + 1; k <= r->n; k++) {
            if (k < r->n && track_of(&r->rows[k].ev) != tid) continue;
            if (k == r->n || r->rows[k].ev.phase != r->rows[first].ev.phase) {
                slice(&j, r, first, last, timed);
                first = k;
            }
            last = k;
        }
    }
    for (size_t i = 0; i < r->n; i++) /* intervals without a metric (exact vectors) have no counter */
        if (isfinite(r->rows[i].ev.metric)) counter(&j, r, i, timed);
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return fflush(out) || ferror(out) ? PMS_EIO : 0;
}
