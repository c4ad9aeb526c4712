/* Counting: scaling by enabled/running, group reads on a launched command, intervals,
 * attaching to a process, a killed target, events the machine cannot count. */
#include "test_support.h"
#include "pmuscope/counter.h"
#include "pmuscope/error.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void test_scaling(void **state)
{
    (void)state;
    pms_count c = {.raw = 1000, .enabled = 300, .running = 100};
    pms_count_scale(&c);
    assert_int_equal(c.state, PMS_COUNT_COUNTED);
    assert_close(c.value, 3000.0, 1e-12);
    pms_count full = {.raw = 7, .enabled = 50, .running = 50};
    pms_count_scale(&full);
    assert_close(full.value, 7.0, 0);
    pms_count idle = {.raw = 0, .enabled = 50, .running = 0};
    pms_count_scale(&idle);
    assert_int_equal(idle.state, PMS_COUNT_NOT_COUNTED);
    assert_string_equal(pms_count_state_name(idle.state), "<not counted>");
    pms_count now[2] = {{.raw = 500, .enabled = 400, .running = 200}, {.state = PMS_COUNT_NOT_SUPPORTED}};
    pms_count before[2] = {{.raw = 100, .enabled = 100, .running = 100}, {.state = PMS_COUNT_NOT_SUPPORTED}};
    pms_count d[2];
    pms_count_delta(now, before, 2, d);
    assert_int_equal(d[0].raw, 400);
    assert_close(d[0].value, 400.0 * 300.0 / 100.0, 1e-12);
    assert_int_equal(d[1].state, PMS_COUNT_NOT_SUPPORTED);
}

static pms_counter *make(const char *spec, unsigned flags)
{
    pms_event *evs;
    size_t n;
    if (pms_event_list_parse(spec, &evs, &n) != PMS_OK) fail_msg("%s", pms_strerror());
    pms_counter *c;
    int r = pms_counter_create(evs, n, flags, &c);
    free(evs);
    if (r) fail_msg("%s", pms_strerror());
    return c;
}

static void test_group_on_command(void **state)
{
    (void)state;
    pms_counter *c = make("{task-clock,page-faults},context-switches", 0);
    char *argv[] = {"sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done", NULL};
    pms_count tot[3];
    pms_measure_result res;
    pms_measure_opts o = {0};
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_OK);
    assert_true(WIFEXITED(res.wait_status) && WEXITSTATUS(res.wait_status) == 0);
    assert_int_equal(tot[0].state, PMS_COUNT_COUNTED);
    assert_int_equal(tot[1].state, PMS_COUNT_COUNTED);
    /* task-clock counts ns of CPU time: at least what rusage saw, roughly */
    assert_true(tot[0].raw > 1000000);
    assert_true(tot[0].raw < (uint64_t)(res.elapsed_s * 1e9 * 2 + 1e7));
    assert_true(tot[1].raw > 10); /* a shell faults in its pages */
    assert_int_equal(tot[0].enabled, tot[1].enabled); /* one group: same times */
    assert_true(tot[0].running == tot[0].enabled);
    assert_true(res.elapsed_s > 0);
    pms_counter_destroy(c);
}

struct ticks { int n; double last; int monotonic; };
static int on_tick(double t, const pms_count *d, size_t n, void *ctx)
{
    struct ticks *k = ctx;
    assert_int_equal(n, 1);
    (void)d;
    if (t <= k->last) k->monotonic = 0;
    k->last = t;
    k->n++;
    return 0;
}

static void test_intervals(void **state)
{
    (void)state;
    pms_counter *c = make("task-clock", 0);
    char *argv[] = {"sleep", "0.35", NULL};
    pms_count tot[1];
    pms_measure_result res;
    struct ticks k = {0, 0, 1};
    pms_measure_opts o = {.interval_ms = 100, .on_interval = on_tick, .ctx = &k};
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_OK);
    assert_true(k.n >= 3 && k.n <= 5);
    assert_true(k.monotonic);
    assert_close(k.last, res.elapsed_s, 0.05);
    pms_counter_destroy(c);
}

static void test_killed_target_still_counted(void **state)
{
    (void)state;
    pms_counter *c = make("task-clock,page-faults", 0);
    char *argv[] = {"sh", "-c", "i=0; while [ $i -lt 1000 ]; do i=$((i+1)); done; kill -9 $$", NULL};
    pms_count tot[2];
    pms_measure_result res;
    pms_measure_opts o = {0};
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_OK);
    assert_true(WIFSIGNALED(res.wait_status));
    assert_int_equal(WTERMSIG(res.wait_status), SIGKILL);
    assert_true(tot[0].raw > 0 && tot[1].raw > 0);
    pms_counter_destroy(c);
}

static void test_command_not_found(void **state)
{
    (void)state;
    pms_counter *c = make("task-clock", 0);
    char *argv[] = {"/nonexistent/cmd", NULL};
    pms_count tot[1];
    pms_measure_result res;
    pms_measure_opts o = {0};
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_ECHILD);
    assert_non_null(strstr(pms_strerror(), "cannot run '/nonexistent/cmd'"));
    pms_counter_destroy(c);
}

static void test_attach(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        /* 0.4 s of its own CPU time, not of wall time: on a loaded machine a wall-time
         * loop may get little CPU, and the count below would fail for no fault of ours */
        struct timespec t;
        volatile unsigned long x = 0;
        do {
            for (int i = 0; i < 100000; i++) x += (unsigned long)i;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        } while (t.tv_sec * 1000000000L + t.tv_nsec < 400000000L);
        _exit(0);
    }
    pms_counter *c = make("task-clock", 0);
    pms_count tot[1];
    pms_measure_result res;
    pms_measure_opts o = {0};
    int r = pms_measure_pid(c, pid, &o, tot, &res);
    waitpid(pid, NULL, 0);
    if (r) fail_msg("%s", pms_strerror());
    assert_true(res.target_ended);
    assert_true(tot[0].raw > 50000000); /* nearly all of its 0.4 s came after the attach */
    pms_counter_destroy(c);
    c = make("task-clock", 0);
    assert_int_equal(pms_measure_pid(c, pid, &o, tot, &res), PMS_ENOENT); /* reaped now */
    pms_counter_destroy(c);
}

/* Attach counts every thread: two threads that each burn 150 ms of their own CPU time
 * (CLOCK_THREAD_CPUTIME_ID), started only once the counters are open, sum to about 300 ms
 * (one thread counted alone would give 150 ms). */
static void *burn(void *arg)
{
    (void)arg;
    struct timespec t;
    volatile unsigned long x = 0;
    do {
        for (int i = 0; i < 10000; i++) x += (unsigned long)i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while (t.tv_sec * 1000000000L + t.tv_nsec < 150000000L);
    return NULL;
}

static void *read_go(void *arg)
{
    char b;
    if (read(*(int *)arg, &b, 1) != 1) return NULL;
    return burn(NULL);
}

static void test_attach_sums_threads(void **state)
{
    (void)state;
    int go[2], ready[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0) {
        pthread_t th[2];
        char b = 0;
        /* the threads exist before the parent attaches, and wait for its go */
        for (int i = 0; i < 2; i++)
            if (pthread_create(&th[i], NULL, read_go, &go[0]) != 0) _exit(2);
        if (write(ready[1], &b, 1) != 1) _exit(3);
        for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
        _exit(0);
    }
    char b;
    assert_int_equal(read(ready[0], &b, 1), 1);
    pms_counter *c = make("task-clock", 0);
    if (pms_counter_attach(c, pid) != PMS_OK) fail_msg("%s", pms_strerror());
    assert_int_equal(write(go[1], "gg", 2), 2);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    pms_count tot[1];
    assert_int_equal(pms_counter_read(c, tot), PMS_OK);
    /* a thread's few microseconds of CPU time before the attach are not counted */
    if (tot[0].raw < 285000000ULL) fail_msg("task-clock %llu ns over two threads of 150 ms", (unsigned long long)tot[0].raw);
    assert_true(tot[0].raw < 2000000000ULL);
    pms_counter_destroy(c);
    close(go[0]), close(go[1]), close(ready[0]), close(ready[1]);
}

static void test_unsupported_events(void **state)
{
    (void)state;
    pms_event ev;
    assert_int_equal(pms_event_parse("cycles", &ev), PMS_OK);
    if (pms_event_probe(&ev) == PMS_OK) {
        print_message("skipped: this machine counts cycles, so nothing is unsupported\n");
        return;
    }
    char *argv[] = {"true", NULL};
    pms_count tot[2];
    pms_measure_result res;
    pms_measure_opts o = {0};
    pms_counter *c = make("cycles,task-clock", 0);
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_ENOTSUP);
    assert_non_null(strstr(pms_strerror(), "cycles: not supported"));
    pms_counter_destroy(c);
    c = make("{cycles,task-clock}", PMS_COUNTER_SKIP_UNSUPPORTED);
    assert_int_equal(pms_measure_command(c, argv, &o, tot, &res), PMS_OK);
    assert_int_equal(tot[0].state, PMS_COUNT_NOT_SUPPORTED);
    assert_non_null(strstr(pms_counter_unsupported_reason(c, 0), "cycles: not supported"));
    assert_int_equal(tot[1].state, PMS_COUNT_COUNTED); /* took over as the group leader */
    assert_true(tot[1].raw > 0);
    pms_counter_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scaling),
        cmocka_unit_test(test_group_on_command),
        cmocka_unit_test(test_intervals),
        cmocka_unit_test(test_killed_target_still_counted),
        cmocka_unit_test(test_command_not_found),
        cmocka_unit_test(test_attach),
        cmocka_unit_test(test_attach_sums_threads),
        cmocka_unit_test(test_unsupported_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
