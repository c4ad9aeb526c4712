/* The HTML page: escaped text, numeric cells aligned, charts inline, no external references. */
#include "test_support.h"
#include "pmuscope/html.h"

#include <stdlib.h>
#include <string.h>

static void test_page_is_self_contained(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pms_html h;
    pms_html_begin(&h, f, "Report <1>");
    pms_html_section(&h, "Hot spots");
    const char *head[] = {"symbol", "share"};
    const char *row[] = {"a&b", "12.5%"};
    pms_html_table_begin(&h, head, 2);
    pms_html_table_row(&h, row, 2);
    pms_html_table_end(&h);
    double x[] = {1, 2}, y[] = {3, 4};
    pms_chart *c = pms_chart_new("c", "x", "y");
    pms_chart_set_units(c, "s", "count");
    pms_chart_add_line(c, "l", x, y, 2, NULL);
    assert_int_equal(pms_html_charts(&h, &c, 1, "caption"), 0);
    assert_int_equal(pms_html_end(&h), 0);
    fclose(f);
    assert_non_null(strstr(buf, "<title>Report &lt;1&gt;</title>"));
    assert_non_null(strstr(buf, "<h2 id=\"hot-spots\">Hot spots</h2>"));
    assert_non_null(strstr(buf, "<td>a&amp;b</td><td class=\"num\">12.5%</td>"));
    assert_non_null(strstr(buf, "<svg"));
    assert_non_null(strstr(buf, "svg{max-width:100%;height:auto}")); /* figures shrink with a narrow window */
    assert_null(strstr(buf, "<script"));
    assert_null(strstr(buf, "src="));
    assert_null(strstr(buf, "href="));
    assert_non_null(strstr(buf, "default-src 'none'"));
    free(buf);
    pms_chart_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_page_is_self_contained)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
