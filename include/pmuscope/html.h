/* pmuscope: one self-contained HTML page (inline CSS and SVG; no scripts, no external
 * fonts or requests) for `pmuscope report --html` and `pmuscope demo`. */
#ifndef PMUSCOPE_HTML_H
#define PMUSCOPE_HTML_H
#include "pmuscope/chart.h"
#include "pmuscope/table.h"
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_html {
    FILE *out;
    int in_table;
} pms_html;

/* Writes the document head and the page title. */
void pms_html_begin(pms_html *h, FILE *out, const char *title);
/* A section with its heading (an id is made from the heading for links). */
void pms_html_section(pms_html *h, const char *heading);
void pms_html_paragraph(pms_html *h, const char *text);
/* Preformatted text (terminal output, a model summary). */
void pms_html_pre(pms_html *h, const char *text);
/* A table: headers, then rows of cells; numeric-looking cells are right-aligned. */
void pms_html_table_begin(pms_html *h, const char *const *headers, size_t ncols);
void pms_html_table_row(pms_html *h, const char *const *cells, size_t ncols);
void pms_html_table_end(pms_html *h);
/* Charts stacked into one inline SVG figure with a caption. */
int pms_html_charts(pms_html *h, pms_chart *const *charts, size_t ncharts, const char *caption);
/* An SVG document written by --svg (an XML prolog, DOCTYPE or comments before
 * <svg> are dropped) inline as a figure with a caption (may be NULL). Fails with
 * PMS_EFORMAT naming the file when it holds no single <svg>...</svg> element or
 * when it holds a script (src/render/html_embed.c). */
int pms_html_svg_file(pms_html *h, const char *path, const char *caption);
/* A text file (terminal output) as preformatted text: its first max_lines lines (0: all),
 * at most 64 KiB of it. PMS_EIO if it cannot be read. */
int pms_html_text_file(pms_html *h, const char *path, size_t max_lines);
/* A table (as read by pms_table_read) with its header: at most max_rows rows
 * (0: all), then a line saying how many were left out. */
int pms_html_table_from(pms_html *h, const pms_table *t, size_t max_rows);
/* Closes the document; returns PMS_EIO if anything failed to write. */
int pms_html_end(pms_html *h);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
