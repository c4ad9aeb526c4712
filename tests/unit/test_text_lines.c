/* The one text line reader (io/text_lines.h) on hostile input: a byte-order mark, NUL
 * bytes, devices, overlong lines, a last line cut short; and the exact count parser. */
#include "test_support.h"
#include "io/count_parse.h"
#include "io/text_lines.h"
#include "pmuscope/error.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void expect_message(const char *want)
{
    if (!strstr(pms_strerror(), want)) fail_msg("message '%s' lacks '%s'", pms_strerror(), want);
}

static void test_lines_and_bom(void **state)
{
    (void)state;
    static const char bom_text[] = "\xEF\xBB\xBF" "a,b\r\n\n" "last";
    const char *path = pms_test_write_temp(".txt", bom_text, sizeof bom_text - 1);
    pms_lines r;
    assert_int_equal(pms__lines_open(&r, path, 0), PMS_OK);
    char *line;
    size_t len;
    assert_int_equal(pms__lines_next(&r, &line, &len), 1);
    assert_string_equal(line, "a,b\r"); /* the BOM dropped, the '\r' kept for the parser */
    assert_int_equal(len, 4);
    assert_int_equal(pms__lines_next(&r, &line, &len), 1);
    assert_int_equal(len, 0);
    assert_int_equal(pms__lines_next(&r, &line, &len), 1);
    assert_string_equal(line, "last");
    assert_int_equal(r.line, 3);
    assert_int_equal(pms__lines_next(&r, &line, &len), 0);
    pms__lines_close(&r);

    char *text;
    assert_int_equal(pms__read_text(path, 0, NULL, NULL, &text, &len), PMS_OK);
    assert_int_equal(len, 10);
    assert_memory_equal(text, "a,b\r\n\nlast", 10);
    free(text);
}

static void test_hostile_input_is_named(void **state)
{
    (void)state;
    char *text;
    size_t len;
    const char *path = pms_test_write_temp(".txt", "ok\nab\0cd\n", 9);
    assert_int_equal(pms__read_text(path, 0, NULL, NULL, &text, &len), PMS_EFORMAT);
    expect_message(": line 2: byte offset 5: NUL byte, expected text");
    assert_non_null(strstr(pms_strerror(), path));

    assert_int_equal(pms__read_text("/dev/zero", 0, NULL, NULL, &text, &len), PMS_EINVAL);
    assert_string_equal(pms_strerror(), "/dev/zero: a character device, not a regular file or a pipe: expected a text file");
    assert_int_equal(pms__read_text("/tmp", 0, NULL, NULL, &text, &len), PMS_EINVAL);
    expect_message("/tmp: a directory, not a regular file or a pipe");

    path = pms_test_write_temp(".bb", "T:1:5 \nT:2:", 11);
    assert_int_equal(pms__read_text(path, PMS_LINES_COMPLETE, NULL, NULL, &text, &len), PMS_EFORMAT);
    expect_message(": line 2: ends without a newline: the file was cut short");
    assert_int_equal(pms__read_text(path, 0, NULL, NULL, &text, &len), PMS_OK); /* free-form formats take it */
    free(text);

    size_t big = 100;
    char *longline = malloc(big + 2);
    memset(longline, 'x', big);
    longline[big] = '\n';
    path = pms_test_write_temp(".txt", longline, big + 1);
    free(longline);
    pms_lines r;
    assert_int_equal(pms__lines_open(&r, path, 0), PMS_OK);
    r.max_len = 99;
    char *line;
    assert_int_equal(pms__lines_next(&r, &line, &len), PMS_EFORMAT);
    expect_message(": line 1: longer than 99 bytes");
    pms__lines_close(&r);
}

static void test_pipe_is_read(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    assert_int_equal(write(fd[1], "one\ntwo\n", 8), 8);
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    pms_lines r;
    assert_int_equal(pms__lines_from_stream(&r, f, "pipe", PMS_LINES_COMPLETE), PMS_OK);
    char *line;
    size_t len, n = 0;
    while (pms__lines_next(&r, &line, &len) == 1) n++;
    assert_int_equal(n, 2);
    pms__lines_close(&r);
    fclose(f);
}

static void test_counts_are_exact(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(pms__parse_count("9007199254740993", 16, &v), PMS_COUNT_OK);
    assert_true(v == 9007199254740993ull); /* 2^53 + 1: a double would give ...992 */
    assert_int_equal(pms__parse_count(" 18446744073709551615\r", 22, &v), PMS_COUNT_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(pms__parse_count("18446744073709551616", 20, &v), PMS_COUNT_TOO_LARGE);
    assert_int_equal(pms__parse_count("-5", 2, &v), PMS_COUNT_NEGATIVE);
    assert_int_equal(pms__parse_count("1e3", 3, &v), PMS_COUNT_NOT_INTEGER);
    assert_int_equal(pms__parse_count("1.0", 3, &v), PMS_COUNT_NOT_INTEGER);
    assert_int_equal(pms__parse_count("", 0, &v), PMS_COUNT_NOT_INTEGER);
    assert_int_equal(pms__parse_count("+7", 2, &v), PMS_COUNT_OK);
    assert_true(v == 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_bom),
        cmocka_unit_test(test_hostile_input_is_named),
        cmocka_unit_test(test_pipe_is_read),
        cmocka_unit_test(test_counts_are_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
