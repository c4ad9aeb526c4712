/* One recording's hotspots as a page (tables and charts; see pmuscope/profile_html.h). */
#include "pmuscope/profile_html.h"
#include "pmuscope/chart.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/file.h"

#include <stdlib.h>
#include <string.h>

enum { CHART_ROWS = 10, MAX_COLS = 9 };

int pms_profile_html_begin(pms_profile_html *h, FILE *out, const char *input, double confidence, bool by_ip,
                           bool by_period, uint64_t lost)
{
    h->confidence = confidence;
    h->by_ip = by_ip;
    h->by_period = by_period;
    char text[1024];
    snprintf(text, sizeof text, "pmuscope report: %s", pms__base_name(input));
    pms_html_begin(&h->html, out, text);
    snprintf(text, sizeof text,
             "Where the samples of %s fell, by %s. Each share comes with its %g%% Wilson score interval: "
             "the run's true share lies in [low, high] with that confidence, treating every sample as an "
             "independent draw; rows whose intervals overlap are not reliably ordered. With call chains, a "
             "row's children share counts the samples in it or in what it calls, as perf report's Children, "
             "and rows are sorted by it.%s",
             input, by_ip ? "instruction" : "function", 100 * confidence,
             lost ? " Some samples were lost while recording (see below)." : "");
    pms_html_paragraph(&h->html, text);
    if (lost) {
        snprintf(text, sizeof text, "%llu samples were lost while recording.", (unsigned long long)lost);
        pms_html_paragraph(&h->html, text);
    }
    return PMS_OK;
}

/* function (or function+offset), as the text names it: an address without a symbol by its
 * offset in the binary, as perf; the chart cuts it to fit and keeps it whole in a tooltip */
static void row_name(const pms_profile_html *h, const pms_profile_row *r, char *buf, size_t n)
{
    if (h->by_ip && r->symbol) snprintf(buf, n, "%s+%#llx", r->symbol, (unsigned long long)r->symbol_offset);
    else if (r->symbol || h->by_ip) snprintf(buf, n, "%s", r->symbol ? r->symbol : "[unknown]");
    else snprintf(buf, n, "%#.16llx", (unsigned long long)r->file_offset);
}

/* The text report's columns: [children %, interval,] share (self) %, interval, samples,
 * binary, function[, ip, file offset]. */
static void table(pms_profile_html *h, const pms_profile_event_table *t, size_t shown)
{
    char level[64];
    snprintf(level, sizeof level, "%g%% interval", 100 * h->confidence);
    const char *head[MAX_COLS];
    size_t ncols = 0;
    if (t->children) head[ncols++] = "children %", head[ncols++] = level;
    head[ncols++] = t->children ? "self %" : "share %";
    head[ncols++] = level;
    head[ncols++] = "samples";
    head[ncols++] = "binary";
    head[ncols++] = h->by_ip ? "function+offset" : "function";
    if (h->by_ip) head[ncols++] = "ip", head[ncols++] = "file offset";
    pms_html_table_begin(&h->html, head, ncols);
    for (size_t i = 0; i < shown; i++) {
        const pms_profile_row *r = &t->rows[i];
        char cshare[32], cinterval[64], share[32], interval[64], samples[32], name[512], ip[32], off[32];
        const char *cells[MAX_COLS];
        size_t n = 0;
        if (t->children) {
            snprintf(cshare, sizeof cshare, "%.2f", 100 * r->children_share);
            snprintf(cinterval, sizeof cinterval, "[%.2f, %.2f]", 100 * r->children_ci_low, 100 * r->children_ci_high);
            cells[n++] = cshare, cells[n++] = cinterval;
        }
        snprintf(share, sizeof share, "%.2f", 100 * r->share);
        snprintf(interval, sizeof interval, "[%.2f, %.2f]", 100 * r->ci_low, 100 * r->ci_high);
        snprintf(samples, sizeof samples, "%llu", (unsigned long long)r->samples);
        row_name(h, r, name, sizeof name);
        cells[n++] = share, cells[n++] = interval, cells[n++] = samples, cells[n++] = pms__base_name(r->binary);
        cells[n++] = name;
        if (h->by_ip) {
            snprintf(ip, sizeof ip, "%#llx", (unsigned long long)r->ip);
            snprintf(off, sizeof off, "%#llx", (unsigned long long)r->file_offset);
            cells[n++] = ip, cells[n++] = off;
        }
        pms_html_table_row(&h->html, cells, n);
    }
    pms_html_table_end(&h->html);
}

/* Stacked bars of the share the rows are sorted by: up to the interval's low end, then up to
 * the share, then up to the high end, so that each bar shows its estimate within its interval. */
static int chart(pms_profile_html *h, const pms_profile_event_table *t, size_t n)
{
    char **names = calloc(n, sizeof *names);
    double *v = calloc(3 * n, sizeof *v);
    int rc = names && v ? PMS_OK : PMS_ENOMEM;
    for (size_t i = 0; i < n && rc == PMS_OK; i++) {
        const pms_profile_row *r = &t->rows[i];
        char name[512];
        row_name(h, r, name, sizeof name);
        if (!(names[i] = strdup(name))) rc = PMS_ENOMEM;
        double lo = t->children ? r->children_ci_low : r->ci_low, share = t->children ? r->children_share : r->share;
        double hi = t->children ? r->children_ci_high : r->ci_high;
        v[3 * i] = 100 * lo, v[3 * i + 1] = 100 * (share - lo), v[3 * i + 2] = 100 * (hi - share);
    }
    char title[256], caption[512];
    snprintf(title, sizeof title, "Top %zu %sshares of %s with their %g%% intervals", n, t->children ? "children " : "",
             t->event, 100 * h->confidence);
    const char *components[] = {"low end", "to estimate", "to high end"};
    pms_chart *c = rc == PMS_OK ? pms_chart_new(title, h->by_ip ? "instruction" : "function",
                                                t->children ? "children share" : "share")
                                : NULL;
    if (rc == PMS_OK && !c) rc = PMS_ENOMEM;
    if (rc == PMS_OK) pms_chart_set_units(c, NULL, h->by_period ? "% of the period" : "% of the samples");
    if (rc == PMS_OK) rc = pms_chart_add_stacked_bars(c, (const char *const *)names, n, components, 3, v);
    snprintf(caption, sizeof caption, "Each bar ends at the high end of its %g%% interval; the first segment ends "
                                      "at the low end, the second at the estimated share.", 100 * h->confidence);
    if (rc == PMS_OK) rc = pms_html_charts(&h->html, &c, 1, caption);
    pms_chart_free(c);
    for (size_t i = 0; names && i < n; i++) free(names[i]);
    free(names);
    free(v);
    return rc == PMS_ENOMEM ? pms__fail(PMS_ENOMEM, "out of memory for the page's chart") : rc;
}

int pms_profile_html_event(pms_profile_html *h, const pms_profile_event_table *t, size_t shown)
{
    char text[512];
    snprintf(text, sizeof text, "%s: %llu samples", t->event, (unsigned long long)t->samples);
    pms_html_section(&h->html, text);
    table(h, t, shown);
    if (shown < t->nrows) { /* as the text report says it */
        uint64_t rest = 0;
        double rest_share = 0;
        for (size_t i = shown; i < t->nrows; i++) rest += t->rows[i].samples, rest_share += t->rows[i].share;
        snprintf(text, sizeof text, "%zu more rows with %llu samples of their own (%.2f%%); a limit of 0 shows all.",
                 t->nrows - shown, (unsigned long long)rest, 100 * rest_share);
        pms_html_paragraph(&h->html, text);
    }
    return shown ? chart(h, t, shown < CHART_ROWS ? shown : CHART_ROWS) : PMS_OK;
}

int pms_profile_html_end(pms_profile_html *h) { return pms_html_end(&h->html); }
