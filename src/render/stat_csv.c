/* perf stat -x SEP output, the --wide table and the runs table. */
#include "pmuscope/statfmt.h"
#include "pmuscope/table.h"

#include <math.h>
#include <string.h>

/* A value or an uncertainty of v in its unit: msec to 2 decimals; ns, like counts, whole. */
static void print_number(FILE *out, const pms_stat_value *v, double x)
{
    fprintf(out, strcmp(pms_stat_unit(v), "msec") == 0 ? "%.2f" : "%.0f", x);
}

void pms_stat_print_csv(FILE *out, const char *sep, double t, double elapsed_s, unsigned runs,
                        const pms_stat_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t >= 0) fprintf(out, "%16.9f%s", t, sep);
        if (v[i].per_cpu) fprintf(out, "CPU%d%s", v[i].cpu, sep); /* perf's -A column */
        if (v[i].state == PMS_COUNT_COUNTED)
            print_number(out, &v[i], v[i].value);
        else
            fputs(pms_count_state_name(v[i].state), out);
        fprintf(out, "%s%s%s", sep, pms_stat_unit(&v[i]), sep);
        pms_csv_cell(out, v[i].name, sep);
        if (v[i].cgroup[0]) { /* perf's -G column */
            fputs(sep, out);
            pms_csv_cell(out, v[i].cgroup, sep);
        }
        if (runs > 1) {
            fputs(sep, out);
            if (isfinite(v[i].rel_stddev)) fprintf(out, "%.2f%%", v[i].rel_stddev);
        }
        fprintf(out, "%s%llu%s%.2f%s", sep, (unsigned long long)v[i].running, sep, pms_stat_running_pct(&v[i]), sep);
        double metric;
        const char *unit;
        if (pms_stat_metric(v, n, i, elapsed_s, &metric, &unit))
            fprintf(out, "%.3f%s%s", metric, sep, unit);
        else
            fputs(sep, out);
        if (pms_stat_multiplexed(&v[i])) { /* one more field: the uncertainty, in the value's unit */
            fputs(sep, out);
            print_number(out, &v[i], v[i].uncertainty);
        }
        fputc('\n', out);
    }
}

/* Whether a table gives v an uncertainty column: every event that can be multiplexed, that is
 * all but the software events (which need no counter) and the tool events (measured). */
static bool has_uncertainty_column(const pms_stat_value *v)
{
    return v->type != PERF_TYPE_SOFTWARE && v->type != PMS_EVENT_TOOL_TYPE;
}

/* One column per value: the event's name, with its CPU first for a CPU's own value (stat
 * -A: CPU0/task-clock, CPU1/task-clock, ... in perf's -A order) or its cgroup for a cgroup's
 * (stat -G: task-clock/CGROUP), so that no name repeats; then, for an event that can be
 * multiplexed, "uncertainty(NAME)" (a name that the readers of these tables, cpistack and
 * estimate, take for no event). */
static void header_names(FILE *out, const pms_stat_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[PMS_EVENT_NAME_MAX + 16 + sizeof v[i].cgroup], column[sizeof name + 16];
        if (v[i].per_cpu)
            snprintf(name, sizeof name, "CPU%d/%s", v[i].cpu, v[i].name);
        else if (v[i].cgroup[0])
            snprintf(name, sizeof name, "%s/%s", v[i].name, v[i].cgroup);
        else
            snprintf(name, sizeof name, "%s", v[i].name);
        fputc(',', out);
        pms_csv_cell(out, name, ",");
        if (!has_uncertainty_column(&v[i])) continue;
        snprintf(column, sizeof column, "uncertainty(%s)", name);
        fputc(',', out);
        pms_csv_cell(out, column, ",");
    }
    fputc('\n', out);
}

/* The values (empty when not counted), each uncertainty beside its value. */
static void row_values(FILE *out, const pms_stat_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool counted = v[i].state == PMS_COUNT_COUNTED;
        fputc(',', out);
        if (counted) print_number(out, &v[i], v[i].value);
        if (!has_uncertainty_column(&v[i])) continue;
        fputc(',', out);
        if (counted) print_number(out, &v[i], v[i].uncertainty);
    }
    fputc('\n', out);
}

void pms_stat_wide_header(FILE *out, const pms_stat_value *v, size_t n)
{
    fputs("time", out);
    header_names(out, v, n);
}

void pms_stat_wide_row(FILE *out, double t, const pms_stat_value *v, size_t n)
{
    fprintf(out, "%.9f", t);
    row_values(out, v, n);
}

void pms_stat_runs_header(FILE *out, const pms_stat_value *v, size_t n)
{
    fputs("run,size", out);
    header_names(out, v, n);
}

void pms_stat_runs_row(FILE *out, long size, const pms_stat_value *v, size_t n)
{
    fprintf(out, "TEST%ld,%ld", size, size);
    row_values(out, v, n);
}
