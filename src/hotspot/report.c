/* Text, JSON, CSV and SVG output of hotspot detection (see pmuscope/hotspot_report.h). */
#include "hotspot/truth_blocks.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/chart.h"
#include "pmuscope/json.h"
#include "pmuscope/table.h"

#include "util/error.h"
#include "util/number_text.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* 65536 -> "64K", as the paper writes periods. */
static const char *period_name(uint64_t p, char *buf, size_t size)
{
    static const char suffix[] = "KMG";
    int k = -1;
    while (k < 2 && p >= 1024 && p % 1024 == 0) {
        p /= 1024;
        k++;
    }
    if (k < 0)
        snprintf(buf, size, "%llu", (unsigned long long)p);
    else
        snprintf(buf, size, "%llu%c", (unsigned long long)p, suffix[k]);
    return buf;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void json_measures(pms_json *j, const pms_hotspot_result *r)
{
    pms_json_kv_uint(j, "m", r->measures.m);
    pms_json_kv_uint(j, "ns", r->measures.ns);
    pms_json_kv_double(j, "nrmse_sr", r->measures.nrmse_sr);
    pms_json_kv_double(j, "sc", r->measures.sc);
    pms_json_kv_double(j, "od", r->measures.od);
    pms_json_kv_double(j, "od_covered", r->measures.od_covered);
    pms_json_kv_uint(j, "m_covered", r->measures.m_covered);
    pms_json_kv_uint(j, "ns_no_truth", r->measures.ns_uncovered);
    pms_json_kv_double(j, "kendall_tau_b", r->measures.kendall_tau);
    pms_json_kv_uint(j, "top_n", r->top_n);
    pms_json_kv_double(j, "top_precision", r->top_precision);
    pms_json_kv_double(j, "top_recall", r->top_recall);
    pms_json_kv_uint(j, "outside_samples", r->outside_samples);
    pms_json_kv_uint(j, "unexecuted_samples", r->unexecuted_samples);
}

static void json_truth(pms_json *j, const pms_hotspot_truth *t)
{
    size_t nb;
    pms_hotspot_truth_block_counts(t, &nb);
    pms_json_key(j, "truth");
    pms_json_object_begin(j);
    pms_json_kv_string(j, "command", pms_hotspot_truth_command(t));
    pms_json_kv_uint(j, "instructions", pms_hotspot_truth_instructions(t));
    pms_json_kv_uint(j, "basic_blocks", nb);
    pms_json_object_end(j);
}

/* A document: {"truth": {...}, ... members follow */
static void json_open(pms_json *j, FILE *out, const pms_hotspot_truth *t)
{
    pms_json_init(j, out, true);
    pms_json_object_begin(j);
    json_truth(j, t);
}

/* Ends the last member (an array) and the document. */
static void json_close_array(pms_json *j)
{
    pms_json_array_end(j);
    pms_json_object_end(j);
    pms_json_finish(j);
}

static void text_truth(FILE *out, const pms_hotspot_truth *t)
{
    size_t nb;
    pms_hotspot_truth_block_counts(t, &nb);
    fprintf(out, "truth        %s: %llu instructions, %zu %s (valgrind)\n", pms_hotspot_truth_command(t),
            (unsigned long long)pms_hotspot_truth_instructions(t), nb,
            pms__truth_has_branches(t) ? "basic blocks" : "runs of equal counts (the basic blocks' counts)");
}

static void text_rows(FILE *out, const pms_hotspot_truth *t, const pms_hotspot_result *r, size_t rows)
{
    if (rows == 0)
        return;
    double ni = (double)pms_hotspot_truth_instructions(t);
    fprintf(out, "\n%9s %7s %13s %7s %13s  %-20s %s\n", "samples", "share%", "executed", "share%", "block count",
            "function", "location");
    for (size_t i = 0; i < r->nrows && i < rows; i++) {
        const pms_hotspot_row *w = &r->rows[i];
        fprintf(out, "%9llu %7.2f %13llu %7.3f %13llu  %-20.20s %s+0x%llx\n", (unsigned long long)w->sampled,
                100.0 * (double)w->sampled / (double)r->measures.ns, (unsigned long long)w->fact.executed,
                100.0 * (double)w->fact.executed / ni, (unsigned long long)w->fact.block_count,
                w->fact.function[0] ? w->fact.function : "?",
                base_name(pms_hotspot_truth_object_path(t, w->object)), (unsigned long long)w->offset);
    }
}

/* Samples where valgrind ran nothing: say why the measures count them as r_i = 0. */
static void unexecuted_note(FILE *out, const pms_hotspot_result *r)
{
    if (r->unexecuted_samples == 0)
        return;
    const char *where = "";
    for (size_t i = 0; i < r->nrows && !where[0]; i++)
        if (r->rows[i].fact.executed == 0)
            where = r->rows[i].fact.function;
    fprintf(out, "note         %llu samples (%.1f%%) hit instructions valgrind never ran%s%s%s: code picked for the "
                 "CPU at run time (glibc's IFUNC variants) differs under valgrind's virtual CPU\n",
            (unsigned long long)r->unexecuted_samples, 100.0 * (double)r->unexecuted_samples / (double)r->measures.ns,
            where[0] ? " (most in " : "", where, where[0] ? ")" : "");
}

static const char *period_unit(int time_based) { return time_based ? "ns" : "events"; }

/* Percent of the placed samples at instructions valgrind never ran (r_i = 0). */
static double no_truth_share(const pms_hotspot_result *r)
{
    return r->measures.ns ? 100.0 * (double)r->measures.ns_uncovered / (double)r->measures.ns : 0.0;
}

/* What a stream's writes came to. */
static int stream_status(FILE *out)
{
    if (fflush(out) || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "cannot write the hotspot report");
    return PMS_OK;
}

int pms_hotspot_write_one(FILE *out, const pms_hotspot_truth *t, const pms_hotspot_recording *rec,
                          const pms_hotspot_result *r, size_t rows, bool json)
{
    if (json) {
        pms_json j;
        json_open(&j, out, t);
        pms_json_kv_string(&j, "event", rec->event);
        pms_json_kv_uint(&j, "period", rec->period);
        pms_json_kv_string(&j, "period_unit", period_unit(rec->time_based));
        pms_json_kv_uint(&j, "samples", rec->total);
        pms_json_kv_uint(&j, "unplaced_samples", rec->unplaced);
        json_measures(&j, r);
        pms_json_key(&j, "ips");
        pms_json_array_begin(&j);
        for (size_t i = 0; i < r->nrows; i++) {
            pms_json_object_begin(&j);
            pms_json_kv_string(&j, "object", pms_hotspot_truth_object_path(t, r->rows[i].object));
            pms_json_kv_uint(&j, "offset", r->rows[i].offset);
            pms_json_kv_string(&j, "function", r->rows[i].fact.function);
            pms_json_kv_uint(&j, "sampled", r->rows[i].sampled);
            pms_json_kv_uint(&j, "executed", r->rows[i].fact.executed);
            pms_json_kv_uint(&j, "block_count", r->rows[i].fact.block_count);
            pms_json_object_end(&j);
        }
        json_close_array(&j);
        return stream_status(out);
    }
    text_truth(out, t);
    fprintf(out, "recording    %llu samples of %s, period %llu%s%s; %llu not in a file (kernel, vdso), %llu in files "
                 "valgrind never ran\n",
            (unsigned long long)rec->total, rec->event, (unsigned long long)rec->period,
            rec->time_based ? " ns" : "", rec->time_based ? " (a time-based event: the period counts nanoseconds)" : "",
            (unsigned long long)rec->unplaced, (unsigned long long)r->outside_samples);
    fprintf(out, "sampled IPs  m = %zu\n", r->measures.m);
    unexecuted_note(out, r);
    fputc('\n', out);
    pms__num_text a;
    fprintf(out, "NRMSE_SR     %s\n", pms__num(&a, "%.4f", r->measures.nrmse_sr));
    fprintf(out, "SC           %s\n", pms__num(&a, "%.4f", r->measures.sc));
    fprintf(out, "OD           %s  (the paper's: over all m = %zu sampled instructions; %.1f%% of the samples "
                 "are at instructions with no truth)\n", pms__num(&a, "%.4f", r->measures.od), r->measures.m,
            no_truth_share(r));
    fprintf(out, "OD covered   %s  (over the %zu sampled instructions that valgrind ran)\n",
            pms__num(&a, "%.4f", r->measures.od_covered), r->measures.m_covered);
    if (isfinite(r->measures.kendall_tau))
        fprintf(out, "tau-b        %.4f  (Kendall, sampled against exact counts of the sampled IPs)\n",
                r->measures.kendall_tau);
    else
        fprintf(out, "tau-b        -  (Kendall: undefined: fewer than 2 sampled IPs, or all tied)\n");
    fprintf(out, "top-%-8zu precision %.3f  recall %.3f\n", r->top_n, r->top_precision, r->top_recall);
    text_rows(out, t, r, rows);
    return stream_status(out);
}

int pms_hotspot_write_sweep(FILE *out, const pms_hotspot_sweep *sw, const pms_hotspot_truth *t, bool json)
{
    char name[32];
    if (json) {
        pms_json j;
        json_open(&j, out, t);
        pms_json_kv_string(&j, "event", sw->event);
        pms_json_kv_string(&j, "period_unit", period_unit(sw->time_based));
        pms_json_kv_bool(&j, "randomized", sw->randomized);
        if (sw->randomized)
            pms_json_kv_uint(&j, "seed", sw->seed);
        pms_json_kv_double(&j, "valgrind_seconds", sw->valgrind_seconds);
        pms_json_key(&j, "periods");
        pms_json_array_begin(&j);
        for (size_t i = 0; i < sw->nperiods; i++) {
            pms_json_object_begin(&j);
            pms_json_kv_uint(&j, "period", sw->points[i].period);
            pms_json_kv_uint(&j, "samples", sw->points[i].samples);
            json_measures(&j, &sw->points[i].result);
            pms_json_object_end(&j);
        }
        json_close_array(&j);
        return stream_status(out);
    }
    text_truth(out, t);
    if (sw->time_based)
        fprintf(out, "event        %s: periods are in nanoseconds of CPU time (no hardware PMU counts cycles "
                     "here)\n", sw->event);
    else
        fprintf(out, "event        %s: periods are in events\n", sw->event);
    if (sw->randomized)
        fprintf(out, "periods      each plus a random value below 1/8 of it (as the paper); seed %llu (period P: "
                     "seed %llu + P)\n\n", (unsigned long long)sw->seed, (unsigned long long)sw->seed);
    else
        fprintf(out, "periods      fixed (not randomised)\n\n");
    if (sw->od_covered)
        fprintf(out, "OD           over the sampled instructions that valgrind ran (covered only)\n");
    fprintf(out, "%9s %9s %6s %8s %10s %8s %10s %8s %8s %8s\n", sw->time_based ? "period/ns" : "period", "samples", "m",
            "no-truth", "NRMSE_SR", "SC", sw->od_covered ? "OD-cov" : "OD", "tau-b", "top-P", "top-R");
    for (size_t i = 0; i < sw->nperiods; i++) {
        const pms_hotspot_result *r = &sw->points[i].result;
        pms__num_text a, b, c, d;
        fprintf(out, "%9s %9llu %6zu %7.1f%% %10s %8s %10s %8s %8.3f %8.3f\n",
                period_name(sw->points[i].period, name, sizeof name), (unsigned long long)sw->points[i].samples,
                r->measures.m, no_truth_share(r), pms__num(&a, "%.4f", r->measures.nrmse_sr),
                pms__num(&b, "%.4f", r->measures.sc),
                pms__num(&c, "%.5f", sw->od_covered ? r->measures.od_covered : r->measures.od),
                pms__num(&d, "%.3f", r->measures.kendall_tau), r->top_precision, r->top_recall);
    }
    fprintf(out, "(periods in %s of %s; no-truth: share of samples at instructions valgrind never ran;\n"
                 " -: undefined: tau-b needs 2 sampled IPs that are not all tied)\n",
            sw->time_based ? "nanoseconds" : "occurrences", sw->event);
    return stream_status(out);
}

int pms_hotspot_write_sweep_csv(FILE *out, const pms_hotspot_sweep *sw)
{
    const char *const names[] = {sw->time_based ? "period_ns" : "period_events", "samples", "m", "no_truth_share",
                                 "NRMSE_SR", "SC", "OD", "OD_covered", "tau_b", "top_precision", "top_recall"};
    enum { NCOLS = sizeof names / sizeof names[0] };
    double col[NCOLS][PMS_HOTSPOT_MAX_PERIODS];
    for (size_t i = 0; i < sw->nperiods; i++) {
        const pms_hotspot_result *r = &sw->points[i].result;
        double row[NCOLS] = {(double)sw->points[i].period, (double)sw->points[i].samples, (double)r->measures.m,
                             no_truth_share(r) / 100, r->measures.nrmse_sr, r->measures.sc, r->measures.od,
                             r->measures.od_covered, r->measures.kendall_tau, r->top_precision, r->top_recall};
        for (size_t k = 0; k < NCOLS; k++)
            col[k][i] = row[k];
    }
    pms_table *t = pms_table_new("the sweep table");
    int rc = t ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < NCOLS && rc == PMS_OK; k++) rc = pms_table_add_numeric(t, names[k], col[k], sw->nperiods);
    if (rc == PMS_OK) rc = pms_table_write(t, out, ',');
    pms_table_free(t);
    return rc == PMS_OK ? stream_status(out) : rc;
}

int pms_hotspot_write_sweep_svg(FILE *out, const pms_hotspot_sweep *sw)
{
    double x[PMS_HOTSPOT_MAX_PERIODS], y[3][PMS_HOTSPOT_MAX_PERIODS];
    for (size_t i = 0; i < sw->nperiods; i++) {
        x[i] = (double)sw->points[i].period;
        y[0][i] = sw->points[i].result.measures.nrmse_sr;
        y[1][i] = sw->points[i].result.measures.sc;
        y[2][i] = sw->od_covered ? sw->points[i].result.measures.od_covered : sw->points[i].result.measures.od;
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
    return rc == PMS_OK ? stream_status(out) : rc;
}
