/* pmuscope: charts drawn as self-contained SVG (no scripts, no external fonts),
 * for --svg output and the HTML report. A chart collects series and is laid out
 * when written, so that it cannot mislead a reader: each axis spans the data as drawn
 * (stacked bars with their negative parts), its ticks are round values of its own scale
 * (1-2-5 steps, decades on a log axis, powers of 2 on a binary one) and its label names
 * a unit; a linear axis that leaves 0 out carries a break mark; every data point has a
 * marker; the legend shows each series as it is drawn (a line, a dot, a bar, a range, a
 * band colour, a colour scale); labels that would overlap are turned, thinned or cut,
 * with the whole name kept as a tooltip. Several charts can be stacked into one SVG
 * document. docs/charts.md describes the structure a program can check. */
#ifndef PMUSCOPE_CHART_H
#define PMUSCOPE_CHART_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_chart pms_chart;

typedef enum pms_chart_scale {
    PMS_CHART_LINEAR = 0,
    PMS_CHART_LOG10 = 1,    /* ticks at 1, 2, 5 x 10^k (every decade or more when the data span many) */
    PMS_CHART_LOG2 = 2,     /* ticks at powers of 2, labelled Ki, Mi, Gi: binary sizes and periods */
    PMS_CHART_AUTO_LOG = 3, /* LOG2 when every value is a power of 2, else LOG10 when the data
                             * span a factor of 10 or more, else LINEAR (values <= 0: LINEAR) */
} pms_chart_scale;

/* A chart with a title and axis labels (NULL: none). */
pms_chart *pms_chart_new(const char *title, const char *xlabel, const char *ylabel);
void pms_chart_free(pms_chart *c);
/* The units of the axes' numbers ("ns", "count", "%"); an axis that shows numbers needs
 * one (pms_chart_write_svg fails without). A category axis (bars) needs none. */
void pms_chart_set_units(pms_chart *c, const char *xunit, const char *yunit);
void pms_chart_set_scale(pms_chart *c, pms_chart_scale x, pms_chart_scale y);
/* Fixes an axis range instead of scaling to the data (NaN keeps that end automatic). */
void pms_chart_set_xrange(pms_chart *c, double min, double max);
void pms_chart_set_yrange(pms_chart *c, double min, double max);
void pms_chart_set_height(pms_chart *c, double pixels); /* plot area height, default 260 */

/* Series (data is copied). Colours are assigned in order unless given ("#rrggbb").
 * A line has a marker at every point; a NaN x or y breaks it (separate segments). */
int pms_chart_add_line(pms_chart *c, const char *label, const double *x, const double *y, size_t n,
                       const char *color);
int pms_chart_add_points(pms_chart *c, const char *label, const double *x, const double *y, size_t n,
                         const char *color);
/* Ranges of y over ranges of x, drawn as translucent boxes: [x0[i], x1[i]] x [lo[i], hi[i]]
 * (an error bound). */
int pms_chart_add_ranges(pms_chart *c, const char *label, const double *x0, const double *x1, const double *lo,
                         const double *hi, size_t n, const char *color);
/* The index of each point of the last series added in the caller's table (n as the
 * series'), written with the point so that a reader can find its row; default 0, 1, ... */
int pms_chart_set_ids(pms_chart *c, const uint64_t *ids, size_t n);
/* Stacked bars: one bar per category, components stacked in order, positive ones up from
 * 0 and negative ones down from it; values is ncat x ncomp, row-major. */
int pms_chart_add_stacked_bars(pms_chart *c, const char *const *categories, size_t ncat,
                               const char *const *components, size_t ncomp, const double *values);
/* Marks the sum of each bar's components (with negative parts it is not the bar's top),
 * named `label` in the legend. */
int pms_chart_add_bar_sums(pms_chart *c, const char *label);
/* A heat map of rows x cols cells: cell (r, k) covers [k, k+1] on x and [r, r+1] on y (row
 * 0 at the bottom); its colour scale, named `label`, runs over round values around the data. */
int pms_chart_add_heatmap(pms_chart *c, const char *label, const double *values, size_t rows, size_t cols);
/* A band of n cells above the plot (or alone), cell i covering [i, i+1] on the x axis,
 * coloured by label: `name` L in the legend for L >= 0, `none` for L < 0 (grey). */
int pms_chart_add_timeline(pms_chart *c, const char *name, const char *none, const int *labels, size_t n);

/* Writes the charts stacked vertically as one SVG document of the given width. PMS_EINVAL
 * names a chart whose numeric axis has no unit, or that mixes bars with other data. */
int pms_chart_write_svg(pms_chart *const *charts, size_t ncharts, double width, FILE *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
