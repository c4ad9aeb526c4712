/* pmu_lost PERIOD CMD [ARGS...]: samples CMD on cycles:u every PERIOD into a ring buffer of
 * one data page, not drained until CMD has run 50 ms of CPU time, while counting its
 * instructions:u, and prints
 *   "samples DELIVERED lost LOST throttled THROTTLES instructions COUNT"
 * The hardware suite's twin of the sampler's lost-sample test (tests/unit/test_sampler.c):
 * in the emulated machine the counts are exact, so every sample is delivered or counted lost
 * except those still pending when the command ended (less than a page). */
#include "pmuscope/counter.h"
#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "pmuscope/sampler.h"
#include "pmuscope/target.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's CPU time in ns, or -1 once it cannot be read (it has ended). */
static long long cpu_ns(clockid_t clock)
{
    struct timespec ts;
    return clock_gettime(clock, &ts) ? -1 : (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int no_op(const struct perf_event_header *h, void *ctx)
{
    (void)h;
    (void)ctx;
    return 0;
}

static int fail(const char *what)
{
    fprintf(stderr, "pmu_lost: %s: %s\n", what, pms_strerror());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pmu_lost PERIOD CMD [ARGS...]\n");
        return 2;
    }
    pms_sampling_event ev = {.period = strtoull(argv[1], NULL, 10)};
    pms_event insns;
    if (pms_event_parse("cycles:u", &ev.event) || pms_event_parse("instructions:u", &insns)) return fail("events");
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .mmap_pages = 1, .enable_on_exec = 1};
    pms_child child;
    pms_sampler *s = NULL;
    pms_counter *counter = NULL;
    if (pms_child_spawn(&child, argv + 2)) return fail("spawn");
    if (pms_sampler_open(&s, &cfg, child.pid) || pms_counter_create(&insns, 1, 0, &counter) ||
        pms_counter_open_child(counter, child.pid)) {
        pms_child_abort(&child);
        return fail("open");
    }
    if (pms_child_release(&child, argv[2])) return fail("exec");
    clockid_t clock;
    if (clock_getcpuclockid(child.pid, &clock)) return fail("clock");
    long long cpu;
    while ((cpu = cpu_ns(clock)) >= 0 && cpu < 50000000LL) usleep(2000);
    int status = 0;
    while (waitpid(child.pid, &status, WNOHANG) != child.pid)
        if (pms_sampler_poll(s, 50, no_op, NULL) < 0) return fail("poll");
    if (pms_sampler_poll(s, 0, no_op, NULL) < 0) return fail("poll");
    pms_count count;
    if (pms_counter_read(counter, &count)) return fail("read");
    pms_sampler_stats st;
    pms_sampler_get_stats(s, &st);
    printf("samples %" PRIu64 " lost %" PRIu64 " throttled %" PRIu64 " instructions %" PRIu64 "\n", st.samples, st.lost,
           st.throttles, count.raw);
    pms_counter_destroy(counter);
    pms_sampler_close(s);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
