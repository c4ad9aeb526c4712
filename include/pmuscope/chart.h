/* pmuscope: charts drawn as self-contained SVG (no scripts, no external fonts),
 * for --svg output and the HTML report. A chart collects series and is laid out
 * when written: axes are scaled to the data (or log-scaled), with ticks, labels
 * and a legend. Several charts can be stacked into one SVG document. */
#ifndef PMUSCOPE_CHART_H
#define PMUSCOPE_CHART_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_chart pms_chart;

pms_chart *pms_chart_new(const char *title, const char *xlabel, const char *ylabel);
void pms_chart_free(pms_chart *c);
void pms_chart_set_log(pms_chart *c, int log_x, int log_y);
/* Fixes an axis range instead of scaling to the data (NaN keeps that end automatic). */
void pms_chart_set_xrange(pms_chart *c, double min, double max);
void pms_chart_set_yrange(pms_chart *c, double min, double max);
void pms_chart_set_height(pms_chart *c, double pixels); /* plot area height, default 260 */

/* Series (data is copied). Colours are assigned in order unless given ("#rrggbb"). */
int pms_chart_add_line(pms_chart *c, const char *label, const double *x, const double *y, size_t n,
                       const char *color);
int pms_chart_add_points(pms_chart *c, const char *label, const double *x, const double *y, size_t n,
                         const char *color);
/* Stacked bars: one bar per category, components stacked bottom-up; values is
 * ncat x ncomp, row-major. */
int pms_chart_add_stacked_bars(pms_chart *c, const char *const *categories, size_t ncat,
                               const char *const *components, size_t ncomp, const double *values);
/* A heat map of rows x cols cells (row 0 at the bottom, as the y axis counts), values scaled to [min, max] of the data. */
int pms_chart_add_heatmap(pms_chart *c, const double *values, size_t rows, size_t cols);
/* A timeline band: one coloured cell per step, colour by label (labels < 0 drawn grey). */
int pms_chart_add_timeline(pms_chart *c, const int *labels, size_t n);

/* Writes the charts stacked vertically as one SVG document of the given width. */
int pms_chart_write_svg(pms_chart *const *charts, size_t ncharts, double width, FILE *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
