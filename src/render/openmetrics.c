/* Counting results as a Prometheus scrape target serves them (pmuscope/openmetrics.h):
 * OpenMetrics 1.0 text, or Prometheus's text format 0.0.4, from one description of the
 * families, so that the two cannot say different things. */
#include "pmuscope/openmetrics.h"

#include "pmuscope/error.h"
#include "util/error.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

const char *pms_exposition_content_type(pms_exposition_format f)
{
    return f == PMS_EXPOSITION_OPENMETRICS ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                           : "text/plain; version=0.0.4; charset=utf-8";
}

typedef struct writer {
    FILE *out;
    pms_exposition_format format;
    const pms_exposition *e;
} writer;

/* A label value with OpenMetrics' escapes (backslash, double quote, line feed). */
static void label_value(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '\\') fputs("\\\\", out);
        else if (*s == '"') fputs("\\\"", out);
        else if (*s == '\n') fputs("\\n", out);
        else fputc(*s, out);
    }
    fputc('"', out);
}

/* A sample value: integers as integers, others to 15 significant digits (what a double holds
 * of a decimal: 0.268157047, not 0.26815704699999998); NaN and the infinities as the formats
 * spell them. */
static void number(FILE *out, double x)
{
    if (isnan(x)) fputs("NaN", out);
    else if (isinf(x)) fputs(x > 0 ? "+Inf" : "-Inf", out);
    else if (x == floor(x) && fabs(x) < 1e15) fprintf(out, "%.0f", x);
    else fprintf(out, "%.15g", x);
}

/* The family's header: TYPE, UNIT (OpenMetrics only) and HELP. In the text format a counter's
 * samples and header carry the name with _total. */
static void family(const writer *w, const char *name, bool counter, const char *unit, const char *help)
{
    const char *suffix = counter && w->format == PMS_EXPOSITION_TEXT ? "_total" : "";
    const char *type = counter ? "counter" : "gauge";
    if (w->format == PMS_EXPOSITION_OPENMETRICS) {
        fprintf(w->out, "# TYPE %s %s\n", name, type);
        if (unit) fprintf(w->out, "# UNIT %s %s\n", name, unit);
        fprintf(w->out, "# HELP %s %s\n", name, help);
    } else {
        fprintf(w->out, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help, name, suffix, type);
    }
}

/* name{event="...",cpu="...",cgroup="...",pid="..."} value: the labels of value v (v NULL:
 * none); extra is one more label pair already written out (or NULL). */
static void sample(const writer *w, const char *name, const char *suffix, const pms_stat_value *v, const char *extra,
                   double value)
{
    fprintf(w->out, "%s%s", name, suffix);
    bool any = false;
#define LABEL(k) (fputs(any ? "," k "=" : "{" k "=", w->out), any = true)
    if (v) {
        if (v->name[0]) {
            LABEL("event");
            label_value(w->out, v->name);
        }
        if (v->per_cpu) {
            LABEL("cpu");
            fprintf(w->out, "\"%d\"", v->cpu);
        }
        if (v->cgroup[0]) {
            LABEL("cgroup");
            label_value(w->out, v->cgroup);
        }
        if (w->e->pid > 0) {
            LABEL("pid");
            fprintf(w->out, "\"%d\"", (int)w->e->pid);
        }
    }
    if (extra) {
        fputs(any ? "," : "{", w->out);
        fputs(extra, w->out);
        any = true;
    }
#undef LABEL
    fputs(any ? "} " : " ", w->out);
    number(w->out, value);
    fputc('\n', w->out);
}

/* The event's count in its own unit: nanoseconds for the clock events (stat gives msec), a
 * whole number as the kernel counts (a scaled count is an estimate: its fraction says nothing). */
static double count_of(const pms_stat_value *v)
{
    return round(pms_event_counts_time(v->type, v->config) ? v->value * 1e6 : v->value);
}

/* The standard uncertainty of a count scaled by enabled/running (pmuscope/multiplex.h), in the
 * count's own unit: 0 where the event ran all the time. */
static double uncertainty_of(const pms_stat_value *v)
{
    if (v->running >= v->enabled) return 0.0;
    return pms_event_counts_time(v->type, v->config) ? v->uncertainty * 1e6 : v->uncertainty;
}

/* The value of the same labels as like with this type and config in values, or NULL. */
static const pms_stat_value *sibling(const pms_stat_value *values, size_t n, const pms_stat_value *like,
                                     uint32_t type, uint64_t config)
{
    for (size_t i = 0; i < n; i++) {
        const pms_stat_value *v = &values[i];
        if (v->type == type && v->config == config && v->state == PMS_COUNT_COUNTED && v->per_cpu == like->per_cpu &&
            v->cpu == like->cpu && strcmp(v->cgroup, like->cgroup) == 0)
            return v;
    }
    return NULL;
}

static bool is_miss_event(const pms_stat_value *v)
{
    for (const char *p = v->name; *p; p++)
        if (strncasecmp(p, "miss", 4) == 0) return true;
    return false;
}

static void events(const writer *w)
{
    const pms_exposition *e = w->e;
    bool om = w->format == PMS_EXPOSITION_OPENMETRICS;
    family(w, "pmuscope_events", true, NULL,
           "Events counted since counting started, scaled by enabled/running time where the kernel multiplexed "
           "them; task-clock and cpu-clock count nanoseconds of CPU time.");
    for (size_t i = 0; i < e->n; i++) {
        if (e->totals[i].state != PMS_COUNT_COUNTED) continue;
        sample(w, "pmuscope_events", "_total", &e->totals[i], NULL, count_of(&e->totals[i]));
        if (om) sample(w, "pmuscope_events", "_created", &e->totals[i], NULL, e->created);
    }
    static const struct { const char *name, *help; bool running; } times[] = {
        {"pmuscope_event_enabled_seconds", "Time each event was enabled.", false},
        {"pmuscope_event_running_seconds",
         "Time each event was on a hardware counter: below its enabled time where the kernel multiplexed it.", true},
    };
    for (size_t t = 0; t < 2; t++) {
        family(w, times[t].name, true, "seconds", times[t].help);
        for (size_t i = 0; i < e->n; i++) {
            const pms_stat_value *v = &e->totals[i];
            if (v->state == PMS_COUNT_NOT_SUPPORTED) continue;
            sample(w, times[t].name, "_total", v, NULL, (double)(times[t].running ? v->running : v->enabled) / 1e9);
            if (om) sample(w, times[t].name, "_created", v, NULL, e->created);
        }
    }
    family(w, "pmuscope_event_uncertainty", false, NULL,
           "Standard error of pmuscope_events where the kernel multiplexed the event (0 where it was counted "
           "all the time; NaN where it cannot be estimated).");
    for (size_t i = 0; i < e->n; i++)
        if (e->totals[i].state == PMS_COUNT_COUNTED)
            sample(w, "pmuscope_event_uncertainty", "", &e->totals[i], NULL, uncertainty_of(&e->totals[i]));
}

static void interval_metrics(const writer *w)
{
    const pms_exposition *e = w->e;
    if (!e->last || e->last_s <= 0) return;
    family(w, "pmuscope_events_per_second", false, NULL,
           "Each event's rate over the last interval (task-clock and cpu-clock: nanoseconds per second).");
    for (size_t i = 0; i < e->n; i++)
        if (e->last[i].state == PMS_COUNT_COUNTED)
            sample(w, "pmuscope_events_per_second", "", &e->last[i], NULL, count_of(&e->last[i]) / e->last_s);

    bool header = false;
    for (size_t i = 0; i < e->n; i++) {
        const pms_stat_value *insn = &e->last[i];
        if (insn->type != PERF_TYPE_HARDWARE || insn->config != PERF_COUNT_HW_INSTRUCTIONS ||
            insn->state != PMS_COUNT_COUNTED)
            continue;
        const pms_stat_value *cyc = sibling(e->last, e->n, insn, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
        if (!cyc || cyc->value <= 0) continue;
        if (!header) family(w, "pmuscope_ipc", false, NULL, "Instructions per cycle over the last interval.");
        header = true;
        pms_stat_value labels = *insn; /* the series is named by its labels, not by an event */
        labels.name[0] = '\0';
        sample(w, "pmuscope_ipc", "", labels.per_cpu || labels.cgroup[0] ? &labels : NULL, NULL,
               insn->value / cyc->value);
    }
    header = false;
    for (size_t i = 0; i < e->n; i++) {
        const pms_stat_value *v = &e->last[i];
        if (v->state != PMS_COUNT_COUNTED || !is_miss_event(v)) continue;
        const pms_stat_value *insn = sibling(e->last, e->n, v, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
        if (!insn || insn->value <= 0) continue;
        if (!header)
            family(w, "pmuscope_misses_per_kilo_instructions", false, NULL,
                   "Each miss event per 1000 instructions over the last interval.");
        header = true;
        sample(w, "pmuscope_misses_per_kilo_instructions", "", v, NULL, 1000.0 * v->value / insn->value);
    }
}

static void phase_and_target(const writer *w)
{
    const pms_exposition *e = w->e;
    if (e->phase) {
        family(w, "pmuscope_phase_id", false, NULL,
               "The phase of the last interval the phase monitor classified (-1: a transition).");
        sample(w, "pmuscope_phase_id", "", NULL, NULL, e->phase->id);
        family(w, "pmuscope_phase_metric", false, NULL,
               "The metric of the current phase: CPI with a hardware PMU, else wall-clock ns per sample.");
        char extra[128] = "metric=\"";
        size_t k = strlen(extra);
        for (const char *p = e->phase->metric_name ? e->phase->metric_name : ""; *p && k + 3 < sizeof extra; p++)
            extra[k++] = isalnum((unsigned char)*p) || *p == '/' || *p == '_' ? *p : '_';
        extra[k++] = '"';
        extra[k] = '\0';
        sample(w, "pmuscope_phase_metric", "", NULL, extra, e->phase->metric);
    }
    if (e->target_running >= 0) {
        family(w, "pmuscope_target_running", false, NULL,
               "1 while the counted command or process runs; 0 once it ended (its final counts stay).");
        sample(w, "pmuscope_target_running", "", NULL, NULL, e->target_running);
    }
}

int pms_exposition_write(FILE *out, const pms_exposition *e, pms_exposition_format f)
{
    writer w = {.out = out, .format = f, .e = e};
    events(&w);
    interval_metrics(&w);
    phase_and_target(&w);
    if (f == PMS_EXPOSITION_OPENMETRICS) fputs("# EOF\n", out);
    if (fflush(out) != 0 || ferror(out)) return pms__fail(PMS_EIO, "cannot write the metrics");
    return PMS_OK;
}
