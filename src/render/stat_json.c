/* Counting results as JSON (--json). */
#include "pmuscope/statfmt.h"

#include <math.h>

void pms_stat_json_values(pms_json *j, const pms_stat_value *v, size_t n, double elapsed_s)
{
    pms_json_array_begin(j);
    for (size_t i = 0; i < n; i++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "event", v[i].name);
        if (v[i].per_cpu) pms_json_kv_int(j, "cpu", v[i].cpu);
        pms_json_key(j, "value");
        if (v[i].state == PMS_COUNT_COUNTED)
            pms_json_double(j, v[i].value);
        else
            pms_json_null(j);
        pms_json_kv_string(j, "unit", pms_stat_unit(&v[i]));
        pms_json_kv_string(j, "state", pms_count_state_name(v[i].state));
        pms_json_kv_uint(j, "run_time_ns", v[i].running);
        pms_json_kv_double(j, "running_pct", pms_stat_running_pct(&v[i]));
        if (isfinite(v[i].rel_stddev)) pms_json_kv_double(j, "stddev_pct", v[i].rel_stddev);
        double metric;
        const char *unit;
        if (pms_stat_metric(v, n, i, elapsed_s, &metric, &unit)) {
            pms_json_kv_double(j, "metric", metric);
            pms_json_kv_string(j, "metric_unit", unit);
        }
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}
