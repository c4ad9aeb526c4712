/* Chart axes: the scale and range an axis gets from its data, its ticks at round values of
 * that scale, labels that say those values exactly, and the axis as drawn (ticks, labels,
 * a break mark where a linear axis leaves 0 out, category labels turned or thinned so that
 * none overlaps another). */
#include "render/chart_impl.h"

#include "render/markup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double scaled(pms_chart_scale s, double v)
{
    return s == PMS_CHART_LOG10 ? log10(v) : s == PMS_CHART_LOG2 ? log2(v) : v;
}

double pms__axis_pos(const chart_axis *a, double v)
{
    double lo = scaled(a->scale, a->min), hi = scaled(a->scale, a->max);
    if (!(hi > lo)) return (a->p0 + a->p1) / 2;
    return a->p0 + (scaled(a->scale, v) - lo) / (hi - lo) * (a->p1 - a->p0);
}

const char *pms__scale_name(const chart_axis *a)
{
    if (a->category) return "category";
    return a->scale == PMS_CHART_LOG10 ? "log10" : a->scale == PMS_CHART_LOG2 ? "log2" : "linear";
}

static double nice_step(double raw, int level);


/* v written with `decimals` digits after the point, trailing zeros cut. */
static void fixed(char *buf, size_t len, double v, int decimals, const char *suffix)
{
    snprintf(buf, len, "%.*f", decimals < 0 ? 0 : decimals, v);
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (buf[n - 1] == '0') buf[--n] = '\0';
        if (buf[n - 1] == '.') buf[--n] = '\0';
    }
    if (strcmp(buf, "-0") == 0) strcpy(buf, "0");
    if (strcmp(buf, "0") != 0) strncat(buf, suffix, len - strlen(buf) - 1); /* 0, not 0K */
}

/* A round number exactly: K, M, G for 10^4 and up (in steps of `step`, which sets the digits). */
static void decimal_label(char *buf, size_t len, double v, double step, double largest)
{
    static const struct { double f; const char *s; } units[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e4, "K"}};
    double f = 1;
    const char *suffix = "";
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (fabs(largest) >= units[i].f) {
            f = units[i].f == 1e4 ? 1e3 : units[i].f;
            suffix = units[i].s;
            break;
        }
    int decimals = step > 0 ? (int)ceil(-log10(step / f) - 1e-9) : 0;
    if (decimals > 12) decimals = 12;
    fixed(buf, len, v / f, decimals, suffix);
}

static void binary_label(char *buf, size_t len, double v)
{
    static const char *const suffix[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    int k = 0;
    while (k < 5 && v >= 1024) v /= 1024, k++;
    fixed(buf, len, v, v < 1 ? 12 : 0, suffix[k]);
}

void pms__format_number(char *buf, size_t len, double v, double step) { decimal_label(buf, len, v, step, v); }

void pms__nice_range(double *lo, double *hi, double *step, int target)
{
    if (!(*hi > *lo)) *hi = *lo + 1;
    if (*lo > 0 && *lo <= *hi - *lo) *lo = 0;
    *step = nice_step((*hi - *lo) / target, 0);
    *lo = floor(*lo / *step + 1e-9) * *step;
    *hi = ceil(*hi / *step - 1e-9) * *step;
}

void pms__axis_tick_label(const chart_axis *a, size_t i, char *buf, size_t len)
{
    double v = a->ticks[i];
    if (a->scale == PMS_CHART_LOG2) binary_label(buf, len, v);
    else if (a->scale == PMS_CHART_LOG10) decimal_label(buf, len, v, v / 10, v);
    else decimal_label(buf, len, v, a->step, fmax(fabs(a->ticks[0]), fabs(a->ticks[a->nticks ? a->nticks - 1 : 0])));
}

/* Whether n tick labels fit along the axis without touching: widths across a horizontal
 * axis, the font's height along a vertical one. */
static bool ticks_fit(const chart_axis *a, bool horizontal)
{
    if (a->nticks < 2) return true;
    double widest = 0;
    char buf[48];
    for (size_t i = 0; i < a->nticks; i++) {
        pms__axis_tick_label(a, i, buf, sizeof buf);
        widest = fmax(widest, horizontal ? pms__text_width(buf, TICK_FONT) : TICK_FONT * 1.3);
    }
    double spacing = INFINITY;
    for (size_t i = 1; i < a->nticks; i++) spacing = fmin(spacing, fabs(pms__axis_pos(a, a->ticks[i]) - pms__axis_pos(a, a->ticks[i - 1])));
    return spacing >= widest + (horizontal ? 8 : 6);
}

static double nice_step(double raw, int level)
{
    /* level 0: the 1-2-5 step at or above raw; each level up, the next one */
    static const double f[] = {1, 2, 5};
    double mag = pow(10, floor(log10(raw)));
    int k = 0;
    while (f[k % 3] * pow(10, k / 3) * mag < raw * (1 - 1e-9)) k++;
    k += level;
    return f[k % 3] * pow(10, k / 3) * mag;
}

static void linear_ticks(chart_axis *a, double lo, double hi, double fixed_min, double fixed_max, int level,
                         int target)
{
    a->step = nice_step((hi - lo) / target, level);
    a->min = isnan(fixed_min) ? floor(lo / a->step + 1e-9) * a->step : fixed_min;
    a->max = isnan(fixed_max) ? ceil(hi / a->step - 1e-9) * a->step : fixed_max;
    a->nticks = 0;
    for (double k = ceil(a->min / a->step - 1e-9); a->nticks < MAX_TICKS; k++) {
        double v = k * a->step;
        if (v > a->max + a->step * 1e-9) break;
        a->ticks[a->nticks++] = fabs(v) < a->step * 1e-9 ? 0 : v;
    }
}

static void plan_linear(chart_axis *a, double lo, double hi, double fixed_min, double fixed_max, bool horizontal)
{
    a->scale = PMS_CHART_LINEAR;
    if (hi - lo <= 1e-9 * fmax(1, fmax(fabs(lo), fabs(hi)))) { /* one value (up to rounding noise) */
        lo = hi = (lo + hi) / 2;
        if (fabs(lo) < 1e-9) lo = hi = 0;
    }
    if (hi <= lo) {
        double d = lo == 0 ? 1 : fabs(lo) * 0.1;
        lo -= d, hi += d;
    }
    /* the ends round out to whole steps, 0 among them when the data come within a step of
     * it: else the axis is cut (and marked so) */
    double length = fabs(a->p1 - a->p0);
    int target = (int)fmax(3, fmin(horizontal ? 10 : 8, length / (horizontal ? 70 : 40)));
    for (int level = 0; level < 12; level++) {
        linear_ticks(a, lo, hi, fixed_min, fixed_max, level, target);
        if (ticks_fit(a, horizontal)) break;
    }
    a->cut = !(a->min <= 0 && a->max >= 0);
}

/* Log10 ticks: the multiples of each decade in `mult` (every `stride`-th decade when mult
 * is {1}), and the range from the last one at or below lo to the first at or above hi. */
static void log10_ticks(chart_axis *a, double lo, double hi, const double *mult, size_t nmult, int stride)
{
    int d0 = (int)floor(log10(lo) + 1e-9), d1 = (int)ceil(log10(hi) - 1e-9);
    d0 -= ((d0 % stride) + stride) % stride;
    double below = 0, above = 0;
    a->nticks = 0;
    for (int d = d0; d <= d1 + stride && a->nticks < MAX_TICKS; d += stride)
        for (size_t m = 0; m < nmult; m++) {
            double v = mult[m] * pow(10, d);
            if (v <= lo * (1 + 1e-9)) below = v;
            if (v >= hi * (1 - 1e-9) && !above) above = v;
        }
    a->min = below, a->max = above;
    for (int d = d0; d <= d1 + stride && a->nticks < MAX_TICKS; d += stride)
        for (size_t m = 0; m < nmult; m++) {
            double v = mult[m] * pow(10, d);
            if (v >= a->min * (1 - 1e-9) && v <= a->max * (1 + 1e-9)) a->ticks[a->nticks++] = v;
        }
}

static bool plan_log10(chart_axis *a, double lo, double hi, bool horizontal)
{
    static const double all[] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, few[] = {1, 2, 5}, one[] = {1};
    a->scale = PMS_CHART_LOG10;
    const double *sets[] = {all, few, one, one, one, one};
    size_t sizes[] = {9, 3, 1, 1, 1, 1};
    int strides[] = {1, 1, 1, 2, 3, 5};
    for (size_t k = 0; k < 6; k++) {
        log10_ticks(a, lo, hi, sets[k], sizes[k], strides[k]);
        if (a->nticks < 3) return false; /* too few to read: a linear axis serves better */
        if (a->nticks <= 12 && ticks_fit(a, horizontal)) return true;
    }
    return true;
}

static void plan_log2(chart_axis *a, double lo, double hi, bool horizontal)
{
    a->scale = PMS_CHART_LOG2;
    int k0 = (int)floor(log2(lo) + 1e-9), k1 = (int)ceil(log2(hi) - 1e-9);
    if (k1 - k0 < 2) k0--, k1++;
    for (int stride = 1; stride <= 16; stride *= 2) {
        int s0 = k0 - ((k0 % stride) + stride) % stride, s1 = k1 + ((stride - k1 % stride) % stride);
        a->min = ldexp(1, s0), a->max = ldexp(1, s1);
        a->nticks = 0;
        for (int k = s0; k <= s1 && a->nticks < MAX_TICKS; k += stride) a->ticks[a->nticks++] = ldexp(1, k);
        if (ticks_fit(a, horizontal)) return;
    }
}

void pms__axis_plan(chart_axis *a, pms_chart_scale scale, double lo, double hi, bool pow2, double fixed_min,
                    double fixed_max)
{
    bool horizontal = a->p1 > a->p0;
    a->cut = false;
    if (!isfinite(lo) || !isfinite(hi)) lo = 0, hi = 1;
    if (!isnan(fixed_min)) lo = fmin(lo, fixed_min);
    if (!isnan(fixed_max)) hi = fmax(hi, fixed_max);
    if (scale == PMS_CHART_AUTO_LOG)
        scale = lo <= 0 ? PMS_CHART_LINEAR : pow2 ? PMS_CHART_LOG2 : hi / lo >= 10 ? PMS_CHART_LOG10 : PMS_CHART_LINEAR;
    if (scale != PMS_CHART_LINEAR && lo <= 0) scale = PMS_CHART_LINEAR; /* never drop a point a log cannot show */
    if (scale == PMS_CHART_LOG2) plan_log2(a, lo, hi, horizontal);
    else if (scale != PMS_CHART_LOG10 || !plan_log10(a, lo, hi, horizontal))
        plan_linear(a, lo, hi, fixed_min, fixed_max, horizontal);
}

void pms__axis_plan_cells(chart_axis *a, double n)
{
    bool horizontal = a->p1 > a->p0;
    a->scale = PMS_CHART_LINEAR;
    a->cut = false;
    if (n < 1) n = 1;
    double length = fabs(a->p1 - a->p0);
    int target = (int)fmax(2, fmin(horizontal ? 10 : 8, length / (horizontal ? 70 : 40)));
    for (int level = 0; level < 12; level++) {
        linear_ticks(a, 0, n, 0, n, level, target);
        a->step = fmax(a->step, 1);
        if (ticks_fit(a, horizontal)) break;
    }
}

/* ---- drawing ---- */

void pms__draw_grid(FILE *out, const chart_layout *L)
{
    fputs("<g class=\"grid\" stroke=\"#ececec\">", out);
    for (size_t i = 0; i < L->y.nticks; i++) {
        double p = pms__axis_pos(&L->y, L->y.ticks[i]);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"/>", L->x0, p, L->x1, p);
    }
    fputs("</g>\n", out);
}

static void axis_begin(FILE *out, const char *name, const chart_axis *a, const char *unit)
{
    fprintf(out, "<g class=\"axis\" data-axis=\"%s\" data-scale=\"%s\"", name, pms__scale_name(a));
    pms__attr(out, "data-unit", unit ? unit : "");
    fputs(">\n", out);
}

/* "label (unit, log scale)" */
static void axis_title(FILE *out, const char *label, const char *unit, const chart_axis *a)
{
    pms__markup_escape(out, label ? label : "");
    if (a->category) return;
    fputs(" (", out);
    pms__markup_escape(out, unit);
    if (a->scale != PMS_CHART_LINEAR) fputs(", log scale", out);
    fputc(')', out);
}

/* Two short slanted strokes across the axis line at its end nearest 0: the axis is cut. */
static void break_mark(FILE *out, double x, double y, bool horizontal)
{
    if (horizontal)
        fprintf(out, "<path class=\"axis-break\" d=\"M%.1f %.1f l4 -8 M%.1f %.1f l4 -8\" stroke=\"#444\" "
                     "stroke-width=\"1.5\" fill=\"none\"/>\n", x - 5, y + 4, x, y + 4);
    else
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"5\" fill=\"white\"/>"
                     "<path class=\"axis-break\" d=\"M%.1f %.1f l12 -4 M%.1f %.1f l12 -4\" stroke=\"#444\" "
                     "stroke-width=\"1.5\" fill=\"none\"/>\n", x - 6, y - 5, x - 6, y - 1, x - 6, y + 4);
}

/* Tick marks and labels: under a horizontal axis at y = at, left of a vertical one at x = at. */
static void numeric_ticks(FILE *out, const chart_axis *a, bool horizontal, double at, int font)
{
    char buf[48];
    for (size_t i = 0; i < a->nticks; i++) {
        double p = pms__axis_pos(a, a->ticks[i]);
        pms__axis_tick_label(a, i, buf, sizeof buf);
        fprintf(out, "<g class=\"tick\" data-value=\"%.17g\">", a->ticks[i]);
        if (horizontal)
            fprintf(out, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#888\"/>"
                         "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%d\">",
                    p, at, p, at + 4, p, at + 4 + font, font);
        else
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#888\"/>"
                         "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"%d\">",
                    at - 4, p, at, p, at - 6, p + font * 0.35, font);
        pms__markup_escape(out, buf);
        fputs("</text></g>\n", out);
    }
}

/* Whether category i's label is shown: every n-th (numbers: the multiples of n). */
static bool label_shown(const pms_chart *c, const chart_layout *L, size_t i)
{
    return !(L->label_numeric ? strtoull(c->categories[i], NULL, 10) % L->label_every : i % L->label_every);
}

/* Category labels under their bars (a tick mark under every bar): whole when they fit, else
 * turned 45 degrees and cut to the room below (the whole name in a tooltip), and every n-th
 * when even that crowds. */
static void category_ticks(FILE *out, const pms_chart *c, const chart_layout *L)
{
    double slot = (L->x1 - L->x0) / (double)c->ncat, y = L->plot_y1;
    for (size_t i = 0; i < c->ncat; i++) {
        double x = L->x0 + slot * ((double)i + 0.5);
        const char *name = c->categories[i];
        fprintf(out, "<g class=\"tick\" data-cat=\"%zu\"><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
                     "stroke=\"#888\"/>", i, x, y, x, y + (label_shown(c, L, i) ? 4 : 2));
        if (!label_shown(c, L, i)) {
            fputs("</g>\n", out);
            continue;
        }
        if (L->label_angle != 0)
            fprintf(out, "<text transform=\"translate(%.2f,%.1f) rotate(%.0f)\" text-anchor=\"end\" font-size=\"%d\">",
                    x + 3, y + 8, L->label_angle, TICK_FONT);
        else
            fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%d\">", x, y + 4 + TICK_FONT,
                    TICK_FONT);
        /* a turned label runs down to the left: no further than the page's edge */
        double room = L->label_angle != 0 ? fmin(L->label_max_w, (x - 4) / SQRT_HALF - TICK_FONT) : 0;
        size_t keep = room > 0 ? pms__text_fit(name, TICK_FONT, room) : strlen(name);
        if (keep < strlen(name)) {
            char cut[256];
            if (keep > sizeof cut - 4) keep = sizeof cut - 4;
            memcpy(cut, name, keep);
            strcpy(cut + keep, "\xe2\x80\xa6"); /* an ellipsis */
            pms__markup_escape(out, cut);
        } else {
            pms__markup_escape(out, name);
        }
        fputs("<title>", out);
        pms__markup_escape(out, name);
        fputs("</title></text></g>\n", out);
    }
}

void pms__draw_axes(FILE *out, const pms_chart *c, const chart_layout *L)
{
    if (L->has_band) {
        /* the band's own interval ticks: the plot's, or the only x axis when it stands alone */
        double at = L->band_y + BAND_HEIGHT;
        axis_begin(out, L->has_plot ? "band" : "x", &L->x, c->xunit);
        numeric_ticks(out, &L->x, true, at, L->has_plot ? 9 : TICK_FONT);
        if (!L->has_plot && c->xlabel) {
            fprintf(out, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%d\">",
                    (L->x0 + L->x1) / 2, at + 4 + TICK_FONT + 16, LABEL_FONT);
            axis_title(out, c->xlabel, c->xunit, &L->x);
            fputs("</text>\n", out);
        }
        fputs("</g>\n", out);
    }
    if (!L->has_plot) return;
    /* y */
    axis_begin(out, "y", &L->y, c->yunit);
    numeric_ticks(out, &L->y, false, L->x0, TICK_FONT);
    if (L->y.cut) {
        bool low = L->y.min > 0; /* the cut end is the one nearer 0 */
        break_mark(out, L->x0, low ? L->plot_y1 : L->plot_y0, false);
    }
    if (c->ylabel) {
        fprintf(out, "<text class=\"axis-label\" transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                     "font-size=\"%d\">", L->ylabel_x, (L->plot_y0 + L->plot_y1) / 2, LABEL_FONT);
        axis_title(out, c->ylabel, c->yunit, &L->y);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
    /* x */
    axis_begin(out, "x", &L->x, c->xunit);
    if (L->x.category) category_ticks(out, c, L);
    else numeric_ticks(out, &L->x, true, L->plot_y1, TICK_FONT);
    if (L->x.cut) {
        bool low = L->x.min > 0;
        break_mark(out, low ? L->x0 : L->x1, L->plot_y1, true);
    }
    if (c->xlabel) {
        fprintf(out, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%d\">",
                (L->x0 + L->x1) / 2, L->plot_y1 + L->xlabels_height + 13, LABEL_FONT);
        axis_title(out, c->xlabel, c->xunit, &L->x);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
    fprintf(out, "<rect class=\"plot-area\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#888\"/>\n", L->x0, L->plot_y0, L->x1 - L->x0, L->plot_y1 - L->plot_y0);
}
