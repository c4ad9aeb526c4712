/* What the hotspot writers share (report_common.h). */
#include "hotspot/report_common.h"
#include "hotspot/truth_blocks.h"
#include "pmuscope/hotspot_report.h"
#include "util/error.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pms_hotspot_period_name(uint64_t p, char *buf, size_t size)
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

const char *pms__hotspot_period_unit(int time_based) { return time_based ? "ns" : "events"; }

int pms__hotspot_stream_status(FILE *out)
{
    if (fflush(out) || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "cannot write the hotspot report");
    return PMS_OK;
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
    pms_json_kv_uint(j, "processes", pms_hotspot_truth_nprocesses(t));
    pms_json_object_end(j);
}

void pms__hotspot_json_open(pms_json *j, FILE *out, const pms_hotspot_truth *t)
{
    pms_json_init(j, out, true);
    pms_json_object_begin(j);
    json_truth(j, t);
}

void pms__hotspot_json_close_array(pms_json *j)
{
    pms_json_array_end(j);
    pms_json_object_end(j);
    pms_json_finish(j);
}

void pms__hotspot_json_measures(pms_json *j, const pms_hotspot_result *r, const char *why)
{
    static const pms_hotspot_result none;
    const pms_hotspot_result *v = r ? r : &none;
    double nan = NAN;
    pms_json_kv_uint(j, "m", v->measures.m);
    pms_json_kv_uint(j, "ns", v->measures.ns);
    pms_json_kv_number(j, "nrmse_sr", r ? v->measures.nrmse_sr : nan, why);
    pms_json_kv_number(j, "sc", r ? v->measures.sc : nan, why);
    pms_json_kv_number(j, "od", r ? v->measures.od : nan, why);
    pms_json_kv_number(j, "od_covered", r ? v->measures.od_covered : nan, why);
    pms_json_kv_uint(j, "m_covered", v->measures.m_covered);
    pms_json_kv_uint(j, "ns_no_truth", v->measures.ns_uncovered);
    pms_json_kv_number(j, "kendall_tau_b", r ? v->measures.kendall_tau : nan,
                       r ? "undefined: fewer than 2 sampled IPs, or all tied" : why);
    pms_json_kv_uint(j, "top_n", v->top_n);
    pms_json_kv_number(j, "top_precision", r ? v->top_precision : nan, why);
    pms_json_kv_number(j, "top_recall", r ? v->top_recall : nan, why);
    pms_json_kv_uint(j, "outside_samples", v->outside_samples);
    pms_json_kv_uint(j, "unexecuted_samples", v->unexecuted_samples);
    pms_json_kv_uint(j, "other_process_samples", v->other_process_samples);
}

static int cmp_unexecuted(const void *a, const void *b)
{
    const pms__unexecuted_fn *x = a, *y = b;
    if (x->samples != y->samples) return x->samples < y->samples ? 1 : -1;
    return strcmp(x->function, y->function);
}

size_t pms__hotspot_unexecuted_functions(const pms_hotspot_result *r, pms__unexecuted_fn *top, size_t cap)
{
    pms__unexecuted_fn *all = malloc((r->nrows + 1) * sizeof *all);
    if (!all) return 0;
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        if (r->rows[i].fact.executed) continue;
        const char *f = r->rows[i].fact.function[0] ? r->rows[i].fact.function : "?";
        size_t k = 0;
        while (k < n && strcmp(all[k].function, f)) k++;
        if (k == n) all[n++] = (pms__unexecuted_fn){f, 0};
        all[k].samples += r->rows[i].sampled;
    }
    qsort(all, n, sizeof *all, cmp_unexecuted);
    if (n > cap) n = cap;
    memcpy(top, all, n * sizeof *top);
    free(all);
    return n;
}

void pms__hotspot_unexecuted_text(const pms_hotspot_result *r, char *buf, size_t size)
{
    pms__unexecuted_fn top[3];
    size_t n = pms__hotspot_unexecuted_functions(r, top, 3), len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s (%llu)", i ? ", " : "", top[i].function,
                                (unsigned long long)top[i].samples);
}

void pms__hotspot_json_outside(pms_json *j, const pms_hotspot_result *r)
{
    pms__unexecuted_fn top[5];
    size_t n = r ? pms__hotspot_unexecuted_functions(r, top, 5) : 0;
    pms_json_key(j, "unexecuted_functions");
    pms_json_array_begin(j);
    for (size_t i = 0; i < n; i++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "function", top[i].function);
        pms_json_kv_uint(j, "samples", top[i].samples);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    pms_json_key(j, "outside_files");
    pms_json_array_begin(j);
    for (size_t i = 0; r && i < r->noutside_files; i++) {
        pms_json_object_begin(j);
        pms_json_kv_string(j, "path", r->outside_files[i].path);
        pms_json_kv_string(j, "process", r->outside_files[i].process);
        pms_json_kv_uint(j, "samples", r->outside_files[i].samples);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

void pms__hotspot_text_truth(FILE *out, const pms_hotspot_truth *t)
{
    size_t nb, np = pms_hotspot_truth_nprocesses(t);
    pms_hotspot_truth_block_counts(t, &nb);
    fprintf(out, "truth        %s: %llu instructions", pms_hotspot_truth_command(t),
            (unsigned long long)pms_hotspot_truth_instructions(t));
    if (np > 1) fprintf(out, " in %zu processes", np);
    fprintf(out, ", %zu %s (valgrind)\n", nb,
            pms__truth_has_branches(t) ? "basic blocks" : "runs of equal counts (the basic blocks' counts)");
}
