/* Counting results as JSON (--json). */
#include "pmuscope/statfmt.h"

#include <math.h>
#include <stdio.h>

/* The values; with run_values, each one's value in each of the runs too. */
static void json_values(pms_json *j, const pms_stat_value *v, size_t n, double elapsed_s, const double *run_values,
                        unsigned runs)
{
    pms_json_array_begin(j);
    for (size_t i = 0; i < n; i++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "event", v[i].name);
        if (v[i].per_cpu) pms_json_kv_int(j, "cpu", v[i].cpu);
        if (v[i].cgroup[0]) pms_json_kv_string(j, "cgroup", v[i].cgroup);
        pms_json_key(j, "value");
        if (v[i].state == PMS_COUNT_COUNTED)
            pms_json_double(j, v[i].value);
        else
            pms_json_null(j);
        pms_json_kv_string(j, "unit", pms_stat_unit(&v[i]));
        if (v[i].state == PMS_COUNT_COUNTED) {
            /* in the value's unit: 0 for an event that was never off the counters */
            pms_json_kv_double(j, "uncertainty", v[i].uncertainty);
            pms_json_kv_bool(j, "multiplexed", pms_stat_multiplexed(&v[i]));
        }
        pms_json_kv_string(j, "state", pms_count_state_name(v[i].state));
        if (v[i].state == PMS_COUNT_IMPOSSIBLE) pms_json_kv_string(j, "flaw", pms_count_flaw_text(v[i].flaw));
        pms_json_kv_uint(j, "run_time_ns", v[i].running);
        pms_json_kv_double(j, "running_pct", pms_stat_running_pct(&v[i]));
        if (isfinite(v[i].rel_stddev)) pms_json_kv_double(j, "stddev_pct", v[i].rel_stddev);
        double metric;
        const char *unit;
        if (pms_stat_metric(v, n, i, elapsed_s, &metric, &unit)) {
            pms_json_kv_double(j, "metric", metric);
            pms_json_kv_string(j, "metric_unit", unit);
        }
        if (run_values) {
            pms_json_key(j, "run_values");
            pms_json_array_begin(j);
            for (unsigned r = 0; r < runs; r++) pms_json_double(j, run_values[(size_t)r * n + i]); /* NaN: null */
            pms_json_array_end(j);
        }
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

void pms_stat_json_values(pms_json *j, const pms_stat_value *v, size_t n, double elapsed_s)
{
    json_values(j, v, n, elapsed_s, NULL, 0);
}

void pms_stat_json_interval(pms_json *j, double t, double interval_s, const pms_stat_value *v, size_t n)
{
    pms_json_object_begin(j);
    pms_json_kv_double(j, "time", t);
    pms_json_key(j, "counts");
    pms_stat_json_values(j, v, n, interval_s);
    pms_json_object_end(j);
}

void pms_stat_json_totals(pms_json *j, const pms_stat_summary *s, const pms_stat_value *v, size_t n)
{
    pms_json_key(j, "counts");
    json_values(j, v, n, s->elapsed_s, s->run_values, s->runs);
    pms_json_kv_double(j, "elapsed_s", s->elapsed_s);
    pms_json_kv_uint(j, "runs", s->runs);
    if (s->run_elapsed_s) {
        pms_json_key(j, "run_elapsed_s");
        pms_json_array_begin(j);
        for (unsigned r = 0; r < s->runs; r++) pms_json_double(j, s->run_elapsed_s[r]);
        pms_json_array_end(j);
    }
    if (s->has_rusage) {
        pms_json_kv_double(j, "user_s", s->user_s);
        pms_json_kv_double(j, "sys_s", s->sys_s);
    }
    pms_json_key(j, "notes");
    pms_json_array_begin(j);
    for (size_t k = 0; k < s->nnotes; k++) pms_json_string(j, s->notes[k]);
    pms_json_array_end(j);
}

void pms_stat_json_merged(pms_json *j, const pms_stat_value *merged, size_t n, size_t nanchors, const double *anchor_cv)
{
    pms_json_key(j, "counts");
    pms_stat_json_values(j, merged, n, 0);
    pms_json_key(j, "anchor_cv_pct");
    pms_json_object_begin(j);
    for (size_t a = 0; a < nanchors; a++) pms_json_kv_double(j, merged[a].name, anchor_cv[a]);
    pms_json_object_end(j);
}

void pms_stat_json_size(pms_json *j, long size, const pms_stat_value *merged, size_t n, size_t nanchors,
                        const double *anchor_cv)
{
    char run[48];
    snprintf(run, sizeof run, "TEST%ld", size);
    pms_json_object_begin(j);
    pms_json_kv_string(j, "run", run);
    pms_json_kv_int(j, "size", size);
    pms_stat_json_merged(j, merged, n, nanchors, anchor_cv);
    pms_json_object_end(j);
}
