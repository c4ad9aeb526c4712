/* Text, JSON, CSV and SVG output of a hotspot sweep (see pmuscope/hotspot_report.h): one
 * row per period, each measure beside what an ideal random sampler gives with as many
 * samples, and what the native runs were given (input, CPU mask). */
#include "hotspot/report_common.h"
#include "pmuscope/chart.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/json.h"
#include "pmuscope/table.h"

#include "util/error.h"
#include "util/number_text.h"

#include <math.h>
#include <string.h>

#define NO_SAMPLES "no sample of this period fell in a file: the period is longer than the command's run"

static const char *mask_state(pms_hotspot_cpu_mask_state s)
{
    static const char *const names[] = {"off", "same", "applied", "unavailable"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

static void json_spread(pms_json *j, const char *measure, const pms_hotspot_spread *s, int have)
{
    static const char *const why = "no ideal sampler: the period has no measures, or --ideal-draws 0";
    char key[64];
    snprintf(key, sizeof key, "%s_ideal", measure);
    pms_json_kv_number(j, key, have ? s->mean : NAN, why);
    snprintf(key, sizeof key, "%s_ideal_low", measure);
    pms_json_kv_number(j, key, have ? s->low : NAN, why);
    snprintf(key, sizeof key, "%s_ideal_high", measure);
    pms_json_kv_number(j, key, have ? s->high : NAN, why);
}

static void json_point(pms_json *j, const pms_hotspot_sweep *sw, size_t i)
{
    const pms_hotspot_sweep_point *p = &sw->points[i];
    char cause[1536];
    const pms_hotspot_result *r = p->valid ? &p->result : NULL;
    int ideal = p->valid && p->ideal.draws > 0;
    pms_json_object_begin(j);
    pms_json_kv_uint(j, "period", p->period);
    pms_json_kv_uint(j, "samples", p->samples);
    pms_json_kv_bool(j, "measured", p->valid);
    pms__hotspot_json_measures(j, r, NO_SAMPLES);
    pms_json_kv_number(j, "outside_truth_share", r ? pms_hotspot_outside_share(r) : NAN, NO_SAMPLES);
    pms__hotspot_json_outside(j, r);
    pms_json_key(j, "outside_cause");
    if (pms_hotspot_sweep_explain(sw, i, cause, sizeof cause))
        pms_json_string(j, cause);
    else
        pms_json_null(j);
    json_spread(j, "nrmse_sr", &p->ideal.nrmse_sr, ideal);
    json_spread(j, "sc", &p->ideal.sc, ideal);
    json_spread(j, "od", &p->ideal.od, ideal);
    pms_json_kv_uint(j, "ideal_draws", ideal ? p->ideal.draws : 0);
    pms_json_object_end(j);
}

static void json_mask(pms_json *j, const pms_hotspot_cpu_mask *m)
{
    pms_json_key(j, "cpu_mask");
    pms_json_object_begin(j);
    pms_json_kv_string(j, "state", mask_state(m->state));
    pms_json_kv_string(j, "method", "ld.so --list-diagnostics natively and under valgrind --tool=none");
    pms_json_kv_string(j, "glibc_tunables", m->tunables);
    pms_json_kv_string(j, "still_differing", m->remaining);
    pms_json_kv_string(j, "why", m->why);
    pms_json_object_end(j);
}

static int write_json(FILE *out, const pms_hotspot_sweep *sw, const pms_hotspot_truth *t)
{
    pms_json j;
    pms__hotspot_json_open(&j, out, t);
    pms_json_kv_string(&j, "event", sw->event);
    pms_json_kv_string(&j, "period_unit", pms__hotspot_period_unit(sw->time_based));
    pms_json_kv_bool(&j, "randomized", sw->randomized);
    if (sw->randomized)
        pms_json_kv_uint(&j, "seed", sw->seed);
    pms_json_kv_double(&j, "valgrind_seconds", sw->valgrind_seconds);
    pms_json_kv_string(&j, "stdin", sw->stdin_path ? sw->stdin_path : "/dev/null");
    json_mask(&j, &sw->cpu_mask);
    pms_json_key(&j, "runs_differ");
    if (sw->runs_differ[0])
        pms_json_string(&j, sw->runs_differ);
    else
        pms_json_null(&j);
    pms_json_key(&j, "periods");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < sw->nperiods; i++)
        json_point(&j, sw, i);
    pms__hotspot_json_close_array(&j);
    return pms__hotspot_stream_status(out);
}

/* The lines above the table: the event, the periods, what every run was given. */
static void text_head(FILE *out, const pms_hotspot_sweep *sw)
{
    if (sw->time_based)
        fprintf(out, "event        %s: periods are in nanoseconds of CPU time (no hardware PMU counts cycles "
                     "here)\n", sw->event);
    else
        fprintf(out, "event        %s: periods are in events\n", sw->event);
    if (sw->randomized)
        fprintf(out, "periods      each plus a random value below 1/8 of it (as the paper); seed %llu (period P: "
                     "seed %llu + P)\n", (unsigned long long)sw->seed, (unsigned long long)sw->seed);
    else
        fprintf(out, "periods      fixed (not randomised)\n");
    fprintf(out, "input        every run reads %s\n", sw->stdin_path ? sw->stdin_path : "/dev/null");
    const pms_hotspot_cpu_mask *m = &sw->cpu_mask;
    if (m->state == PMS_CPU_MASK_APPLIED && m->tunables[0])
        fprintf(out, "cpu mask     native runs with GLIBC_TUNABLES=%s: the CPU features and choices of valgrind's "
                     "virtual CPU (from ld.so --list-diagnostics natively and under valgrind)%s%s\n",
                m->tunables, m->remaining[0] ? "; still differing: " : "", m->remaining);
    else if (m->state == PMS_CPU_MASK_APPLIED)
        fprintf(out, "cpu mask     none that glibc takes; differing: %s\n", m->remaining);
    else if (m->state == PMS_CPU_MASK_SAME)
        fprintf(out, "cpu mask     none needed: glibc chooses natively as under valgrind (ld.so --list-diagnostics)\n");
    else if (m->state == PMS_CPU_MASK_UNAVAILABLE)
        fprintf(out, "cpu mask     none: %s\n", m->why);
    else
        fprintf(out, "cpu mask     off (--no-cpu-mask): native runs may execute code valgrind never runs\n");
    if (sw->runs_differ[0])
        fprintf(out, "runs differ  %s\n", sw->runs_differ);
    fputc('\n', out);
}

/* "0.0310 [0.0250,0.0390]", or "-" */
static const char *ideal_text(char *buf, size_t size, const pms_hotspot_spread *s, const char *fmt)
{
    if (!isfinite(s->mean)) return strcpy(buf, "-");
    char f[64];
    snprintf(f, sizeof f, "%s [%s,%s]", fmt, fmt, fmt);
    snprintf(buf, size, f, s->mean, s->low, s->high);
    return buf;
}

static void text_row(FILE *out, const pms_hotspot_sweep *sw, const pms_hotspot_sweep_point *p, int ideal)
{
    char name[32], ia[64] = "-", ib[64] = "-", ic[64] = "-", outside[16] = "-";
    const pms_hotspot_result *r = &p->result;
    const pms_hotspot_ideal *id = &p->ideal;
    pms__num_text m, a, b, c, d, tp, tr;
    double nan = NAN;
    int v = p->valid;
    if (v) {
        snprintf(outside, sizeof outside, "%.1f%%", 100 * pms_hotspot_outside_share(r));
        if (id->draws) {
            ideal_text(ia, sizeof ia, &id->nrmse_sr, "%.4f");
            ideal_text(ib, sizeof ib, &id->sc, "%.4f");
            ideal_text(ic, sizeof ic, &id->od, "%.5f");
        }
    }
    fprintf(out, "%9s %9llu %6s %8s %10s", pms_hotspot_period_name(p->period, name, sizeof name),
            (unsigned long long)p->samples, pms__num(&m, "%.0f", v ? (double)r->measures.m : nan), outside,
            pms__num(&a, "%.4f", v ? r->measures.nrmse_sr : nan));
    if (ideal) fprintf(out, "  %-22s", ia);
    fprintf(out, " %8s", pms__num(&b, "%.4f", v ? r->measures.sc : nan));
    if (ideal) fprintf(out, "  %-22s", ib);
    fprintf(out, " %10s", pms__num(&c, "%.5f", v ? (sw->od_covered ? r->measures.od_covered : r->measures.od) : nan));
    if (ideal) fprintf(out, "  %-25s", ic);
    fprintf(out, " %8s %6s %6s\n", pms__num(&d, "%.3f", v ? r->measures.kendall_tau : nan),
            pms__num(&tp, "%.3f", v ? r->top_precision : nan), pms__num(&tr, "%.3f", v ? r->top_recall : nan));
}

int pms_hotspot_write_sweep(FILE *out, const pms_hotspot_sweep *sw, const pms_hotspot_truth *t, bool json)
{
    if (json)
        return write_json(out, sw, t);
    pms__hotspot_text_truth(out, t);
    text_head(out, sw);
    if (sw->od_covered)
        fprintf(out, "OD           over the sampled instructions that valgrind ran (covered only)\n");
    int ideal = sw->ideal_draws > 0;
    fprintf(out, "%9s %9s %6s %8s %10s%s %8s%s %10s%s %8s %6s %6s\n", sw->time_based ? "period/ns" : "period",
            "samples", "m", "outside", "NRMSE_SR", ideal ? "  ideal [95% range]     " : "", "SC",
            ideal ? "  ideal [95% range]     " : "", sw->od_covered ? "OD-cov" : "OD",
            ideal ? "  ideal [95% range]        " : "", "tau-b", "top-P", "top-R");
    for (size_t i = 0; i < sw->nperiods; i++)
        text_row(out, sw, &sw->points[i], ideal);
    fprintf(out, "(periods in %s of %s; outside: share of the samples in files at instructions valgrind never "
                 "ran, or in files it never ran;\n",
            sw->time_based ? "nanoseconds" : "occurrences", sw->event);
    if (ideal)
        fprintf(out, " ideal: an ideal random sampler with the same samples, mean and 2.5%%-97.5%% quantiles of %zu "
                     "seeded draws from the exact counts;\n", sw->ideal_draws);
    fprintf(out, " -: undefined: no sample in the period, or tau-b without 2 sampled IPs that are not all tied)\n");
    return pms__hotspot_stream_status(out);
}

int pms_hotspot_write_sweep_csv(FILE *out, const pms_hotspot_sweep *sw)
{
    const char *const names[] = {sw->time_based ? "period_ns" : "period_events", "samples", "m", "no_truth_share",
                                 "outside_share", "NRMSE_SR", "NRMSE_SR_ideal", "NRMSE_SR_ideal_low",
                                 "NRMSE_SR_ideal_high", "SC", "SC_ideal", "SC_ideal_low", "SC_ideal_high", "OD",
                                 "OD_covered", "OD_ideal", "OD_ideal_low", "OD_ideal_high", "tau_b", "top_precision",
                                 "top_recall"};
    enum { NCOLS = sizeof names / sizeof names[0] };
    double col[NCOLS][PMS_HOTSPOT_MAX_PERIODS];
    for (size_t i = 0; i < sw->nperiods; i++) {
        const pms_hotspot_sweep_point *p = &sw->points[i];
        const pms_hotspot_result *r = &p->result;
        const pms_hotspot_ideal *id = &p->ideal;
        double x = NAN, v = p->valid, iv = p->valid && id->draws;
#define M(e) (v ? (e) : x)
#define I(e) (iv ? (e) : x)
        double row[NCOLS] = {(double)p->period, (double)p->samples, M((double)r->measures.m),
                             M(r->measures.ns ? (double)r->measures.ns_uncovered / (double)r->measures.ns : 0),
                             M(pms_hotspot_outside_share(r)), M(r->measures.nrmse_sr), I(id->nrmse_sr.mean),
                             I(id->nrmse_sr.low), I(id->nrmse_sr.high), M(r->measures.sc), I(id->sc.mean),
                             I(id->sc.low), I(id->sc.high), M(r->measures.od), M(r->measures.od_covered),
                             I(id->od.mean), I(id->od.low), I(id->od.high), M(r->measures.kendall_tau),
                             M(r->top_precision), M(r->top_recall)};
#undef M
#undef I
        for (size_t k = 0; k < NCOLS; k++)
            col[k][i] = row[k];
    }
    pms_table *t = pms_table_new("the sweep table");
    int rc = t ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < NCOLS && rc == PMS_OK; k++) rc = pms_table_add_numeric(t, names[k], col[k], sw->nperiods);
    if (rc == PMS_OK) rc = pms_table_write(t, out, ',');
    pms_table_free(t);
    return rc == PMS_OK ? pms__hotspot_stream_status(out) : rc;
}

int pms_hotspot_write_sweep_svg(FILE *out, const pms_hotspot_sweep *sw)
{
    double x[PMS_HOTSPOT_MAX_PERIODS], y[3][PMS_HOTSPOT_MAX_PERIODS];
    for (size_t i = 0; i < sw->nperiods; i++) {
        const pms_hotspot_sweep_point *p = &sw->points[i];
        x[i] = (double)p->period;
        y[0][i] = p->valid ? p->result.measures.nrmse_sr : NAN; /* a period without samples: no mark */
        y[1][i] = p->valid ? p->result.measures.sc : NAN;
        y[2][i] = p->valid ? (sw->od_covered ? p->result.measures.od_covered : p->result.measures.od) : NAN;
    }
    char xlabel[160];
    snprintf(xlabel, sizeof xlabel, "sampling period of %s", sw->event);
    static const char *const titles[3] = {"Normalised RMS error NRMSE_SR", "Sample coverage SC", "Order deviation OD"};
    /* the series as the CSV's columns name them; the measures are ratios, SC a fraction */
    const char *const labels[3] = {"NRMSE_SR", "SC", sw->od_covered ? "OD_covered" : "OD"};
    static const char *const units[3] = {"ratio", "fraction", "ratio"};
    pms_chart *charts[3] = {NULL, NULL, NULL};
    int rc = PMS_OK;
    for (int k = 0; k < 3 && rc == PMS_OK; k++) {
        charts[k] = pms_chart_new(titles[k], xlabel, labels[k]);
        rc = charts[k] ? pms_chart_add_line(charts[k], labels[k], x, y[k], sw->nperiods, NULL)
                       : pms__fail(PMS_ENOMEM, "out of memory");
        if (rc == PMS_OK) {
            /* periods in powers of 2 on a binary axis, else on a log one; OD on a log axis where it spans decades */
            pms_chart_set_scale(charts[k], PMS_CHART_AUTO_LOG, k == 2 ? PMS_CHART_AUTO_LOG : PMS_CHART_LINEAR);
            pms_chart_set_units(charts[k], sw->time_based ? "ns" : "events", units[k]);
        }
    }
    if (rc == PMS_OK) rc = pms_chart_write_svg(charts, 3, 720, out);
    for (int k = 0; k < 3; k++) pms_chart_free(charts[k]);
    return rc == PMS_OK ? pms__hotspot_stream_status(out) : rc;
}

int pms_hotspot_sweep_explain(const pms_hotspot_sweep *sw, size_t i, char *buf, size_t size)
{
    const pms_hotspot_sweep_point *p = &sw->points[i];
    const pms_hotspot_result *r = &p->result;
    buf[0] = '\0';
    if (!p->valid || (!r->unexecuted_samples && !r->outside_samples)) return 0;
    size_t len = (size_t)snprintf(buf, size, "%.1f%% of the samples lie outside the truth",
                                  100 * pms_hotspot_outside_share(r));
    if (r->unexecuted_samples && len < size) {
        char where[256];
        const pms_hotspot_cpu_mask *m = &sw->cpu_mask;
        pms__hotspot_unexecuted_text(r, where, sizeof where);
        len += (size_t)snprintf(buf + len, size - len,
                                ": %llu at instructions valgrind never ran (most in %s): code chosen for the CPU "
                                "at run time%s%s%s",
                                (unsigned long long)r->unexecuted_samples, where,
                                m->state == PMS_CPU_MASK_OFF ? ", and the CPU mask is off (--no-cpu-mask)"
                                : m->state == PMS_CPU_MASK_UNAVAILABLE ? ", and no CPU mask: "
                                : m->remaining[0] ? " (glibc's CPU detection, or a choice the CPU mask leaves "
                                                    "different: see its line)"
                                                  : ", or code run only natively",
                                m->state == PMS_CPU_MASK_UNAVAILABLE ? m->why : "", "");
    }
    if (r->outside_samples && r->noutside_files && len < size)
        len += (size_t)snprintf(buf + len, size - len,
                                "; %llu in files valgrind never ran (most in %s, process %s): a program that ran "
                                "before an exec (valgrind keeps no counts of a process image that execs another), a "
                                "child started by a raw clone, or a program that ran natively only",
                                (unsigned long long)r->outside_samples, r->outside_files[0].path,
                                r->outside_files[0].process[0] ? r->outside_files[0].process : "?");
    if (sw->runs_differ[0] && len < size)
        snprintf(buf + len, size - len, "; the runs differ: %s", sw->runs_differ);
    return 1;
}
