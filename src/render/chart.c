/* SVG charts (see include/pmuscope/chart.h). Layout happens at write time: each
 * chart is a title, a plot area with axes, and a legend; charts stack vertically. */
#include "pmuscope/chart.h"

#include "render/markup.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum series_kind { SERIES_LINE, SERIES_POINTS };

typedef struct series {
    enum series_kind kind;
    char *label;
    char color[8];
    double *x, *y;
    size_t n;
} series;

struct pms_chart {
    char *title, *xlabel, *ylabel;
    int log_x, log_y;
    double xmin, xmax, ymin, ymax; /* NaN: from the data */
    double height;
    series *series;
    size_t nseries;
    /* stacked bars */
    char **categories, **components;
    size_t ncat, ncomp;
    double *bars;
    /* heat map */
    double *heat;
    size_t heat_rows, heat_cols;
    /* timeline */
    int *timeline;
    size_t ntimeline;
};

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])

enum { MARGIN_LEFT = 70, MARGIN_RIGHT = 20, TITLE_HEIGHT = 28, AXIS_HEIGHT = 42, LEGEND_ROW = 18,
       TIMELINE_HEIGHT = 28 };

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

pms_chart *pms_chart_new(const char *title, const char *xlabel, const char *ylabel)
{
    pms_chart *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->title = dup_or_null(title);
    c->xlabel = dup_or_null(xlabel);
    c->ylabel = dup_or_null(ylabel);
    c->xmin = c->xmax = c->ymin = c->ymax = NAN;
    c->height = 260;
    return c;
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) free(v[i]);
    free(v);
}

void pms_chart_free(pms_chart *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nseries; i++) {
        free(c->series[i].label);
        free(c->series[i].x);
        free(c->series[i].y);
    }
    free(c->series);
    free_strings(c->categories, c->ncat);
    free_strings(c->components, c->ncomp);
    free(c->bars);
    free(c->heat);
    free(c->timeline);
    free(c->title);
    free(c->xlabel);
    free(c->ylabel);
    free(c);
}

void pms_chart_set_log(pms_chart *c, int log_x, int log_y)
{
    c->log_x = log_x;
    c->log_y = log_y;
}

void pms_chart_set_xrange(pms_chart *c, double min, double max) { c->xmin = min; c->xmax = max; }
void pms_chart_set_yrange(pms_chart *c, double min, double max) { c->ymin = min; c->ymax = max; }
void pms_chart_set_height(pms_chart *c, double pixels) { if (pixels > 20) c->height = pixels; }

static double *copy_doubles(const double *v, size_t n)
{
    double *out = malloc((n ? n : 1) * sizeof *out);
    if (out && n) memcpy(out, v, n * sizeof *out);
    return out;
}

static int add_series(pms_chart *c, enum series_kind kind, const char *label, const double *x, const double *y,
                      size_t n, const char *color)
{
    series *grown = realloc(c->series, (c->nseries + 1) * sizeof *grown);
    if (!grown) return pms__fail(PMS_ENOMEM, "out of memory");
    c->series = grown;
    series *s = &c->series[c->nseries];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->label = dup_or_null(label);
    s->x = copy_doubles(x, n);
    s->y = copy_doubles(y, n);
    s->n = n;
    if (!s->x || !s->y) {
        free(s->x);
        free(s->y);
        free(s->label);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    snprintf(s->color, sizeof s->color, "%s",
             color && color[0] == '#' && strlen(color) == 7 ? color : palette[c->nseries % PALETTE_SIZE]);
    c->nseries++;
    return PMS_OK;
}

int pms_chart_add_line(pms_chart *c, const char *label, const double *x, const double *y, size_t n, const char *color)
{
    return add_series(c, SERIES_LINE, label, x, y, n, color);
}

int pms_chart_add_points(pms_chart *c, const char *label, const double *x, const double *y, size_t n,
                         const char *color)
{
    return add_series(c, SERIES_POINTS, label, x, y, n, color);
}

static char **copy_strings(const char *const *v, size_t n)
{
    char **out = calloc(n ? n : 1, sizeof *out);
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(out[i] = strdup(v[i] ? v[i] : ""))) {
            free_strings(out, i);
            return NULL;
        }
    return out;
}

int pms_chart_add_stacked_bars(pms_chart *c, const char *const *categories, size_t ncat,
                               const char *const *components, size_t ncomp, const double *values)
{
    if (c->bars) return pms__fail(PMS_EINVAL, "chart: only one set of stacked bars per chart");
    c->categories = copy_strings(categories, ncat);
    c->components = copy_strings(components, ncomp);
    c->bars = copy_doubles(values, ncat * ncomp);
    if (!c->categories || !c->components || !c->bars) return pms__fail(PMS_ENOMEM, "out of memory");
    c->ncat = ncat;
    c->ncomp = ncomp;
    return PMS_OK;
}

int pms_chart_add_heatmap(pms_chart *c, const double *values, size_t rows, size_t cols)
{
    free(c->heat);
    if (!(c->heat = copy_doubles(values, rows * cols))) return pms__fail(PMS_ENOMEM, "out of memory");
    c->heat_rows = rows;
    c->heat_cols = cols;
    return PMS_OK;
}

int pms_chart_add_timeline(pms_chart *c, const int *labels, size_t n)
{
    free(c->timeline);
    if (!(c->timeline = malloc((n ? n : 1) * sizeof *c->timeline))) return pms__fail(PMS_ENOMEM, "out of memory");
    if (n) memcpy(c->timeline, labels, n * sizeof *labels);
    c->ntimeline = n;
    return PMS_OK;
}

/* ---- layout helpers ---- */

/* A number for a tick label: 3 significant digits, K/M/G for large values. */
static void format_tick(char *buf, size_t len, double v)
{
    double a = fabs(v);
    if (a >= 1e9) snprintf(buf, len, "%.3gG", v / 1e9);
    else if (a >= 1e6) snprintf(buf, len, "%.3gM", v / 1e6);
    else if (a >= 1e4) snprintf(buf, len, "%.3gK", v / 1e3);
    else if (a >= 1e3) snprintf(buf, len, "%.0f", v); /* %g would write 8e+03 */
    else snprintf(buf, len, "%.3g", v);
}

typedef struct axis {
    double min, max;
    int log;
} axis;

static double axis_pos(const axis *a, double v, double p0, double p1)
{
    double lo = a->log ? log10(a->min) : a->min, hi = a->log ? log10(a->max) : a->max;
    double t = a->log ? log10(v) : v;
    if (hi <= lo) return (p0 + p1) / 2;
    return p0 + (t - lo) / (hi - lo) * (p1 - p0);
}

static double nice_step(double span, int target)
{
    double raw = span / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* Widens [min,max] to cover the data, keeps it valid for log scales and non-empty. */
static void axis_finish(axis *a, double fixed_min, double fixed_max)
{
    if (!isnan(fixed_min)) a->min = fixed_min;
    if (!isnan(fixed_max)) a->max = fixed_max;
    if (!isfinite(a->min) || !isfinite(a->max)) a->min = 0, a->max = 1;
    if (a->log) {
        if (a->min <= 0) a->min = a->max > 0 ? a->max / 1000 : 1;
        if (a->max <= a->min) a->max = a->min * 10;
    } else {
        if (a->max <= a->min) {
            double d = a->min == 0 ? 1 : fabs(a->min) * 0.1;
            a->min -= d;
            a->max += d;
        }
        /* Round the data ends out to whole tick steps so the data never touches the frame. */
        double step = nice_step(a->max - a->min, 6);
        if (isnan(fixed_min)) a->min = floor(a->min / step) * step;
        if (isnan(fixed_max)) a->max = ceil(a->max / step) * step;
    }
}

/* Writes the tick values of the axis into ticks (at most max); returns how many. */
static size_t axis_ticks(const axis *a, double *ticks, size_t max)
{
    size_t n = 0;
    if (a->log) {
        for (double d = pow(10, floor(log10(a->min))); d <= a->max * 1.0001 && n < max; d *= 10) {
            static const double mult[] = {1, 2, 5};
            int decades = (int)ceil(log10(a->max / a->min));
            for (int m = 0; m < (decades > 3 ? 1 : 3) && n < max; m++) {
                double v = d * mult[m];
                if (v >= a->min * 0.9999 && v <= a->max * 1.0001) ticks[n++] = v;
            }
        }
    } else {
        double step = nice_step(a->max - a->min, 6);
        for (double v = ceil(a->min / step) * step; v <= a->max + step * 1e-9 && n < max; v += step)
            ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    }
    return n;
}

static size_t legend_entries(const pms_chart *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nseries; i++) n += c->series[i].label != NULL;
    return n + (c->bars ? c->ncomp : 0);
}

static double chart_height(const pms_chart *c, double width)
{
    double h = TITLE_HEIGHT;
    if (c->nseries || c->bars || c->heat) h += c->height + AXIS_HEIGHT;
    if (c->timeline) h += TIMELINE_HEIGHT + (c->nseries || c->bars || c->heat ? 0 : 18);
    size_t per_row = (size_t)((width - MARGIN_LEFT) / 150);
    if (per_row < 1) per_row = 1;
    size_t entries = legend_entries(c);
    h += (double)((entries + per_row - 1) / per_row) * LEGEND_ROW + (entries ? 6 : 0);
    return h;
}

static void draw_axes(FILE *out, const axis *ax, const axis *ay, double x0, double y0, double x1, double y1,
                      const pms_chart *c, int x_ticks)
{
    double ticks[64];
    char buf[32];
    fprintf(out, "<rect class=\"plot-area\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#888\"/>\n", x0, y0, x1 - x0, y1 - y0);
    size_t n = axis_ticks(ay, ticks, 64);
    fprintf(out, "<g class=\"axis\" data-axis=\"y\" data-scale=\"%s\" data-unit=\"\">\n", ay->log ? "log10" : "linear");
    for (size_t i = 0; i < n; i++) {
        double y = axis_pos(ay, ticks[i], y1, y0);
        format_tick(buf, sizeof buf, ticks[i]);
        fprintf(out, "<g class=\"tick\" data-value=\"%.17g\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#eee\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%s</text></g>\n",
                ticks[i], x0, y, x1, y, x0 - 4, y + 3, buf);
    }
    if (c->ylabel) {
        fprintf(out, "<text class=\"axis-label\" transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                     "font-size=\"11\">", x0 - 52, (y0 + y1) / 2);
        pms__markup_escape(out, c->ylabel);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
    fprintf(out, "<g class=\"axis\" data-axis=\"x\" data-scale=\"%s\" data-unit=\"\">\n",
            !x_ticks ? "category" : ax->log ? "log10" : "linear");
    if (x_ticks) {
        n = axis_ticks(ax, ticks, 64);
        for (size_t i = 0; i < n; i++) {
            double x = axis_pos(ax, ticks[i], x0, x1);
            format_tick(buf, sizeof buf, ticks[i]);
            fprintf(out, "<g class=\"tick\" data-value=\"%.17g\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#888\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%s</text></g>\n",
                    ticks[i], x, y1, x, y1 + 4, x, y1 + 15, buf);
        }
    } else {
        double slot = (x1 - x0) / (double)c->ncat;
        for (size_t i = 0; i < c->ncat; i++) {
            fprintf(out, "<g class=\"tick\" data-cat=\"%zu\"><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                         "font-size=\"10\">", i, x0 + slot * ((double)i + 0.5), y1 + 14);
            pms__markup_escape(out, c->categories[i]);
            fputs("</text></g>\n", out);
        }
    }
    if (c->xlabel) {
        fprintf(out, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">",
                (x0 + x1) / 2, y1 + 32);
        pms__markup_escape(out, c->xlabel);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
}

/* The series group's attributes: what it draws, its label and colour (for a reader's check). */
static void series_begin(FILE *out, const char *kind, const char *label, const char *color)
{
    fprintf(out, "<g class=\"series\" data-kind=\"%s\" data-color=\"%s\" data-label=\"", kind, color);
    pms__markup_escape(out, label ? label : "");
    fputs("\">", out);
}

static void draw_series(FILE *out, const pms_chart *c, const axis *ax, const axis *ay, double x0, double y0,
                        double x1, double y1)
{
    for (size_t i = 0; i < c->nseries; i++) {
        const series *s = &c->series[i];
        if (s->kind == SERIES_LINE) {
            series_begin(out, "line", s->label, s->color);
            fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
                    s->color);
            for (size_t k = 0; k < s->n; k++) {
                if (!isfinite(s->x[k]) || !isfinite(s->y[k])) continue;
                if ((ax->log && s->x[k] <= 0) || (ay->log && s->y[k] <= 0)) continue;
                fprintf(out, "%.1f,%.1f ", axis_pos(ax, s->x[k], x0, x1), axis_pos(ay, s->y[k], y1, y0));
            }
            fputs("\"/></g>\n", out);
        } else {
            series_begin(out, "points", s->label, s->color);
            for (size_t k = 0; k < s->n; k++) {
                if (!isfinite(s->x[k]) || !isfinite(s->y[k])) continue;
                if ((ax->log && s->x[k] <= 0) || (ay->log && s->y[k] <= 0)) continue;
                fprintf(out, "<circle class=\"mark\" data-i=\"%zu\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>", k,
                        axis_pos(ax, s->x[k], x0, x1),
                        axis_pos(ay, s->y[k], y1, y0), s->color);
            }
            fputs("</g>\n", out);
        }
    }
}

static void draw_bars(FILE *out, const pms_chart *c, const axis *ay, double x0, double y0, double x1, double y1)
{
    (void)y0;
    double slot = (x1 - x0) / (double)c->ncat, w = slot * 0.6;
    for (size_t k = 0; k < c->ncomp; k++) {
        series_begin(out, "bar", c->components[k], palette[k % PALETTE_SIZE]);
        fputc('\n', out);
        for (size_t i = 0; i < c->ncat; i++) {
            double base = 0, bx = x0 + slot * (double)i + (slot - w) / 2;
            for (size_t j = 0; j < k; j++)
                if (isfinite(c->bars[i * c->ncomp + j])) base += c->bars[i * c->ncomp + j];
            double v = c->bars[i * c->ncomp + k];
            if (!isfinite(v)) continue;
            double ya = axis_pos(ay, base, y1, y0), yb = axis_pos(ay, base + v, y1, y0);
            fprintf(out, "<rect class=\"mark\" data-cat=\"%zu\" data-value=\"%.17g\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"%s\"><title>", i, v, bx, fmin(ya, yb), w, fabs(ya - yb), palette[k % PALETTE_SIZE]);
            pms__markup_escape(out, c->components[k]);
            fprintf(out, ": %.4g</title></rect>\n", v);
        }
        fputs("</g>\n", out);
    }
}

static void draw_heatmap(FILE *out, const pms_chart *c, double x0, double y0, double x1, double y1)
{
    size_t cells = c->heat_rows * c->heat_cols;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < cells; i++)
        if (isfinite(c->heat[i])) lo = fmin(lo, c->heat[i]), hi = fmax(hi, c->heat[i]);
    if (!(hi > lo)) hi = lo + 1;
    double cw = (x1 - x0) / (double)c->heat_cols, ch = (y1 - y0) / (double)c->heat_rows;
    fputs("<g class=\"series\" data-kind=\"heat\" data-color=\"#0000ff\" data-label=\"\" shape-rendering=\"crispEdges\">\n", out);
    for (size_t r = 0; r < c->heat_rows; r++)
        for (size_t k = 0; k < c->heat_cols; k++) {
            double v = c->heat[r * c->heat_cols + k];
            if (!isfinite(v)) continue;
            int shade = (int)lround(255 * (1 - (v - lo) / (hi - lo)));
            fprintf(out, "<rect class=\"mark\" data-row=\"%zu\" data-col=\"%zu\" data-value=\"%.17g\" x=\"%.2f\" y=\"%.2f\" "
                         "width=\"%.2f\" height=\"%.2f\" fill=\"rgb(%d,%d,255)\"/>", r, k, v,
                    x0 + cw * (double)k, y1 - ch * (double)(r + 1), cw + 0.05, ch + 0.05, shade, shade);
        }
    fputs("\n</g>\n", out);
}

static void draw_timeline(FILE *out, const pms_chart *c, double x0, double y, double x1)
{
    double w = (x1 - x0) / (double)(c->ntimeline ? c->ntimeline : 1);
    fputs("<rect class=\"band-area\" x=\"", out);
    fprintf(out, "%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"none\"/>\n", x0, y, x1 - x0, TIMELINE_HEIGHT - 8);
    fputs("<g class=\"series\" data-kind=\"band\" data-color=\"\" data-label=\"\" shape-rendering=\"crispEdges\">\n", out);
    for (size_t i = 0; i < c->ntimeline; i++) {
        int l = c->timeline[i];
        fprintf(out, "<rect class=\"mark\" data-first=\"%zu\" data-last=\"%zu\" data-label=\"%d\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%zu: %d</title></rect>",
                i, i, l, x0 + w * (double)i, y, w + 0.05, TIMELINE_HEIGHT - 8,
                l < 0 ? "#cccccc" : palette[(size_t)l % PALETTE_SIZE], i, l);
    }
    fputs("\n</g>\n", out);
}

static void draw_legend(FILE *out, const pms_chart *c, double x0, double y, double width)
{
    size_t per_row = (size_t)((width - MARGIN_LEFT) / 150), slot = 0;
    if (per_row < 1) per_row = 1;
    for (size_t i = 0; i < c->nseries + (c->bars ? c->ncomp : 0); i++) {
        const char *label, *color;
        if (i < c->nseries) {
            if (!c->series[i].label) continue;
            label = c->series[i].label;
            color = c->series[i].color;
        } else {
            label = c->components[i - c->nseries];
            color = palette[(i - c->nseries) % PALETTE_SIZE];
        }
        double lx = x0 + 150.0 * (double)(slot % per_row), ly = y + LEGEND_ROW * (double)(slot / per_row);
        /* every swatch is a square, whatever the series draws */
        fprintf(out, "<g class=\"legend-entry\" data-kind=\"bar\" data-color=\"%s\" data-label=\"", color);
        pms__markup_escape(out, label);
        fprintf(out, "\"><rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", lx, ly, color, lx + 14, ly + 9);
        pms__markup_escape(out, label);
        fputs("</text></g>\n", out);
        slot++;
    }
}

static void data_ranges(const pms_chart *c, axis *ax, axis *ay)
{
    ax->min = ay->min = INFINITY;
    ax->max = ay->max = -INFINITY;
    for (size_t i = 0; i < c->nseries; i++)
        for (size_t k = 0; k < c->series[i].n; k++) {
            double x = c->series[i].x[k], y = c->series[i].y[k];
            if (isfinite(x) && (!c->log_x || x > 0)) ax->min = fmin(ax->min, x), ax->max = fmax(ax->max, x);
            if (isfinite(y) && (!c->log_y || y > 0)) ay->min = fmin(ay->min, y), ay->max = fmax(ay->max, y);
        }
    if (c->bars) {
        ay->min = fmin(ay->min, 0);
        for (size_t i = 0; i < c->ncat; i++) {
            double sum = 0;
            for (size_t k = 0; k < c->ncomp; k++)
                if (isfinite(c->bars[i * c->ncomp + k])) sum += c->bars[i * c->ncomp + k];
            ay->max = fmax(ay->max, sum);
        }
    }
}

static void write_chart(FILE *out, const pms_chart *c, double top, double width)
{
    double y = top;
    fprintf(out, "<g class=\"chart\">\n<text class=\"title\" x=\"%d\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">",
            MARGIN_LEFT, y + 18);
    pms__markup_escape(out, c->title);
    fputs("</text>\n", out);
    y += TITLE_HEIGHT;
    double x0 = MARGIN_LEFT, x1 = width - MARGIN_RIGHT;
    if (c->timeline) {
        draw_timeline(out, c, x0, y, x1);
        y += TIMELINE_HEIGHT;
    }
    if (c->nseries || c->bars || c->heat) {
        axis ax = {.log = c->log_x}, ay = {.log = c->log_y};
        data_ranges(c, &ax, &ay);
        if (c->heat) ax.min = 0, ax.max = (double)c->heat_cols, ay.min = 0, ay.max = (double)c->heat_rows;
        axis_finish(&ax, c->xmin, c->xmax);
        axis_finish(&ay, c->ymin, c->ymax);
        double y0 = y, y1 = y + c->height;
        if (c->heat) draw_heatmap(out, c, x0, y0, x1, y1);
        draw_axes(out, &ax, &ay, x0, y0, x1, y1, c, !c->bars);
        if (c->bars) draw_bars(out, c, &ay, x0, y0, x1, y1);
        draw_series(out, c, &ax, &ay, x0, y0, x1, y1);
        y = y1 + AXIS_HEIGHT;
    } else if (c->timeline && c->xlabel) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">", (x0 + x1) / 2, y + 10);
        pms__markup_escape(out, c->xlabel);
        fputs("</text>\n", out);
        y += 18;
    }
    draw_legend(out, c, x0, y + 4, width);
    fputs("</g>\n", out);
}

int pms_chart_write_svg(pms_chart *const *charts, size_t ncharts, double width, FILE *out)
{
    if (width < 200) width = 200;
    double total = 10;
    for (size_t i = 0; i < ncharts; i++) total += chart_height(charts[i], width) + 10;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, total, width, total);
    double y = 10;
    for (size_t i = 0; i < ncharts; i++) {
        write_chart(out, charts[i], y, width);
        y += chart_height(charts[i], width) + 10;
    }
    fputs("</svg>\n", out);
    return ferror(out) ? pms__fail(PMS_EIO, "cannot write the SVG output") : PMS_OK;
}
