/* Runs from perf stat -I output and program windows, two event lists merged by
 * program (the layout of the ARM cBench raw files), on hand-made files whose
 * sums are worked out below. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/estimate.h"

#include <stdio.h>
#include <string.h>

/* Intervals end at 0.5 .. 3.0 s after Start; an interval goes to the window
 * holding its middle (0.5 for the first): rows 1-2 -> progA (0 .. 1.2 s),
 * rows 3-5 -> progB (1.2 .. 2.6 s), row 6 (middle 2.75 s) -> no program. */
static const char list1[] = "Start:\t1481219964000000000\n"
                            "Event 1 Label:\tCPU_CYCLES\t\tRAW Identifier:\tcycles\n"
                            "Event 2 Label:\tINST_RETIRED\t\tRAW Identifier:\tr008\n"
                            "     0.500000000\t100\tcycles\n     0.500000000\t10\tr008\n"
                            "     1.000000000\t200\tcycles\n     1.000000000\t20\tr008\n"
                            "     1.500000000\t400\tcycles\n     1.500000000\t40\tr008\n"
                            "     2.000000000\t800\tcycles\n     2.000000000\t80\tr008\n"
                            "     2.500000000\t1600\tcycles\n     2.500000000\t160\tr008\n"
                            "     3.000000000\t3200\tcycles\n     3.000000000\t320\tr008\n";
static const char list2[] = "Start:\t1481219964000000000\n"
                            "Event 1 Label:\tCPU_CYCLES\t\tRAW Identifier:\tcycles\n"
                            "Event 2 Label:\tBRANCH_MISPRED\t\tRAW Identifier:\tr010\n"
                            "     0.500000000\t101\tcycles\n     0.500000000\t1\tr010\n"
                            "     1.000000000\t201\tcycles\n     1.000000000\t2\tr010\n"
                            "     1.500000000\t401\tcycles\n     1.500000000\t4\tr010\n"
                            "     2.000000000\t801\tcycles\n     2.000000000\t8\tr010\n"
                            "     2.500000000\t1601\tcycles\n     2.500000000\t16\tr010\n"
                            "     3.000000000\t3201\tcycles\n     3.000000000\t32\tr010\n";
static const char windows[] = "#Name\tStart(ns)\tEnd(ns)\n"
                              "progA\t1481219964000000000\t1481219965200000000\n"
                              "progB\t1481219965200000000\t1481219966600000000\n";

static void test_two_lists_merged_by_program(void **state)
{
    (void)state;
    char i1[256], i2[256], w1[256], w2[256];
    snprintf(i1, sizeof i1, "%s", pms_test_write_temp(".data", list1, strlen(list1)));
    snprintf(i2, sizeof i2, "%s", pms_test_write_temp(".data", list2, strlen(list2)));
    snprintf(w1, sizeof w1, "%s", pms_test_write_temp(".data", windows, strlen(windows)));
    snprintf(w2, sizeof w2, "%s", pms_test_write_temp(".data", windows, 70)); /* header + progA only */
    const char *ip[] = {i1, i2}, *wp[] = {w1, w1};
    pms_runs *r;
    assert_int_equal(pms_runs_sum_windows(ip, wp, 2, NULL, &r), PMS_OK);
    assert_int_equal(r->n_runs, 2);
    assert_string_equal(r->labels[0], "progA");
    assert_string_equal(r->labels[1], "progB");
    assert_string_equal(r->cycles_name, "CPU_CYCLES");
    assert_int_equal(r->n_counters, 2); /* the cycles anchor of list 2 is not a second counter */
    assert_string_equal(r->counters[0], "INST_RETIRED");
    assert_string_equal(r->counters[1], "BRANCH_MISPRED");
    assert_close(r->cycles[0], 100 + 200, 0);
    assert_close(r->cycles[1], 400 + 800 + 1600, 0);
    assert_close(r->events[0], 10 + 20, 0);
    assert_close(r->events[1], 1 + 2, 0);
    assert_close(r->events[2], 40 + 80 + 160, 0);
    assert_close(r->events[3], 4 + 8 + 16, 0);
    pms_runs_destroy(r);

    /* a program of list 1 with no window in list 2 */
    wp[1] = w2;
    assert_true(pms_runs_sum_windows(ip, wp, 2, NULL, &r) < 0);
    assert_non_null(strstr(pms_strerror(), "program progB of"));
    /* a program shorter than an interval gets none */
    const char tiny[] = "#Name\tStart(ns)\tEnd(ns)\nprogA\t1481219964000000000\t1481219965200000000\n"
                        "progC\t1481219966600000000\t1481219966700000000\n";
    wp[0] = pms_test_write_temp(".data", tiny, strlen(tiny));
    assert_true(pms_runs_sum_windows(ip, wp, 1, NULL, &r) < 0);
    assert_non_null(strstr(pms_strerror(), "line 3: no interval of"));
    assert_non_null(strstr(pms_strerror(), "falls in the window of progC"));
    remove(wp[0]);
    /* a window that ends before it starts */
    const char bad[] = "#Name\tStart(ns)\tEnd(ns)\nprogA\t20\t10\n";
    wp[0] = pms_test_write_temp(".data", bad, strlen(bad));
    assert_true(pms_runs_sum_windows(ip, wp, 1, NULL, &r) < 0);
    assert_non_null(strstr(pms_strerror(), "line 2: the window of progA ends before it starts"));
    remove(i1), remove(i2), remove(w1), remove(w2), remove(wp[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_lists_merged_by_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
