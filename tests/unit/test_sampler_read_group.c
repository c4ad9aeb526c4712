/* The final counts of a sampling event's group (pms__sampler_read_group), which give a live
 * phase monitor's last, partial interval its CPI: on a launched child with software events
 * (cpu-clock samples reading task-clock and page-faults), after it exited.
 * ctest-labels: serial */
#include "test_support.h"
#include "collect/sampler_counts.h"
#include "pmuscope/error.h"
#include "pmuscope/sampler.h"
#include "pmuscope/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define PERIOD 200000 /* ns of cpu-clock */

static pms_event sw_event(const char *name, uint64_t config)
{
    pms_event e;
    memset(&e, 0, sizeof e);
    snprintf(e.name, sizeof e.name, "%s", name);
    e.attr.size = sizeof e.attr;
    e.attr.type = PERF_TYPE_SOFTWARE;
    e.attr.config = config;
    e.group = -1;
    return e;
}

/* Per attr (the event, then its two counters): the largest value any sample read. */
typedef struct last_read {
    const pms_sampler *s;
    uint64_t samples, max[3];
} last_read;

static int on_record(const struct perf_event_header *h, void *ctx)
{
    last_read *v = ctx;
    if (h->type != PERF_RECORD_SAMPLE) return 0;
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(v->s, &nattrs);
    pms_sample s;
    pms_read_value values[8];
    assert_int_equal(pms_sample_parse(h, attrs, nattrs, &s, values, 8), 0);
    v->samples++;
    assert_int_equal(s.nvalues, 3);
    for (size_t k = 0; k < s.nvalues; k++) {
        const pms_perfdata_attr *a = pms_attr_by_id(attrs, nattrs, s.values[k].id);
        assert_ptr_equal(a, &attrs[k]);
        if (s.values[k].value > v->max[k]) v->max[k] = s.values[k].value;
    }
    return 0;
}

static void final_counts(int inherit)
{
    pms_event reads[2] = {sw_event("task-clock", PERF_COUNT_SW_TASK_CLOCK),
                          sw_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS)};
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = PERIOD,
                             .read = reads, .nread = 2};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .inherit = inherit, .enable_on_exec = 1};
    char path[1024];
    snprintf(path, sizeof path, "%s/hotspots", getenv("PMS_WORKLOADS") ? getenv("PMS_WORKLOADS") : "workloads");
    char *argv[] = {path, "--scale", "1", NULL};
    pms_child c;
    assert_int_equal(pms_child_spawn(&c, argv), 0);
    pms_sampler *s;
    if (pms_sampler_open(&s, &cfg, c.pid)) {
        print_error("%s\n", pms_strerror());
        pms_child_abort(&c);
        fail();
    }
    last_read v = {.s = s};
    assert_int_equal(pms_child_release(&c, "hotspots"), 0);
    int status = 0;
    for (;;) {
        assert_true(pms_sampler_poll(s, 50, on_record, &v) >= 0);
        if (waitpid(c.pid, &status, WNOHANG) == c.pid) break;
    }
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(pms_sampler_poll(s, 0, on_record, &v) >= 0);

    pms_read_value end[4], again[4];
    size_t n, n2;
    assert_int_equal(pms__sampler_read_group(s, 0, end, 4, &n), 0);
    assert_int_equal(n, 3);
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(s, &nattrs);
    for (size_t k = 0; k < n; k++) {
        /* named as samples name them, and no less than any sample read (all CPUs summed) */
        assert_ptr_equal(pms_attr_by_id(attrs, nattrs, end[k].id), &attrs[k]);
        assert_true(end[k].value >= v.max[k]);
    }
    print_message("inherit %d: %llu samples; at the end cpu-clock %llu ns, task-clock %llu ns, %llu page faults\n",
                  inherit, (unsigned long long)v.samples, (unsigned long long)end[0].value,
                  (unsigned long long)end[1].value, (unsigned long long)end[2].value);
    /* each sample is one period of cpu-clock: the end has at least as many */
    assert_true(v.samples > 100);
    assert_true(end[0].value >= v.samples * PERIOD);
    assert_true(end[2].value > 0);
    /* the child has exited: its counts no longer move */
    assert_int_equal(pms__sampler_read_group(s, 0, again, 4, &n2), 0);
    assert_int_equal(n2, n);
    for (size_t k = 0; k < n; k++) assert_int_equal(again[k].value, end[k].value);
    /* bad arguments: no room for the group, no such event */
    assert_int_equal(pms__sampler_read_group(s, 0, again, 2, &n2), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "3 counters in the group of cpu-clock"));
    assert_int_equal(pms__sampler_read_group(s, 1, again, 4, &n2), PMS_EINVAL);
    pms_sampler_close(s);
}

static void test_final_counts_own_process(void **state)
{
    (void)state;
    final_counts(0);
}

static void test_final_counts_inherited(void **state)
{
    (void)state;
    final_counts(1);
}

/* A sampler whose events read no counters has no group to read. */
static void test_no_counters(void **state)
{
    (void)state;
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = PERIOD};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1};
    pms_sampler *s;
    assert_int_equal(pms_sampler_open(&s, &cfg, getpid()), 0);
    pms_read_value v[4];
    size_t n = 7;
    assert_int_equal(pms__sampler_read_group(s, 0, v, 4, &n), PMS_EINVAL);
    assert_int_equal(n, 0);
    assert_non_null(strstr(pms_strerror(), "cpu-clock reads no counters"));
    pms_sampler_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final_counts_own_process),
        cmocka_unit_test(test_final_counts_inherited),
        cmocka_unit_test(test_no_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
