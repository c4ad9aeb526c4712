/* The diff library (pmuscope/diff.h) on rows and runs made here: rows meet across runs by
 * binary base name and function, each row's numbers are those of the statistics it names
 * (checked against R in test_stats_difference), q-values are BH's over the rows, changed
 * rows come first; counts by the rank sum; errors name what is wrong; the writers fail on a
 * full device. */
#include "test_support.h"
#include "pmuscope/diff.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pms_profile_row row(const char *binary, const char *symbol, uint64_t samples)
{
    return (pms_profile_row){.binary = binary, .symbol = symbol, .samples = samples};
}

static const pms_diff_row *find(const pms_diff_result *r, const char *symbol)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].where.symbol && strcmp(r->rows[i].where.symbol, symbol) == 0) return &r->rows[i];
    fail_msg("no row %s", symbol);
    return NULL;
}

static void test_two_proportions(void **state)
{
    (void)state;
    pms_diff *d;
    assert_int_equal(pms_diff_create(&d, NULL), PMS_OK);
    /* the same program in two folders: its functions meet */
    pms_profile_row base[] = {row("/old/prog", "a", 4000), row("/old/prog", "b", 3000), row("/old/prog", "c", 2990),
                              row("[kernel.kallsyms]", NULL, 2)};
    pms_profile_row new_[] = {row("/new/prog", "a", 4600), row("/new/prog", "b", 2500), row("/new/prog", "d", 2900)};
    assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_BASE, "base", "cycles", base, 4, 10000), PMS_OK);
    assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_NEW, "new", "cycles", new_, 3, 10000), PMS_OK);
    pms_diff_result r;
    assert_int_equal(pms_diff_compute(&r, d), PMS_OK);
    assert_int_equal(r.method, PMS_DIFF_TWO_PROPORTION);
    assert_true(r.continuity);
    assert_int_equal(r.nrows, 5); /* a, b, c, d and the kernel's address */
    assert_int_equal(r.tested, 5);
    assert_string_equal(r.event, "cycles");
    const pms_diff_row *a = find(&r, "a"), *c = find(&r, "c"), *dd = find(&r, "d");
    assert_string_equal(a->where.binary, "/old/prog"); /* the names of the first run that has the row */
    pms_test_result t;
    assert_int_equal(pms_prop_test2(&t, 4600, 10000, 4000, 10000, 0.95, true), PMS_OK);
    assert_close(a->p_value, t.p_value, 1e-15);
    assert_close(a->ci_low, t.ci_low, 1e-15);
    assert_close(a->delta, 0.06, 1e-12);
    assert_int_equal(a->base_samples, 4000);
    assert_int_equal(a->new_samples, 4600);
    assert_int_equal(a->verdict, PMS_DIFF_UP);
    assert_int_equal(c->new_samples, 0);
    assert_int_equal(c->verdict, PMS_DIFF_DOWN);
    assert_int_equal(dd->base_samples, 0);
    assert_int_equal(dd->verdict, PMS_DIFF_UP);
    /* BH over the five p-values */
    double p[5], q[5];
    for (size_t i = 0; i < 5; i++) p[i] = r.rows[i].p_value;
    assert_int_equal(pms_p_adjust_bh(q, p, 5), PMS_OK);
    for (size_t i = 0; i < 5; i++) assert_close(r.rows[i].q_value, q[i], 1e-15);
    /* changed rows first, by the size of the change: c (-29.9), d (+29), a (+6), b (-5) */
    assert_string_equal(r.rows[0].where.symbol, "c");
    assert_string_equal(r.rows[1].where.symbol, "d");
    assert_string_equal(r.rows[2].where.symbol, "a");
    assert_null(r.rows[4].where.symbol); /* unchanged: the kernel's 2 samples against none */
    assert_int_equal(r.changed, 4);
    /* the detectable change: (z_{1 - a/2} + z_0.8) x the standard error at the pooled share, + Yates,
     * at a = 0.05 / 5 rows (R: qnorm(1 - 0.005) and qnorm(0.8)) */
    double pooled = 8600.0 / 20000, se = sqrt(pooled * (1 - pooled) * 2e-4);
    assert_close(a->detectable, (2.5758293035489004 + 0.8416212335729143) * se + 0.5 * 2e-4, 1e-12);
    assert_true(pms_diff_changed_by(&r, 29.5));
    assert_false(pms_diff_changed_by(&r, 30));
    pms_diff_result_free(&r);
    pms_diff_destroy(d);
}

static void test_runs(void **state)
{
    (void)state;
    pms_diff_options o = {.fdr = 0.1, .no_continuity = true};
    pms_diff *d;
    assert_int_equal(pms_diff_create(&d, &o), PMS_OK);
    static const uint64_t a_base[] = {350, 420, 460}, a_new[] = {500, 560, 440};
    for (int i = 0; i < 3; i++) {
        pms_profile_row b[] = {row("/p", "a", a_base[i]), row("/p", "b", 1000 - a_base[i] - (i == 1))};
        pms_profile_row n[] = {row("/p", "a", a_new[i]), row("/p", "b", 1000 - a_new[i])};
        assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_BASE, "b", NULL, b, 2, 1000), PMS_OK);
        assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_NEW, "n", NULL, n, 2, 1000), PMS_OK);
    }
    pms_diff_result r;
    assert_int_equal(pms_diff_compute(&r, d), PMS_OK);
    assert_int_equal(r.method, PMS_DIFF_WELCH_RUNS);
    assert_int_equal(r.base_runs, 3);
    assert_int_equal(r.base_total, 3000);
    const pms_diff_row *a = find(&r, "a");
    assert_close(a->base_share, 1230.0 / 3000, 1e-12);
    assert_close(a->new_share, 1500.0 / 3000, 1e-12);
    /* the runs' spread is above the sampling floor on both sides: Welch's test itself */
    const double x[] = {0.5, 0.56, 0.44}, y[] = {0.35, 0.42, 0.46};
    pms_test_result t;
    assert_int_equal(pms_welch_test(&t, x, 3, y, 3, 0.95), PMS_OK);
    assert_close(a->p_value, t.p_value, 1e-12);
    assert_close(a->ci_high, t.ci_high, 1e-12);
    /* 9 points up, but the runs spread as far: not a change at an FDR of 0.1 */
    assert_true(a->p_value > 0.1 && a->q_value > 0.1);
    assert_int_equal(a->verdict, PMS_DIFF_NONE);
    pms_diff_result_free(&r);
    pms_diff_destroy(d);
}

static void test_counts(void **state)
{
    (void)state;
    pms_diff *d;
    assert_int_equal(pms_diff_create(&d, NULL), PMS_OK);
    const double base[] = {10, 11, 12, 13, 14, NAN}, new_[] = {20, 21, 22, 23, 24}, same[] = {10, 12, 11, 14, 13};
    const double zeros[] = {0, 0, 1, 0, 0};
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_BASE, "a.json", "faults", "", base, 6), PMS_OK);
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_NEW, "b.json", "faults", "", new_, 5), PMS_OK);
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_BASE, "a.json", "clock", "msec", base, 5), PMS_OK);
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_NEW, "b.json", "clock", "msec", same, 5), PMS_OK);
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_BASE, "a.json", "migrations", "", zeros, 5), PMS_OK);
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_NEW, "b.json", "migrations", "", zeros, 5), PMS_OK);
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_NEW, "b.json", "only-new", "", same, 5), PMS_OK);
    pms_diff_result r;
    assert_int_equal(pms_diff_compute(&r, d), PMS_OK);
    assert_true(r.counts);
    assert_int_equal(r.method, PMS_DIFF_RANK_SUM);
    assert_int_equal(r.ncount_rows, 3); /* only-new is not compared: a note says so */
    assert_true(r.nnotes >= 1 && strstr(r.notes[0], "only-new"));
    const pms_diff_count *f = &r.count_rows[0], *c = &r.count_rows[1], *m = &r.count_rows[2];
    assert_string_equal(f->event, "faults");
    assert_int_equal(f->base_runs, 5); /* the NaN run did not count */
    assert_true(f->exact);
    assert_close(f->p_value, 2.0 / 252, 1e-12); /* all 5 above all 5: 2 / C(10, 5) */
    assert_close(f->base_median, 12, 1e-15);
    assert_int_equal(f->verdict, PMS_DIFF_UP);
    assert_true(f->ratio > 1.6 && f->ratio < 2.1 && f->ci_low <= f->ratio && f->ci_high >= f->ratio);
    assert_close(c->ratio, 1, 1e-12); /* the same values: no change */
    assert_close(c->p_value, 1, 1e-12);
    assert_int_equal(c->verdict, PMS_DIFF_NONE);
    assert_true(isnan(m->ci_low) && isnan(m->ratio)); /* zeros: no logarithm, a median of 0 */
    assert_int_equal(m->verdict, PMS_DIFF_NONE);
    assert_true(pms_diff_changed_by(&r, 50));
    assert_false(pms_diff_changed_by(&r, 150));
    /* the writers: every row in JSON and CSV; a full device fails */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_int_equal(pms_diff_write_json(mem, &r), PMS_OK);
    fclose(mem);
    assert_non_null(strstr(text, "\"event\": \"faults\""));
    assert_non_null(strstr(text, "\"ci_low_reason\""));
    free(text);
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(pms_diff_write_csv(full, &r), PMS_EIO);
        fclose(full);
    }
    pms_diff_result_free(&r);
    pms_diff_destroy(d);
}

static void test_errors(void **state)
{
    (void)state;
    pms_diff *d;
    pms_diff_options o = {.sort = "pid"};
    assert_int_equal(pms_diff_create(&d, &o), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "pid"));
    o = (pms_diff_options){.fdr = 2};
    assert_int_equal(pms_diff_create(&d, &o), PMS_EINVAL);
    assert_int_equal(pms_diff_create(&d, NULL), PMS_OK);
    pms_diff_result r;
    assert_int_equal(pms_diff_compute(&r, d), PMS_EINVAL); /* nothing on either side */
    pms_profile_row rows[] = {row("/p", "a", 5)};
    assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_BASE, "x", "cycles", rows, 1, 4), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "more than the 4"));
    assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_BASE, "x", "cycles", rows, 0, 0), PMS_EINVAL);
    assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_BASE, "x", "cycles", rows, 1, 10), PMS_OK);
    assert_int_equal(pms_diff_add_profile_run(d, PMS_DIFF_NEW, "y", "instructions", rows, 1, 10), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "y: samples of instructions, but the diff compares cycles"));
    const double v[] = {1, 2};
    assert_int_equal(pms_diff_add_count_runs(d, PMS_DIFF_NEW, "c.json", "e", "", v, 2), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "c.json"));
    assert_int_equal(pms_diff_compute(&r, d), PMS_EINVAL); /* no NEW */
    assert_true(pms_diff_add_file(d, PMS_DIFF_NEW, "/nonexistent/new.data") < 0);
    assert_non_null(strstr(pms_strerror(), "/nonexistent/new.data"));
    pms_diff_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_proportions),
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
