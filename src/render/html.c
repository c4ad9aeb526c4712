/* A self-contained HTML page: inline style, inline SVG, nothing fetched. */
#include "pmuscope/html.h"

#include "render/markup.h"
#include "util/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char style[] =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
    "h1{border-bottom:2px solid #4e79a7}h2{margin-top:2em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:1em 0;font-size:13px;display:block;overflow-x:auto;max-width:100%}"
    "th,td{border:1px solid #ddd;padding:3px 8px}th{background:#f3f3f3}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}pre{background:#f7f7f7;padding:8px;overflow-x:auto;font-size:12px}"
    "figure{margin:1em 0}figcaption{font-size:12px;color:#555}svg{max-width:100%;height:auto}";

void pms_html_begin(pms_html *h, FILE *out, const char *title)
{
    h->out = out;
    h->in_table = 0;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", out);
    /* Forbid every fetch: the page must stand alone. */
    fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n<title>", out);
    pms__markup_escape(out, title);
    fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>", style);
    pms__markup_escape(out, title);
    fputs("</h1>\n", out);
}

void pms_html_section(pms_html *h, const char *heading)
{
    fputs("<h2 id=\"", h->out);
    for (const char *p = heading; p && *p; p++)
        fputc(isalnum((unsigned char)*p) ? tolower((unsigned char)*p) : '-', h->out);
    fputs("\">", h->out);
    pms__markup_escape(h->out, heading);
    fputs("</h2>\n", h->out);
}

void pms_html_paragraph(pms_html *h, const char *text)
{
    fputs("<p>", h->out);
    pms__markup_escape(h->out, text);
    fputs("</p>\n", h->out);
}

void pms_html_pre(pms_html *h, const char *text)
{
    fputs("<pre>", h->out);
    pms__markup_escape(h->out, text);
    fputs("</pre>\n", h->out);
}

static int looks_numeric(const char *s)
{
    if (!s || !*s) return 0;
    char *end;
    strtod(s, &end);
    return end != s && (*end == '\0' || *end == '%');
}

void pms_html_table_begin(pms_html *h, const char *const *headers, size_t ncols)
{
    fputs("<table><thead><tr>", h->out);
    for (size_t i = 0; i < ncols; i++) {
        fputs("<th>", h->out);
        pms__markup_escape(h->out, headers[i]);
        fputs("</th>", h->out);
    }
    fputs("</tr></thead><tbody>\n", h->out);
    h->in_table = 1;
}

void pms_html_table_row(pms_html *h, const char *const *cells, size_t ncols)
{
    fputs("<tr>", h->out);
    for (size_t i = 0; i < ncols; i++) {
        fputs(looks_numeric(cells[i]) ? "<td class=\"num\">" : "<td>", h->out);
        pms__markup_escape(h->out, cells[i]);
        fputs("</td>", h->out);
    }
    fputs("</tr>\n", h->out);
}

void pms_html_table_end(pms_html *h)
{
    fputs("</tbody></table>\n", h->out);
    h->in_table = 0;
}

int pms_html_charts(pms_html *h, pms_chart *const *charts, size_t ncharts, const char *caption)
{
    fputs("<figure>\n", h->out);
    int rc = pms_chart_write_svg(charts, ncharts, 1000, h->out);
    if (caption) {
        fputs("<figcaption>", h->out);
        pms__markup_escape(h->out, caption);
        fputs("</figcaption>\n", h->out);
    }
    fputs("</figure>\n", h->out);
    return rc;
}

int pms_html_end(pms_html *h)
{
    fputs("</body></html>\n", h->out);
    if (fflush(h->out) != 0 || ferror(h->out)) return pms__fail(PMS_EIO, "cannot write the HTML page");
    return PMS_OK;
}
