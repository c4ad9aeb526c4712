/* Chart marks: every data point, bar part, range, heat map cell and band cell, each at its
 * place on the laid-out axes and each naming its data (data-i, data-cat, data-x, ...), so
 * that a reader's check can map it back to its number. */
#include "render/chart_impl.h"

#include "render/markup.h"

#include <math.h>
#include <string.h>

static void series_begin(FILE *out, const char *kind, const char *label, const char *color)
{
    fprintf(out, "<g class=\"series\" data-kind=\"%s\" data-color=\"%s\"", kind, color);
    pms__attr(out, "data-label", label ? label : "");
    fputs(">\n", out);
}

bool pms__line_hollow(const series *s) { return s->n <= 60; }

/* A marker's radius: 3 pixels when points are far apart, down to 1 when they crowd. */
static double marker_radius(const series *s, double plot_width)
{
    double r = 0.3 * plot_width / (double)(s->n ? s->n : 1);
    return r > 3 ? 3 : r < 1 ? 1 : r;
}

static uint64_t id_of(const series *s, size_t k) { return s->ids ? s->ids[k] : k; }

static void draw_points(FILE *out, const series *s, const chart_layout *L, bool hollow)
{
    double r = marker_radius(s, L->x1 - L->x0);
    for (size_t k = 0; k < s->n; k++) {
        if (!isfinite(s->x[k]) || !isfinite(s->y[k])) continue;
        fprintf(out, "<circle class=\"mark\" data-i=\"%llu\" data-x=\"%.17g\" data-y=\"%.17g\" cx=\"%.2f\" cy=\"%.2f\" "
                     "r=\"%.1f\"", (unsigned long long)id_of(s, k), s->x[k], s->y[k], pms__axis_pos(&L->x, s->x[k]),
                pms__axis_pos(&L->y, s->y[k]), r);
        if (hollow) fprintf(out, " fill=\"white\" stroke=\"%s\" stroke-width=\"1.2\"/>", s->color);
        else fprintf(out, " fill=\"%s\"/>", s->color);
    }
    fputc('\n', out);
}

/* A line: one polyline per run of finite points (a NaN breaks it), then its markers. */
static void draw_line(FILE *out, const series *s, const chart_layout *L)
{
    bool open = false;
    for (size_t k = 0; k < s->n; k++) {
        bool ok = isfinite(s->x[k]) && isfinite(s->y[k]);
        if (ok && !open) fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", s->color);
        if (!ok && open) fputs("\"/>\n", out);
        if (ok) fprintf(out, "%.2f,%.2f ", pms__axis_pos(&L->x, s->x[k]), pms__axis_pos(&L->y, s->y[k]));
        open = ok;
    }
    if (open) fputs("\"/>\n", out);
    draw_points(out, s, L, pms__line_hollow(s));
}

static void draw_ranges(FILE *out, const series *s, const chart_layout *L)
{
    for (size_t k = 0; k < s->n; k++) {
        double xa = pms__axis_pos(&L->x, s->x[k]), xb = pms__axis_pos(&L->x, s->x1[k]);
        double ya = pms__axis_pos(&L->y, s->hi[k]), yb = pms__axis_pos(&L->y, s->y[k]);
        if (!isfinite(xa + xb + ya + yb)) continue;
        fprintf(out, "<rect class=\"mark\" data-i=\"%llu\" data-x0=\"%.17g\" data-x1=\"%.17g\" data-lo=\"%.17g\" "
                     "data-hi=\"%.17g\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                     "fill-opacity=\"0.25\"/>", (unsigned long long)id_of(s, k), s->x[k], s->x1[k], s->y[k], s->hi[k],
                fmin(xa, xb), fmin(ya, yb), fabs(xb - xa), fabs(yb - ya), s->color);
    }
    fputc('\n', out);
}

/* Stacked bars, one series per component: positive parts up from 0, negative ones down. */
static void draw_bars(FILE *out, const pms_chart *c, const chart_layout *L)
{
    double slot = (L->x1 - L->x0) / (double)c->ncat, w = fmax(1, slot * 0.6);
    for (size_t k = 0; k < c->ncomp; k++) {
        char color[8];
        pms__palette_color(k, color);
        series_begin(out, "bar", c->components[k], color);
        for (size_t i = 0; i < c->ncat; i++) {
            const double *row = &c->bars[i * c->ncomp];
            double v = row[k], base = 0;
            if (!isfinite(v)) continue;
            for (size_t j = 0; j < k; j++)
                if (isfinite(row[j]) && (row[j] >= 0) == (v >= 0)) base += row[j];
            double ya = pms__axis_pos(&L->y, base), yb = pms__axis_pos(&L->y, base + v);
            fprintf(out, "<rect class=\"mark\" data-cat=\"%zu\" data-base=\"%.17g\" data-value=\"%.17g\" x=\"%.2f\" "
                         "y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>",
                    i, base, v, L->x0 + slot * ((double)i + 0.5) - w / 2, fmin(ya, yb), w, fabs(ya - yb), color);
            pms__markup_escape(out, c->categories[i]);
            fputs(", ", out);
            pms__markup_escape(out, c->components[k]);
            fprintf(out, ": %.4g</title></rect>\n", v);
        }
        fputs("</g>\n", out);
    }
    if (!c->sums_label) return;
    series_begin(out, "sum", c->sums_label, "#000000");
    for (size_t i = 0; i < c->ncat; i++) {
        double sum = 0;
        for (size_t k = 0; k < c->ncomp; k++)
            if (isfinite(c->bars[i * c->ncomp + k])) sum += c->bars[i * c->ncomp + k];
        double y = pms__axis_pos(&L->y, sum), x = L->x0 + slot * ((double)i + 0.5), half = fmin(slot * 0.45, w / 2 + 4);
        fprintf(out, "<line class=\"mark\" data-cat=\"%zu\" data-value=\"%.17g\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
                     "y2=\"%.2f\" stroke=\"#000000\" stroke-width=\"2\"><title>", i, sum, x - half, y, x + half, y);
        pms__markup_escape(out, c->categories[i]);
        fputs(", ", out);
        pms__markup_escape(out, c->sums_label);
        fprintf(out, ": %.4g</title></line>\n", sum);
    }
    fputs("</g>\n", out);
}

static void draw_heatmap(FILE *out, const pms_chart *c, const chart_layout *L)
{
    series_begin(out, "heat", c->heat_label, "#0000ff");
    fputs("<g shape-rendering=\"crispEdges\">", out);
    for (size_t r = 0; r < c->heat_rows; r++)
        for (size_t k = 0; k < c->heat_cols; k++) {
            double v = c->heat[r * c->heat_cols + k];
            if (!isfinite(v)) continue;
            double xa = pms__axis_pos(&L->x, (double)k), xb = pms__axis_pos(&L->x, (double)k + 1);
            double ya = pms__axis_pos(&L->y, (double)r + 1), yb = pms__axis_pos(&L->y, (double)r);
            char color[32];
            pms__heat_color(v, L->heat_lo, L->heat_hi, color, sizeof color);
            fprintf(out, "<rect class=\"mark\" data-row=\"%zu\" data-col=\"%zu\" data-value=\"%.9g\" x=\"%.2f\" y=\"%.2f\" "
                         "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>", r, k, v, xa, ya, xb - xa, yb - ya, color);
        }
    fputs("</g>\n</g>\n", out);
}

/* The band: one box per run of equal labels, cell i covering [i, i+1] on the x axis. */
static void draw_band(FILE *out, const pms_chart *c, const chart_layout *L)
{
    fprintf(out, "<rect class=\"band-area\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"none\" "
                 "stroke=\"#888\"/>\n", L->x0, L->band_y, L->x1 - L->x0, BAND_HEIGHT);
    series_begin(out, "band", c->band_name, "");
    fputs("<g shape-rendering=\"crispEdges\">", out);
    for (size_t i = 0; i < c->ntimeline;) {
        size_t j = i;
        while (j + 1 < c->ntimeline && c->timeline[j + 1] == c->timeline[i]) j++;
        int l = c->timeline[i] < 0 ? -1 : c->timeline[i];
        char color[8];
        pms__band_color(l, color);
        double xa = pms__axis_pos(&L->x, (double)i), xb = pms__axis_pos(&L->x, (double)j + 1);
        fprintf(out, "<rect class=\"mark\" data-first=\"%zu\" data-last=\"%zu\" data-label=\"%d\" x=\"%.2f\" y=\"%.1f\" "
                     "width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%zu-%zu: ", i, j, l, xa, L->band_y, xb - xa,
                BAND_HEIGHT, color, i, j);
        if (l < 0) pms__markup_escape(out, c->band_none);
        else {
            pms__markup_escape(out, c->band_name);
            fprintf(out, " %d", l);
        }
        fputs("</title></rect>", out);
        i = j + 1;
    }
    fputs("</g>\n</g>\n", out);
}

void pms__draw_marks(FILE *out, const pms_chart *c, const chart_layout *L)
{
    if (L->has_band) draw_band(out, c, L);
    if (!L->has_plot) return;
    if (!c->heat) pms__draw_grid(out, L);
    if (c->heat) draw_heatmap(out, c, L);
    if (c->bars) draw_bars(out, c, L);
    static const char *const kinds[] = {"line", "points", "area"};
    for (int pass = 0; pass < 2; pass++) /* ranges under the points and lines */
        for (size_t i = 0; i < c->nseries; i++) {
            const series *s = &c->series[i];
            if ((s->kind == SERIES_RANGES) != (pass == 0)) continue;
            series_begin(out, kinds[s->kind], s->label, s->color);
            if (s->kind == SERIES_LINE) draw_line(out, s, L);
            else if (s->kind == SERIES_POINTS) draw_points(out, s, L, false);
            else draw_ranges(out, s, L);
            fputs("</g>\n", out);
        }
}
