/* A report's tables as text, CSV, JSON and HTML (pmuscope/profile_report.h). */
#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/profile_html.h"
#include "pmuscope/profile_report.h"
#include "pmuscope/table.h"
#include "hotspot/profile_columns.h"
#include "util/error.h"
#include "util/file.h"

#include <string.h>

static pms_profile_key base_key(const pms_profile_report *rep) { return (pms_profile_key)(rep->key & 0xff); }
static bool by_thread(const pms_profile_report *rep)
{
    return (rep->key & (PMS_PROFILE_WITH_COMM | PMS_PROFILE_WITH_PID)) != 0;
}

static int stream_status(FILE *out)
{
    return ferror(out) ? pms__fail(PMS_EIO, "a write failed") : PMS_OK;
}

/* Under row `row`, its call paths as perf report -g folded prints them: "share% path". */
static void text_paths(FILE *out, const pms_profile_event_table *t, size_t row, size_t *next)
{
    while (*next < t->npaths && t->paths[*next].row < row) ++*next;
    for (; *next < t->npaths && t->paths[*next].row == row; ++*next)
        fprintf(out, "            %.2f%% %s\n", 100 * t->paths[*next].share, t->paths[*next].path);
}

static void text_table(FILE *out, const pms_profile_report *rep, const pms_profile_event_table *t)
{
    fprintf(out, "# %s: event %s, %llu samples", rep->input, t->event, (unsigned long long)t->samples);
    if (rep->lost) fprintf(out, ", %llu lost", (unsigned long long)rep->lost);
    fprintf(out, "; share of %s with its %g%% Wilson interval\n",
            rep->weight == PMS_WEIGHT_PERIOD ? "period" : "samples", 100 * rep->confidence);
    if (t->children) fprintf(out, "%8s  %-17s ", "children", "interval");
    fprintf(out, "%8s  %-17s %9s  ", t->children ? "self" : "share", "interval", "samples");
    pms__profile_key_heads(out, rep);
    fputc('\n', out);
    size_t shown = pms_profile_report_shown(rep, t), next_path = 0;
    for (size_t i = 0; i < shown; i++) {
        const pms_profile_row *r = &t->rows[i];
        char interval[40];
        if (t->children) {
            snprintf(interval, sizeof interval, "[%.2f, %.2f]", 100 * r->children_ci_low, 100 * r->children_ci_high);
            fprintf(out, "%7.2f%%  %-17s ", 100 * r->children_share, interval);
        }
        snprintf(interval, sizeof interval, "[%.2f, %.2f]", 100 * r->ci_low, 100 * r->ci_high);
        fprintf(out, "%7.2f%%  %-17s %9llu  ", 100 * r->share, interval, (unsigned long long)r->samples);
        pms__profile_key_cells(out, rep, r);
        fputc('\n', out);
        text_paths(out, t, i, &next_path);
    }
    if (shown < t->nrows) {
        uint64_t rest = 0;
        double rest_share = 0;
        for (size_t i = shown; i < t->nrows; i++) {
            rest += t->rows[i].samples;
            rest_share += t->rows[i].share;
        }
        fprintf(out, "# %zu more rows with %llu samples (%.2f%%); a limit of 0 shows all\n", t->nrows - shown,
                (unsigned long long)rest, 100 * rest_share);
    }
}

int pms_profile_report_write_text(FILE *out, const pms_profile_report *rep)
{
    for (size_t i = 0; i < rep->ntables; i++) text_table(out, rep, &rep->tables[i]);
    if (!rep->ntables) fprintf(out, "# %s: no samples\n", rep->input);
    return stream_status(out);
}

static bool any_children(const pms_profile_report *rep)
{
    for (size_t i = 0; i < rep->ntables; i++)
        if (rep->tables[i].children) return true;
    return false;
}

static void csv_table(FILE *out, const pms_profile_report *rep, const pms_profile_event_table *t, bool children)
{
    for (size_t i = 0; i < pms_profile_report_shown(rep, t); i++) {
        const pms_profile_row *r = &t->rows[i];
        pms_csv_cell(out, t->event, ",");
        fputc(',', out);
        pms_csv_cell(out, r->binary, ",");
        fputc(',', out);
        pms_csv_cell(out, r->symbol ? r->symbol : "", ",");
        fprintf(out, ",%#llx,%#llx,%#llx,%llu,%llu,%.9f,%.9f,%.9f", (unsigned long long)r->ip,
                (unsigned long long)r->file_offset, (unsigned long long)r->symbol_offset,
                (unsigned long long)r->samples, (unsigned long long)r->period, r->share, r->ci_low, r->ci_high);
        if (by_thread(rep)) {
            char buf[16];
            fputc(',', out);
            pms_csv_cell(out, (rep->key & PMS_PROFILE_WITH_COMM) ? pms__profile_thread_name(r->comm, r->tid, buf, sizeof buf) : "",
                         ",");
            fprintf(out, ",%d,", pms__profile_tid(r->tid));
            pms_csv_cell(out,
                         (rep->key & PMS_PROFILE_WITH_PID) ? pms__profile_thread_name(r->thread_comm, r->tid, buf, sizeof buf) : "",
                         ",");
        }
        if (children) /* zero in a table without them */
            fprintf(out, ",%llu,%llu,%.9f,%.9f,%.9f", (unsigned long long)r->children_samples,
                    (unsigned long long)r->children_period, r->children_share, r->children_ci_low, r->children_ci_high);
        fputc('\n', out);
    }
}

int pms_profile_report_write_csv(FILE *out, const pms_profile_report *rep)
{
    bool children = any_children(rep);
    fprintf(out, "event,binary,function,ip,file_offset,symbol_offset,samples,period,share,ci_low,ci_high%s%s\n",
            by_thread(rep) ? ",comm,pid,thread_comm" : "",
            children ? ",children_samples,children_period,children_share,children_ci_low,children_ci_high" : "");
    for (size_t i = 0; i < rep->ntables; i++) csv_table(out, rep, &rep->tables[i], children);
    return stream_status(out);
}

static void json_paths(pms_json *j, const pms_profile_event_table *t, size_t row, size_t *next)
{
    pms_json_key(j, "paths");
    pms_json_array_begin(j);
    while (*next < t->npaths && t->paths[*next].row < row) ++*next;
    for (; *next < t->npaths && t->paths[*next].row == row; ++*next) {
        const pms_profile_path *q = &t->paths[*next];
        pms_json_object_begin(j);
        pms_json_kv_string(j, "path", q->path);
        pms_json_kv_uint(j, "samples", q->samples);
        pms_json_kv_uint(j, "period", q->period);
        pms_json_kv_double(j, "share", q->share);
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}

/* Row k of t, with its call paths from *next_path on when the report has them. */
static void json_row(pms_json *j, const pms_profile_report *rep, const pms_profile_event_table *t, size_t k,
                     size_t *next_path)
{
    const pms_profile_row *r = &t->rows[k];
    pms_json_object_begin(j);
    pms__profile_json_keys(j, rep, r);
    pms_json_kv_uint(j, "samples", r->samples);
    pms_json_kv_uint(j, "period", r->period);
    pms_json_kv_double(j, "share", r->share);
    pms_json_kv_double(j, "ci_low", r->ci_low);
    pms_json_kv_double(j, "ci_high", r->ci_high);
    if (t->children) {
        pms_json_kv_uint(j, "children_samples", r->children_samples);
        pms_json_kv_uint(j, "children_period", r->children_period);
        pms_json_kv_double(j, "children_share", r->children_share);
        pms_json_kv_double(j, "children_ci_low", r->children_ci_low);
        pms_json_kv_double(j, "children_ci_high", r->children_ci_high);
    }
    if (rep->call_paths) json_paths(j, t, k, next_path);
    pms_json_object_end(j);
}

int pms_profile_report_write_json(FILE *out, const pms_profile_report *rep)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "file", rep->input);
    pms_json_kv_string(&j, "sort", rep->sort ? rep->sort : "sym");
    pms_json_kv_string(&j, "weight", rep->weight == PMS_WEIGHT_PERIOD ? "period" : "samples");
    pms_json_kv_double(&j, "confidence", rep->confidence);
    pms_json_kv_uint(&j, "lost", rep->lost);
    pms_json_key(&j, "events");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < rep->ntables; i++) {
        const pms_profile_event_table *t = &rep->tables[i];
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "event", t->event);
        pms_json_kv_uint(&j, "samples", t->samples);
        pms_json_key(&j, "rows");
        pms_json_array_begin(&j);
        size_t next_path = 0;
        for (size_t k = 0; k < pms_profile_report_shown(rep, t); k++) json_row(&j, rep, t, k, &next_path);
        pms_json_array_end(&j);
        pms_json_kv_uint(&j, "rows_total", t->nrows);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return stream_status(out);
}

int pms_profile_report_write_html(FILE *out, const pms_profile_report *rep)
{
    pms_profile_html page;
    int rc = pms_profile_html_begin(&page, out, rep->input, rep->confidence, base_key(rep) == PMS_PROFILE_BY_IP,
                                    rep->weight == PMS_WEIGHT_PERIOD, rep->lost);
    for (size_t i = 0; i < rep->ntables && rc == PMS_OK; i++)
        rc = pms_profile_html_event(&page, &rep->tables[i], pms_profile_report_shown(rep, &rep->tables[i]));
    int end = pms_profile_html_end(&page);
    return rc ? rc : end;
}
