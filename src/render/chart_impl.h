/* Internal: the chart object and its layout, shared by the files of render/chart*.c.
 *
 * A chart is laid out before it is drawn (chart_layout.c): its axes get their ranges from
 * the data as drawn (stacked bars with their negative parts, heat map cells, every point),
 * their ticks at round values of their own scale, and the chart its height from what its
 * labels need. Drawing (chart_axis.c, chart_marks.c, chart_legend.c) then only places what
 * the layout decided. Every element says what it is (class and data-* attributes, see
 * docs/charts.md), so that a reader's check (tests/tools/svg_check.py) can parse it. */
#ifndef PMS_RENDER_CHART_IMPL_H
#define PMS_RENDER_CHART_IMPL_H
#include "pmuscope/chart.h"

#include <stdbool.h>
#include <stdint.h>

enum series_kind { SERIES_LINE, SERIES_POINTS, SERIES_RANGES };

typedef struct series {
    enum series_kind kind;
    char *label;
    char color[8];
    double *x, *y;     /* LINE, POINTS: the points (NaN breaks a line); RANGES: x0, lo */
    double *x1, *hi;   /* RANGES: x1, hi */
    uint64_t *ids;     /* each point's index in the caller's table (data-i), or NULL: 0.. */
    size_t n;
} series;

struct pms_chart {
    char *title, *xlabel, *ylabel, *xunit, *yunit;
    pms_chart_scale xscale, yscale;
    double xmin, xmax, ymin, ymax; /* NaN: from the data */
    double height;
    series *series;
    size_t nseries;
    /* stacked bars: positive parts stacked up from 0, negative ones down from it */
    char **categories, **components;
    size_t ncat, ncomp;
    double *bars;
    char *sums_label; /* non-NULL: each bar's sum marked */
    /* heat map */
    char *heat_label;
    double *heat;
    size_t heat_rows, heat_cols;
    /* timeline band */
    char *band_name, *band_none;
    int *timeline;
    size_t ntimeline;
};

/* ---- axes (chart_axis.c) ---- */

enum { MAX_TICKS = 64 };

typedef struct chart_axis {
    pms_chart_scale scale; /* LINEAR, LOG10 or LOG2 once laid out */
    bool category;         /* bars: one slot per category, no numbers */
    double min, max;       /* the range mapped onto [p0, p1] */
    double p0, p1;         /* pixels of min and max */
    double ticks[MAX_TICKS];
    size_t nticks;
    double step;           /* LINEAR: the ticks' step */
    bool cut;              /* LINEAR: the range leaves 0 out (a break mark is drawn) */
} chart_axis;

/* Sets the axis's scale, range and ticks from the data's [lo, hi] (and whether every value
 * is a power of 2, for AUTO_LOG). fixed_min/max (NaN: none) override the ends. */
void pms__axis_plan(chart_axis *a, pms_chart_scale scale, double lo, double hi, bool pow2, double fixed_min,
                    double fixed_max);
/* The same for a count of cells: range [0, n] exactly, ticks at round whole numbers. */
void pms__axis_plan_cells(chart_axis *a, double n);
double pms__axis_pos(const chart_axis *a, double v);
/* Rounds [lo, hi] out to whole steps of a 1-2-5 step giving about `target` steps. */
void pms__nice_range(double *lo, double *hi, double *step, int target);
/* v written exactly to the precision of `step`, with K, M, G for large values. */
void pms__format_number(char *buf, size_t len, double v, double step);
/* The label of tick i, exact for the tick's value (so that a reader reads the value). */
void pms__axis_tick_label(const chart_axis *a, size_t i, char *buf, size_t len);
const char *pms__scale_name(const chart_axis *a);

/* ---- text (chart_text.c) ---- */

/* The width in pixels of text set in the browser's sans-serif (DejaVu Sans metrics, a little
 * generous) at the given size. */
double pms__text_width(const char *s, double size);
/* How many bytes of s (whole characters) fit in max_w followed by an ellipsis; strlen(s)
 * when s fits whole. */
size_t pms__text_fit(const char *s, double size, double max_w);
/* Writes an attribute value escaped (name="value" with a leading space). */
void pms__attr(FILE *out, const char *name, const char *value);

/* ---- one chart's layout (chart_layout.c) ---- */

typedef struct chart_layout {
    chart_axis x, y;
    bool has_plot, has_band;
    double top, height;          /* the chart's place in the document */
    double x0, x1;               /* plot (and band) left and right */
    double ylabel_x;             /* the y axis label's place, right of the page's edge */
    double band_y;               /* band top */
    double plot_y0, plot_y1;     /* plot top and bottom */
    double xlabels_height;       /* room under the plot for the x tick or category labels */
    double label_angle;          /* category labels: 0 or -45 degrees */
    size_t label_every;          /* category labels: every n-th shown (numbers: the multiples of n) */
    bool label_numeric;          /* category labels are whole numbers (interval numbers) */
    double label_max_w;          /* category labels: cut to this width (0: whole) */
    double legend_y;
    double legend_height;
    double heat_lo, heat_hi;     /* the heat map's colour scale */
} chart_layout;

#define SQRT_HALF 0.70710678118654752 /* sin and cos of the category labels' 45 degrees */

enum { BAND_HEIGHT = 18, TITLE_HEIGHT = 28, MARGIN_RIGHT = 20, TICK_FONT = 10, LABEL_FONT = 11, LEGEND_FONT = 11,
       LEGEND_ROW = 18, PLOT_PAD = 8 };

/* Lays chart c out at `top` of the document, its plot from `left` to width - MARGIN_RIGHT. */
int pms__chart_layout(const pms_chart *c, chart_layout *L, double top, double left, double width);
/* The left margin the chart's y tick labels and y label need. */
double pms__chart_left_margin(const pms_chart *c);

/* ---- drawing ---- */

void pms__draw_grid(FILE *out, const chart_layout *L); /* under the marks: lines at the y ticks */
void pms__draw_axes(FILE *out, const pms_chart *c, const chart_layout *L);
void pms__draw_marks(FILE *out, const pms_chart *c, const chart_layout *L);
/* A line's markers are hollow rings while they are few enough to tell apart (and its
 * legend swatch shows them), else small dots. */
bool pms__line_hollow(const series *s);
void pms__draw_legend(FILE *out, const pms_chart *c, const chart_layout *L, bool measure_only, double *height);
/* The k-th colour of the palette (series, stacked-bar components), band label l's (l < 0: grey), heat value v's. */
void pms__palette_color(size_t k, char out[8]);
void pms__band_color(int l, char out[8]);
void pms__heat_color(double v, double lo, double hi, char *out, size_t len);

#endif
