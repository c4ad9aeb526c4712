/* Counter sets of the calling thread: exact page-fault counts of pages this thread touches,
 * start/stop/reset/accum as PAPI's event sets behave, nothing of another thread, the read(2)
 * path of software events, events this machine lacks, and the multiplexing estimator on
 * windows made by hand. */
#include "test_support.h"
#include "pmuscope/counterset.h"
#include "pmuscope/error.h"
#include "pmuscope/multiplex.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static pms_counterset *make(const char *spec, unsigned flags)
{
    pms_event *evs;
    size_t n;
    if (pms_event_list_parse(spec, &evs, &n) != PMS_OK) fail_msg("%s", pms_strerror());
    pms_counterset *s;
    int r = pms_counterset_create(&s, evs, n, flags);
    free(evs);
    if (r) fail_msg("%s: %s", spec, pms_strerror());
    return s;
}

/* A fresh mapping of n pages without transparent huge pages: touching each page once is one
 * page fault each (anonymous memory has no fault-around). */
static char *fresh_pages(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    madvise(p, n * page, MADV_NOHUGEPAGE);
    return p;
}


static void touch(char *p, size_t n) { pms_test_touch_pages(p, n); }

/* The first event's count (page-faults) of a set of up to 8. */
static uint64_t faults(pms_counterset *s)
{
    pms_count c[8];
    assert_int_equal(pms_counterset_read(s, c), PMS_OK);
    if (c[0].running == 0) { /* nothing counted since the last reset: stopped all along */
        assert_int_equal(c[0].state, PMS_COUNT_NOT_COUNTED);
        return c[0].raw;
    }
    assert_int_equal(c[0].state, PMS_COUNT_COUNTED);
    assert_close(c[0].value, (double)c[0].raw, 0); /* never multiplexed: software events */
    assert_close(c[0].uncertainty, 0, 0);
    return c[0].raw;
}

static void test_page_faults_start_stop_reset(void **state)
{
    (void)state;
    pms_counterset *s = make("{page-faults,task-clock}", 0);
    assert_int_equal(pms_counterset_count(s), 2);
    pms_count c[2];
    assert_int_equal(pms_counterset_read(s, c), PMS_OK);
    assert_int_equal(c[0].raw, 0); /* not started: nothing counted */
    char *p = fresh_pages(300);
    assert_int_equal(pms_counterset_start(s), PMS_OK);
    assert_int_equal(pms_counterset_start(s), PMS_EINVAL);
    uint64_t before = faults(s);
    touch(p, 100);
    assert_int_equal(faults(s) - before, 100);
    assert_false(pms_counterset_read_in_user_space(s, 0)); /* software events: read(2) */
    /* stopped: the next 100 pages are not counted */
    assert_int_equal(pms_counterset_stop(s, c), PMS_OK);
    assert_int_equal(c[0].raw, before + 100);
    touch(p + 100 * sysconf(_SC_PAGESIZE), 100);
    assert_int_equal(faults(s), before + 100);
    assert_int_equal(pms_counterset_stop(s, NULL), PMS_EINVAL);
    /* reset while stopped, start again: counting from zero */
    assert_int_equal(pms_counterset_reset(s), PMS_OK);
    assert_int_equal(faults(s), 0);
    assert_int_equal(pms_counterset_start(s), PMS_OK);
    touch(p + 200 * sysconf(_SC_PAGESIZE), 50);
    uint64_t f = faults(s);
    assert_int_equal(f, 50);
    assert_int_equal(pms_counterset_reset(s), PMS_OK);
    assert_int_equal(faults(s), 0);
    assert_int_equal(pms_counterset_read(s, c), PMS_OK);
    assert_true(c[1].enabled > 0 && c[1].running == c[1].enabled); /* task-clock's times since the reset */
    munmap(p, 300 * (size_t)sysconf(_SC_PAGESIZE));
    pms_counterset_destroy(s);
}

static void test_accum(void **state)
{
    (void)state;
    pms_counterset *s = make("page-faults", 0);
    char *p = fresh_pages(64);
    pms_count sum = {0};
    assert_int_equal(pms_counterset_start(s), PMS_OK);
    assert_int_equal(pms_counterset_accum(s, &sum), PMS_OK); /* warms the path: whatever it faulted */
    sum = (pms_count){0};
    touch(p, 10);
    assert_int_equal(pms_counterset_accum(s, &sum), PMS_OK);
    assert_int_equal(sum.raw, 10);
    touch(p + 10 * sysconf(_SC_PAGESIZE), 20);
    assert_int_equal(pms_counterset_accum(s, &sum), PMS_OK);
    assert_int_equal(sum.raw, 30); /* added, and the set was reset each time */
    assert_close(sum.value, 30, 0);
    assert_int_equal(faults(s), 0);
    assert_int_equal(pms_counterset_stop(s, NULL), PMS_OK);
    munmap(p, 64 * (size_t)sysconf(_SC_PAGESIZE));
    pms_counterset_destroy(s);
}

/* A group's events need not be next to each other: page-faults and task-clock in one group
 * around context-switches alone, one read(2) for the two. */
static void test_group_apart(void **state)
{
    (void)state;
    pms_event *evs;
    size_t n;
    assert_int_equal(pms_event_list_parse("page-faults,context-switches,task-clock", &evs, &n), PMS_OK);
    evs[2].group = evs[0].group;
    pms_counterset *s;
    assert_int_equal(pms_counterset_create(&s, evs, n, 0), PMS_OK);
    free(evs);
    char *p = fresh_pages(16);
    assert_int_equal(pms_counterset_start(s), PMS_OK);
    uint64_t before = faults(s);
    touch(p, 16);
    pms_count c[3];
    assert_int_equal(pms_counterset_read(s, c), PMS_OK);
    assert_int_equal(c[0].raw - before, 16);
    assert_int_equal(c[2].state, PMS_COUNT_COUNTED);
    assert_true(c[2].raw > 0 && c[0].enabled == c[2].enabled); /* one group: one pair of times */
    pms_counterset_destroy(s);
    munmap(p, 16 * (size_t)sysconf(_SC_PAGESIZE));
}

struct other {
    char *p;
    size_t pages;
};

static void *touch_thread(void *arg)
{
    struct other *o = arg;
    touch(o->p, o->pages);
    return NULL;
}

/* The set counts its own thread only: another thread's 200 faults are not in it. */
static void test_calling_thread_only(void **state)
{
    (void)state;
    pms_counterset *s = make("page-faults", 0);
    struct other o = {fresh_pages(200), 200};
    assert_int_equal(pms_counterset_start(s), PMS_OK);
    uint64_t before = faults(s);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, touch_thread, &o), 0);
    pthread_join(t, NULL);
    uint64_t after = faults(s);
    assert_true(after - before < 20); /* pthread_create's own work on this thread, not the 200 */
    pms_counterset_destroy(s);
    munmap(o.p, 200 * (size_t)sysconf(_SC_PAGESIZE));
}

static void test_unsupported_and_tool_events(void **state)
{
    (void)state;
    pms_event *evs;
    size_t n;
    assert_int_equal(pms_event_list_parse("page-faults,duration_time", &evs, &n), PMS_OK);
    pms_counterset *s;
    assert_int_equal(pms_counterset_create(&s, evs, n, 0), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "duration_time: a tool event"));
    free(evs);
    pms_event cycles;
    assert_int_equal(pms_event_parse("cycles", &cycles), PMS_OK);
    if (pms_event_probe(&cycles) == PMS_OK) skip(); /* a machine with a PMU: the guest suite tests it */
    assert_int_equal(pms_event_list_parse("cycles,page-faults", &evs, &n), PMS_OK);
    assert_int_equal(pms_counterset_create(&s, evs, n, 0), PMS_ENOTSUP);
    assert_int_equal(pms_counterset_create(&s, evs, n, PMS_COUNTERSET_SKIP_UNSUPPORTED), PMS_OK);
    free(evs);
    assert_non_null(pms_counterset_unsupported_reason(s, 0));
    assert_null(pms_counterset_unsupported_reason(s, 1));
    assert_int_equal(pms_counterset_start(s), PMS_OK);
    pms_count c[2];
    assert_int_equal(pms_counterset_read(s, c), PMS_OK);
    assert_int_equal(c[0].state, PMS_COUNT_NOT_SUPPORTED);
    assert_int_equal(c[1].state, PMS_COUNT_COUNTED);
    pms_counterset_destroy(s);
}

/* The estimator on windows made by hand (pmuscope/multiplex.h). */
static void test_mux_estimator(void **state)
{
    (void)state;
    pms_mux_windows w = {0};
    assert_true(pms_mux_dispersion(&w) < 0);
    pms_mux_windows_add(&w, 100, 10);
    pms_mux_windows_add(&w, 5, 0); /* did not run: no window */
    assert_int_equal(w.n, 1);
    assert_true(pms_mux_dispersion(&w) < 0);
    /* counts 100, 300 in 10, 10 ns: lambda 20, residuals -100, 100: sigma2 = (1000 + 1000) / 1 */
    pms_mux_windows_add(&w, 300, 10);
    assert_close(pms_mux_dispersion(&w), 2000, 1e-12);
    /* equal rates: no spread */
    pms_mux_windows flat = {0};
    for (int k = 1; k <= 4; k++) pms_mux_windows_add(&flat, 50u * (uint64_t)k, 10u * (uint64_t)k);
    assert_close(pms_mux_dispersion(&flat), 0, 0);
    /* sigma2 (E - R) E / R = 2000 x 30 x 40 / 10 */
    assert_close(pms_mux_uncertainty(2000, 400, 40, 10), sqrt(2000.0 * 30 * 40 / 10), 1e-12);
    /* unknown spread: the whole unseen part, 400 x 30 / 10 */
    assert_close(pms_mux_uncertainty(-1, 400, 40, 10), 1200, 1e-12);
    assert_close(pms_mux_uncertainty(2000, 400, 40, 40), 0, 0); /* not multiplexed */
    assert_true(isnan(pms_mux_uncertainty(2000, 0, 40, 0)));
    /* through pms_count_scale, and the flags */
    pms_count c = {.raw = 400, .enabled = 40, .running = 10, .dispersion = 2000, .windows = 2};
    pms_count_scale(&c);
    assert_close(c.value, 1600, 1e-12);
    assert_close(c.uncertainty, sqrt(2000.0 * 30 * 40 / 10), 1e-12);
    c = (pms_count){.raw = 400, .enabled = 40, .running = 10}; /* no windows kept */
    pms_count_scale(&c);
    assert_close(c.uncertainty, 1200, 1e-12);
    pms_count bad = {.raw = 1, .enabled = 10, .running = 11};
    pms_count_scale(&bad);
    assert_int_equal(bad.state, PMS_COUNT_IMPOSSIBLE);
    assert_int_equal(bad.flaw, PMS_FLAW_RUNNING_EXCEEDS);
    pms_count now = {.raw = 5, .enabled = 100, .running = 100}, before = {.raw = 9, .enabled = 50, .running = 50}, d;
    pms_count_delta(&now, &before, 1, &d);
    assert_int_equal(d.state, PMS_COUNT_IMPOSSIBLE);
    assert_int_equal(d.flaw, PMS_FLAW_BACKWARDS);
    assert_string_equal(pms_count_state_name(d.state), "<impossible>");
    pms_event tc;
    assert_int_equal(pms_event_parse("task-clock", &tc), PMS_OK);
    pms_count clock = {.raw = 60, .enabled = 100, .running = 50};
    pms_count_scale(&clock);
    pms_count_check(&clock, &tc); /* 120 ns of task-clock in 100 ns enabled */
    assert_int_equal(clock.flaw, PMS_FLAW_ABOVE_MAXIMUM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_faults_start_stop_reset),
        cmocka_unit_test(test_accum),
        cmocka_unit_test(test_group_apart),
        cmocka_unit_test(test_calling_thread_only),
        cmocka_unit_test(test_unsupported_and_tool_events),
        cmocka_unit_test(test_mux_estimator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
