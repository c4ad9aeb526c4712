/* A diff as one JSON object (pmuscope/diff.h). */
#include "diff/diff_internal.h"
#include "hotspot/profile_columns.h"
#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "util/error.h"

static const char *method_key(pms_diff_method m)
{
    return m == PMS_DIFF_TWO_PROPORTION ? "two-proportion" : m == PMS_DIFF_WELCH_RUNS ? "welch-runs" : "rank-sum";
}

static void side(pms_json *j, const char *key, const char *const *files, size_t nfiles, size_t runs, uint64_t total,
                 bool counts)
{
    pms_json_key(j, key);
    pms_json_object_begin(j);
    pms_json_key(j, "files");
    pms_json_array_begin(j);
    for (size_t i = 0; i < nfiles; i++) pms_json_string(j, files[i]);
    pms_json_array_end(j);
    pms_json_kv_uint(j, "runs", runs);
    if (!counts) pms_json_kv_uint(j, "samples", total);
    pms_json_object_end(j);
}

static const char *untested(const pms_diff_result *r)
{
    return r->method == PMS_DIFF_RANK_SUM      ? "not tested: every value tied"
           : r->method == PMS_DIFF_WELCH_RUNS ? "not tested: the row's share is the same in every run"
                                               : "not tested: the row holds every sample on both sides";
}

static void profile_row(pms_json *j, const pms_diff_result *r, const pms_profile_report *layout, const pms_diff_row *row)
{
    pms_json_object_begin(j);
    pms__profile_json_keys(j, layout, &row->where);
    pms_json_kv_uint(j, "base_samples", row->base_samples);
    pms_json_kv_uint(j, "new_samples", row->new_samples);
    pms_json_kv_uint(j, "base_total", row->base_total);
    pms_json_kv_uint(j, "new_total", row->new_total);
    pms_json_kv_double(j, "base_share", row->base_share);
    pms_json_kv_double(j, "new_share", row->new_share);
    pms_json_kv_double(j, "delta", row->delta);
    pms_json_kv_double(j, "ci_low", row->ci_low);
    pms_json_kv_double(j, "ci_high", row->ci_high);
    pms_json_kv_number(j, "p_value", row->p_value, untested(r));
    pms_json_kv_number(j, "q_value", row->q_value, untested(r));
    pms_json_kv_number(j, "detectable", row->detectable, untested(r));
    pms_json_kv_string(j, "verdict", pms__diff_verdict_name(row->verdict));
    pms_json_object_end(j);
}

static void count_row(pms_json *j, const pms_diff_result *r, const pms_diff_count *c)
{
    pms_json_object_begin(j);
    pms_json_kv_string(j, "event", c->event);
    pms_json_kv_string(j, "unit", c->unit);
    pms_json_kv_uint(j, "base_runs", c->base_runs);
    pms_json_kv_uint(j, "new_runs", c->new_runs);
    pms_json_kv_double(j, "base_median", c->base_median);
    pms_json_kv_double(j, "new_median", c->new_median);
    pms_json_kv_number(j, "ratio", c->ratio, "the base median is 0");
    pms_json_kv_number(j, "ci_low", c->ci_low, "a value is 0 or below: no interval of the ratio");
    pms_json_kv_number(j, "ci_high", c->ci_high, "a value is 0 or below: no interval of the ratio");
    pms_json_kv_number(j, "p_value", c->p_value, untested(r));
    pms_json_kv_number(j, "q_value", c->q_value, untested(r));
    pms_json_kv_bool(j, "exact", c->exact);
    pms_json_kv_string(j, "verdict", pms__diff_verdict_name(c->verdict));
    pms_json_object_end(j);
}

int pms_diff_write_json(FILE *out, const pms_diff_result *r)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "kind", r->counts ? "counts" : "profiles");
    if (!r->counts) {
        pms_json_kv_string(&j, "event", r->event ? r->event : "");
        pms_json_kv_string(&j, "sort", r->sort);
    }
    pms_json_kv_string(&j, "method", method_key(r->method));
    pms_json_kv_string(&j, "test", pms__diff_method_name(r));
    if (r->method == PMS_DIFF_TWO_PROPORTION) pms_json_kv_bool(&j, "continuity_correction", r->continuity);
    pms_json_kv_double(&j, "confidence", r->confidence);
    pms_json_kv_double(&j, "fdr", r->fdr);
    if (!r->counts) pms_json_kv_double(&j, "power", r->power);
    side(&j, "base", r->base_files, r->nbase_files, r->base_runs, r->base_total, r->counts);
    side(&j, "new", r->new_files, r->nnew_files, r->new_runs, r->new_total, r->counts);
    pms_json_kv_uint(&j, "tested", r->tested);
    pms_json_kv_uint(&j, "changed", r->changed);
    pms_json_key(&j, "notes");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < r->nnotes; i++) pms_json_string(&j, r->notes[i]);
    pms_json_array_end(&j);
    pms_json_key(&j, "rows");
    pms_json_array_begin(&j);
    pms_profile_report layout = {0};
    if (!r->counts) pms_profile_report_sort(&layout, r->sort); /* checked when the diff was made */
    for (size_t i = 0; i < r->nrows; i++) profile_row(&j, r, &layout, &r->rows[i]);
    for (size_t i = 0; i < r->ncount_rows; i++) count_row(&j, r, &r->count_rows[i]);
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return ferror(out) ? pms__fail(PMS_EIO, "a write failed") : PMS_OK;
}
