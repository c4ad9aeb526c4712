/* SVG charts on exact data: the axes a reader reads (binary ticks at power-of-2 periods, 1-2-5
 * decades, a break mark on a cut axis, cell axes that end at the last cell), stacked bars with
 * negative parts below 0 and their sums, legend swatches of the series' kinds, category
 * labels turned and cut with their whole names kept, units required, a NaN breaking a line.
 * tests/tools/svg_check.py reads the commands' charts the same way (integration tests). */
#include "test_support.h"
#include "pmuscope/chart.h"
#include "pmuscope/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render_rc(pms_chart **charts, size_t n, int want_rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(pms_chart_write_svg(charts, n, 640, f), want_rc);
    fclose(f);
    return buf;
}

static char *render(pms_chart **charts, size_t n) { return render_rc(charts, n, PMS_OK); }

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) n++;
    return n;
}

/* The pixel of the tick labelled `label` on axis `axis` (x: its x, y: its y), or NaN. */
static double tick_pixel(const char *svg, const char *axis, const char *label)
{
    char head[64], text[64];
    snprintf(head, sizeof head, "data-axis=\"%s\"", axis);
    const char *a = strstr(svg, head), *end = a ? strstr(a, "</g>\n<g class=\"axis\"") : NULL;
    snprintf(text, sizeof text, ">%s</text>", label);
    for (const char *t = a; t && (t = strstr(t, "<g class=\"tick\"")) && (!end || t < end); t++) {
        const char *close = strstr(t, "</g>");
        const char *hit = strstr(t, text);
        if (hit && hit < close) {
            double x1, y1;
            const char *line = strstr(t, "<line x1=\"");
            assert_int_equal(sscanf(line, "<line x1=\"%lf\" y1=\"%lf\"", &x1, &y1), 2);
            return strcmp(axis, "y") == 0 ? y1 : x1;
        }
    }
    return NAN;
}

static void test_binary_periods_tick_at_every_point(void **state)
{
    (void)state;
    double x[] = {65536, 262144, 1048576, 4194304, 16777216}, y[] = {0.44, 0.47, 0.45, 0.5, 0.51};
    pms_chart *c = pms_chart_new("sweep", "period", "NRMSE");
    pms_chart_set_units(c, "ns", "ratio");
    pms_chart_set_scale(c, PMS_CHART_AUTO_LOG, PMS_CHART_LINEAR);
    assert_int_equal(pms_chart_add_line(c, "NRMSE", x, y, 5, NULL), 0);
    char *svg = render(&c, 1);
    assert_non_null(strstr(svg, "data-axis=\"x\" data-scale=\"log2\""));
    const char *labels[] = {"64Ki", "256Ki", "1Mi", "4Mi", "16Mi"};
    for (int i = 0; i < 5; i++) {
        double tick = tick_pixel(svg, "x", labels[i]);
        char mark[64];
        snprintf(mark, sizeof mark, "data-i=\"%d\"", i);
        const char *m = strstr(svg, mark);
        double cx;
        assert_non_null(m);
        assert_int_equal(sscanf(strstr(m, "cx=\""), "cx=\"%lf\"", &cx), 1);
        assert_true(fabs(cx - tick) < 0.01); /* the point sits on its period's tick */
    }
    assert_int_equal(count(svg, "<circle class=\"mark\""), 5);    /* a marker at every point */
    assert_int_equal(count(svg, "class=\"axis-break\""), 1);     /* y from 0.44: cut, and marked so */
    assert_non_null(strstr(svg, "period (ns, log scale)"));
    assert_non_null(strstr(svg, ">0.44<"));
    assert_non_null(strstr(svg, ">0.5<"));
    free(svg);
    pms_chart_free(c);
}

static void test_log10_ticks_and_no_dropped_point(void **state)
{
    (void)state;
    double x[] = {1, 2, 3}, y[] = {0.001, 0.01, 0.5};
    pms_chart *c = pms_chart_new("log", "x", "OD");
    pms_chart_set_units(c, "run", "ratio");
    pms_chart_set_scale(c, PMS_CHART_LINEAR, PMS_CHART_AUTO_LOG);
    assert_int_equal(pms_chart_add_points(c, "OD", x, y, 3, "#112233"), 0);
    char *svg = render(&c, 1);
    assert_non_null(strstr(svg, "data-axis=\"y\" data-scale=\"log10\""));
    for (const char *l = "0.001\0" "0.01\0" "0.1\0" "0.5\0"; *l; l += strlen(l) + 1) assert_false(isnan(tick_pixel(svg, "y", l)));
    assert_non_null(strstr(svg, "fill=\"#112233\""));
    free(svg);
    /* a 0 cannot be drawn on a log axis: the axis stays linear rather than drop the point */
    y[0] = 0;
    pms_chart_free(c);
    c = pms_chart_new("zero", "x", "OD");
    pms_chart_set_units(c, "run", "ratio");
    pms_chart_set_scale(c, PMS_CHART_LINEAR, PMS_CHART_AUTO_LOG);
    assert_int_equal(pms_chart_add_points(c, "OD", x, y, 3, NULL), 0);
    svg = render(&c, 1);
    assert_non_null(strstr(svg, "data-axis=\"y\" data-scale=\"linear\""));
    assert_int_equal(count(svg, "<circle class=\"mark\""), 3);
    free(svg);
    pms_chart_free(c);
}

/* bzip2d's CPI stack under least squares: parts 1.33, 0.53, 0.62, 2.10, -1.72, -1.05 (sum 1.82) */
static void test_stacked_bars_with_negative_parts(void **state)
{
    (void)state;
    const char *cats[] = {"bzip2d", "sha"}, *comps[] = {"base", "a", "b", "c", "d", "e"};
    double v[] = {1.33, 0.53, 0.62, 2.10, -1.72, -1.05, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1};
    pms_chart *c = pms_chart_new("stack", NULL, "CPI");
    pms_chart_set_units(c, NULL, "cycles per instruction");
    assert_int_equal(pms_chart_add_stacked_bars(c, cats, 2, comps, 6, v), 0);
    assert_int_equal(pms_chart_add_stacked_bars(c, cats, 2, comps, 6, v), PMS_EINVAL);
    assert_int_equal(pms_chart_add_bar_sums(c, "model CPI"), 0);
    char *svg = render(&c, 1);
    /* the axis holds the positive parts' sum 4.58 and the negative ones' -2.77 */
    double plot_y, plot_h, top = tick_pixel(svg, "y", "4"), zero = tick_pixel(svg, "y", "0"), low = tick_pixel(svg, "y", "-2");
    const char *pa = strstr(svg, "class=\"plot-area\"");
    assert_non_null(pa);
    assert_int_equal(sscanf(strstr(pa, " y=\""), " y=\"%lf\" width=\"%*f\" height=\"%lf\"", &plot_y, &plot_h), 2);
    assert_false(isnan(top) || isnan(zero) || isnan(low));
    double per = (zero - top) / 4;
    assert_true(fabs(low - (zero + 2 * per)) < 0.05);
    /* part d (-1.72) of bzip2d hangs from 0 down to -1.72; e (-1.05) from -1.72 to -2.77 */
    const char *d = strstr(svg, "data-base=\"-1.72\" data-value=\"-1.05\"");
    assert_non_null(d);
    double y, h;
    assert_int_equal(sscanf(strstr(d, " y=\""), " y=\"%lf\" width=\"%*f\" height=\"%lf\"", &y, &h), 2);
    assert_true(fabs(y - (zero + 1.72 * per)) < 0.05 && fabs(y + h - (zero + 2.77 * per)) < 0.05);
    assert_true(y + h <= plot_y + plot_h && y >= plot_y);
    /* the sum is marked at 1.81 */
    const char *s = strstr(svg, "data-kind=\"sum\"");
    assert_non_null(s);
    double sy;
    assert_int_equal(sscanf(strstr(s, "y1=\""), "y1=\"%lf\"", &sy), 1);
    assert_true(fabs(sy - (zero - 1.81 * per)) < 0.05);
    assert_int_equal(count(svg, "class=\"legend-entry\" data-kind=\"bar\""), 6);
    assert_int_equal(count(svg, "class=\"legend-entry\" data-kind=\"sum\""), 1);
    free(svg);
    pms_chart_free(c);
}

static void test_heat_axis_ends_at_the_last_cell(void **state)
{
    (void)state;
    enum { ROWS = 4, COLS = 335 };
    double *heat = calloc(ROWS * COLS, sizeof *heat);
    int *labels = calloc(COLS, sizeof *labels);
    for (int i = 0; i < ROWS * COLS; i++) heat[i] = (i % 7) / 20.0;
    for (int i = 0; i < COLS; i++) labels[i] = i < 10 ? -1 : i / 100;
    pms_chart *c = pms_chart_new("phases", "interval", "entry");
    pms_chart_set_units(c, "number", "number");
    assert_int_equal(pms_chart_add_timeline(c, "phase", "transition", labels, COLS), 0);
    assert_int_equal(pms_chart_add_heatmap(c, "weight", heat, ROWS, COLS), 0);
    char *svg = render(&c, 1);
    /* the last cell ends at the plot's right edge and the ticks stop at or before 335 */
    const char *last = strstr(svg, "data-row=\"0\" data-col=\"334\"");
    assert_non_null(last);
    double x, w, px, pw;
    assert_int_equal(sscanf(strstr(last, " x=\""), " x=\"%lf\" y=\"%*f\" width=\"%lf\"", &x, &w), 2);
    const char *pa = strstr(svg, "class=\"plot-area\"");
    assert_int_equal(sscanf(strstr(pa, " x=\""), " x=\"%lf\" y=\"%*f\" width=\"%lf\"", &px, &pw), 2);
    assert_true(fabs(x + w - (px + pw)) < 0.01);
    double t300 = tick_pixel(svg, "x", "300");
    assert_true(fabs(t300 - (px + pw * 300 / COLS)) < 0.01); /* tick 300 at interval 300 */
    assert_true(isnan(tick_pixel(svg, "x", "350")));
    /* the band has the same ticks, a legend with the transition's grey, and the heat map its scale */
    assert_true(fabs(tick_pixel(svg, "band", "300") - t300) < 0.01);
    assert_non_null(strstr(svg, "data-kind=\"band\" data-color=\"#cccccc\" data-label=\"transition\""));
    assert_int_equal(count(svg, "class=\"legend-entry\" data-kind=\"band\""), 5); /* phases 0..3 and transition */
    assert_int_equal(count(svg, "class=\"legend-entry\" data-kind=\"heat\""), 1);
    assert_non_null(strstr(svg, ">0.3</text></g>")); /* the scale's top end, round: data up to 0.3 */
    free(svg);
    pms_chart_free(c);
    free(heat);
    free(labels);
}

static void test_swatches_show_the_series(void **state)
{
    (void)state;
    double x[] = {1, 2, NAN, 3, 4}, y[] = {1, 2, NAN, 2, 1};
    pms_chart *c = pms_chart_new("runs", "run", "error");
    pms_chart_set_units(c, "row", "%");
    assert_int_equal(pms_chart_add_line(c, "LP fit", x, y, 5, "#1f77b4"), 0);
    assert_int_equal(pms_chart_add_points(c, "LP test", x, y, 5, "#1f77b4"), 0);
    char *svg = render(&c, 1);
    const char *fit = strstr(svg, "data-kind=\"line\" data-color=\"#1f77b4\" data-label=\"LP fit\"><line class=\"swatch\"");
    const char *test = strstr(svg, "data-kind=\"points\" data-color=\"#1f77b4\" data-label=\"LP test\"><circle class=\"swatch\"");
    assert_non_null(fit);
    assert_non_null(test);
    assert_int_equal(count(svg, "<polyline"), 2); /* the NaN breaks the line */
    free(svg);
    pms_chart_free(c);
}

static void test_long_category_labels_turn_and_keep_their_names(void **state)
{
    (void)state;
    enum { N = 31 };
    char names[N][48];
    const char *cats[N], *comps[] = {"base"};
    double v[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "consumer_tiffmedian_benchmark_%02d", i);
        cats[i] = names[i];
        v[i] = 1 + i % 3;
    }
    pms_chart *c = pms_chart_new("CPI stack", NULL, "CPI");
    pms_chart_set_units(c, NULL, "cycles per instruction");
    assert_int_equal(pms_chart_add_stacked_bars(c, cats, N, comps, 1, v), 0);
    char *svg = render(&c, 1);
    assert_true(count(svg, "rotate(-45)") >= N / 2);
    assert_non_null(strstr(svg, "<title>consumer_tiffmedian_benchmark_30</title>"));
    free(svg);
    pms_chart_free(c);
}

static void test_an_axis_without_unit_is_refused(void **state)
{
    (void)state;
    double x[] = {1, 2}, y[] = {1, 2};
    pms_chart *c = pms_chart_new("no unit", "x", "y");
    assert_int_equal(pms_chart_add_line(c, "l", x, y, 2, NULL), 0);
    char *svg = render_rc(&c, 1, PMS_EINVAL);
    free(svg);
    pms_chart_set_units(c, "s", NULL);
    svg = render_rc(&c, 1, PMS_EINVAL);
    free(svg);
    pms_chart_set_units(c, "s", "count");
    svg = render(&c, 1);
    assert_non_null(strstr(svg, "x (s)"));
    assert_non_null(strstr(svg, "y (count)"));
    free(svg);
    pms_chart_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_periods_tick_at_every_point),
        cmocka_unit_test(test_log10_ticks_and_no_dropped_point),
        cmocka_unit_test(test_stacked_bars_with_negative_parts),
        cmocka_unit_test(test_heat_axis_ends_at_the_last_cell),
        cmocka_unit_test(test_swatches_show_the_series),
        cmocka_unit_test(test_long_category_labels_turn_and_keep_their_names),
        cmocka_unit_test(test_an_axis_without_unit_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
