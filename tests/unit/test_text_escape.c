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

static void write_json(FILE *f, const char *s)
{
    pms_json j;
    pms_json_init(&j, f, false);
    pms_json_string(&j, s);
}

/* Asserts that write(s) produces exactly want. */
static void expect(void (*write)(FILE *, const char *), const char *s, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    write(f, s);
    fclose(f);
    assert_string_equal(buf, want);
    free(buf);
}

static void test_json_invalid_utf8_becomes_replacement(void **state)
{
    (void)state;
    expect(write_json, hostile,
           "\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde\\ufffd\\ufffd\\ufffd\\ufffdf\\ufffd\\ufffd\"");
}

static void test_json_controls_escaped_valid_utf8_kept(void **state)
{
    (void)state;
    /* é (2 bytes), € (3), 😀 (4), U+10FFFF (the last code point), DEL kept as is */
    expect(write_json, "\x01q\"\\\n\t\x1f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f",
           "\"\\u0001q\\\"\\\\\\n\\t\\u001f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f\"");
}

static void test_markup_invalid_utf8_becomes_replacement(void **state)
{
    (void)state;
    const char *r = "&#xFFFD;";
    char want[256];
    snprintf(want, sizeof want, "a%sb%sc%s%sd%s%s%se%s%s%s%sf%s%s", r, r, r, r, r, r, r, r, r, r, r, r, r);
    expect(pms__markup_escape, hostile, want);
}

static void test_markup_controls_replaced_specials_escaped(void **state)
{
    (void)state;
    /* XML 1.0 forbids U+0001 and U+FFFF even as references; tab and newline are allowed */
    expect(pms__markup_escape, "<a&\"b\x01\t\n\xef\xbf\xbf\xc3\xa9>", "&lt;a&amp;&quot;b&#xFFFD;\t\n&#xFFFD;\xc3\xa9&gt;");
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
