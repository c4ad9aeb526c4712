/* The page's embedding of other commands' files: SVG documents inline (prolog dropped,
 * broken or scripted ones refused with the file and offset) and CSV tables. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct page {
    char *buf;
    size_t len;
    FILE *f;
    pms_html h;
};

static void page_open(struct page *p)
{
    p->buf = NULL;
    p->f = open_memstream(&p->buf, &p->len);
    assert_non_null(p->f);
    pms_html_begin(&p->h, p->f, "t");
}

static void page_close(struct page *p)
{
    assert_int_equal(pms_html_end(&p->h), 0);
    fclose(p->f);
}

static int embed(struct page *p, const char *svg)
{
    const char *path = pms_test_write_temp(".svg", svg, strlen(svg));
    return pms_html_svg_file(&p->h, path, "a <caption>");
}

static void test_svg_inline_without_prolog(void **state)
{
    (void)state;
    struct page p;
    page_open(&p);
    assert_int_equal(embed(&p, "<?xml version=\"1.0\"?>\n<!-- made by a tool -->\n<!DOCTYPE svg PUBLIC \"x\">\n"
                               "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"3\" height=\"4\"/></svg>\n\n"),
                     0);
    page_close(&p);
    assert_non_null(strstr(p.buf, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"3\" height=\"4\"/></svg>\n"
                                  "<figcaption>a &lt;caption&gt;</figcaption>\n</figure>"));
    assert_null(strstr(p.buf, "<?xml"));
    assert_null(strstr(p.buf, "DOCTYPE svg"));
    assert_null(strstr(p.buf, "made by a tool"));
    free(p.buf);
}

/* A text file: its first lines, escaped, in a <pre>; a missing file named in the message. */
static void test_text_file(void **state)
{
    (void)state;
    struct page p;
    page_open(&p);
    const char *path = pms_test_write_temp(".txt", "one <1>\ntwo\nthree\n", 18);
    assert_int_equal(pms_html_text_file(&p.h, path, 2), 0);
    assert_int_equal(pms_html_text_file(&p.h, "/nonexistent/x.txt", 0), PMS_EIO);
    assert_non_null(strstr(pms_strerror(), "/nonexistent/x.txt"));
    page_close(&p);
    assert_non_null(strstr(p.buf, "one &lt;1&gt;\ntwo\n"));
    assert_null(strstr(p.buf, "three"));
    free(p.buf);
}

static void test_svg_refused(void **state)
{
    (void)state;
    struct page p;
    page_open(&p);
    /* not an SVG: the offset of what was found instead */
    assert_int_equal(embed(&p, "<?xml version=\"1.0\"?>\n<html></html>"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "offset 22: expected an SVG document"));
    /* cut short */
    assert_int_equal(embed(&p, "<svg><rect width=\"3\" height=\"4\"/>"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "expected the document to end with </svg>"));
    /* a script has no place in a page that stands alone */
    assert_int_equal(embed(&p, "<svg><SCRIPT>alert(1)</SCRIPT></svg>"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "holds a script"));
    assert_int_equal(embed(&p, ""), PMS_EFORMAT);
    assert_int_equal(pms_html_svg_file(&p.h, "/nonexistent/x.svg", NULL) < 0, 1);
    assert_non_null(strstr(pms_strerror(), "/nonexistent/x.svg"));
    page_close(&p);
    /* nothing of the refused files reached the page */
    assert_null(strstr(p.buf, "<figure>"));
    assert_null(strstr(p.buf, "alert"));
    free(p.buf);
}

static void test_table_from_csv(void **state)
{
    (void)state;
    const char csv[] = "name,count,share,note\n"
                       "a<b,12,0.123456,x\n"
                       "c,3,,y\n"
                       "d,1e6,2.5,z\n";
    pms_table *t;
    assert_int_equal(pms_table_parse(csv, sizeof csv - 1, "t.csv", NULL, &t), 0);
    struct page p;
    page_open(&p);
    assert_int_equal(pms_html_table_from(&p.h, t, 2), 0);
    page_close(&p);
    assert_non_null(strstr(p.buf, "<tr><th>name</th><th>count</th><th>share</th><th>note</th></tr>"));
    /* escaped text, whole numbers in full, others to 4 significant digits, NaN empty */
    assert_non_null(strstr(p.buf, "<tr><td>a&lt;b</td><td class=\"num\">12</td><td class=\"num\">0.1235</td><td>x</td></tr>"));
    assert_non_null(strstr(p.buf, "<tr><td>c</td><td class=\"num\">3</td><td></td><td>y</td></tr>"));
    assert_null(strstr(p.buf, "<td>d</td>"));
    assert_non_null(strstr(p.buf, "1 more rows not shown (3 in all)."));
    free(p.buf);
    page_open(&p);
    assert_int_equal(pms_html_table_from(&p.h, t, 0), 0);
    page_close(&p);
    assert_non_null(strstr(p.buf, "<td>d</td><td class=\"num\">1000000</td><td class=\"num\">2.5</td>"));
    assert_null(strstr(p.buf, "more rows"));
    free(p.buf);
    pms_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_svg_inline_without_prolog),
        cmocka_unit_test(test_text_file),
        cmocka_unit_test(test_svg_refused),
        cmocka_unit_test(test_table_from_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
