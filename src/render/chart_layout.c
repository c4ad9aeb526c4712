/* Laying a chart out: its axes from the data as drawn, its parts' places and its height. */
#include "render/chart_impl.h"

#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


typedef struct range {
    double lo, hi;
    bool pow2; /* every value a whole power of 2 */
} range;

static bool is_pow2(double v)
{
    int e;
    return v >= 1 && v == floor(v) && frexp(v, &e) == 0.5;
}

static void widen(range *r, double v)
{
    if (!isfinite(v)) return;
    r->lo = fmin(r->lo, v);
    r->hi = fmax(r->hi, v);
    r->pow2 = r->pow2 && is_pow2(v);
}

static void data_ranges(const pms_chart *c, range *rx, range *ry)
{
    *rx = *ry = (range){INFINITY, -INFINITY, true};
    for (size_t i = 0; i < c->nseries; i++) {
        const series *s = &c->series[i];
        for (size_t k = 0; k < s->n; k++) {
            if (s->kind != SERIES_RANGES && !(isfinite(s->x[k]) && isfinite(s->y[k]))) continue;
            widen(rx, s->x[k]);
            widen(ry, s->y[k]);
            if (s->kind == SERIES_RANGES) widen(rx, s->x1[k]), widen(ry, s->hi[k]);
        }
    }
    for (size_t i = 0; i < c->ncat; i++) { /* stacked bars: the positive parts' sum, the negative ones' */
        double up = 0, down = 0;
        for (size_t k = 0; k < c->ncomp; k++) {
            double v = c->bars[i * c->ncomp + k];
            if (isfinite(v)) *(v >= 0 ? &up : &down) += v;
        }
        widen(ry, up);
        widen(ry, down);
    }
}

/* The y axis of a plot from y0 (top) to y1 (bottom). */
static void plan_y(const pms_chart *c, chart_axis *a, double y0, double y1)
{
    memset(a, 0, sizeof *a);
    if (c->heat) {
        a->p0 = y1, a->p1 = y0;
        pms__axis_plan_cells(a, (double)c->heat_rows);
        return;
    }
    range rx, ry;
    data_ranges(c, &rx, &ry);
    a->p0 = y1 - PLOT_PAD, a->p1 = y0 + PLOT_PAD;
    pms__axis_plan(a, c->yscale, ry.lo, ry.hi, ry.pow2, c->ymin, c->ymax);
}

double pms__chart_left_margin(const pms_chart *c)
{
    if (!(c->nseries || c->bars || c->heat)) return 40;
    chart_axis a;
    plan_y(c, &a, 0, c->height);
    double widest = 0;
    char buf[48];
    for (size_t i = 0; i < a.nticks; i++) {
        pms__axis_tick_label(&a, i, buf, sizeof buf);
        widest = fmax(widest, pms__text_width(buf, TICK_FONT));
    }
    return fmax(56, ceil(widest) + 10 + (c->ylabel ? 22 : 4));
}

static bool whole_numbers(char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *end;
        if (!v[i][0] || (strtoull(v[i], &end, 10), *end) || v[i][0] == '-') return false;
    }
    return n > 0;
}

/* Category labels: whole and level when they fit their slots; numbers thinned to round
 * multiples; names turned 45 degrees, thinned to one per 16 pixels and cut to the room
 * below and to the left. Returns the height the labels need under the plot. */
static double plan_categories(const pms_chart *c, chart_layout *L)
{
    double slot = (L->x1 - L->x0) / (double)(c->ncat ? c->ncat : 1), widest = 0;
    for (size_t i = 0; i < c->ncat; i++) widest = fmax(widest, pms__text_width(c->categories[i], TICK_FONT));
    L->label_every = 1;
    L->label_numeric = whole_numbers(c->categories, c->ncat);
    if (L->label_numeric) {
        static const size_t steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            L->label_every = steps[k];
            if ((double)steps[k] * slot >= widest + 6) break;
        }
        return 4 + TICK_FONT + 4;
    }
    if (widest + 6 <= slot) return 4 + TICK_FONT + 4;
    L->label_angle = -45;
    L->label_every = (size_t)ceil(16 / slot);
    L->label_max_w = fmin(150, widest); /* each also no further left than the page's edge */
    return 8 + (L->label_max_w + TICK_FONT) * SQRT_HALF + 4;
}

static void plan_x(const pms_chart *c, chart_layout *L)
{
    chart_axis *a = &L->x;
    memset(a, 0, sizeof *a);
    a->p0 = L->x0, a->p1 = L->x1;
    if (c->heat || (c->timeline && !L->has_plot)) {
        pms__axis_plan_cells(a, (double)(c->heat ? c->heat_cols : c->ntimeline));
        L->xlabels_height = 4 + TICK_FONT + 4;
        return;
    }
    if (c->bars) {
        a->category = true;
        L->xlabels_height = plan_categories(c, L);
        return;
    }
    range rx, ry;
    data_ranges(c, &rx, &ry);
    a->p0 = L->x0 + PLOT_PAD, a->p1 = L->x1 - PLOT_PAD;
    pms__axis_plan(a, c->xscale, rx.lo, rx.hi, rx.pow2, c->xmin, c->xmax);
    L->xlabels_height = 4 + TICK_FONT + 4;
}

/* The heat map's colour scale: round values around the data. */
static void plan_heat(const pms_chart *c, chart_layout *L)
{
    double lo = INFINITY, hi = -INFINITY, step;
    for (size_t i = 0; i < c->heat_rows * c->heat_cols; i++)
        if (isfinite(c->heat[i])) lo = fmin(lo, c->heat[i]), hi = fmax(hi, c->heat[i]);
    if (!isfinite(lo)) lo = 0, hi = 1;
    pms__nice_range(&lo, &hi, &step, 4);
    L->heat_lo = lo, L->heat_hi = hi;
}

static int check(const pms_chart *c, const chart_layout *L)
{
    const char *t = c->title ? c->title : "";
    if (c->bars && (c->nseries || c->heat || c->timeline))
        return pms__fail(PMS_EINVAL, "chart '%s': stacked bars cannot share a chart with other data", t);
    if (c->timeline && L->has_plot && (!c->heat || c->heat_cols != c->ntimeline))
        return pms__fail(PMS_EINVAL, "chart '%s': a band above a plot needs a heat map of as many cells", t);
    bool x_numbers = (L->has_plot && !c->bars) || L->has_band;
    if (x_numbers && !(c->xunit && *c->xunit))
        return pms__fail(PMS_EINVAL, "chart '%s': the x axis has no unit", t);
    if (L->has_plot && !(c->yunit && *c->yunit)) return pms__fail(PMS_EINVAL, "chart '%s': the y axis has no unit", t);
    return PMS_OK;
}

int pms__chart_layout(const pms_chart *c, chart_layout *L, double top, double left, double width)
{
    memset(L, 0, sizeof *L);
    L->top = top;
    L->has_plot = c->nseries || c->bars || c->heat;
    L->has_band = c->timeline != NULL;
    int rc = check(c, L);
    if (rc) return rc;
    L->x0 = left, L->x1 = width - MARGIN_RIGHT;
    L->ylabel_x = left - pms__chart_left_margin(c) + 14; /* next to this chart's own tick labels */
    double y = top + TITLE_HEIGHT;
    if (L->has_band) {
        L->band_y = y;
        y += BAND_HEIGHT + (L->has_plot ? 4 + 9 + 8 : 4 + TICK_FONT + 4 + (c->xlabel ? 18 : 0));
    }
    if (L->has_plot) {
        L->plot_y0 = y, L->plot_y1 = y + c->height;
        plan_y(c, &L->y, L->plot_y0, L->plot_y1);
        plan_x(c, L);
        y = L->plot_y1 + L->xlabels_height + (c->xlabel ? 18 : 2);
    } else if (L->has_band) {
        plan_x(c, L);
    }
    if (c->heat) plan_heat(c, L);
    L->legend_y = y + 4;
    pms__draw_legend(NULL, c, L, true, &L->legend_height);
    L->height = L->legend_y + L->legend_height - top;
    return PMS_OK;
}
