/* The live monitor driven from a small program: it watches its own process, which
 * alternates between two loops, with both callbacks, on the monitor's own thread and
 * inside poll calls. Software events (cpu-clock samples, task-clock intervals) so that
 * it runs without a hardware PMU.
 * ctest-labels: serial
 */
#include "test_support.h"
#include "pmuscope/phase.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile uint64_t sink;

/* CPU time of this thread: what task-clock counts, whatever the machine's load. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Two loops with different code: integer hashing and floating point. */
__attribute__((noinline)) static void loop_hash(double ms)
{
    uint64_t h = 1469598103934665603ull;
    for (double end = now_ms() + ms; now_ms() < end;)
        for (int i = 0; i < 20000; i++) h = (h ^ (uint64_t)i) * 1099511628211ull;
    sink += h;
}

__attribute__((noinline)) static void loop_float(double ms)
{
    double x = 1;
    for (double end = now_ms() + ms; now_ms() < end;)
        for (int i = 0; i < 5000; i++) x = sqrt(x + i) / 1.0001 + 1 / (x + 1);
    sink += (uint64_t)x;
}

typedef struct counts {
    size_t intervals, changes;
    uint64_t last_index;
    int index_ok, size_ok;
    int stop_after; /* on_interval returns 42 after this many intervals (0: never) */
} counts;

static int on_interval(const pms_phase_event *ev, void *user)
{
    counts *c = user;
    if (ev->index != c->intervals) c->index_ok = 0;
    if (ev->signature_size != 32 || ev->samples == 0 || ev->end_time <= ev->start_time) c->size_ok = 0;
    c->intervals++;
    return c->stop_after && c->intervals >= (size_t)c->stop_after ? 42 : 0;
}

static int on_change(const pms_phase_event *ev, void *user)
{
    counts *c = user;
    if (!ev->changed) c->index_ok = 0;
    c->changes++;
    return 0;
}

static pms_phase_monitor_config config(counts *c, int own_thread)
{
    pms_phase_monitor_config cfg;
    pms_phase_monitor_config_default(&cfg);
    cfg.sample_event = "cpu-clock";
    cfg.sample_period = 100000;    /* 0.1 ms */
    cfg.interval_event = "task-clock";
    cfg.interval_size = 5000000;   /* 5 ms */
    cfg.phase.classifier.threshold = 50;
    cfg.phase.classifier.signature_size = 32;
    cfg.use_clockid = 1;
    cfg.clockid = CLOCK_MONOTONIC;
    cfg.own_thread = own_thread;
    cfg.on_interval = on_interval;
    cfg.on_change = on_change;
    cfg.user = c;
    return cfg;
}

static void check_phases(const pms_phase_monitor *m, const counts *c, double busy_ms)
{
    assert_true(c->index_ok);
    assert_true(c->size_ok);
    /* one interval per 5 ms of CPU time, give or take the edges */
    if (c->intervals < busy_ms / 5 * 0.8 || c->intervals > busy_ms / 5 * 1.2 + 2)
        fail_msg("%zu intervals for %.0f ms of CPU time in 5 ms intervals", c->intervals, busy_ms);
    pms_phase_summary s;
    pms_phase_engine_summary(pms_phase_monitor_engine(m), &s);
    assert_int_equal(s.intervals, c->intervals);
    assert_true(s.phases >= 2);        /* the two loops */
    assert_true(c->changes >= 5);      /* six alternations at least, transitions included */
    assert_true(s.mean_run_length >= 2);
}

static void test_own_thread(void **state)
{
    (void)state;
    counts c = {.index_ok = 1, .size_ok = 1};
    pms_phase_monitor_config cfg = config(&c, 1);
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, getpid(), &cfg)) fail_msg("open: %s", pms_strerror());
    assert_string_equal(pms_phase_monitor_sample_event(m), "cpu-clock");
    assert_int_equal(pms_phase_monitor_start(m), 0);
    for (int r = 0; r < 4; r++) {
        loop_hash(60);
        loop_float(60);
    }
    assert_int_equal(pms_phase_monitor_stop(m), 0);
    check_phases(m, &c, 480);
    uint64_t lost, empty;
    pms_phase_monitor_losses(m, &lost, &empty);
    assert_int_equal(lost, 0);
    pms_phase_monitor_close(m);
}

static void test_poll(void **state)
{
    (void)state;
    counts c = {.index_ok = 1, .size_ok = 1};
    pms_phase_monitor_config cfg = config(&c, 0);
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, getpid(), &cfg)) fail_msg("open: %s", pms_strerror());
    assert_int_equal(pms_phase_monitor_start(m), 0);
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 6; k++) {
            loop_hash(10);
            assert_true(pms_phase_monitor_poll(m, 0) >= 0);
        }
        for (int k = 0; k < 6; k++) {
            loop_float(10);
            assert_true(pms_phase_monitor_poll(m, 0) >= 0);
        }
    }
    assert_int_equal(pms_phase_monitor_stop(m), 0);
    check_phases(m, &c, 480);
    pms_phase_monitor_close(m);
}

static void test_callback_stops_the_monitor(void **state)
{
    (void)state;
    counts c = {.index_ok = 1, .size_ok = 1, .stop_after = 3};
    pms_phase_monitor_config cfg = config(&c, 1);
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, getpid(), &cfg)) fail_msg("open: %s", pms_strerror());
    assert_int_equal(pms_phase_monitor_start(m), 0);
    loop_hash(100);
    assert_int_equal(pms_phase_monitor_stop(m), 42);
    assert_int_equal(c.intervals, 3);
    pms_phase_monitor_close(m);
}

static void test_explicit_event_is_not_replaced(void **state)
{
    (void)state;
    counts c = {0};
    pms_phase_monitor_config cfg = config(&c, 1);
    cfg.sample_event = "cycles";
    pms_phase_monitor *m = NULL;
    int rc = pms_phase_monitor_open(&m, getpid(), &cfg);
    if (rc == 0) { /* this machine has a PMU: then it samples cycles as asked */
        assert_string_equal(pms_phase_monitor_sample_event(m), "cycles");
        pms_phase_monitor_close(m);
        return;
    }
    assert_int_equal(rc, PMS_ENOTSUP);
    assert_non_null(strstr(pms_strerror(), "cycles"));
}

/* The monitor's reader thread runs the callbacks; here they burn CPU, so that a reader that
 * was sampled would show up as a thread of its own. It is started before the events are
 * opened: with inherit, threads created later inherit the events (before, the reader was
 * one of them), and without, the process's threads are listed (the reader is left out). */
typedef struct reader_seen {
    pid_t reader;
    size_t intervals;
} reader_seen;

static int burn_in_callback(const pms_phase_event *ev, void *user)
{
    (void)ev;
    reader_seen *r = user;
    if (!r->reader) r->reader = (pid_t)syscall(SYS_gettid); /* the last ones come at the stop, on ours */
    r->intervals++;
    for (double end = now_ms() + 3; now_ms() < end;) {}
    return 0;
}

static void check_reader_not_sampled(int inherit)
{
    reader_seen r = {0};
    pms_phase_monitor_config cfg;
    pms_phase_monitor_config_default(&cfg);
    cfg.sample_event = "cpu-clock";
    cfg.sample_period = 250000; /* 0.25 ms: several samples in every 3 ms callback if it were sampled */
    cfg.interval_event = "task-clock";
    cfg.interval_size = 5000000;
    cfg.inherit = inherit;
    cfg.on_interval = burn_in_callback;
    cfg.user = &r;
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, 0, &cfg)) fail_msg("open: %s", pms_strerror());
    assert_int_equal(pms_phase_monitor_start(m), 0);
    loop_hash(200);
    assert_int_equal(pms_phase_monitor_stop(m), 0);
    const pms_phase_threads *t = pms_phase_monitor_threads(m);
    assert_true(r.intervals >= 10);
    assert_int_not_equal(r.reader, 0);
    assert_int_not_equal(r.reader, getpid());
    for (size_t i = 0; i < pms_phase_threads_count(t); i++) {
        pid_t tid;
        pms_phase_threads_engine(t, i, &tid);
        if (tid == r.reader) fail_msg("the reader thread %d was sampled (inherit %d)", (int)tid, inherit);
    }
    assert_non_null(pms_phase_threads_find(t, getpid())); /* the main thread was */
    pms_phase_monitor_close(m);
}

static void test_reader_not_sampled(void **state)
{
    (void)state;
    check_reader_not_sampled(1);
    check_reader_not_sampled(0);
}

/* The first interval changes nothing: on_change comes from the second interval on (it
 * came at interval 0, whose previous phase is -1). */
typedef struct first_change {
    int first_changed, changes_at_0;
} first_change;

static int note_first(const pms_phase_event *ev, void *user)
{
    first_change *f = user;
    if (ev->index == 0) f->first_changed = ev->changed;
    return 0;
}

static int note_change(const pms_phase_event *ev, void *user)
{
    first_change *f = user;
    f->changes_at_0 += ev->index == 0;
    return 0;
}

static void test_no_change_at_first_interval(void **state)
{
    (void)state;
    first_change f = {.first_changed = -1};
    counts unused = {0};
    pms_phase_monitor_config cfg = config(&unused, 1);
    cfg.on_interval = note_first;
    cfg.on_change = note_change;
    cfg.user = &f;
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, getpid(), &cfg)) fail_msg("open: %s", pms_strerror());
    assert_int_equal(pms_phase_monitor_start(m), 0);
    loop_hash(40);
    assert_int_equal(pms_phase_monitor_stop(m), 0);
    pms_phase_monitor_close(m);
    assert_int_equal(f.first_changed, 0);
    assert_int_equal(f.changes_at_0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_thread),
        cmocka_unit_test(test_poll),
        cmocka_unit_test(test_callback_stops_the_monitor),
        cmocka_unit_test(test_explicit_event_is_not_replaced),
        cmocka_unit_test(test_reader_not_sampled),
        cmocka_unit_test(test_no_change_at_first_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
