/* perf stat output: exact lines for hand-made values (the layout of perf 6.1's plain and
 * -x output), derived metrics, averaging of runs, the wide and runs tables, CSV quoting;
 * and the multi-run schedule's split and merge. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/schedule.h"
#include "pmuscope/statfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void capture_begin(FILE **f, char **buf, size_t *len)
{
    *f = open_memstream(buf, len);
    if (!*f) fail_msg("open_memstream failed");
}

#define value(...) pms_test_stat_value(__VA_ARGS__)

static void test_csv_matches_perf_columns(void **state)
{
    (void)state;
    /* perf stat -x, -e task-clock,page-faults true printed:
     *   0.87,msec,task-clock,874988,100.00,0.760,CPUs utilized
     *   48,,page-faults,874988,100.00,54.858,K/sec */
    pms_stat_value v[3] = {value("task-clock", 874988, 874988, 874988), value("page-faults", 48, 874988, 874988),
                           value("cs", 0, 100, 0)};
    FILE *f;
    char *buf = NULL;
    size_t len;
    capture_begin(&f, &buf, &len);
    pms_stat_print_csv(f, ",", -1, 874988e-9 / 0.760, 1, v, 3);
    fclose(f);
    assert_string_equal(buf, "0.87,msec,task-clock,874988,100.00,0.760,CPUs utilized\n"
                             "48,,page-faults,874988,100.00,54.858,K/sec\n"
                             "<not counted>,,cs,0,100.00,,\n");
    free(buf);

    /* with a time column and a separator other than ',' */
    capture_begin(&f, &buf, &len);
    pms_stat_print_csv(f, ";", 0.100203261, 0.1, 1, v + 1, 1);
    fclose(f);
    assert_string_equal(buf, "     0.100203261;48;;page-faults;874988;100.00;;\n");
    free(buf);
}

static void test_plain_layout(void **state)
{
    (void)state;
    /* multiplexed: raw 24 running half the time -> 48, "(50.00%)"; with no windows known, the
     * uncertainty is the whole unseen part, 24: 50% */
    pms_stat_value v[2] = {value("task-clock", 960000, 960000, 960000), value("page-faults", 24, 1000, 500)};
    assert_close(v[1].value, 48.0, 0);
    pms_stat_summary s = {.target = "'true'", .runs = 1, .elapsed_s = 0.001791045, .has_rusage = true,
                          .user_s = 0.001738, .sys_s = 0};
    FILE *f;
    char *buf = NULL;
    size_t len;
    capture_begin(&f, &buf, &len);
    pms_stat_print_plain(f, &s, v, 2);
    fclose(f);
    assert_string_equal(buf,
                        "\n Performance counter stats for 'true':\n\n"
                        "              0.96 msec task-clock                       #    0.536 CPUs utilized          \n"
                        "                48      page-faults                      #   50.000 K/sec                    "
                        "( +- 50.00% multiplexing )  (50.00%)\n"
                        "\n       0.001791045 seconds time elapsed\n"
                        "\n       0.001738000 seconds user\n       0.000000000 seconds sys\n\n");
    free(buf);
}

static void test_metrics(void **state)
{
    (void)state;
    pms_stat_value v[6] = {value("cycles", 3000000000ULL, 1, 1),      value("instructions", 6000000000ULL, 1, 1),
                           value("task-clock", 1500000000ULL, 1, 1), value("branches", 1000, 1, 1),
                           value("branch-misses", 25, 1, 1),          value("context-switches", 3000000, 1, 1)};
    double m;
    const char *unit;
    assert_true(pms_stat_metric(v, 6, 1, 2.0, &m, &unit));
    assert_string_equal(unit, "insn per cycle");
    assert_close(m, 2.0, 1e-12);
    assert_true(pms_stat_metric(v, 6, 0, 2.0, &m, &unit));
    assert_string_equal(unit, "GHz");
    assert_close(m, 2.0, 1e-12); /* 3e9 cycles in 1.5 s of task-clock */
    assert_true(pms_stat_metric(v, 6, 2, 2.0, &m, &unit));
    assert_string_equal(unit, "CPUs utilized");
    assert_close(m, 0.75, 1e-12);
    assert_true(pms_stat_metric(v, 6, 4, 2.0, &m, &unit));
    assert_string_equal(unit, "of all branches");
    assert_close(m, 2.5, 1e-12);
    assert_true(pms_stat_metric(v, 6, 5, 2.0, &m, &unit));
    assert_string_equal(unit, "M/sec");
    assert_close(m, 2.0, 1e-12);
    assert_false(pms_stat_metric(v + 3, 2, 0, 2.0, &m, &unit)); /* branches without task-clock: none */
}

static void test_average_runs(void **state)
{
    (void)state;
    /* values 10, 12, 14: mean 12, sample sd 2, sd of the mean 2/sqrt(3) = 1.1547 -> 9.6225% */
    pms_stat_value runs[3] = {value("page-faults", 10, 5, 5), value("page-faults", 12, 5, 5),
                              value("page-faults", 14, 5, 5)};
    pms_stat_value avg;
    assert_int_equal(pms_stat_average_runs(runs, 3, 1, &avg), PMS_OK);
    assert_close(avg.value, 12.0, 1e-12);
    assert_close(avg.rel_stddev, 100.0 * 2.0 / sqrt(3.0) / 12.0, 1e-9);
    assert_close(pms_stat_cv(runs, 3, 1, 0), 100.0 * 2.0 / 12.0, 1e-9);
    assert_true(isnan(pms_stat_cv(runs, 1, 1, 0)));
    /* a mean of 0 (a CPU that never faulted in -a -A -r 2): perf's rel_stddev_stats prints 0.00%, not nothing */
    pms_stat_value zero[2] = {value("page-faults", 0, 5, 5), value("page-faults", 0, 5, 5)};
    assert_int_equal(pms_stat_average_runs(zero, 2, 1, &avg), PMS_OK);
    assert_true(avg.rel_stddev == 0.0);
    assert_int_equal(pms_stat_average_runs(zero, 1, 1, &avg), PMS_OK);
    assert_true(isnan(avg.rel_stddev));
}

static void test_wide_and_runs_tables(void **state)
{
    (void)state;
    pms_stat_value v[3] = {value("task-clock", 2500000, 1, 1), value("page-faults", 7, 1, 1),
                           value("page-faults", 0, 1, 0)};
    snprintf(v[2].name, sizeof v[2].name, "%s", "cpu/event=1,umask=2/");
    FILE *f;
    char *buf = NULL;
    size_t len;
    capture_begin(&f, &buf, &len);
    pms_stat_wide_header(f, v, 3);
    pms_stat_wide_row(f, 0.1, v, 3);
    pms_stat_runs_header(f, v, 2);
    pms_stat_runs_row(f, 50, v, 2);
    fclose(f);
    assert_string_equal(buf, "time,task-clock,page-faults,\"cpu/event=1,umask=2/\"\n"
                             "0.100000000,2.50,7,\n"
                             "run,size,task-clock,page-faults\n"
                             "TEST50,50,2.50,7\n");
    free(buf);
}

static pms_event parse(const char *spec)
{
    pms_event ev;
    if (pms_event_parse(spec, &ev) != PMS_OK) fail_msg("%s", pms_strerror());
    return ev;
}

static void test_schedule_split_and_merge(void **state)
{
    (void)state;
    pms_event anchor = parse("task-clock");
    pms_event evs[5] = {parse("page-faults"), parse("cs"), parse("minor-faults"), parse("major-faults"),
                        parse("cpu-migrations")};
    for (int i = 0; i < 5; i++) evs[i].group = i;
    pms_schedule *s;
    assert_int_equal(pms_schedule_create(&anchor, 1, evs, 5, 2, &s), PMS_OK);
    assert_int_equal(pms_schedule_runs(s), 3);
    size_t n;
    const pms_event *run = pms_schedule_run_events(s, 2, &n);
    assert_int_equal(n, 2); /* the anchor and the fifth event */
    assert_string_equal(run[0].name, "task-clock");
    assert_string_equal(run[1].name, "cpu-migrations");
    assert_int_equal(run[0].group, run[1].group);
    pms_stat_value merged[6];
    double cv[1];
    assert_int_equal(pms_schedule_merge(s, merged, cv), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "run 1 of 3 was not measured"));
    /* anchor 10, 12, 14 ms; event k counts 100 + k */
    for (size_t r = 0; r < 3; r++) {
        pms_count c[3] = {{.raw = (10 + 2 * r) * 1000000, .enabled = 1, .running = 1},
                          {.raw = 100 + 2 * r, .enabled = 1, .running = 1},
                          {.raw = 101 + 2 * r, .enabled = 1, .running = 1}};
        for (int k = 0; k < 3; k++) pms_count_scale(&c[k]);
        assert_int_equal(pms_schedule_record(s, r, c), PMS_OK);
    }
    assert_int_equal(pms_schedule_merge(s, merged, cv), PMS_OK);
    assert_string_equal(merged[0].name, "task-clock");
    assert_close(merged[0].value, 12.0, 1e-12);
    assert_close(cv[0], 100.0 * 2.0 / 12.0, 1e-9);
    for (int k = 0; k < 5; k++) {
        assert_string_equal(merged[1 + k].name, evs[k].name);
        assert_close(merged[1 + k].value, 100.0 + k, 0);
    }
    pms_schedule_destroy(s);
    /* per_run 0 probes: software events take no counter, so all fit in one run */
    assert_int_equal(pms_schedule_create(&anchor, 1, evs, 5, 0, &s), PMS_OK);
    assert_int_equal(pms_schedule_runs(s), 1);
    assert_int_equal(pms_schedule_per_run(s), 5);
    pms_schedule_destroy(s);
    /* events that are anchors are measured in every run anyway: left out */
    pms_event with_anchor[2] = {parse("task-clock"), parse("page-faults")};
    assert_int_equal(pms_schedule_create(&anchor, 1, with_anchor, 2, 1, &s), PMS_OK);
    assert_int_equal(pms_schedule_anchor_count(s), 1);
    assert_int_equal(pms_schedule_event_count(s), 1);
    pms_schedule_destroy(s);
    assert_int_equal(pms_schedule_create(&anchor, 1, with_anchor, 1, 1, &s), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "every event is an anchor"));
}

static void test_capacity_of_software_events(void **state)
{
    (void)state;
    pms_event anchor = parse("task-clock"), evs[2] = {parse("page-faults"), parse("cs")};
    unsigned cap = 0;
    assert_int_equal(pms_schedule_probe_capacity(&anchor, 1, evs, 2, &cap), PMS_OK);
    assert_int_equal(cap, 2); /* software events take no counter */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_matches_perf_columns),
        cmocka_unit_test(test_plain_layout),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_average_runs),
        cmocka_unit_test(test_wide_and_runs_tables),
        cmocka_unit_test(test_schedule_split_and_merge),
        cmocka_unit_test(test_capacity_of_software_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
