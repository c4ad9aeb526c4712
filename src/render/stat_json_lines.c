/* perf stat -j: one JSON object per event and line, with perf 6.1's keys, order and number
 * formats (tools/perf/util/stat-display.c). */
#include "pmuscope/statfmt.h"

#include <math.h>
#include <string.h>

/* ": "-separated key/value pairs as perf writes them: "key" : value. */
static void key(FILE *out, const char *k, bool first) { fprintf(out, "%s\"%s\" : ", first ? "" : ", ", k); }

static void string_value(FILE *out, const char *s)
{
    pms_json j; /* escaping only: one top-level string */
    pms_json_init(&j, out, false);
    pms_json_string(&j, s);
}

void pms_stat_print_json_lines(FILE *out, double t, double elapsed_s, unsigned runs, const pms_stat_value *v,
                               size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const pms_stat_value *e = &v[i];
        bool counted = e->state == PMS_COUNT_COUNTED;
        fputc('{', out);
        bool first = true;
        if (t >= 0) {
            key(out, "interval", first);
            fprintf(out, "%.9f", t);
            first = false;
        }
        if (e->per_cpu) { /* perf's -A: the CPU, as a string */
            key(out, "cpu", first);
            fprintf(out, "\"%d\"", e->cpu);
            first = false;
        }
        key(out, "counter-value", first);
        if (counted)
            fprintf(out, "\"%f\"", e->value);
        else
            fprintf(out, "\"%s\"", pms_count_state_name(e->state));
        key(out, "unit", false);
        string_value(out, pms_stat_unit(e));
        key(out, "event", false);
        string_value(out, e->name);
        if (e->cgroup[0]) { /* perf's -G */
            key(out, "cgroup", false);
            string_value(out, e->cgroup);
        }
        if (runs > 1) {
            key(out, "variance", false);
            fprintf(out, "%.2f", isfinite(e->rel_stddev) ? e->rel_stddev : 0.0);
        }
        key(out, "event-runtime", false);
        fprintf(out, "%llu", (unsigned long long)(counted ? e->running : 0));
        key(out, "pcnt-running", false);
        fprintf(out, "%.2f", pms_stat_running_pct(e));
        if (pms_stat_multiplexed(e)) { /* pmuscope's: not in perf's lines */
            key(out, "uncertainty", false);
            fprintf(out, "%f", e->uncertainty);
        }
        double metric = 0;
        const char *unit = "";
        if (!pms_stat_metric(v, n, i, elapsed_s, &metric, &unit)) metric = 0, unit = "";
        /* perf 6.1 writes "(null)" as the unit of a counted event without a metric (a NULL
         * printed with %s); we write "" there, as it does for uncounted events. */
        key(out, "metric-value", false);
        fprintf(out, "%f", metric);
        key(out, "metric-unit", false);
        string_value(out, unit);
        fputs("}\n", out);
    }
}
