/* The plain `perf stat` report and its -I interval lines, laid out as perf 6.1 does. */
#include "pmuscope/statfmt.h"

#include <math.h>
#include <string.h>

static void print_value(FILE *out, const pms_stat_value *v)
{
    if (v->state != PMS_COUNT_COUNTED)
        fprintf(out, "%18s", pms_count_state_name(v->state));
    else if (strcmp(pms_stat_unit(v), "msec") == 0) /* ns, like counts, are whole */
        fprintf(out, "%18.2f", v->value);
    else
        fprintf(out, "%18.0f", v->value);
}

/* value, unit, name, "# metric", "( +- x% )", "(running%)" */
static void print_line(FILE *out, const pms_stat_value *v, size_t n, size_t i, double elapsed_s, unsigned runs)
{
    if (v[i].per_cpu) fprintf(out, "CPU%-7d ", v[i].cpu); /* perf's -A column */
    print_value(out, &v[i]);
    fprintf(out, " %-4s %-32s", pms_stat_unit(&v[i]), v[i].name);
    if (v[i].cgroup[0]) fprintf(out, " %s", v[i].cgroup); /* perf's -G column */
    double metric;
    const char *unit;
    if (pms_stat_metric(v, n, i, elapsed_s, &metric, &unit))
        fprintf(out, " # %8.3f %-23s", metric, unit);
    else
        fprintf(out, "   %8s %-23s", "", "");
    if (runs > 1 && v[i].state == PMS_COUNT_COUNTED && v[i].value != 0 && isfinite(v[i].rel_stddev))
        fprintf(out, "  ( +- %5.2f%% )", v[i].rel_stddev);
    if (pms_stat_multiplexed(&v[i])) { /* perf prints the share alone: pmuscope says how far to trust it */
        if (v[i].value != 0)
            fprintf(out, "  ( +- %.2f%% multiplexing )", 100.0 * v[i].uncertainty / fabs(v[i].value));
        else
            fprintf(out, "  ( +- %.0f multiplexing )", v[i].uncertainty);
    }
    double pct = pms_stat_running_pct(&v[i]);
    if (pct < 100.0) fprintf(out, "  (%.2f%%)", pct);
    fputc('\n', out);
}

void pms_stat_describe_target(char *buf, size_t size, char *const argv[], pid_t pid, bool system_wide, const char *cpus)
{
    if (system_wide) {
        snprintf(buf, size, cpus ? "'CPU(s) %s'" : "'system wide'", cpus);
        return;
    }
    if (pid) {
        snprintf(buf, size, "process id '%d'", (int)pid);
        return;
    }
    size_t k = 0;
    buf[k++] = '\'';
    for (size_t i = 0; argv[i] && k + 2 < size; i++) {
        int w = snprintf(buf + k, size - k - 1, "%s%s", i ? " " : "", argv[i]);
        if (w < 0) break;
        k += (size_t)w;
        if (k >= size - 2) k = size - 2;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
}

void pms_stat_print_plain(FILE *out, const pms_stat_summary *s, const pms_stat_value *v, size_t n)
{
    fprintf(out, "\n Performance counter stats for %s", s->target);
    if (s->runs > 1) fprintf(out, " (%u runs)", s->runs);
    fputs(":\n\n", out);
    for (size_t i = 0; i < n; i++) print_line(out, v, n, i, s->elapsed_s, s->runs);
    size_t flagged = 0;
    for (size_t k = 0; k < s->nnotes; k++) fprintf(out, "\n # %s", s->notes[k]);
    for (size_t i = 0; i < n; i++)
        if (v[i].state == PMS_COUNT_IMPOSSIBLE && ++flagged)
            fprintf(out, "\n # %s: <impossible>: %s", v[i].name, pms_count_flaw_text(v[i].flaw));
    if (s->nnotes || flagged) fputc('\n', out);
    if (s->runs > 1 && s->elapsed_s > 0)
        fprintf(out, "\n %17.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n", s->elapsed_s, s->elapsed_stddev_s,
                100.0 * s->elapsed_stddev_s / s->elapsed_s);
    else
        fprintf(out, "\n%18.9f seconds time elapsed\n", s->elapsed_s);
    if (s->has_rusage)
        fprintf(out, "\n%18.9f seconds user\n%18.9f seconds sys\n", s->user_s, s->sys_s);
    fputc('\n', out);
}

void pms_stat_print_plain_interval(FILE *out, double t, double interval_s, const pms_stat_value *v, size_t n,
                                   bool header)
{
    if (header && n && v[0].per_cpu) fputs("#           time CPU                    counts unit events\n", out); /* -A */
    else if (header) fputs("#           time             counts unit events\n", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%16.9f ", t);
        print_line(out, v, n, i, interval_s, 1);
    }
}
