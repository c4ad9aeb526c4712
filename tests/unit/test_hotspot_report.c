/* pmuscope/hotspot_report.h: the sweep's CSV and SVG go to the caller's stream, read
 * back here; a stream that fails gives PMS_EIO instead of a printed message. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pms_hotspot_sweep two_periods(void)
{
    pms_hotspot_sweep sw = {.event = "cpu-clock", .time_based = 1, .nperiods = 2};
    sw.points[0] = (pms_hotspot_sweep_point){.period = 65536, .samples = 900, .valid = 1};
    sw.points[0].result.measures = (pms_hotspot_measures){.m = 40, .nrmse_sr = 0.25, .sc = 0.5, .od = 0.125};
    sw.points[1] = (pms_hotspot_sweep_point){.period = 1048576, .samples = 60, .valid = 1};
    sw.points[1].result.measures = (pms_hotspot_measures){.m = 7, .nrmse_sr = 0.75, .sc = 0.25, .od = 2};
    return sw;
}

static void test_sweep_csv(void **state)
{
    (void)state;
    pms_hotspot_sweep sw = two_periods();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(pms_hotspot_write_sweep_csv(f, &sw), PMS_OK);
    fclose(f);
    pms_table *t;
    assert_int_equal(pms_table_parse(buf, len, "csv", NULL, &t), PMS_OK);
    size_t col;
    const double *v;
    assert_int_equal(pms_table_require(t, "period_ns", &col), PMS_OK); /* the column names the unit */
    assert_int_equal(pms_table_numeric(t, col, false, &v), PMS_OK);
    assert_true(v[0] == 65536 && v[1] == 1048576);
    assert_int_equal(pms_table_require(t, "OD", &col), PMS_OK);
    assert_int_equal(pms_table_numeric(t, col, false, &v), PMS_OK);
    assert_true(v[0] == 0.125 && v[1] == 2);
    assert_int_equal(pms_table_require(t, "OD_covered", &col), PMS_OK);
    assert_int_equal(pms_table_require(t, "no_truth_share", &col), PMS_OK);
    pms_table_free(t);
    free(buf);
}

static void test_sweep_svg_and_failing_stream(void **state)
{
    (void)state;
    pms_hotspot_sweep sw = two_periods();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(pms_hotspot_write_sweep_svg(f, &sw), PMS_OK);
    fclose(f);
    assert_non_null(strstr(buf, "<svg"));
    assert_non_null(strstr(buf, "Order deviation OD"));
    free(buf);
    FILE *full = fopen("/dev/full", "w");
    assert_non_null(full);
    assert_int_equal(pms_hotspot_write_sweep_csv(full, &sw), PMS_EIO);
    fclose(full);
}

/* The sweep's event: software events as given, cycles:u or its time stand-in by default,
 * and a name that does not parse told apart from one this machine cannot sample. */
static void test_sweep_event(void **s)
{
    (void)s;
    pms_hotspot_sweep sw = {0};
    bool refused = true;
    assert_int_equal(pms_hotspot_sweep_choose_event(&sw, "task-clock", false, &refused), PMS_OK);
    assert_string_equal(sw.event, "task-clock");
    assert_int_equal(sw.time_based, 1);
    assert_false(refused);
    assert_int_equal(pms_hotspot_sweep_choose_event(&sw, "page-faults", false, NULL), PMS_OK);
    assert_int_equal(sw.time_based, 0);
    assert_int_equal(pms_hotspot_sweep_choose_event(&sw, NULL, false, NULL), PMS_OK);
    if (strcmp(sw.event, "cycles:u") == 0) assert_int_equal(sw.time_based, 0);
    else assert_int_equal(sw.time_based, 1); /* no PMU: the time event stands in */
    int rc = pms_hotspot_sweep_choose_event(&sw, "cycles:u", false, &refused);
    if (rc == PMS_OK) assert_string_equal(sw.event, "cycles:u");
    else assert_true(refused); /* the machine's no, not the name's */
    assert_true(pms_hotspot_sweep_choose_event(&sw, "no-such-event-here", true, &refused) < 0);
    assert_false(refused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_csv),
        cmocka_unit_test(test_sweep_svg_and_failing_stream),
        cmocka_unit_test(test_sweep_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
