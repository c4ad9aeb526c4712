/* Text and JSON output of one recording against the truth (see pmuscope/hotspot_report.h;
 * the sweep's writers are in sweep_report.c). */
#include "hotspot/report_common.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/json.h"

#include "util/error.h"
#include "util/number_text.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void text_rows(FILE *out, const pms_hotspot_truth *t, const pms_hotspot_result *r, size_t rows)
{
    if (rows == 0)
        return;
    double ni = (double)pms_hotspot_truth_instructions(t);
    int processes = pms_hotspot_truth_nprocesses(t) > 1; /* the location names the process too */
    fprintf(out, "\n%9s %7s %13s %7s %13s  %-20s %s\n", "samples", "share%", "executed", "share%", "block count",
            "function", processes ? "process: location" : "location");
    for (size_t i = 0; i < r->nrows && i < rows; i++) {
        const pms_hotspot_row *w = &r->rows[i];
        fprintf(out, "%9llu %7.2f %13llu %7.3f %13llu  %-20.20s %s%s%s+0x%llx\n", (unsigned long long)w->sampled,
                100.0 * (double)w->sampled / (double)r->measures.ns, (unsigned long long)w->fact.executed,
                100.0 * (double)w->fact.executed / ni, (unsigned long long)w->fact.block_count,
                w->fact.function[0] ? w->fact.function : "?",
                processes ? pms_hotspot_truth_object_process(t, w->object) : "", processes ? ": " : "",
                base_name(pms_hotspot_truth_object_path(t, w->object)), (unsigned long long)w->offset);
    }
}

/* Samples where valgrind ran nothing: say why the measures count them as r_i = 0. */
static void unexecuted_note(FILE *out, const pms_hotspot_result *r)
{
    if (r->unexecuted_samples == 0)
        return;
    char where[256];
    pms__hotspot_unexecuted_text(r, where, sizeof where);
    fprintf(out, "note         %llu samples (%.1f%%) hit instructions valgrind never ran (most in %s): code picked "
                 "for the CPU at run time (glibc's IFUNC variants) differs under valgrind's virtual CPU; a sweep "
                 "(--sweep) runs the command with the features valgrind lacks masked\n",
            (unsigned long long)r->unexecuted_samples, 100.0 * (double)r->unexecuted_samples / (double)r->measures.ns,
            where);
}

/* Percent of the placed samples at instructions valgrind never ran (r_i = 0). */
static double no_truth_share(const pms_hotspot_result *r)
{
    return r->measures.ns ? 100.0 * (double)r->measures.ns_uncovered / (double)r->measures.ns : 0.0;
}

int pms_hotspot_write_one(FILE *out, const pms_hotspot_truth *t, const pms_hotspot_recording *rec,
                          const pms_hotspot_result *r, size_t rows, bool json)
{
    if (json) {
        pms_json j;
        pms__hotspot_json_open(&j, out, t);
        pms_json_kv_string(&j, "event", rec->event);
        pms_json_kv_uint(&j, "period", rec->period);
        pms_json_kv_string(&j, "period_unit", pms__hotspot_period_unit(rec->time_based));
        pms_json_kv_uint(&j, "samples", rec->total);
        pms_json_kv_uint(&j, "unplaced_samples", rec->unplaced);
        pms__hotspot_json_measures(&j, r, NULL);
        pms__hotspot_json_outside(&j, r);
        pms_json_key(&j, "ips");
        pms_json_array_begin(&j);
        for (size_t i = 0; i < r->nrows; i++) {
            pms_json_object_begin(&j);
            pms_json_kv_string(&j, "object", pms_hotspot_truth_object_path(t, r->rows[i].object));
            pms_json_kv_string(&j, "process", pms_hotspot_truth_object_process(t, r->rows[i].object));
            pms_json_kv_uint(&j, "offset", r->rows[i].offset);
            pms_json_kv_string(&j, "function", r->rows[i].fact.function);
            pms_json_kv_uint(&j, "sampled", r->rows[i].sampled);
            pms_json_kv_uint(&j, "executed", r->rows[i].fact.executed);
            pms_json_kv_uint(&j, "block_count", r->rows[i].fact.block_count);
            pms_json_object_end(&j);
        }
        pms__hotspot_json_close_array(&j);
        return pms__hotspot_stream_status(out);
    }
    pms__hotspot_text_truth(out, t);
    char period[96]; /* period 0: perf record -F, pmuscope record's default */
    if (rec->period == 0)
        snprintf(period, sizeof period, "sampled by frequency (no fixed period)");
    else
        snprintf(period, sizeof period, "period %llu%s%s", (unsigned long long)rec->period, rec->time_based ? " ns" : "",
                 rec->time_based ? " (a time-based event: the period counts nanoseconds)" : "");
    fprintf(out, "recording    %llu samples of %s, %s; %llu not in a file (kernel, vdso), %llu in files valgrind never "
                 "ran\n",
            (unsigned long long)rec->total, rec->event, period, (unsigned long long)rec->unplaced,
            (unsigned long long)r->outside_samples);
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
    return pms__hotspot_stream_status(out);
}

