/* A diff as a text table and as CSV (pmuscope/diff.h); the rows' names in report's columns. */
#include "diff/diff_internal.h"
#include "hotspot/profile_columns.h"
#include "pmuscope/error.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <math.h>
#include <string.h>

static int stream_status(FILE *out) { return ferror(out) ? pms__fail(PMS_EIO, "a write failed") : PMS_OK; }

/* "a.data" or "3 runs (a.data, b.data, c.data)" */
static void side_text(FILE *out, const char *label, const char *const *files, size_t nfiles, size_t runs)
{
    fprintf(out, "%s ", label);
    if (nfiles == 1 && runs <= 1) {
        fputs(files[0], out);
        return;
    }
    fprintf(out, "%zu runs (", runs);
    for (size_t i = 0; i < nfiles && i < 4; i++) fprintf(out, "%s%s", i ? ", " : "", files[i]);
    fputs(nfiles > 4 ? ", ...)" : ")", out);
}

static void header(FILE *out, const pms_diff_result *r)
{
    fputs("# pmuscope diff: ", out);
    if (r->counts) fputs("counts; ", out);
    else fprintf(out, "%s by %s; ", r->event ? r->event : "samples", r->sort);
    side_text(out, "BASE", r->base_files, r->nbase_files, r->base_runs);
    if (!r->counts) fprintf(out, ": %llu samples", (unsigned long long)r->base_total);
    fputs(", ", out);
    side_text(out, "NEW", r->new_files, r->nnew_files, r->new_runs);
    if (!r->counts) fprintf(out, ": %llu samples", (unsigned long long)r->new_total);
    fprintf(out, "\n# %s\n", pms__diff_method_name(r));
    fprintf(out, "# %g%% intervals; Benjamini-Hochberg q-values over %zu %s at FDR %g: %zu changed\n",
            100 * r->confidence, r->tested, r->counts ? "events" : "rows", r->fdr, r->changed);
    if (!r->counts)
        fprintf(out, "# detectable: the smallest change the row's test finds with %g%% power were it the only one\n",
                100 * r->power);
    for (size_t i = 0; i < r->nnotes; i++) fprintf(out, "# note: %s\n", r->notes[i]);
}

/* A p- or q-value: 4 significant digits, NaN as "-". */
static void pq(FILE *out, double v)
{
    if (isnan(v)) fprintf(out, "%9s  ", "-");
    else fprintf(out, "%9.3g  ", v);
}

static void profile_rows(FILE *out, const pms_diff_result *r, size_t shown)
{
    pms_profile_report layout = {0};
    pms_profile_report_sort(&layout, r->sort); /* the keys were checked when the diff was made */
    char level[32];
    snprintf(level, sizeof level, "%g%% interval pp", 100 * r->confidence);
    fprintf(out, "%7s %7s %10s  %-20s %9s  %9s  %-7s  %10s  ", "base %", "new %", "change pp", level, "p-value",
            "q-value", "verdict", "detectable");
    pms__profile_key_heads(out, &layout);
    fputc('\n', out);
    for (size_t i = 0; i < shown; i++) {
        const pms_diff_row *row = &r->rows[i];
        char interval[48];
        snprintf(interval, sizeof interval, "[%+.2f, %+.2f]", 100 * row->ci_low, 100 * row->ci_high);
        fprintf(out, "%7.2f %7.2f %+10.2f  %-20s ", 100 * row->base_share, 100 * row->new_share, 100 * row->delta,
                interval);
        pq(out, row->p_value);
        pq(out, row->q_value);
        fprintf(out, "%-7s  ", row->verdict == PMS_DIFF_NONE ? "" : pms__diff_verdict_name(row->verdict));
        if (isnan(row->detectable)) fprintf(out, "%10s  ", "-");
        else fprintf(out, "%10.2f  ", 100 * row->detectable);
        pms__profile_key_cells(out, &layout, &row->where);
        fputc('\n', out);
    }
    if (shown < r->nrows) {
        size_t changed = 0;
        for (size_t i = shown; i < r->nrows; i++) changed += r->rows[i].verdict != PMS_DIFF_NONE;
        fprintf(out, "# %zu more rows, %zu of them changed; a limit of 0 shows all\n", r->nrows - shown, changed);
    }
}

static void count_rows(FILE *out, const pms_diff_result *r, size_t shown)
{
    char level[32];
    snprintf(level, sizeof level, "%g%% interval", 100 * r->confidence);
    fprintf(out, "%14s %14s %9s  %-20s %9s  %9s  %-7s  %s\n", "base median", "new median", "ratio", level, "p-value",
            "q-value", "verdict", "event");
    for (size_t i = 0; i < shown; i++) {
        const pms_diff_count *c = &r->count_rows[i];
        char interval[48] = "-";
        if (!isnan(c->ci_low)) snprintf(interval, sizeof interval, "[%.4f, %.4f]", c->ci_low, c->ci_high);
        fprintf(out, "%14.6g %14.6g %9.4f  %-20s ", c->base_median, c->new_median, c->ratio, interval);
        pq(out, c->p_value);
        pq(out, c->q_value);
        fprintf(out, "%-7s  %s%s%s%s\n", c->verdict == PMS_DIFF_NONE ? "" : pms__diff_verdict_name(c->verdict),
                c->event, c->unit[0] ? " (" : "", c->unit, c->unit[0] ? ")" : "");
    }
    if (shown < r->ncount_rows) fprintf(out, "# %zu more events; a limit of 0 shows all\n", r->ncount_rows - shown);
}

int pms_diff_write_text(FILE *out, const pms_diff_result *r, size_t limit)
{
    header(out, r);
    size_t n = r->counts ? r->ncount_rows : r->nrows, shown = limit && limit < n ? limit : n;
    if (r->counts) count_rows(out, r, shown);
    else profile_rows(out, r, shown);
    return stream_status(out);
}

/* ",value" (17 digits), empty when not a number. */
static void csv_numbers(FILE *out, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) isnan(v[i]) ? fputc(',', out) : fprintf(out, ",%.17g", v[i]);
}

int pms_diff_write_csv(FILE *out, const pms_diff_result *r)
{
    if (r->counts) {
        fputs("event,unit,base_runs,new_runs,base_median,new_median,ratio,ci_low,ci_high,p_value,q_value,exact,verdict\n",
              out);
        for (size_t i = 0; i < r->ncount_rows; i++) {
            const pms_diff_count *c = &r->count_rows[i];
            pms_csv_cell(out, c->event, ",");
            fputc(',', out);
            pms_csv_cell(out, c->unit, ",");
            fprintf(out, ",%zu,%zu", c->base_runs, c->new_runs);
            const double v[] = {c->base_median, c->new_median, c->ratio, c->ci_low, c->ci_high, c->p_value, c->q_value};
            csv_numbers(out, v, sizeof v / sizeof v[0]);
            fprintf(out, ",%d,%s\n", c->exact, pms__diff_verdict_name(c->verdict));
        }
        return stream_status(out);
    }
    fputs("event,binary,function,ip,file_offset,symbol_offset,comm,base_samples,new_samples,base_total,new_total,"
          "base_share,new_share,delta,ci_low,ci_high,p_value,q_value,detectable,verdict\n", out);
    for (size_t i = 0; i < r->nrows; i++) {
        const pms_diff_row *row = &r->rows[i];
        pms_csv_cell(out, r->event ? r->event : "", ",");
        fputc(',', out);
        pms_csv_cell(out, row->where.binary, ",");
        fputc(',', out);
        pms_csv_cell(out, row->where.symbol ? row->where.symbol : "", ",");
        fprintf(out, ",%#llx,%#llx,%#llx,", (unsigned long long)row->where.ip, (unsigned long long)row->where.file_offset,
                (unsigned long long)row->where.symbol_offset);
        pms_csv_cell(out, row->where.comm ? row->where.comm : "", ",");
        fprintf(out, ",%llu,%llu,%llu,%llu", (unsigned long long)row->base_samples,
                (unsigned long long)row->new_samples, (unsigned long long)row->base_total,
                (unsigned long long)row->new_total);
        const double v[] = {row->base_share, row->new_share, row->delta,   row->ci_low,    row->ci_high,
                            row->p_value,    row->q_value,   row->detectable};
        csv_numbers(out, v, sizeof v / sizeof v[0]);
        fprintf(out, ",%s\n", pms__diff_verdict_name(row->verdict));
    }
    return stream_status(out);
}
