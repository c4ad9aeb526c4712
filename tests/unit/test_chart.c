/* SVG charts: the document is well formed, every series is drawn, and coordinates
 * land inside the plot area on linear and log scales. */
#include "test_support.h"
#include "pmuscope/chart.h"
#include "pmuscope/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(pms_chart **charts, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(pms_chart_write_svg(charts, n, 640, f), 0);
    fclose(f);
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) n++;
    return n;
}

static void test_line_points_in_plot_area(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, 4}, y[] = {10, 20, 15, 40};
    pms_chart *c = pms_chart_new("t <&>", "x", "y");
    assert_int_equal(pms_chart_add_line(c, "series a", x, y, 4, NULL), 0);
    char *svg = render(&c, 1);
    assert_non_null(strstr(svg, "t &lt;&amp;&gt;"));          /* title escaped */
    assert_int_equal(count(svg, "<svg"), 1);
    assert_int_equal(count(svg, "</svg>"), 1);
    const char *pts = strstr(svg, "points=\"");
    assert_non_null(pts);
    pts += 8;
    /* Four points, x within [70, 620], y within the 260-pixel plot below the title. */
    for (int i = 0; i < 4; i++) {
        double px, py;
        int used;
        assert_int_equal(sscanf(pts, "%lf,%lf %n", &px, &py, &used), 2);
        assert_true(px >= 70 - 1e-9 && px <= 620 + 1e-9);
        assert_true(py >= 10 + 28 - 1e-9 && py <= 10 + 28 + 260 + 1e-9);
        pts += used;
    }
    assert_non_null(strstr(svg, "series a"));
    free(svg);
    pms_chart_free(c);
}

static void test_log_axis_ticks_are_decades(void **state)
{
    (void)state;
    double x[] = {65536, 1048576, 16777216}, y[] = {0.001, 0.01, 0.5};
    pms_chart *c = pms_chart_new("log", "period", "OD");
    pms_chart_set_log(c, 1, 1);
    assert_int_equal(pms_chart_add_points(c, "OD", x, y, 3, "#112233"), 0);
    char *svg = render(&c, 1);
    assert_int_equal(count(svg, "<circle"), 3);
    assert_non_null(strstr(svg, "fill=\"#112233\""));
    assert_non_null(strstr(svg, ">1M<"));
    assert_non_null(strstr(svg, ">0.01<"));
    free(svg);
    pms_chart_free(c);
}

static void test_bars_heatmap_timeline_stack(void **state)
{
    (void)state;
    const char *cats[] = {"prog1", "prog2"}, *comps[] = {"base", "L1D", "branch"};
    double vals[] = {0.5, 0.2, 0.1, 0.6, 0.3, 0.05};
    double heat[] = {0, 1, 2, 3, 4, 5};
    int labels[] = {0, 0, 1, -1, 2};
    pms_chart *a = pms_chart_new("stack", NULL, "CPI");
    pms_chart *b = pms_chart_new("heat", "interval", "entry");
    pms_chart *t = pms_chart_new("timeline", "interval", NULL);
    assert_int_equal(pms_chart_add_stacked_bars(a, cats, 2, comps, 3, vals), 0);
    assert_int_equal(pms_chart_add_stacked_bars(a, cats, 2, comps, 3, vals), PMS_EINVAL);
    assert_int_equal(pms_chart_add_heatmap(b, heat, 2, 3), 0);
    assert_int_equal(pms_chart_add_timeline(t, labels, 5), 0);
    pms_chart *all[] = {a, b, t};
    char *svg = render(all, 3);
    assert_int_equal(count(svg, "class=\"chart\""), 3);
    assert_int_equal(count(svg, "<title>"), 6 + 5);     /* bar pieces + timeline cells */
    assert_non_null(strstr(svg, "rgb(255,255,255)"));    /* heat minimum is white */
    assert_non_null(strstr(svg, "rgb(0,0,255)"));        /* heat maximum is full blue */
    assert_non_null(strstr(svg, "#cccccc"));             /* transition label in grey */
    free(svg);
    pms_chart_free(a);
    pms_chart_free(b);
    pms_chart_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_points_in_plot_area),
        cmocka_unit_test(test_log_axis_ticks_are_decades),
        cmocka_unit_test(test_bars_heatmap_timeline_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
