/* A diff as a self-contained page (pmuscope/diff.h): a two-sided bar chart of the changed
 * rows with their intervals (pmuscope/chart.h), then the table. */
#include "diff/diff_internal.h"
#include "pmuscope/chart.h"
#include "pmuscope/error.h"
#include "pmuscope/html.h"
#include "util/error.h"
#include "util/file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CHART_BARS = 20, LABEL_CHARS = 16 };

/* A row's name: its function (+offset by instruction; the binary for --sort dso or an
 * address without a function), after its comm where rows split by it; cut to LABEL_CHARS
 * for the chart (the table has it whole). */
static void row_label(const pms_diff_result *r, size_t i, bool cut, char *buf, size_t size)
{
    char whole[512];
    if (r->counts) {
        snprintf(whole, sizeof whole, "%s", r->count_rows[i].event);
    } else {
        const pms_profile_row *w = &r->rows[i].where;
        char name[400];
        if (w->symbol && w->ip) snprintf(name, sizeof name, "%s+%#llx", w->symbol, (unsigned long long)w->symbol_offset);
        else if (w->symbol) snprintf(name, sizeof name, "%s", w->symbol);
        else if (w->file_offset)
            snprintf(name, sizeof name, "%s+%#llx", pms__base_name(w->binary), (unsigned long long)w->file_offset);
        else snprintf(name, sizeof name, "%s", pms__base_name(w->binary));
        snprintf(whole, sizeof whole, "%s%s%s", w->comm ? w->comm : "", w->comm && name[0] ? " " : "", name);
    }
    if (cut && strlen(whole) > LABEL_CHARS) snprintf(buf, size, "%.*s..", LABEL_CHARS - 2, whole);
    else snprintf(buf, size, "%s", whole);
}

/* Row i's change and interval, in percentage points (profiles) or percent (counts). */
static void change_of(const pms_diff_result *r, size_t i, double *change, double *low, double *high)
{
    if (r->counts) {
        const pms_diff_count *c = &r->count_rows[i];
        *change = 100 * (c->ratio - 1), *low = 100 * (c->ci_low - 1), *high = 100 * (c->ci_high - 1);
    } else {
        const pms_diff_row *row = &r->rows[i];
        *change = 100 * row->delta, *low = 100 * row->ci_low, *high = 100 * row->ci_high;
    }
}

static bool changed(const pms_diff_result *r, size_t i)
{
    return (r->counts ? r->count_rows[i].verdict : r->rows[i].verdict) != PMS_DIFF_NONE;
}

/* Each changed row a bar from 0 in three parts: to its interval's near end (0 where the
 * interval holds 0), on to the change, on to the far end; a rise stacks up from 0, a fall
 * down from it, and the axis holds every end and 0 (pmuscope/chart.h). */
static int chart(pms_html *h, const pms_diff_result *r, size_t n)
{
    size_t bars = 0;
    for (size_t i = 0; i < n && bars < CHART_BARS; i++) bars += changed(r, i);
    if (!bars) {
        pms_html_paragraph(h, "No row changed significantly: there is nothing to chart.");
        return PMS_OK;
    }
    char **labels = calloc(bars, sizeof *labels);
    double *v = calloc(3 * bars, sizeof *v);
    int rc = labels && v ? PMS_OK : PMS_ENOMEM;
    for (size_t i = 0, b = 0; b < bars && rc == PMS_OK; i++) {
        if (!changed(r, i)) continue;
        char label[64];
        row_label(r, i, true, label, sizeof label);
        double change, low, high;
        change_of(r, i, &change, &low, &high);
        if (isnan(low)) low = high = change; /* a count without an interval */
        /* every part on the change's side of 0, so that the parts stack as one bar */
        double near = change >= 0 ? fmax(low, 0) : fmin(high, 0), far = change >= 0 ? high : low;
        v[3 * b] = near, v[3 * b + 1] = change - near, v[3 * b + 2] = far - change;
        if (!(labels[b++] = strdup(label))) rc = PMS_ENOMEM;
    }
    char title[256], caption[512];
    snprintf(title, sizeof title, "Changed %s, NEW against BASE, with %g%% intervals", r->counts ? "events" : "rows",
             100 * r->confidence);
    pms_chart *c = rc == PMS_OK ? pms_chart_new(title, r->counts ? "event" : "row",
                                                r->counts ? "change of the count" : "change of the share")
                                : NULL;
    if (rc == PMS_OK && !c) rc = PMS_ENOMEM;
    const char *parts[] = {"interval near end", "estimated change", "interval far end"};
    if (rc == PMS_OK) {
        pms_chart_set_units(c, NULL, r->counts ? "%" : "percentage points");
        rc = pms_chart_add_stacked_bars(c, (const char *const *)labels, bars, parts, 3, v);
    }
    if (rc == PMS_OK) {
        snprintf(caption, sizeof caption, "The %zu largest significant changes (q <= %g): rises above 0, falls below. "
                 "Each bar reaches its interval's far end; its first segment ends at the near end (at 0 where the "
                 "interval holds 0), its second at the estimated change.", bars, r->fdr);
        rc = pms_html_charts(h, &c, 1, caption);
    }
    pms_chart_free(c);
    for (size_t b = 0; labels && b < bars; b++) free(labels[b]);
    free(labels);
    free(v);
    return rc == PMS_ENOMEM ? pms__fail(PMS_ENOMEM, "out of memory for the page's chart") : rc;
}

static void number(char *buf, size_t size, const char *fmt, double v)
{
    if (isnan(v)) snprintf(buf, size, "-");
    else snprintf(buf, size, fmt, v);
}

static void table(pms_html *h, const pms_diff_result *r, size_t n)
{
    char level[48];
    snprintf(level, sizeof level, "%g%% interval", 100 * r->confidence);
    static const char *profile_head[] = {"verdict", "base %", "new %", "change pp", NULL, "p-value", "q-value",
                                         "detectable pp", "binary", "row"};
    static const char *count_head[] = {"verdict", "base median", "new median", "ratio", NULL, "p-value", "q-value",
                                       "unit", "event"};
    const char *head[10];
    size_t ncols = r->counts ? 9 : 10;
    memcpy(head, r->counts ? count_head : profile_head, ncols * sizeof *head);
    head[4] = level;
    pms_html_table_begin(h, head, ncols);
    for (size_t i = 0; i < n; i++) {
        char cells[10][512];
        const char *cell[10];
        double change, low, high;
        change_of(r, i, &change, &low, &high);
        if (r->counts) {
            const pms_diff_count *c = &r->count_rows[i];
            number(cells[1], 512, "%.6g", c->base_median);
            number(cells[2], 512, "%.6g", c->new_median);
            number(cells[3], 512, "%.4f", c->ratio);
            if (isnan(c->ci_low)) snprintf(cells[4], 512, "-");
            else snprintf(cells[4], 512, "[%.4f, %.4f]", c->ci_low, c->ci_high);
            number(cells[5], 512, "%.3g", c->p_value);
            number(cells[6], 512, "%.3g", c->q_value);
            snprintf(cells[7], 512, "%s", c->unit);
        } else {
            const pms_diff_row *row = &r->rows[i];
            number(cells[1], 512, "%.2f", 100 * row->base_share);
            number(cells[2], 512, "%.2f", 100 * row->new_share);
            number(cells[3], 512, "%+.2f", change);
            snprintf(cells[4], 512, "[%+.2f, %+.2f]", low, high);
            number(cells[5], 512, "%.3g", row->p_value);
            number(cells[6], 512, "%.3g", row->q_value);
            number(cells[7], 512, "%.2f", 100 * row->detectable);
            snprintf(cells[8], 512, "%s", pms__base_name(row->where.binary));
        }
        snprintf(cells[0], 512, "%s", changed(r, i) ? pms__diff_verdict_name(r->counts ? r->count_rows[i].verdict
                                                                                       : r->rows[i].verdict)
                                                    : "");
        row_label(r, i, false, cells[ncols - 1], 512);
        for (size_t k = 0; k < ncols; k++) cell[k] = cells[k];
        pms_html_table_row(h, cell, ncols);
    }
    pms_html_table_end(h);
}

int pms_diff_write_html(FILE *out, const pms_diff_result *r, size_t limit)
{
    pms_html h;
    char text[2048];
    snprintf(text, sizeof text, "pmuscope diff: %s", r->counts ? "counts" : r->event ? r->event : "samples");
    pms_html_begin(&h, out, text);
    snprintf(text, sizeof text,
             "BASE: %s%s (%zu run%s), NEW: %s%s (%zu run%s). Test: %s. %g%% intervals; Benjamini-Hochberg q-values "
             "over %zu %s at a false discovery rate of %g: %zu changed.",
             r->base_files[0], r->nbase_files > 1 ? " and others" : "", r->base_runs, r->base_runs == 1 ? "" : "s",
             r->new_files[0], r->nnew_files > 1 ? " and others" : "", r->new_runs, r->new_runs == 1 ? "" : "s",
             pms__diff_method_name(r), 100 * r->confidence, r->tested, r->counts ? "events" : "rows", r->fdr,
             r->changed);
    pms_html_paragraph(&h, text);
    for (size_t i = 0; i < r->nnotes; i++) pms_html_paragraph(&h, r->notes[i]);
    size_t n = r->counts ? r->ncount_rows : r->nrows, shown = limit && limit < n ? limit : n;
    int rc = chart(&h, r, n);
    if (rc == PMS_OK) {
        pms_html_section(&h, r->counts ? "Events" : "Rows");
        table(&h, r, shown);
        if (shown < n) {
            snprintf(text, sizeof text, "%zu more rows (a limit of 0 shows all).", n - shown);
            pms_html_paragraph(&h, text);
        }
    }
    int end = pms_html_end(&h);
    return rc ? rc : end;
}
