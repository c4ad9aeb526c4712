/* olr on a series through the library (pmuscope/olr_series.h): a table is loaded, fitted
 * and written as `pmuscope olr` does, with segments known by hand. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_series.h"

#include <stdlib.h>
#include <string.h>

/* fast = 10 x up to x = 5, then 30 per step; slow = 7 x throughout: with eps 0 the opt
 * method needs exactly two segments (samples 1-5 and 6-10), and the counters break together. */
static const char table[] = "x,fast,slow\n"
                            "1,10,7\n2,20,14\n3,30,21\n4,40,28\n5,50,35\n"
                            "6,80,42\n7,110,49\n8,140,56\n9,170,63\n10,200,70\n";

static void fit_table(pms_olr_series *s, pms_olr_fit *f, const char *path)
{
    pms_olr_input_options in;
    pms_olr_input_options_init(&in);
    assert_int_equal(pms_olr_series_load(s, path, &in), PMS_OK);
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = PMS_OLR_OPT;
    pms_olr_eps_spec eps = {.name = NULL};
    pms_olr_counter_options_init(&eps.c); /* 0 counts */
    assert_int_equal(pms_olr_fit_series(f, s, &opt, &eps, 1, 1, path), PMS_OK);
}

static void test_load_and_fit(void **state)
{
    (void)state;
    const char *path = pms_test_write_temp(".csv", table, sizeof table - 1);
    pms_olr_series s;
    pms_olr_fit f;
    fit_table(&s, &f, path);
    assert_int_equal(s.n, 10);
    assert_int_equal(s.k, 2);
    assert_string_equal(s.xname, "x");
    assert_string_equal(s.names[0], "fast");
    assert_string_equal(s.names[1], "slow");
    assert_int_equal(s.lines[9], 11);
    assert_int_equal(f.nseg, 4);
    for (size_t i = 0; i < f.nseg; i++) {
        assert_int_equal(f.seg[i].first, i < 2 ? 0 : 5);
        assert_int_equal(f.seg[i].count, 5);
    }
    assert_int_equal(f.sums[0].segments, 2);
    assert_true(f.sums[0].max_abs_error == 0);

    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(pms_olr_write_segments(out, &s, &f), PMS_OK);
    fclose(out);
    assert_non_null(strstr(buf, "counter,first,count,x_first,x_last,y_first,y_last,slope,sigma\n"));
    assert_non_null(strstr(buf, "\nfast,5,5,6,10,80,200,30,0\n"));
    free(buf);
    pms_olr_fit_free(&f);
    pms_olr_series_free(&s);
}

static void test_errors_name_the_place(void **state)
{
    (void)state;
    static const char bad[] = "x,y\n1,10\n2,20\n3,2.5\n";
    const char *path = pms_test_write_temp(".csv", bad, sizeof bad - 1);
    pms_olr_input_options in;
    pms_olr_input_options_init(&in);
    pms_olr_series s;
    assert_int_not_equal(pms_olr_series_load(&s, path, &in), PMS_OK);
    assert_non_null(strstr(pms_strerror(), ":4:2: column 'y': not a whole number, expected a count"));
    /* Counts are exact past 2^53 (a double would read ...993 as ...992) up to 2^64 - 1; a
     * negative one, or one past 2^64 - 1, is refused naming the cell. */
    static const char exact[] = "x,y\n1,9007199254740993\n2,9007199254740995\n";
    path = pms_test_write_temp(".csv", exact, sizeof exact - 1);
    assert_int_equal(pms_olr_series_load(&s, path, &in), PMS_OK);
    assert_true(s.y[0] == 9007199254740993ull && s.y[1] == 9007199254740995ull);
    pms_olr_series_free(&s);
    static const char negative[] = "x,y\n1,10\n2,-20\n";
    path = pms_test_write_temp(".csv", negative, sizeof negative - 1);
    assert_int_not_equal(pms_olr_series_load(&s, path, &in), PMS_OK);
    assert_non_null(strstr(pms_strerror(), ":3:2: column 'y': a negative number, expected a count (0 or more)"));
    static const char top[] = "x,y\n1,10\n2,18446744073709551615\n";
    path = pms_test_write_temp(".csv", top, sizeof top - 1);
    assert_int_equal(pms_olr_series_load(&s, path, &in), PMS_OK);
    assert_true(s.y[1] == UINT64_MAX);
    pms_olr_series_free(&s);
    static const char huge[] = "x,y\n1,10\n2,18446744073709551616\n";
    path = pms_test_write_temp(".csv", huge, sizeof huge - 1);
    assert_int_not_equal(pms_olr_series_load(&s, path, &in), PMS_OK);
    assert_non_null(strstr(pms_strerror(), ":3:2: column 'y'"));

    const char *good = pms_test_write_temp(".csv", table, sizeof table - 1);
    assert_int_equal(pms_olr_series_load(&s, good, &in), PMS_OK);
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    pms_olr_eps_spec eps = {.name = "nosuch"};
    pms_olr_counter_options_init(&eps.c);
    pms_olr_fit f;
    assert_int_not_equal(pms_olr_fit_series(&f, &s, &opt, &eps, 1, 1, good), PMS_OK);
    assert_non_null(strstr(pms_strerror(), "nosuch"));
    pms_olr_series_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_fit),
        cmocka_unit_test(test_errors_name_the_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
