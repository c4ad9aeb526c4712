/* The JSON and SVG/HTML writers emit valid UTF-8 and well-formed text whatever
 * the bytes of a name: invalid UTF-8 becomes U+FFFD, control characters are
 * escaped (JSON) or replaced (XML cannot hold them), valid UTF-8 passes through. */
#include "test_support.h"
#include "pmuscope/json.h"
#include "render/markup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes that are not UTF-8, one case each: a lone 0xff, a stray continuation
 * byte, an overlong '/', a surrogate, a code point above U+10FFFF, and a
 * three-byte sequence cut short by the end of the string. */
static const char hostile[] = "a\xff" "b\x80" "c\xc0\xaf" "d\xed\xa0\x80" "e\xf4\x90\x80\x80" "f\xe2\x82";

static char *json_of(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    pms_json j;
    pms_json_init(&j, f, false);
    pms_json_string(&j, s);
    fclose(f);
    return buf;
}

static char *markup_of(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    pms_markup_escape(f, s);
    fclose(f);
    return buf;
}

static void test_json_invalid_utf8_becomes_replacement(void **state)
{
    (void)state;
    char *out = json_of(hostile);
    assert_string_equal(out, "\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde\\ufffd\\ufffd\\ufffd\\ufffdf"
                             "\\ufffd\\ufffd\"");
    free(out);
}

static void test_json_controls_escaped_valid_utf8_kept(void **state)
{
    (void)state;
    /* é (2 bytes), € (3), 😀 (4), U+10FFFF (the last code point), DEL kept as is */
    char *out = json_of("\x01q\"\\\n\t\x1f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f");
    assert_string_equal(out, "\"\\u0001q\\\"\\\\\\n\\t\\u001f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f\"");
    free(out);
}

static void test_markup_invalid_utf8_becomes_replacement(void **state)
{
    (void)state;
    char *out = markup_of(hostile);
    const char *r = "&#xFFFD;";
    char want[256];
    snprintf(want, sizeof want, "a%sb%sc%s%sd%s%s%se%s%s%s%sf%s%s", r, r, r, r, r, r, r, r, r, r, r, r, r);
    assert_string_equal(out, want);
    free(out);
}

static void test_markup_controls_replaced_specials_escaped(void **state)
{
    (void)state;
    /* XML 1.0 forbids U+0001 and U+FFFF even as references; tab and newline are allowed */
    char *out = markup_of("<a&\"b\x01\t\n\xef\xbf\xbf\xc3\xa9>");
    assert_string_equal(out, "&lt;a&amp;&quot;b&#xFFFD;\t\n&#xFFFD;\xc3\xa9&gt;");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_invalid_utf8_becomes_replacement),
        cmocka_unit_test(test_json_controls_escaped_valid_utf8_kept),
        cmocka_unit_test(test_markup_invalid_utf8_becomes_replacement),
        cmocka_unit_test(test_markup_controls_replaced_specials_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
