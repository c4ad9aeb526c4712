/* The CSV/TSV table reader: types, headers, and the errors it must name. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/perfstat.h"
#include "pmuscope/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pms_table *parse(const char *text)
{
    pms_table *t = NULL;
    assert_int_equal(pms_table_parse(text, strlen(text), "x.csv", NULL, &t), PMS_OK);
    return t;
}

static int parse_fails(const char *text)
{
    pms_table *t = NULL;
    int rc = pms_table_parse(text, strlen(text), "x.csv", NULL, &t);
    assert_null(t);
    return rc;
}

static void test_csv_types_and_quotes(void **s)
{
    (void)s;
    pms_table *t = parse("name,cycles,note\r\n\"a, b\",100,\"say \"\"hi\"\"\"\r\nc,2.5e3,\r\n\n");
    assert_int_equal(pms_table_rows(t), 2);
    assert_int_equal(pms_table_cols(t), 3);
    assert_int_equal(pms_table_col_type(t, 0), PMS_COLUMN_STRING);
    assert_int_equal(pms_table_col_type(t, 1), PMS_COLUMN_NUMERIC);
    assert_int_equal(pms_table_col_type(t, 2), PMS_COLUMN_STRING);
    assert_string_equal(pms_table_string(t, 0, 0), "a, b");
    assert_string_equal(pms_table_string(t, 0, 2), "say \"hi\"");
    assert_string_equal(pms_table_string(t, 1, 2), "");
    const double *v;
    assert_int_equal(pms_table_numeric(t, 1, false, &v), PMS_OK);
    assert_close(v[0], 100, 0);
    assert_close(v[1], 2500, 0);
    assert_int_equal(pms_table_row_line(t, 1), 3);
    assert_null(pms_table_string(t, 0, 1));
    pms_table_free(t);
}

static void test_hash_header_and_comments(void **s)
{
    (void)s;
    pms_table *t = parse("#a\tb\n1\t2\n3\t4\n");
    assert_string_equal(pms_table_col_name(t, 0), "a");
    assert_int_equal(pms_table_rows(t), 2);
    pms_table_free(t);
    t = parse("# written by a tool\n# on a day\nx,y\n1,2\n");
    assert_string_equal(pms_table_col_name(t, 1), "y");
    assert_int_equal(pms_table_rows(t), 1);
    assert_int_equal(pms_table_row_line(t, 0), 4);
    pms_table_free(t);
    t = parse("a,b\n");
    assert_int_equal(pms_table_rows(t), 0);
    pms_table_free(t);
}

/* A header "c0,c1,...,c<n-2>,c<last>" (malloc'd). */
static char *wide_header(size_t n, size_t last)
{
    char *h = malloc(n * 8 + 2), *w = h;
    for (size_t j = 0; j < n; j++) w += sprintf(w, "%sc%zu", j ? "," : "", j + 1 < n ? j : last);
    strcpy(w, "\n");
    return h;
}

static void test_errors_name_line_and_column(void **s)
{
    (void)s;
    assert_int_equal(parse_fails("a,b\n1,2\n3\n"), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv:3: expected 2 fields (as the header), found 1");
    assert_int_equal(parse_fails(""), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "empty file"));
    assert_int_equal(parse_fails("a,b\n1,\"2\n"), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv:2:2: quoted field not closed, expected '\"' before the end");
    assert_int_equal(parse_fails("a,a\n1,2\n"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "both 'a'"));
    /* the first field that repeats an earlier one, in header order */
    assert_int_equal(parse_fails("a,b,c,b,a,b\n1,2,3,4,5,6\n"), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv: header fields 2 and 4 are both 'b', expected unique names");
    /* the widest header allowed, its last name repeating its first: found, and in
     * O(n log n) (a pairwise search was 2 billion comparisons) */
    enum { WIDE = 65536 };
    char *wide = wide_header(WIDE, 0);
    assert_int_equal(parse_fails(wide), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv: header fields 1 and 65536 are both 'c0', expected unique names");
    free(wide);
    /* the reader's names are checked once; columns added later are checked again */
    wide = wide_header(WIDE, WIDE - 1);
    pms_table *wt = parse(wide);
    assert_int_equal(pms_table_cols(wt), WIDE);
    double one = 1;
    assert_int_equal(pms_table_add_numeric(wt, "c7", &one, 0), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "column name 'c7' appears twice"));
    pms_table_free(wt);
    free(wide);
    assert_int_equal(parse_fails("a,,c\n1,2,3\n"), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "header field 2 is empty"));

    pms_table *t = parse("a,b\n1,2\n3,abc\n\n4,\n");
    const double *v;
    assert_int_equal(pms_table_numeric(t, 1, false, &v), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv:3:2: column 'b': expected a number, found 'abc'");
    pms_table_free(t);

    t = parse("a,b\n1,2\n3,NaN\n4,\n");
    assert_int_equal(pms_table_numeric(t, 1, false, &v), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv:3:2: column 'b': expected a number, found an empty or NaN cell");
    assert_int_equal(pms_table_numeric(t, 1, true, &v), PMS_OK);
    assert_true(isnan(v[1]) && isnan(v[2]));
    size_t col;
    assert_int_equal(pms_table_require(t, "cycles", &col), PMS_ENOENT);
    assert_string_equal(pms_strerror(), "x.csv: no column named 'cycles' (columns: a, b)");
    pms_table_free(t);
}

static void test_write_read_back_filter_distinct(void **s)
{
    (void)s;
    pms_table *t = pms_table_new("mem");
    double a[] = {1.5, 2, 1.0 / 3}, b[] = {10, NAN, 30};
    const char *g[] = {"x,1", "y", "x,1"};
    assert_int_equal(pms_table_add_numeric(t, "a", a, 3), PMS_OK);
    assert_int_equal(pms_table_add_string(t, "g", g, 3), PMS_OK);
    assert_int_equal(pms_table_add_numeric(t, "b", b, 3), PMS_OK);
    assert_int_equal(pms_table_add_numeric(t, "c", b, 2), PMS_EINVAL);
    assert_int_equal(pms_table_add_numeric(t, "a", b, 3), PMS_EINVAL);
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(pms_table_write(t, f, ','), PMS_OK);
    fclose(f);
    pms_table *r = NULL;
    assert_int_equal(pms_table_parse(buf, len, "back", NULL, &r), PMS_OK);
    free(buf);
    const double *v;
    assert_int_equal(pms_table_numeric(r, 0, false, &v), PMS_OK);
    assert_true(v[2] == 1.0 / 3); /* %.17g round-trips exactly */
    assert_string_equal(pms_table_string(r, 0, 1), "x,1");
    assert_int_equal(pms_table_numeric(r, 2, true, &v), PMS_OK);
    assert_true(isnan(v[1]));

    char **vals;
    size_t nv;
    assert_int_equal(pms_table_distinct(r, 1, &vals, &nv), PMS_OK);
    assert_int_equal(nv, 2);
    assert_string_equal(vals[0], "x,1");
    assert_string_equal(vals[1], "y");
    for (size_t i = 0; i < nv; i++) free(vals[i]);
    free(vals);
    size_t *rows, nr;
    const char *where[] = {"g=x,1", "a=1.5"};
    assert_int_equal(pms_table_filter(r, where, 2, &rows, &nr), PMS_OK);
    assert_int_equal(nr, 1);
    assert_int_equal(rows[0], 0);
    free(rows);
    const char *bad[] = {"nope"};
    assert_int_equal(pms_table_filter(r, bad, 1, &rows, &nr), PMS_EINVAL);
    pms_table_free(r);
    pms_table_free(t);
}

/* The ARM cBench TSV: '#'-prefixed header, a string column, vendor event names. */
/* The aligned text the demo summary prints: chosen columns in the order named, widths
 * from the widest cell, paths by file name, missing numbers as '-', the rest counted. */
static void test_write_aligned(void **s)
{
    (void)s;
    pms_table *t = parse("name,x,y\n/usr/bin/ls,1,0.123456\nb,,22\nc,3,4\n");
    size_t cols[PMS_TABLE_MAX_PICKED];
    assert_int_equal(pms_table_pick_columns(t, "y,nosuch,name", cols, PMS_TABLE_MAX_PICKED), 2);
    assert_int_equal(cols[0], 2);
    assert_int_equal(cols[1], 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(pms_table_write_aligned(f, t, "y,name,x", 2, "  "), PMS_OK);
    fclose(f);
    assert_string_equal(buf, "        y name x\n"
                             "   0.1235   ls 1\n"
                             "       22    b -\n"
                             "   (1 more rows)\n");
    free(buf);
    pms_table_free(t);
}

static void test_arm_tsv(void **s)
{
    (void)s;
    pms_table *t = NULL;
    assert_int_equal(pms_interval_table_read(pms_test_fixture("armpm/cbench-excerpt.tsv"), &t), PMS_OK);
    assert_int_equal(pms_table_rows(t), 206);
    assert_int_equal(pms_table_cols(t), 21);
    assert_string_equal(pms_table_col_name(t, 0), "Timestamp");
    assert_int_equal(pms_table_col_type(t, 1), PMS_COLUMN_STRING);
    assert_string_equal(pms_table_string(t, 0, 1), "automotive_bitcount");
    size_t cyc, ins;
    assert_int_equal(pms_table_find_event(t, PMS_EVENT_CYCLES, NULL, &cyc), PMS_OK);
    assert_int_equal(pms_table_find_event(t, PMS_EVENT_INSTRUCTIONS, NULL, &ins), PMS_OK);
    assert_string_equal(pms_table_col_name(t, cyc), "CPU_CYCLES");
    assert_string_equal(pms_table_col_name(t, ins), "INST_RETIRED");
    const double *v;
    assert_int_equal(pms_table_numeric(t, cyc, false, &v), PMS_OK);
    assert_close(v[0], 314243255, 0);
    assert_int_equal(pms_table_numeric(t, 5, false, &v), PMS_OK); /* ".9" volts */
    assert_close(v[0], 0.9, 0);
    pms_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_types_and_quotes),
        cmocka_unit_test(test_hash_header_and_comments),
        cmocka_unit_test(test_errors_name_line_and_column),
        cmocka_unit_test(test_write_read_back_filter_distinct),
        cmocka_unit_test(test_arm_tsv),
        cmocka_unit_test(test_write_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
