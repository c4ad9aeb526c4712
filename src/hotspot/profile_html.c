/* One recording's hotspots as a page (tables and charts; see pmuscope/profile_html.h). */
#include "pmuscope/profile_html.h"
#include "pmuscope/chart.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/file.h"

#include <stdlib.h>
#include <string.h>

enum { CHART_ROWS = 10, LABEL_MAX = 17 };

int pms_profile_html_begin(pms_profile_html *h, FILE *out, const char *input, double confidence, bool by_ip,
                           uint64_t lost)
{
    h->confidence = confidence;
    h->by_ip = by_ip;
    char text[1024];
    snprintf(text, sizeof text, "pmuscope report: %s", pms__base_name(input));
    pms_html_begin(&h->html, out, text);
    snprintf(text, sizeof text,
             "Where the samples of %s fell, by %s. Each share comes with its %g%% Wilson score interval: "
             "the run's true share lies in [low, high] with that confidence, treating every sample as an "
             "independent draw; rows whose intervals overlap are not reliably ordered.%s",
             input, by_ip ? "instruction" : "function", 100 * confidence,
             lost ? " Some samples were lost while recording (see below)." : "");
    pms_html_paragraph(&h->html, text);
    if (lost) {
        snprintf(text, sizeof text, "%llu samples were lost while recording.", (unsigned long long)lost);
        pms_html_paragraph(&h->html, text);
    }
    return PMS_OK;
}

/* function (or function+offset); short: cut to fit under a bar, keeping the offset */
static void row_name(const pms_profile_html *h, const pms_profile_row *r, int shorten, char *buf, size_t n)
{
    const char *sym = r->symbol ? r->symbol : "[unknown]";
    char off[32] = "";
    if (h->by_ip && r->symbol) snprintf(off, sizeof off, "+%#llx", (unsigned long long)r->symbol_offset);
    int room = (int)LABEL_MAX - (int)strlen(off);
    if (shorten && (int)strlen(sym) > room)
        snprintf(buf, n, "%.*s..%s", room - 2, sym, off);
    else
        snprintf(buf, n, "%s%s", sym, off);
}

static void table(pms_profile_html *h, const pms_profile_row *rows, size_t shown)
{
    char level[64];
    snprintf(level, sizeof level, "%g%% interval", 100 * h->confidence);
    const char *head[] = {"share %", level, "samples", "binary", h->by_ip ? "function+offset" : "function",
                          "ip", "file offset"};
    size_t ncols = h->by_ip ? 7 : 5;
    pms_html_table_begin(&h->html, head, ncols);
    for (size_t i = 0; i < shown; i++) {
        const pms_profile_row *r = &rows[i];
        char share[32], interval[64], samples[32], name[512], ip[32], off[32];
        snprintf(share, sizeof share, "%.2f", 100 * r->share);
        snprintf(interval, sizeof interval, "[%.2f, %.2f]", 100 * r->ci_low, 100 * r->ci_high);
        snprintf(samples, sizeof samples, "%llu", (unsigned long long)r->samples);
        row_name(h, r, 0, name, sizeof name);
        snprintf(ip, sizeof ip, "%#llx", (unsigned long long)r->ip);
        snprintf(off, sizeof off, "%#llx", (unsigned long long)r->file_offset);
        const char *cells[] = {share, interval, samples, pms__base_name(r->binary), name, ip, off};
        pms_html_table_row(&h->html, cells, ncols);
    }
    pms_html_table_end(&h->html);
}

/* Stacked bars: the share up to the interval's low end, then up to the share, then up to
 * the high end, so that each bar shows its estimate within its interval. */
static int chart(pms_profile_html *h, const char *event, const pms_profile_row *rows, size_t n)
{
    char **names = calloc(n, sizeof *names);
    double *v = calloc(3 * n, sizeof *v);
    int rc = names && v ? PMS_OK : PMS_ENOMEM;
    for (size_t i = 0; i < n && rc == PMS_OK; i++) {
        char name[512];
        row_name(h, &rows[i], 1, name, sizeof name); /* the table has it in full */
        if (!(names[i] = strdup(name))) rc = PMS_ENOMEM;
        v[3 * i] = 100 * rows[i].ci_low;
        v[3 * i + 1] = 100 * (rows[i].share - rows[i].ci_low);
        v[3 * i + 2] = 100 * (rows[i].ci_high - rows[i].share);
    }
    char title[256], caption[512];
    snprintf(title, sizeof title, "Top %zu shares of %s with their %g%% intervals", n, event, 100 * h->confidence);
    const char *components[] = {"low end", "to estimate", "to high end"};
    pms_chart *c = rc == PMS_OK ? pms_chart_new(title, h->by_ip ? "instruction" : "function", "share %") : NULL;
    if (rc == PMS_OK && !c) rc = PMS_ENOMEM;
    if (rc == PMS_OK) pms_chart_set_units(c, NULL, "% of the samples");
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

int pms_profile_html_event(pms_profile_html *h, const char *event, uint64_t samples, const pms_profile_row *rows,
                      size_t nrows, size_t shown)
{
    char text[512];
    snprintf(text, sizeof text, "%s: %llu samples", event, (unsigned long long)samples);
    pms_html_section(&h->html, text);
    table(h, rows, shown);
    if (shown < nrows) {
        uint64_t rest = 0;
        for (size_t i = shown; i < nrows; i++) rest += rows[i].samples;
        snprintf(text, sizeof text, "%zu more rows with %llu samples (a limit of 0 shows all).", nrows - shown,
                 (unsigned long long)rest);
        pms_html_paragraph(&h->html, text);
    }
    return shown ? chart(h, event, rows, shown < CHART_ROWS ? shown : CHART_ROWS) : PMS_OK;
}

int pms_profile_html_end(pms_profile_html *h) { return pms_html_end(&h->html); }
