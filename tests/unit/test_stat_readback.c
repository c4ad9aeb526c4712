/* What `pmuscope stat -I` writes is what the interval readers of src/io read: the -x CSV
 * and the plain form through pms_perfstat_read, the --wide table through
 * pms_interval_table_read, with the same numbers in every form. */
#include "test_support.h"
#include "pmuscope/counter.h"
#include "pmuscope/error.h"
#include "pmuscope/perfstat.h"
#include "pmuscope/statfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct writers {
    FILE *csv, *plain, *wide;
    const pms_event *events;
    size_t n, intervals;
    double page_faults; /* summed over the intervals */
};

static int on_interval(double t, const pms_count *d, size_t n, void *ctx)
{
    struct writers *w = ctx;
    pms_stat_value v[4];
    for (size_t i = 0; i < n; i++) pms_stat_value_set(&v[i], &w->events[i], &d[i]);
    pms_stat_print_csv(w->csv, ",", t, 0.05, 1, v, n);
    pms_stat_print_plain_interval(w->plain, t, 0.05, v, n, w->intervals == 0);
    if (w->intervals == 0) pms_stat_wide_header(w->wide, v, n);
    pms_stat_wide_row(w->wide, t, v, n);
    w->page_faults += v[1].state == PMS_COUNT_COUNTED ? v[1].value : 0;
    w->intervals++;
    return 0;
}

static double column_sum(const pms_table *t, const char *name)
{
    size_t col;
    if (pms_table_require(t, name, &col) != PMS_OK) fail_msg("%s", pms_strerror());
    const double *x;
    if (pms_table_numeric(t, col, true, &x) != PMS_OK) fail_msg("%s", pms_strerror());
    double s = 0;
    for (size_t r = 0; r < pms_table_rows(t); r++) s += isnan(x[r]) ? 0 : x[r];
    return s;
}

static void test_interval_outputs_read_back(void **state)
{
    (void)state;
    pms_event *evs;
    size_t n;
    assert_int_equal(pms_event_list_parse("task-clock,page-faults", &evs, &n), PMS_OK);
    char csv[] = "/tmp/pms-readback-XXXXXX", plain[] = "/tmp/pms-readback-XXXXXX", wide[] = "/tmp/pms-readback-XXXXXX";
    close(mkstemp(csv)), close(mkstemp(plain)), close(mkstemp(wide));
    struct writers w = {fopen(csv, "w"), fopen(plain, "w"), fopen(wide, "w"), evs, n, 0, 0};
    assert_non_null(w.csv);
    assert_non_null(w.plain);
    assert_non_null(w.wide);
    pms_counter *c;
    assert_int_equal(pms_counter_create(evs, n, 0, &c), PMS_OK);
    /* the phases workload: about 0.2 s, its page faults at the start */
    char prog[1024];
    snprintf(prog, sizeof prog, "%s/phases", getenv("PMS_WORKLOADS") ? getenv("PMS_WORKLOADS") : "workloads");
    char *argv[] = {prog, "--units", "250", "--repeat", "1", NULL};
    pms_count tot[2];
    pms_measure_result res;
    pms_measure_opts o = {.interval_ms = 50, .on_interval = on_interval, .ctx = &w};
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_OK);
    fclose(w.csv), fclose(w.plain), fclose(w.wide);
    assert_true(w.intervals >= 2);
    assert_close(w.page_faults, (double)tot[1].raw, 1e-12); /* intervals add up to the total */

    const char *files[] = {csv, plain, wide};
    for (int k = 0; k < 3; k++) {
        pms_table *t;
        int r = k < 2 ? pms_perfstat_read(files[k], &t) : pms_interval_table_read(files[k], &t);
        if (r != PMS_OK) fail_msg("%s", pms_strerror());
        assert_int_equal(pms_table_rows(t), w.intervals);
        assert_close(column_sum(t, "page-faults"), w.page_faults, 1e-12);
        assert_true(column_sum(t, "task-clock") > 0);
        pms_table_free(t);
    }
    remove(csv), remove(plain), remove(wide);
    pms_counter_destroy(c);
    free(evs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_interval_outputs_read_back)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
