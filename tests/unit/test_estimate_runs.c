/* Runs tables: reading, choosing runs, and summing interval tables into runs
 * (checked against awk's sums of the same ARM cBench intervals). */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/estimate.h"
#include "pmuscope/estimate_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_read_stat_runs_table(void **state)
{
    (void)state;
    pms_runs *r;
    assert_int_equal(pms_runs_read(pms_test_fixture("estimate/sizes_runs.csv"), NULL, NULL, &r), PMS_OK);
    assert_int_equal(r->n_runs, 11);
    assert_string_equal(r->cycles_name, "cycles");
    assert_int_equal(r->n_counters, 5); /* size is not a counter */
    assert_string_equal(r->counters[0], "instructions");
    assert_string_equal(r->counters[2], "branch-misses");
    assert_string_equal(r->labels[10], "TEST50");
    assert_close(r->cycles[10], 4175793993.0, 0);
    assert_close(r->events[10 * 5 + 3], 777161.0, 0);
    assert_int_equal(r->lines[10], 12);
    assert_true(pms_runs_numbered(r));

    size_t *idx, n;
    assert_int_equal(pms_runs_select(r, "1-10", false, &idx, &n), PMS_OK);
    assert_int_equal(n, 10);
    assert_int_equal(idx[9], 9);
    free(idx);
    assert_int_equal(pms_runs_select(r, "50", false, &idx, &n), PMS_OK);
    assert_int_equal(n, 1);
    assert_int_equal(idx[0], 10);
    free(idx);
    assert_int_equal(pms_runs_select(r, "11", false, &idx, &n), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "no run is numbered 11"));
    assert_int_equal(pms_runs_select(r, "11", true, &idx, &n), PMS_OK); /* the 11th row */
    assert_int_equal(idx[0], 10);
    free(idx);
    assert_int_equal(pms_runs_select(r, "3-x", false, &idx, &n), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "expected numbers and ranges"));

    const char *copy = pms_test_write_temp(".csv", "", 0);
    FILE *f = fopen(copy, "w");
    assert_non_null(f);
    assert_int_equal(pms_runs_write_csv(r, f), PMS_OK);
    assert_int_equal(fclose(f), 0);
    pms_runs *back;
    assert_int_equal(pms_runs_read(copy, NULL, NULL, &back), PMS_OK);
    assert_int_equal(back->n_counters, 5);
    for (size_t j = 0; j < r->n_runs; j++) {
        assert_string_equal(back->labels[j], r->labels[j]);
        assert_close(back->cycles[j], r->cycles[j], 0);
        for (size_t i = 0; i < 5; i++) assert_close(back->events[j * 5 + i], r->events[j * 5 + i], 0);
    }
    pms_runs_destroy(back);
    pms_runs_destroy(r);
    remove(copy);
}

static void expect_read_error(const char *csv, const char *cycles, const char *what)
{
    const char *path = pms_test_write_temp(".csv", csv, strlen(csv));
    pms_runs *r = NULL;
    assert_true(pms_runs_read(path, cycles, NULL, &r) < 0);
    assert_null(r);
    if (!strstr(pms_strerror(), what) || !strstr(pms_strerror(), path))
        fail_msg("message '%s' lacks '%s' or the file name", pms_strerror(), what);
    remove(path);
}

static void test_bad_runs_tables(void **state)
{
    (void)state;
    expect_read_error("run,size,cycles,instructions\nTEST1,1,100,50\nTEST2,2,0,90\n", NULL, "line 3: run TEST2: cycles is 0");
    expect_read_error("run,size,cycles,instructions\nTEST1,1,100,50\nTEST2,2,-5,90\n", NULL,
                      ":3:3: column 'cycles': expected a count (0 or more), found -5, a negative count");
    expect_read_error("run,size,cycles,instructions\nTEST1,1,100,50\nTEST2,2,200,-1\n", NULL,
                      ":3:4: column 'instructions': expected a count (0 or more), found -1, a negative count");
    expect_read_error("run,size,cycles,instructions\nTEST1,1,100,50\nTEST2,2,200,\n", NULL,
                      ":3:4: column 'instructions': expected a count (0 or more), found an empty or NaN cell");
    expect_read_error("run,size,cycles,instructions\nTEST1,1,100,50\nTEST2,2,,90\n", NULL,
                      ":3:3: column 'cycles': expected a count (0 or more), found an empty or NaN cell");
    expect_read_error("run,cycles,instructions\nTEST1,100,50\nTEST2,200,<not counted>\n", NULL,
                      ":3:3: column 'instructions': expected a count (0 or more), found '<not counted>'");
    /* one bad cell in a counter column: the counter is not left out unnoticed (it was: 12 counters became 11) */
    expect_read_error("run,cycles,instructions,branches\nTEST1,100,50,7\nTEST2,200,90,abc\nTEST3,300,95,9\n", NULL,
                      ":3:4: column 'branches': expected a count (0 or more), found 'abc'");
    /* the ARM interval table read as runs: refused, naming the option that reads it */
    expect_read_error("Timestamp\tBenchmark\tRun(#)\tCPU_CYCLES\tINST_RETIRED\n1481276182904018774\tbitcount\t1\t100\t50\n"
                      "1481276183412774900\tbitcount\t1\t200\t90\n", NULL,
                      "an interval table (the ARM cBench layout: first column 'Timestamp', 2 rows), not one row per run");
    expect_read_error("run,cycles,instructions\n", NULL, "no runs");
    expect_read_error("run,cycles,instructions\nTEST1,100,50\n", "cpu-cycles", "cpu-cycles");
    expect_read_error("run,cycles\nTEST1,100\n", NULL, "expected a run label, a cycles column and counter columns");
}

/* awk's sum of one column of the excerpt over the rows of one program and repetition. */
static double awk_sum(const char *tsv, const char *program, int rep, const char *column)
{
    const char *out = pms_test_write_temp(".txt", "", 0);
    assert_int_equal(pms_test_system("awk -F'\\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") c = i; next }"
                                     " $2 == \"%s\" && $3 == %d { s += $c } END { printf \"%%.0f\\n\", s }' %s > %s",
                                     column, program, rep, tsv, out),
                     0);
    FILE *f = fopen(out, "r");
    double v = NAN;
    assert_int_equal(fscanf(f, "%lf", &v), 1);
    fclose(f);
    remove(out);
    return v;
}

static void test_sum_armpm_intervals(void **state)
{
    (void)state;
    char tsv[1024];
    snprintf(tsv, sizeof tsv, "%s", pms_test_fixture("estimate/armpm_intervals_excerpt.tsv"));
    pms_runs *r;
    assert_int_equal(pms_runs_sum_intervals(tsv, NULL, NULL, NULL, &r), PMS_OK);
    assert_int_equal(r->n_runs, 6);
    assert_string_equal(r->cycles_name, "CPU_CYCLES");
    assert_int_equal(r->n_counters, 12); /* SW_INCR .. BRANCH_PRED; no sensor column */
    for (size_t i = 0; i < r->n_counters; i++) assert_null(strchr(r->counters[i], '('));
    static const char *const programs[] = {"automotive_bitcount", "bzip2d", "security_sha"};
    for (size_t j = 0; j < r->n_runs; j++) {
        char prog[64];
        int freq, rep;
        assert_int_equal(sscanf(r->labels[j], "%63[^/]/%d/%d", prog, &freq, &rep), 3);
        assert_int_equal(freq, 2000);
        assert_string_equal(prog, programs[j % 3]);
        assert_close(r->cycles[j], awk_sum(tsv, prog, rep, "CPU_CYCLES"), 0);
        for (size_t i = 0; i < r->n_counters; i += 4)
            assert_close(r->events[j * r->n_counters + i], awk_sum(tsv, prog, rep, r->counters[i]), 0);
    }
    pms_runs_destroy(r);

    /* by hand: one run per program, both repetitions together */
    const char *group[] = {"Benchmark", NULL};
    const char *ignore[] = {"Run(#)", "CPU(4) Frequency(MHz)", "CPU(4) Temperature(C)", "A15 Voltage(V)",
                            "A15 Current(A)", "A15 Power(W)", NULL};
    assert_int_equal(pms_runs_sum_intervals(tsv, group, ignore, NULL, &r), PMS_OK);
    assert_int_equal(r->n_runs, 3);
    assert_int_equal(r->n_counters, 12);
    assert_string_equal(r->labels[1], "bzip2d");
    assert_close(r->cycles[1], awk_sum(tsv, "bzip2d", 1, "CPU_CYCLES") + awk_sum(tsv, "bzip2d", 2, "CPU_CYCLES"), 0);
    pms_runs_destroy(r);

    const char *missing[] = {"Program", NULL};
    assert_true(pms_runs_sum_intervals(tsv, missing, NULL, NULL, &r) < 0);
    assert_non_null(strstr(pms_strerror(), "Program"));
}

static void test_sum_needs_a_layout(void **state)
{
    (void)state;
    const char *csv = "time,cycles,instructions\n1,100,50\n2,200,90\n";
    const char *path = pms_test_write_temp(".csv", csv, strlen(csv));
    pms_runs *r;
    assert_true(pms_runs_sum_intervals(path, NULL, NULL, NULL, &r) < 0);
    assert_non_null(strstr(pms_strerror(), "name the columns that identify a run"));
    assert_string_equal(pms_error_option(), "group_by"); /* the library names its option, not a flag */
    remove(path);
}

/* pms_runs_load reads what the three readers read, and checks its paths;
 * pms_estimate_prepare says which runs overlap and when label numbers clash. */
static void test_load_and_prepare(void **state)
{
    (void)state;
    const char *table[] = {pms_test_fixture("estimate/sizes_runs.csv"), NULL};
    pms_runs_input in = {PMS_RUNS_TABLE, table, NULL, NULL, NULL, NULL};
    pms_runs *r, *direct;
    assert_int_equal(pms_runs_load(&r, &in), PMS_OK);
    assert_int_equal(pms_runs_read(table[0], NULL, NULL, &direct), PMS_OK);
    assert_int_equal(r->n_runs, direct->n_runs);
    assert_int_equal(r->n_counters, direct->n_counters);
    for (size_t j = 0; j < r->n_runs; j++) assert_close(r->cycles[j], direct->cycles[j], 0);
    pms_runs_destroy(direct);

    pms_estimate_spec spec = {"1-10", "9-10,50", false, NULL};
    pms_estimate_data d;
    assert_int_equal(pms_estimate_prepare(r, &spec, &d), PMS_OK);
    assert_false(d.number_clash);
    assert_int_equal(d.n_overlap, 2);
    assert_string_equal(r->labels[d.overlap[0]], "TEST9");
    assert_string_equal(r->labels[d.overlap[1]], "TEST10");
    pms_estimate_data_free(&d);
    pms_runs_destroy(r);

    const char *csv = "run,cycles,instructions\na1,100,50\nb1,200,90\nc2,310,140\nd3,390,180\n";
    const char *clash[] = {pms_test_write_temp(".csv", csv, strlen(csv)), NULL};
    in.paths = clash;
    assert_int_equal(pms_runs_load(&r, &in), PMS_OK);
    spec = (pms_estimate_spec){"1-3", "9", false, NULL};
    assert_int_equal(pms_estimate_prepare(r, &spec, &d), PMS_EINVAL); /* row numbers: there is no 9th */
    assert_true(d.number_clash);
    assert_string_equal(r->labels[d.clash[0]], "a1");
    assert_string_equal(r->labels[d.clash[1]], "b1");
    pms_estimate_data_free(&d);
    spec.by_index = true;
    spec.test = "4";
    assert_int_equal(pms_estimate_prepare(r, &spec, &d), PMS_OK);
    assert_false(d.number_clash); /* row numbers were asked for */
    assert_int_equal(d.n_overlap, 0);
    pms_estimate_data_free(&d);
    pms_runs_destroy(r);
    remove(clash[0]);

    const char *two[] = {"a.csv", "b.csv", NULL}, *one_window[] = {"w", NULL};
    in = (pms_runs_input){PMS_RUNS_TABLE, two, NULL, NULL, NULL, NULL};
    assert_int_equal(pms_runs_load(&r, &in), PMS_EINVAL);
    assert_null(r);
    in.format = PMS_RUNS_WINDOWS;
    in.windows = one_window;
    assert_int_equal(pms_runs_load(&r, &in), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "2 interval files but 1 window files"));
    in.paths = NULL;
    assert_int_equal(pms_runs_load(&r, &in), PMS_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_stat_runs_table),
        cmocka_unit_test(test_bad_runs_tables),
        cmocka_unit_test(test_sum_armpm_intervals),
        cmocka_unit_test(test_sum_needs_a_layout),
        cmocka_unit_test(test_load_and_prepare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
