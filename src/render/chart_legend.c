/* Chart legends: one entry per series whose swatch shows what the series draws (a line with
 * its markers, a dot, a bar, a range, a band colour, the heat map's colour scale), laid out
 * in rows under the chart. */
#include "render/chart_impl.h"

#include "render/markup.h"

#include <math.h>
#include <string.h>

enum swatch { SW_LINE, SW_HOLLOW_LINE, SW_DOT, SW_SQUARE, SW_SUM, SW_RANGE, SW_HEAT };
enum { SWATCH_W = 22, HEAT_STEPS = 6, HEAT_STEP_W = 14 };

typedef struct flow {
    FILE *out; /* NULL: measuring */
    const chart_layout *L;
    double x, y;
    bool any;
} flow;

static double swatch_width(enum swatch k) { return k == SW_HEAT ? 0 : k == SW_DOT || k == SW_SQUARE ? 12 : SWATCH_W; }

static void draw_swatch(FILE *out, enum swatch k, const char *color, double x, double y)
{
    double mid = y + 6;
    switch (k) {
    case SW_LINE:
    case SW_HOLLOW_LINE:
        fprintf(out, "<line class=\"swatch\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                x, mid, x + SWATCH_W, mid, color);
        if (k == SW_HOLLOW_LINE)
            fprintf(out, "<circle class=\"swatch\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"white\" stroke=\"%s\" "
                         "stroke-width=\"1.2\"/>", x + SWATCH_W / 2.0, mid, color);
        break;
    case SW_DOT:
        fprintf(out, "<circle class=\"swatch\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x + 5, mid, color);
        break;
    case SW_SQUARE:
        fprintf(out, "<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y + 1, color);
        break;
    case SW_SUM:
        fprintf(out, "<line class=\"swatch\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>",
                x + 3, mid, x + SWATCH_W - 3, mid, color);
        break;
    case SW_RANGE:
        fprintf(out, "<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"10\" fill=\"%s\" "
                     "fill-opacity=\"0.25\"/>", x, y + 1, SWATCH_W, color);
        break;
    case SW_HEAT: break;
    }
}

/* One entry: swatch then label, on the current row or the next when it does not fit. */
static void entry(flow *f, enum swatch k, const char *kind, const char *color, const char *label, const char *value)
{
    double w = swatch_width(k) + 4 + pms__text_width(label, LEGEND_FONT) + 14;
    if (f->x > f->L->x0 && f->x + w > f->L->x1 + 14) f->x = f->L->x0, f->y += LEGEND_ROW;
    f->any = true;
    if (f->out) {
        fprintf(f->out, "<g class=\"legend-entry\" data-kind=\"%s\" data-color=\"%s\"", kind, color);
        pms__attr(f->out, "data-label", label);
        if (value) pms__attr(f->out, "data-value", value);
        fputc('>', f->out);
        draw_swatch(f->out, k, color, f->x, f->y);
        fprintf(f->out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\">", f->x + swatch_width(k) + 4, f->y + 10,
                LEGEND_FONT);
        pms__markup_escape(f->out, label);
        fputs("</text></g>\n", f->out);
    }
    f->x += w;
}

/* The heat map's colour scale: its name, the low end's number, steps of colour, the high end's. */
static void heat_scale(flow *f, const pms_chart *c)
{
    const chart_layout *L = f->L;
    char lo[32], hi[32], name[300];
    double step = (L->heat_hi - L->heat_lo) / HEAT_STEPS;
    pms__format_number(lo, sizeof lo, L->heat_lo, step);
    pms__format_number(hi, sizeof hi, L->heat_hi, step);
    snprintf(name, sizeof name, "%s:", c->heat_label);
    double wn = pms__text_width(name, LEGEND_FONT), wl = pms__text_width(lo, LEGEND_FONT);
    double w = wn + 6 + wl + 4 + HEAT_STEPS * HEAT_STEP_W + 4 + pms__text_width(hi, LEGEND_FONT) + 14;
    if (f->x > L->x0 && f->x + w > L->x1 + 14) f->x = L->x0, f->y += LEGEND_ROW;
    f->any = true;
    if (f->out) {
        FILE *out = f->out;
        fputs("<g class=\"legend-entry\" data-kind=\"heat\" data-color=\"#0000ff\"", out);
        pms__attr(out, "data-label", c->heat_label);
        fprintf(out, "><text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\">", f->x, f->y + 10, LEGEND_FONT);
        pms__markup_escape(out, name);
        fprintf(out, "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\">%s</text>", f->x + wn + 6, f->y + 10,
                LEGEND_FONT, lo);
        double x = f->x + wn + 6 + wl + 4;
        for (int k = 0; k <= HEAT_STEPS - 1; k++) {
            double v = L->heat_lo + step * (k + 0.5);
            char color[32];
            pms__heat_color(v, L->heat_lo, L->heat_hi, color, sizeof color);
            fprintf(out, "<rect class=\"swatch\" data-value=\"%.9g\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"10\" "
                         "fill=\"%s\" stroke=\"#ddd\" stroke-width=\"0.5\"/>", v, x + k * HEAT_STEP_W, f->y + 1,
                    HEAT_STEP_W, color);
        }
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\">%s</text></g>\n", x + HEAT_STEPS * HEAT_STEP_W + 4,
                f->y + 10, LEGEND_FONT, hi);
    }
    f->x += w;
}

/* The band's labels in order, the one for "none" (grey) last. */
static void band_entries(flow *f, const pms_chart *c)
{
    int top = -1;
    bool none = false;
    for (size_t i = 0; i < c->ntimeline; i++) {
        if (c->timeline[i] < 0) none = true;
        else if (c->timeline[i] > top) top = c->timeline[i];
    }
    for (int l = 0; l <= top + (none ? 1 : 0); l++) {
        int label = l <= top ? l : -1;
        bool present = false;
        for (size_t i = 0; i < c->ntimeline && !present; i++) present = (c->timeline[i] < 0 ? -1 : c->timeline[i]) == label;
        if (!present) continue;
        char color[8], text[300], value[16];
        pms__band_color(label, color);
        if (label < 0) snprintf(text, sizeof text, "%s", c->band_none);
        else snprintf(text, sizeof text, "%s %d", c->band_name, label);
        snprintf(value, sizeof value, "%d", label);
        entry(f, SW_SQUARE, "band", color, text, value);
    }
}

void pms__draw_legend(FILE *out, const pms_chart *c, const chart_layout *L, bool measure_only, double *height)
{
    flow f = {measure_only ? NULL : out, L, L->x0, L->legend_y, false};
    if (f.out) fputs("<g class=\"legend\">\n", f.out);
    if (c->timeline) band_entries(&f, c);
    for (size_t i = 0; i < c->nseries; i++) {
        const series *s = &c->series[i];
        if (!s->label) continue;
        if (s->kind == SERIES_LINE) entry(&f, pms__line_hollow(s) ? SW_HOLLOW_LINE : SW_LINE, "line", s->color, s->label, NULL);
        else if (s->kind == SERIES_POINTS) entry(&f, SW_DOT, "points", s->color, s->label, NULL);
        else entry(&f, SW_RANGE, "area", s->color, s->label, NULL);
    }
    for (size_t k = 0; k < c->ncomp; k++) {
        char color[8];
        pms__palette_color(k, color);
        entry(&f, SW_SQUARE, "bar", color, c->components[k], NULL);
    }
    if (c->sums_label) entry(&f, SW_SUM, "sum", "#000000", c->sums_label, NULL);
    if (c->heat) heat_scale(&f, c);
    if (f.out) fputs("</g>\n", f.out);
    *height = f.any ? f.y - L->legend_y + LEGEND_ROW : 0;
}
