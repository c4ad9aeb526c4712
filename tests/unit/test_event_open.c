/* Opening events: software events work everywhere; failures carry the event name and
 * a reason the user can act on (no PMU, perf_event_paranoid, a missing process). */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "pmuscope/sampler.h"
#include "pmuscope/stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_software_probe_and_read(void **state)
{
    (void)state;
    pms_event ev;
    assert_int_equal(pms_event_parse("task-clock", &ev), PMS_OK);
    assert_int_equal(pms_event_probe(&ev), PMS_OK);
    int fd = pms_event_open(ev.name, &ev.attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    assert_true(fd >= 0);
    volatile double x = 0;
    for (int i = 0; i < 1000000; i++) x += i;
    uint64_t ns = 0;
    assert_int_equal(read(fd, &ns, sizeof ns), sizeof ns);
    assert_true(ns > 0);
    close(fd);
}

static int has_core_pmu(void)
{
    return access("/sys/bus/event_source/devices/cpu/type", R_OK) == 0 ||
           access("/sys/bus/event_source/devices/cpu_core/type", R_OK) == 0 ||
           access("/sys/bus/event_source/devices/armv8_pmuv3_0/type", R_OK) == 0;
}

static void test_hardware_event_without_pmu_is_explained(void **state)
{
    (void)state;
    pms_event ev;
    assert_int_equal(pms_event_parse("cycles", &ev), PMS_OK);
    int r = pms_event_probe(&ev);
    if (has_core_pmu()) {
        if (r == PMS_OK) return; /* a machine with a PMU can count cycles */
        assert_non_null(strstr(pms_strerror(), "cycles: "));
        return;
    }
    assert_int_equal(r, PMS_ENOTSUP);
    assert_string_equal(pms_strerror(),
                        "cycles: not supported on this machine: no hardware PMU is exposed (ENOENT), as in many "
                        "virtual machines; software events such as task-clock and cpu-clock work, and one can "
                        "stand in for it");
    assert_string_equal(pms_error_option(), "fallback"); /* pmuscope adds " (--fallback)" */
}

/* record's and stat's defaults follow what the machine counts: without a PMU, cpu-clock
 * and the software events only, with the reason cycles cannot be sampled. */
static void test_default_events(void **state)
{
    (void)state;
    const char *event = NULL;
    int rc = pms_sampler_default_event(&event);
    const char *stat = pms_stat_default_events();
    assert_non_null(strstr(stat, "task-clock,context-switches,cpu-migrations,page-faults"));
    if (!has_core_pmu()) {
        assert_int_equal(rc, PMS_ENOTSUP);
        assert_string_equal(event, "cpu-clock");
        assert_non_null(strstr(pms_strerror(), "cycles: not supported on this machine"));
        assert_null(strstr(stat, "cycles"));
        return;
    }
    assert_string_equal(event, rc == PMS_OK ? "cycles" : "cpu-clock");
    assert_true((strstr(stat, ",cycles,instructions,branches,branch-misses") != NULL) == (rc == PMS_OK));
}

struct listed {
    int task_clock, cycles, others;
};

static int note_listing(const pms_event_listing *e, void *ctx)
{
    struct listed *l = ctx;
    if (strcmp(e->name, "task-clock") == 0) {
        l->task_clock++;
        assert_string_equal(e->kind, "software");
        assert_true(e->available); /* software events work on any machine */
        assert_string_equal(e->reason, "");
        /* counted as stat counts it: in user space only where perf_event_paranoid allows no more
         * (integration/list_unprivileged runs that case as nobody) */
        if (geteuid() == 0 || pms_event_paranoid() < 2) {
            assert_int_equal(e->user_only, 0);
            assert_string_equal(e->counted_as, "task-clock");
        } else {
            assert_int_equal(e->user_only, pms_event_paranoid());
            assert_string_equal(e->counted_as, "task-clock:u");
        }
    } else if (strcmp(e->name, "cycles") == 0) {
        l->cycles++;
        assert_string_equal(e->kind, "hardware");
        if (!has_core_pmu()) { /* the probe's reason, without the name in front */
            assert_false(e->available);
            assert_string_equal(e->reason, "not supported on this machine: no hardware PMU is exposed (ENOENT), as "
                                           "in many virtual machines; software events such as task-clock and "
                                           "cpu-clock work, and one can stand in for it");
        }
    } else {
        l->others++;
    }
    return 0;
}

/* pmuscope list's rows: the pattern picks names by substring, ignoring case. */
static void test_foreach_probed(void **state)
{
    (void)state;
    struct listed l = {0};
    assert_int_equal(pms_event_foreach_probed("TASK-CLOCK", note_listing, &l), 0);
    assert_int_equal(l.task_clock, 1);
    assert_int_equal(l.cycles, 0);
    l = (struct listed){0};
    assert_int_equal(pms_event_foreach_probed(NULL, note_listing, &l), 0);
    assert_int_equal(l.task_clock, 1);
    assert_int_equal(l.cycles, 1);
    assert_true(l.others > 10);
}

static void test_missing_process(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    waitpid(pid, NULL, 0); /* reaped: the pid names no process now */
    pms_event ev;
    assert_int_equal(pms_event_parse("task-clock", &ev), PMS_OK);
    int r = pms_event_open("task-clock", &ev.attr, pid, -1, -1, 0);
    assert_int_equal(r, PMS_ENOENT);
    char want[64];
    snprintf(want, sizeof want, "no process with pid %d", (int)pid);
    assert_non_null(strstr(pms_strerror(), want));
}

static int paranoid_level(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = -1;
    if (f) {
        if (fscanf(f, "%d", &v) != 1) v = -1;
        fclose(f);
    }
    return v;
}

/* With perf_event_paranoid >= 2 an unprivileged user may not count the kernel:
 * the message must name the setting and the value to set. As root, a child drops
 * to an unprivileged uid to see it. */
static void test_permission_message(void **state)
{
    (void)state;
    int level = paranoid_level();
    if (level < 2) {
        print_message("skipped: perf_event_paranoid is %d, unprivileged counting is allowed\n", level);
        return;
    }
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
        pms_event ev;
        if (pms_event_parse("task-clock", &ev) != PMS_OK) _exit(4);
        int r = pms_event_open(ev.name, &ev.attr, 0, -1, -1, 0);
        const char *m = pms_strerror();
        if (write(fds[1], m, strlen(m)) < 0) _exit(5);
        _exit(r == PMS_EPERM ? 0 : 1);
    }
    close(fds[1]);
    char msg[1024] = "";
    ssize_t n = read(fds[0], msg, sizeof msg - 1);
    close(fds[0]);
    if (n > 0) msg[n] = '\0';
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("expected EPERM, got status %d: %s", status, msg);
    char want[160];
    snprintf(want, sizeof want,
             "task-clock: permission denied (EACCES): perf_event_paranoid is %d; run as root (or with CAP_PERFMON) "
             "or set kernel.perf_event_paranoid=1",
             level);
    if (!strstr(msg, want)) fail_msg("message '%s' lacks '%s'", msg, want);
    assert_non_null(strstr(msg, "with the :u modifier"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_software_probe_and_read),
        cmocka_unit_test(test_hardware_event_without_pmu_is_explained),
        cmocka_unit_test(test_default_events),
        cmocka_unit_test(test_foreach_probed),
        cmocka_unit_test(test_missing_process),
        cmocka_unit_test(test_permission_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
