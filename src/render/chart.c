/* SVG charts (see include/pmuscope/chart.h): the chart object and what it holds, and the
 * document the charts are stacked into. Layout: chart_layout.c; drawing: chart_axis.c,
 * chart_marks.c, chart_legend.c. */
#include "render/chart_impl.h"

#include "render/markup.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        series *s = &c->series[i];
        free(s->label);
        free(s->x);
        free(s->y);
        free(s->x1);
        free(s->hi);
        free(s->ids);
    }
    free(c->series);
    free_strings(c->categories, c->ncat);
    free_strings(c->components, c->ncomp);
    free(c->bars);
    free(c->sums_label);
    free(c->heat_label);
    free(c->heat);
    free(c->band_name);
    free(c->band_none);
    free(c->timeline);
    free(c->title);
    free(c->xlabel);
    free(c->ylabel);
    free(c->xunit);
    free(c->yunit);
    free(c);
}

void pms_chart_set_units(pms_chart *c, const char *xunit, const char *yunit)
{
    free(c->xunit);
    free(c->yunit);
    c->xunit = dup_or_null(xunit);
    c->yunit = dup_or_null(yunit);
}

void pms_chart_set_scale(pms_chart *c, pms_chart_scale x, pms_chart_scale y)
{
    c->xscale = x;
    c->yscale = y;
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
    if (!s->x || !s->y || (label && !s->label)) {
        free(s->x);
        free(s->y);
        free(s->label);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    if (color && color[0] == '#' && strlen(color) == 7) memcpy(s->color, color, 8);
    else pms__palette_color(c->nseries, s->color);
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

int pms_chart_add_ranges(pms_chart *c, const char *label, const double *x0, const double *x1, const double *lo,
                         const double *hi, size_t n, const char *color)
{
    int rc = add_series(c, SERIES_RANGES, label, x0, lo, n, color);
    if (rc) return rc;
    series *s = &c->series[c->nseries - 1];
    if (!(s->x1 = copy_doubles(x1, n)) || !(s->hi = copy_doubles(hi, n))) return pms__fail(PMS_ENOMEM, "out of memory");
    return PMS_OK;
}

int pms_chart_set_ids(pms_chart *c, const uint64_t *ids, size_t n)
{
    if (!c->nseries || c->series[c->nseries - 1].n != n)
        return pms__fail(PMS_EINVAL, "chart: ids for %zu points, the last series has %zu", n,
                         c->nseries ? c->series[c->nseries - 1].n : 0);
    series *s = &c->series[c->nseries - 1];
    free(s->ids);
    if (!(s->ids = malloc((n ? n : 1) * sizeof *s->ids))) return pms__fail(PMS_ENOMEM, "out of memory");
    if (n) memcpy(s->ids, ids, n * sizeof *ids);
    return PMS_OK;
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

int pms_chart_add_bar_sums(pms_chart *c, const char *label)
{
    free(c->sums_label);
    return (c->sums_label = strdup(label ? label : "sum")) ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
}

int pms_chart_add_heatmap(pms_chart *c, const char *label, const double *values, size_t rows, size_t cols)
{
    free(c->heat);
    free(c->heat_label);
    c->heat_label = strdup(label ? label : "value");
    if (!(c->heat = copy_doubles(values, rows * cols)) || !c->heat_label) return pms__fail(PMS_ENOMEM, "out of memory");
    c->heat_rows = rows;
    c->heat_cols = cols;
    return PMS_OK;
}

int pms_chart_add_timeline(pms_chart *c, const char *name, const char *none, const int *labels, size_t n)
{
    free(c->timeline);
    free(c->band_name);
    free(c->band_none);
    c->band_name = strdup(name ? name : "");
    c->band_none = strdup(none ? none : "none");
    c->timeline = malloc((n ? n : 1) * sizeof *c->timeline);
    if (!c->timeline || !c->band_name || !c->band_none) return pms__fail(PMS_ENOMEM, "out of memory");
    if (n) memcpy(c->timeline, labels, n * sizeof *labels);
    c->ntimeline = n;
    return PMS_OK;
}

static void write_chart(FILE *out, const pms_chart *c, const chart_layout *L)
{
    fputs("<g class=\"chart\"", out);
    pms__attr(out, "data-title", c->title ? c->title : "");
    fprintf(out, ">\n<text class=\"title\" x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", L->x0,
            L->top + 18);
    pms__markup_escape(out, c->title);
    fputs("</text>\n", out);
    pms__draw_marks(out, c, L);
    pms__draw_axes(out, c, L);
    double h;
    pms__draw_legend(out, c, L, false, &h);
    fputs("</g>\n", out);
}

int pms_chart_write_svg(pms_chart *const *charts, size_t ncharts, double width, FILE *out)
{
    if (width < 300) width = 300;
    chart_layout *L = calloc(ncharts ? ncharts : 1, sizeof *L);
    if (!L) return pms__fail(PMS_ENOMEM, "out of memory");
    double left = 0, total = 10;
    for (size_t i = 0; i < ncharts; i++) left = fmax(left, pms__chart_left_margin(charts[i]));
    int rc = PMS_OK;
    for (size_t i = 0; i < ncharts && rc == PMS_OK; i++) {
        rc = pms__chart_layout(charts[i], &L[i], total, left, width);
        total += L[i].height + 10;
    }
    if (rc == PMS_OK) {
        fprintf(out,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                width, total, width, total);
        for (size_t i = 0; i < ncharts; i++) write_chart(out, charts[i], &L[i]);
        fputs("</svg>\n", out);
        if (ferror(out)) rc = pms__fail(PMS_EIO, "cannot write the SVG output");
    }
    free(L);
    return rc;
}
