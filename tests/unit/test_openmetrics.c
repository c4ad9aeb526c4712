/* The exposition of counting results (pmuscope/openmetrics.h), written exactly: both formats
 * of one snapshot, label escapes, a value per CPU and per cgroup, the metrics of the last
 * interval (rates, IPC, misses per kilo-instruction), phases and the target. The served text
 * is also checked by promtool and Python's OpenMetrics parser (integration/stat_serve.sh) and
 * scraped by a real Prometheus server (integration/stat_prometheus.sh). */
#include "test_support.h"

#include "pmuscope/error.h"
#include "pmuscope/openmetrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *write_exposition(const pms_exposition *e, pms_exposition_format f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    assert_int_equal(pms_exposition_write(m, e, f), PMS_OK);
    fclose(m);
    return text;
}

/* Lines of text that are samples (not # lines), in order. */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p += n)
        if ((p == text || p[-1] == '\n') && p[n] == '\n') return 1;
    return 0;
}

static void test_totals_both_formats(void **state)
{
    (void)state;
    pms_stat_value v[2] = {pms_test_stat_value("task-clock", 1500000000, 1500000000, 1500000000),
                           pms_test_stat_value("page-faults", 12345, 1500000000, 1500000000)};
    pms_exposition e = {.totals = v, .n = 2, .created = 1700000000.5, .target_running = 1};
    char *om = write_exposition(&e, PMS_EXPOSITION_OPENMETRICS);
    /* task-clock in nanoseconds, whole; _created beside each counter; times in seconds */
    assert_true(has_line(om, "# TYPE pmuscope_events counter"));
    assert_true(has_line(om, "pmuscope_events_total{event=\"task-clock\"} 1500000000"));
    assert_true(has_line(om, "pmuscope_events_created{event=\"task-clock\"} 1700000000.5"));
    assert_true(has_line(om, "pmuscope_events_total{event=\"page-faults\"} 12345"));
    assert_true(has_line(om, "# UNIT pmuscope_event_enabled_seconds seconds"));
    assert_true(has_line(om, "pmuscope_event_enabled_seconds_total{event=\"page-faults\"} 1.5"));
    assert_true(has_line(om, "pmuscope_event_uncertainty{event=\"page-faults\"} 0"));
    assert_true(has_line(om, "pmuscope_target_running 1"));
    assert_null(strstr(om, "pmuscope_events_per_second")); /* no interval yet */
    assert_string_equal(om + strlen(om) - 6, "# EOF\n");

    char *text = write_exposition(&e, PMS_EXPOSITION_TEXT);
    assert_true(has_line(text, "# TYPE pmuscope_events_total counter"));
    assert_true(has_line(text, "pmuscope_events_total{event=\"page-faults\"} 12345"));
    assert_null(strstr(text, "_created"));
    assert_null(strstr(text, "# UNIT"));
    assert_null(strstr(text, "# EOF"));
    free(om);
    free(text);
}

static void test_labels(void **state)
{
    (void)state;
    pms_stat_value v[3] = {pms_test_stat_value("page-faults", 7, 10, 10), pms_test_stat_value("page-faults", 9, 10, 10),
                           pms_test_stat_value("r01:u", 3, 10, 10)};
    v[0].per_cpu = true, v[0].cpu = 1;
    snprintf(v[1].cgroup, sizeof v[1].cgroup, "a \"quoted\\\" cg\nx");
    snprintf(v[2].name, sizeof v[2].name, "we\"ird");
    pms_exposition e = {.totals = v, .n = 3, .pid = 42, .target_running = -1};
    char *text = write_exposition(&e, PMS_EXPOSITION_TEXT);
    assert_true(has_line(text, "pmuscope_events_total{event=\"page-faults\",cpu=\"1\",pid=\"42\"} 7"));
    assert_true(has_line(text, "pmuscope_events_total{event=\"page-faults\",cgroup=\"a \\\"quoted\\\\\\\" cg\\nx\","
                               "pid=\"42\"} 9"));
    assert_true(has_line(text, "pmuscope_events_total{event=\"we\\\"ird\",pid=\"42\"} 3"));
    assert_null(strstr(text, "pmuscope_target_running")); /* system-wide: no target */
    free(text);
}

static void test_interval_metrics(void **state)
{
    (void)state;
    pms_stat_value tot[4] = {pms_test_stat_value("cycles", 4000, 100, 100),
                             pms_test_stat_value("instructions", 2000, 100, 100),
                             pms_test_stat_value("cache-misses", 30, 100, 50),
                             pms_test_stat_value("task-clock", 2000000, 100, 100)};
    pms_stat_value last[4] = {pms_test_stat_value("cycles", 1000, 100, 100),
                              pms_test_stat_value("instructions", 500, 100, 100),
                              pms_test_stat_value("cache-misses", 5, 100, 100),
                              pms_test_stat_value("task-clock", 500000000, 100, 100)};
    pms_exposition e = {.totals = tot, .last = last, .n = 4, .last_s = 0.5, .target_running = 0};
    char *om = write_exposition(&e, PMS_EXPOSITION_OPENMETRICS);
    assert_true(has_line(om, "pmuscope_events_per_second{event=\"cycles\"} 2000"));
    assert_true(has_line(om, "pmuscope_events_per_second{event=\"task-clock\"} 1000000000")); /* ns per second */
    assert_true(has_line(om, "pmuscope_ipc 0.5"));
    assert_true(has_line(om, "pmuscope_misses_per_kilo_instructions{event=\"cache-misses\"} 10"));
    /* multiplexed: scaled to 60; with no windows behind it, its uncertainty is the whole unseen
     * part, 30 (pmuscope/multiplex.h) */
    assert_true(has_line(om, "pmuscope_events_total{event=\"cache-misses\"} 60"));
    assert_true(has_line(om, "pmuscope_event_uncertainty{event=\"cache-misses\"} 30"));
    assert_true(has_line(om, "pmuscope_event_running_seconds_total{event=\"cache-misses\"} 0.00000005") ||
                has_line(om, "pmuscope_event_running_seconds_total{event=\"cache-misses\"} 5e-08"));
    assert_true(has_line(om, "pmuscope_target_running 0"));
    free(om);
}

static void test_phase(void **state)
{
    (void)state;
    pms_stat_value v = pms_test_stat_value("task-clock", 10, 10, 10);
    pms_exposition_phase ph = {.id = 3, .metric_name = "ns/sample", .metric = 4100.25};
    pms_exposition e = {.totals = &v, .n = 1, .phase = &ph, .target_running = 1};
    char *om = write_exposition(&e, PMS_EXPOSITION_OPENMETRICS);
    assert_true(has_line(om, "pmuscope_phase_id 3"));
    assert_true(has_line(om, "pmuscope_phase_metric{metric=\"ns/sample\"} 4100.25"));
    free(om);
    ph.id = -1, ph.metric = NAN, ph.metric_name = "CPI";
    om = write_exposition(&e, PMS_EXPOSITION_OPENMETRICS);
    assert_true(has_line(om, "pmuscope_phase_id -1"));
    assert_true(has_line(om, "pmuscope_phase_metric{metric=\"CPI\"} NaN"));
    free(om);
}

static void test_write_error(void **state)
{
    (void)state;
    pms_stat_value v = pms_test_stat_value("task-clock", 10, 10, 10);
    pms_exposition e = {.totals = &v, .n = 1, .target_running = -1};
    FILE *full = fopen("/dev/full", "w");
    assert_non_null(full);
    setvbuf(full, NULL, _IONBF, 0);
    assert_int_equal(pms_exposition_write(full, &e, PMS_EXPOSITION_TEXT), PMS_EIO);
    fclose(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals_both_formats),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_interval_metrics),
        cmocka_unit_test(test_phase),
        cmocka_unit_test(test_write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
