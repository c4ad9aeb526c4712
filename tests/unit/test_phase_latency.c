/* How late the live monitor's decisions come, in the target's own CPU time: for every
 * interval, how many of the thread's samples were taken after the interval's end and
 * before its callback ran (each sample is one sample period, 4 ms, of the thread's CPU
 * time: the kernel takes it when that much more has run). The monitor's sample times and
 * the callback's clock are both CLOCK_MONOTONIC. A reader kept off the CPUs by other work
 * delays the decision in wall time; counted in the target's samples, the delay is what
 * the target ran meanwhile, which holds however busy the machine is. The launched
 * command's buffers are per CPU (its children are followed), the attached process's per
 * thread. Bound: the median decision comes before the thread's next sample, 9 in 10 within
 * two samples (8 ms of its CPU time), for intervals of 7 samples; before, decisions waited
 * for the next interval's wake-up, a median of one interval (7 samples) late.
 * Wall-clock numbers are bench/bench-phase-latency.sh's.
 * ctest-labels: serial
 */
#include "test_support.h"
#include "pmuscope/phase.h"
#include "pmuscope/target.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_INTERVALS 512
#define MAX_SAMPLES 8192

typedef struct latencies {
    uint64_t end[MAX_INTERVALS], decided[MAX_INTERVALS]; /* interval end, callback: CLOCK_MONOTONIC */
    size_t n;
    uint64_t samples[MAX_SAMPLES]; /* every sample's time, from the intervals */
    size_t nsamples;
    pid_t tid;
    int other_thread; /* an interval of another thread than the target's came */
} latencies;

static int on_interval(const pms_phase_event *ev, void *user)
{
    latencies *l = user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (ev->tid != l->tid) l->other_thread = 1;
    if (l->n < MAX_INTERVALS) {
        l->end[l->n] = ev->end_time;
        l->decided[l->n++] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    }
    for (size_t k = 0; k < ev->samples && l->nsamples < MAX_SAMPLES; k++) l->samples[l->nsamples++] = ev->sample_times[k];
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The thread's samples taken after each interval's end and before its decision: median
 * and 90th percentile over the decisions but the last (made at the stop). */
static void check(latencies *l, const char *what)
{
    assert_false(l->other_thread);
    if (l->n < 20) fail_msg("%s: only %zu intervals", what, l->n);
    size_t n = l->n - 1;
    double late[MAX_INTERVALS];
    for (size_t i = 0; i < n; i++) {
        late[i] = 0;
        for (size_t k = 0; k < l->nsamples; k++) late[i] += l->samples[k] > l->end[i] && l->samples[k] <= l->decided[i];
    }
    qsort(late, n, sizeof late[0], cmp_double);
    double median = late[n / 2], p90 = late[n * 9 / 10], period_ms = PMS_PHASE_SOFTWARE_PERIOD / 1e6;
    print_message("%s: %zu decisions; samples of the target between an interval's end and its decision: median "
                  "%.0f, p90 %.0f, most %.0f (%.0f ms of its CPU time each)\n",
                  what, n, median, p90, late[n - 1], period_ms);
    assert_true(median < 1);
    assert_true(p90 <= 2);
}

static pms_phase_monitor_config config(latencies *l)
{
    pms_phase_monitor_config cfg;
    pms_phase_monitor_config_default(&cfg);
    cfg.sample_event = "cpu-clock"; /* the software defaults, with or without a PMU */
    cfg.interval_event = "task-clock";
    cfg.use_clockid = 1; /* the samples' times on the callback's clock */
    cfg.clockid = CLOCK_MONOTONIC;
    cfg.on_interval = on_interval;
    cfg.user = l;
    return cfg;
}

static char *phases_argv[8];

static char **phases_command(void)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/phases", getenv("PMS_WORKLOADS") ? getenv("PMS_WORKLOADS") : "workloads");
    char *const argv[] = {path, "--sequence", "AD", "--ms", "1000", "--repeat", "1", NULL};
    memcpy(phases_argv, argv, sizeof argv);
    return phases_argv;
}

/* A launched command, its children followed: one buffer per CPU, intervals cut by each
 * thread's own samples, read on the monitor's thread. */
static void test_launched(void **state)
{
    (void)state;
    latencies l = {0};
    char **argv = phases_command();
    pms_child child;
    assert_int_equal(pms_child_spawn(&child, argv), 0);
    l.tid = child.pid;
    pms_phase_monitor_config cfg = config(&l);
    cfg.inherit = 1;
    cfg.enable_on_exec = 1;
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, child.pid, &cfg)) fail_msg("open: %s", pms_strerror());
    assert_int_equal(pms_phase_monitor_start(m), 0);
    assert_int_equal(pms_child_release(&child, argv[0]), 0);
    int status;
    assert_int_equal(pms_child_wait(&child, &status, NULL), 0);
    assert_int_equal(pms_phase_monitor_stop(m), 0);
    pms_phase_monitor_close(m);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    check(&l, "launched (per-CPU buffers)");
}

/* A running process attached to: one buffer per thread, intervals ended by the thread's
 * own task-clock count; read in poll calls on this thread. */
static void test_attached(void **state)
{
    (void)state;
    latencies l = {0};
    char **argv = phases_command();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    usleep(100000); /* past its exec */
    l.tid = pid;
    pms_phase_monitor_config cfg = config(&l);
    cfg.own_thread = 0;
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, pid, &cfg)) fail_msg("open: %s", pms_strerror());
    assert_int_equal(pms_phase_monitor_start(m), 0);
    while (!pms_phase_monitor_target_gone(m)) assert_true(pms_phase_monitor_poll(m, 100) >= 0);
    assert_int_equal(pms_phase_monitor_stop(m), 0);
    pms_phase_monitor_close(m);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    check(&l, "attached (per-thread buffers)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launched),
        cmocka_unit_test(test_attached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
