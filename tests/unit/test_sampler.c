/* Overflow sampling into ring buffers, on a launched child with software events
 * ctest-labels: serial
 * (cpu-clock and task-clock work without a hardware PMU). */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/sampler.h"
#include "pmuscope/target.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* What the records of one run looked like. */
typedef struct seen {
    const pms_sampler *s;
    uint64_t samples, per_attr[4], mmap2_hotspots, comm, fork_exit, bad_size, other_pid;
    uint64_t period_min, period_max;
    double period_sum;
    pid_t pid;
    uint64_t read_groups_ok, read_nr;
    uint64_t sample_size;
    /* Time since the previous sample (dt) against the sample's period p: samples that came
     * sooner than p (impossible if p was in force), and those within 500 us after p. */
    uint64_t prev_time, intervals, too_soon, soon_after;
    double delay_sum;
    double *gap; /* |dt - p| of every interval, when set (room for 100000) */
    /* Runs of samples with one period: the periods actually drawn (a short period can fire
     * again with the same period before the monitor reacts). */
    uint64_t last_period, runs;
    double run_period_sum;
    /* Intervals where the period changed: sooner than the sample's period, and sooner than
     * the previous sample's period (which a wrong attribution would have given). */
    uint64_t changed, changed_too_soon, changed_too_soon_prev;
} seen;

static int attr_of(const pms_sampler *s, uint64_t id)
{
    size_t n;
    const pms_perfdata_attr *a = pms_sampler_attrs(s, &n);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < a[i].nids; k++)
            if (a[i].ids[k] == id) return (int)i;
    return -1;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
    seen *v = ctx;
    const uint64_t *w = (const uint64_t *)(const void *)(h + 1);
    switch (h->type) {
    case PERF_RECORD_SAMPLE: {
        v->samples++;
        /* identifier, ip, pid|tid, time, period, [read] */
        if (v->sample_size && h->size != v->sample_size) v->bad_size++;
        int a = attr_of(v->s, w[0]);
        if (a >= 0 && a < 4) v->per_attr[a]++;
        if ((pid_t)(uint32_t)w[2] != v->pid) v->other_pid++;
        uint64_t p = w[4];
        v->period_sum += (double)p;
        if (p != v->last_period && v->prev_time) {
            double dt = (double)(w[3] - v->prev_time);
            v->changed++;
            v->changed_too_soon += dt < (double)p - 20000;
            v->changed_too_soon_prev += dt < (double)v->last_period - 20000;
        }
        if (p != v->last_period) {
            v->runs++;
            v->run_period_sum += (double)p;
            v->last_period = p;
        }
        if (v->prev_time) {
            double dt = (double)(w[3] - v->prev_time);
            v->intervals++;
            double late = dt - (double)p;
            v->too_soon += late < -20000;
            if (v->gap && v->intervals <= 100000) v->gap[v->intervals - 1] = fabs(late);
            if (late >= -20000 && late < 500000) {
                v->soon_after++;
                v->delay_sum += late;
            }
        }
        v->prev_time = w[3];
        if (!v->period_min || p < v->period_min) v->period_min = p;
        if (p > v->period_max) v->period_max = p;
        if (h->size > 8 + 5 * 8) {
            /* GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING: nr, enabled, running, {value, id}... */
            uint64_t nr = w[5];
            v->read_nr = nr;
            size_t n;
            const pms_perfdata_attr *attrs = pms_sampler_attrs(v->s, &n);
            int ok = nr == n && w[6] > 0 && w[7] <= w[6];
            for (uint64_t k = 0; ok && k < nr; k++) ok = attr_of(v->s, w[8 + 2 * k + 1]) == (int)k;
            (void)attrs;
            v->read_groups_ok += ok;
        }
        break;
    }
    case PERF_RECORD_MMAP2: {
        const char *file = (const char *)(w + 8); /* after pid..flags: 8 words */
        if (strstr(file, "/hotspots")) v->mmap2_hotspots++;
        break;
    }
    case PERF_RECORD_COMM:
        if (strcmp((const char *)(w + 1), "hotspots") == 0) v->comm++;
        break;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT: v->fork_exit++; break;
    default: break;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_gap(seen *v)
{
    size_t n = v->intervals < 100000 ? v->intervals : 100000;
    qsort(v->gap, n, sizeof *v->gap, cmp_double);
    return v->gap[n / 2];
}

static const char *workload(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", getenv("PMS_WORKLOADS") ? getenv("PMS_WORKLOADS") : "workloads", name);
    return path;
}

/* Launches hotspots --scale SCALE held and opens cfg on it (counting from its exec);
 * the caller releases it. */
static pms_sampler *open_on_held_hotspots(pms_sampler_config *cfg, const char *scale, pms_child *c)
{
    char *argv[] = {(char *)workload("hotspots"), "--scale", (char *)scale, NULL};
    assert_int_equal(pms_child_spawn(c, argv), 0);
    pms_sampler *s;
    cfg->enable_on_exec = 1;
    int rc = pms_sampler_open(&s, cfg, c->pid);
    if (rc) {
        print_error("%s\n", pms_strerror());
        pms_child_abort(c);
        fail();
    }
    return s;
}

/* Samples hotspots with cfg until it exits, returns what was seen. */
static double gaps[100000];

static seen run_hotspots(pms_sampler_config *cfg, pms_sampler_stats *st, const char *scale)
{
    pms_child c;
    pms_sampler *s = open_on_held_hotspots(cfg, scale, &c);
    /* Without read counters every sample is 48 bytes, also those copied out of a wrap. */
    seen v = {.s = s, .pid = c.pid, .gap = gaps, .sample_size = cfg->events[0].nread ? 0 : 8 + 5 * 8};
    assert_int_equal(pms_child_release(&c, "hotspots"), 0);
    pms_test_sample_until_exit(s, c.pid, on_record, &v);
    assert_true(pms_sampler_target_gone(s)); /* per thread, and per CPU with inherit */
    pms_sampler_get_stats(s, st);
    pms_sampler_close(s);
    return v;
}

static void test_samples_of_a_child(void **state)
{
    (void)state;
    for (int inherit = 0; inherit <= 1; inherit++) {
        pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 100000};
        pms_sampler_config cfg = {.events = &ev, .nevents = 1, .inherit = inherit};
        pms_sampler_stats st;
        seen v = run_hotspots(&cfg, &st, "1");
        /* About 0.2 s of CPU at one sample per 100 us. */
        assert_true(v.samples > 500);
        assert_int_equal(v.samples, st.samples);
        assert_true(st.records > st.samples);
        assert_int_equal(v.per_attr[0], v.samples);
        /* With inherit the child's own children count too (under ASan, LeakSanitizer's
         * tracer process at exit). */
        if (inherit)
            assert_true(v.other_pid < v.samples / 10);
        else
            assert_int_equal(v.other_pid, 0);
        assert_int_equal(v.bad_size, 0);
        assert_int_equal(v.period_min, 100000);
        assert_int_equal(v.period_max, 100000);
        assert_true(v.mmap2_hotspots >= 1); /* the executable, mapped at exec */
        assert_true(v.comm >= 1);           /* the exec's new name */
        assert_true(v.fork_exit >= 1);      /* the exit */
        assert_int_equal(st.period_updates, 0);
    }
}

static void test_two_events_share_one_buffer(void **state)
{
    (void)state;
    pms_sampling_event ev[2] = {
        {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 200000},
        {.event = sw_event("task-clock", PERF_COUNT_SW_TASK_CLOCK), .period = 100000},
    };
    pms_sampler_config cfg = {.events = ev, .nevents = 2};
    pms_sampler_stats st;
    seen v = run_hotspots(&cfg, &st, "1");
    assert_int_equal(v.per_attr[0] + v.per_attr[1], v.samples);
    /* task-clock samples twice as often as cpu-clock. */
    assert_true(v.per_attr[0] > 200);
    assert_close((double)v.per_attr[1] / (double)v.per_attr[0], 2.0, 0.25);
}

static void test_read_group_in_every_sample(void **state)
{
    (void)state;
    pms_event reads[2] = {sw_event("task-clock", PERF_COUNT_SW_TASK_CLOCK),
                          sw_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS)};
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 200000,
                             .read = reads, .nread = 2};
    for (int inherit = 0; inherit <= 1; inherit++) {
        pms_sampler_config cfg = {.events = &ev, .nevents = 1, .inherit = inherit};
        pms_sampler_stats st;
        seen v = run_hotspots(&cfg, &st, "1");
        assert_true(v.samples > 200);
        assert_int_equal(v.read_nr, 3); /* the sampling event and its two counters */
        assert_int_equal(v.read_groups_ok, v.samples);
    }
}

static void test_wrapping_small_buffer(void **state)
{
    (void)state;
    /* One data page (4 KiB, 85 samples of 48 bytes) at 20 kHz: records wrap all the time. */
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 50000};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .mmap_pages = 1};
    pms_sampler_stats st;
    seen v = run_hotspots(&cfg, &st, "2");
    assert_true(v.samples > 1000);
    assert_int_equal(v.bad_size, 0);
    /* Every sample is either delivered or counted as lost. */
    assert_true(v.samples + st.lost > 1000);
}

/* CPU time the process has received so far, in ns (its CPU-time clock). */
static long long process_cpu_ns(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void test_lost_samples_counted(void **state)
{
    (void)state;
    /* One data page (85 samples of 48 bytes), not drained until the child has run 150 ms of
     * CPU time at 10 kHz of cpu-clock: the kernel drops what does not fit and says so with
     * PERF_RECORD_LOST. Everything is measured in the child's CPU time, not in wall time, so
     * the counts hold however busy the machine is. */
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 100000};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .mmap_pages = 1};
    pms_child c;
    pms_sampler *s = open_on_held_hotspots(&cfg, "2", &c);
    seen v = {.s = s, .pid = c.pid, .sample_size = 8 + 5 * 8};
    clockid_t child_clock;
    assert_int_equal(clock_getcpuclockid(c.pid, &child_clock), 0);
    assert_int_equal(pms_child_release(&c, "hotspots"), 0);
    const long long undrained_ns = 150000000LL;
    long long cpu;
    while ((cpu = process_cpu_ns(child_clock)) >= 0 && cpu < undrained_ns) usleep(5000);
    assert_true(cpu >= undrained_ns); /* the child (330 ms of CPU) cannot have ended before */
    int status;
    struct rusage ru;
    while (wait4(c.pid, &status, WNOHANG, &ru) != c.pid) assert_true(pms_sampler_poll(s, 50, on_record, &v) >= 0);
    assert_true(pms_sampler_poll(s, 0, on_record, &v) >= 0);
    pms_sampler_stats st;
    pms_sampler_get_stats(s, &st);
    pms_sampler_close(s);
    double child_cpu_s = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    double expected = child_cpu_s / 100e-6;
    print_message("%llu samples delivered, %llu lost, %.0f expected from %.3f s of child CPU time\n",
                  (unsigned long long)v.samples, (unsigned long long)st.lost, expected, child_cpu_s);
    /* 150 ms of CPU time is ~1500 samples, of which one page holds 85. */
    assert_true(st.lost > 1000);
    assert_true(v.samples >= 60); /* at least the full page found at the first drain */
    assert_int_equal(v.bad_size, 0);
    /* Every sample is delivered or counted lost (rusage is tick-grained: a wide margin). */
    assert_true(v.samples + st.lost > 0.7 * expected && v.samples + st.lost < 1.3 * expected);
}

static void test_mask_randomisation(void **state)
{
    (void)state;
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 1000000,
                             .randomize = {.kind = PMS_RANDOMIZE_MASK, .bits = 20, .seed = 5}};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1};
    pms_sampler_stats st;
    seen v = run_hotspots(&cfg, &st, "6");
    assert_true(v.samples > 300);
    /* Each sample says the drawn period it ends (1 ms + [0, 2^20 ns)); the samples keep
     * to them in the child's CPU time (test_randomised_events_side_by_side), and a sample
     * that came late is followed by a shorter interval, so the time between samples only
     * matches its period on average. (Periods that average under a millisecond run several
     * samples each: test_short_randomised_periods_side_by_side.) */
    double mean = v.period_sum / (double)v.samples;
    print_message("%llu samples, %llu left out as early, periods %.0f to %.0f us, mean %.0f us; %llu of %llu "
                  "intervals more than 20 us sooner than their period, median |interval - period| %.0f us\n",
                  (unsigned long long)v.samples, (unsigned long long)st.early, v.period_min / 1e3,
                  v.period_max / 1e3, mean / 1e3, (unsigned long long)v.too_soon, (unsigned long long)v.intervals,
                  median_gap(&v) / 1000);
    assert_true(v.period_min >= 1000000 && v.period_max < 1000000 + (1 << 20));
    assert_true(v.period_max - v.period_min > 500000); /* the periods really vary */
    assert_close(mean, 1000000 + (1 << 19), 0.15);
    /* One change per drain and event: at most one per sample (fewer when the monitor falls
     * behind and finds several samples at once), those left out included. */
    assert_true(st.period_updates <= st.samples + st.early && st.period_updates > 100);
    assert_true(st.period_update_ns > 0);
}

static void test_exp_randomisation(void **state)
{
    (void)state;
    pms_sampling_event ev = {.event = sw_event("task-clock", PERF_COUNT_SW_TASK_CLOCK), .period = 1000000,
                             .randomize = {.kind = PMS_RANDOMIZE_EXP, .seed = 9}};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1};
    pms_sampler_stats st;
    seen v = run_hotspots(&cfg, &st, "6");
    assert_true(v.samples > 300);
    double mean = v.period_sum / (double)v.samples;
    print_message("exp: %llu samples, mean period %.0f us, %llu of %llu intervals sooner than their period\n",
                  (unsigned long long)v.samples, mean / 1000, (unsigned long long)v.too_soon,
                  (unsigned long long)v.intervals);
    /* Each sample says the drawn period it ends, also one below the 50 us the timer is
     * given at least (that sample comes late, and the next interval is shorter). The sd of
     * the mean of n exponential periods is m/sqrt(n), under 5% here. */
    assert_close(mean, 1000000, 0.2);
    assert_true(v.period_max > 2000000);
    assert_true(v.period_min < 50000);
}

/* Per event: its samples and the sum of their periods. */
typedef struct per_event {
    const pms_sampler *s;
    uint64_t samples[3];
    double period_sum[3];
} per_event;

static int on_event_sample(const struct perf_event_header *h, void *ctx)
{
    per_event *v = ctx;
    const uint64_t *w = (const uint64_t *)(const void *)(h + 1);
    if (h->type != PERF_RECORD_SAMPLE) return 0;
    int a = attr_of(v->s, w[0]);
    if (a >= 0 && a < 3) {
        v->samples[a]++;
        v->period_sum[a] += (double)w[4];
    }
    return 0;
}

/* The CPU time (task-clock, counted by the kernel from its exec) of one run of hotspots
 * --scale SCALE, sampled with cfg into v (unsampled without cfg), and the sampler's stats. */
static uint64_t child_cpu_ns(pms_sampler_config *cfg, const char *scale, per_event *v, pms_sampler_stats *st)
{
    pms_child c;
    pms_sampler *s = NULL;
    if (cfg) {
        s = open_on_held_hotspots(cfg, scale, &c);
        v->s = s;
    } else {
        char *argv[] = {(char *)workload("hotspots"), "--scale", (char *)scale, NULL};
        assert_int_equal(pms_child_spawn(&c, argv), 0);
    }
    struct perf_event_attr tc = {.size = sizeof tc, .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
                                 .disabled = 1, .enable_on_exec = 1, .inherit = 1};
    int tc_fd = pms_event_open("task-clock", &tc, c.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    assert_true(tc_fd >= 0);
    assert_int_equal(pms_child_release(&c, "hotspots"), 0);
    if (s) {
        pms_test_sample_until_exit(s, c.pid, on_event_sample, v);
        pms_sampler_get_stats(s, st);
        pms_sampler_close(s);
    } else {
        int status;
        assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    uint64_t cpu = 0;
    assert_int_equal(read(tc_fd, &cpu, sizeof cpu), sizeof cpu);
    close(tc_fd);
    return cpu;
}

/* Three randomised cpu-clock events (a uniform addition of `bits` bits) sampling one run of
 * hotspots --scale SCALE side by side; returns the child's CPU time. */
static uint64_t sample_side_by_side(const uint64_t period[3], const unsigned bits[3], int inherit, const char *scale,
                                    per_event *v, pms_sampler_stats *st)
{
    pms_sampling_event ev[3];
    for (int i = 0; i < 3; i++)
        ev[i] = (pms_sampling_event){.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = period[i],
                                     .randomize = {.kind = PMS_RANDOMIZE_MASK, .bits = bits[i], .seed = 3 + i}};
    pms_sampler_config cfg = {.events = ev, .nevents = 3, .inherit = inherit};
    uint64_t cpu = child_cpu_ns(&cfg, scale, v, st);
    for (int i = 0; i < 3; i++) {
        double mean = (double)period[i] + (double)(1u << bits[i]) / 2;
        print_message("inherit %d, period %llu: %llu samples where %.0f are due, their periods add up to %.1f ms "
                      "of %.1f ms task-clock\n", inherit, (unsigned long long)period[i],
                      (unsigned long long)v->samples[i], (double)cpu / mean, v->period_sum[i] / 1e6, (double)cpu / 1e6);
    }
    print_message("  %llu samples, %llu early, %llu overdue (%.1f ms skipped), %llu period changes\n",
                  (unsigned long long)st->samples, (unsigned long long)st->early, (unsigned long long)st->overdue,
                  (double)st->uncovered / 1e6, (unsigned long long)st->period_updates);
    return cpu;
}

static void test_randomised_events_side_by_side(void **state)
{
    (void)state;
    /* Three randomised cpu-clock events of very different periods in one run, as a hotspot
     * sweep records them (a uniform addition below period/8): each is sampled as if it
     * ran alone, its samples and their periods adding up to the CPU time the child
     * received (task-clock, counted beside them). The short one changes its period at
     * nearly every sample; without the delay paid back it lost 40% of its samples (and its
     * periods added up to 60% of the CPU time), the middle one 12%. Asserted on CPU time
     * received, whatever the load. */
    const uint64_t period[3] = {128000, 512000, 8000000};
    const unsigned bits[3] = {14, 16, 20};
    for (int inherit = 0; inherit <= 1; inherit++) {
        per_event v = {0};
        pms_sampler_stats st;
        uint64_t cpu = sample_side_by_side(period, bits, inherit, "3", &v, &st);
        assert_int_equal(st.lost, 0);
        /* Some percent either way remain: the few microseconds between our read of the
         * count and the restart, cpu-clock counting some percent more than task-clock
         * under so many interrupts, and a delay longer than the period (the timer fires
         * again with the shortened period before we change it). */
        for (int i = 0; i < 3; i++) {
            double mean = (double)period[i] + (double)(1u << bits[i]) / 2;
            assert_close(v.period_sum[i], (double)cpu, 0.1);
            assert_close((double)v.samples[i], (double)cpu / mean, 0.15);
        }
    }
}

static void test_short_randomised_periods_side_by_side(void **state)
{
    (void)state;
    /* Down to 64 us, the period of a sweep's first point: pmuscope's wake-up delay is then
     * near the period. */
    const uint64_t period[3] = {64000, 256000, 4000000};
    const unsigned bits[3] = {12, 14, 18};
    uint64_t alone = child_cpu_ns(NULL, "3", NULL, NULL);
    for (int inherit = 0; inherit <= 1; inherit++) {
        per_event v = {0};
        pms_sampler_stats st;
        uint64_t cpu = sample_side_by_side(period, bits, inherit, "3", &v, &st);
        print_message("  the child's CPU time %.1f ms, %.1f ms unsampled: %.2fx\n", (double)cpu / 1e6,
                      (double)alone / 1e6, (double)cpu / (double)alone);
        assert_int_equal(st.lost, 0);
        /* The timers fire about as often as samples are due in the CPU time the child
         * received: no firings early or to catch up (at the timer's 10 us) pile up. */
        double due = 0;
        for (int i = 0; i < 3; i++) due += (double)cpu / ((double)period[i] + (double)(1u << bits[i]) / 2);
        assert_true((double)(st.samples + st.early + st.overdue) < 1.2 * due);
        for (int i = 0; i < 3; i++) {
            double mean = (double)period[i] + (double)(1u << bits[i]) / 2;
            /* each event samples its share: its periods add up to the CPU time (what was
             * skipped aside; cpu-clock counts some percent more than task-clock) */
            assert_true(v.period_sum[i] < 1.1 * (double)cpu);
            assert_true(v.period_sum[i] + (double)st.uncovered > 0.9 * (double)cpu);
            assert_close((double)v.samples[i], (double)cpu / mean, 0.15);
        }
        /* Runs: the 64 us period changes every 16 samples, the 256 us one every 4, the
         * 4 ms one at every sample. */
        assert_true(st.period_updates < st.samples / 4);
        /* Each change and each wake-up of the sampler interrupts the child (some 35 us on a
         * VM): changed at every sample, its CPU time grew 3.8 to 4 times (1.3 times with
         * fixed periods, which need neither). Asserted on CPU time received. */
        assert_true((double)cpu < 2.0 * (double)alone);
    }
}

static void test_set_period(void **state)
{
    (void)state;
    /* A period changed while running shows in the samples that follow. */
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 100000};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .use_clockid = 1, .clockid = CLOCK_MONOTONIC};
    pms_child c;
    pms_sampler *s = open_on_held_hotspots(&cfg, "2", &c);
    seen v = {.s = s, .pid = c.pid};
    assert_int_equal(pms_child_release(&c, "hotspots"), 0);
    while (v.samples < 100) assert_true(pms_sampler_poll(s, 50, on_record, &v) >= 0);
    assert_int_equal(v.period_max, 100000);
    assert_int_equal(pms_sampler_set_period(s, 0, 300000), 0);
    assert_int_equal(pms_sampler_set_period(s, 1, 300000), PMS_EINVAL);
    seen after = {.s = s, .pid = c.pid};
    int status;
    while (waitpid(c.pid, &status, WNOHANG) != c.pid) assert_true(pms_sampler_poll(s, 50, on_record, &after) >= 0);
    assert_true(pms_sampler_poll(s, 0, on_record, &after) >= 0);
    pms_sampler_close(s);
    assert_true(after.samples > 50);
    assert_int_equal(after.period_max, 300000);
}

static void test_attach_to_running_process(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(workload("hotspots"), "hotspots", "--scale", "20", (char *)NULL);
        _exit(127);
    }
    usleep(100000);
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 100000};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1};
    pms_sampler *s;
    assert_int_equal(pms_sampler_open(&s, &cfg, pid), 0);
    seen v = {.s = s, .pid = pid};
    assert_int_equal(pms_sampler_synthesize(s, pid, on_record, &v), 0);
    assert_true(v.mmap2_hotspots >= 1);
    assert_int_equal(v.comm, 1);
    assert_int_equal(pms_sampler_enable(s), 0);
    while (v.samples < 200) assert_true(pms_sampler_poll(s, 50, on_record, &v) >= 0);
    assert_false(pms_sampler_target_gone(s));
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_true(pms_sampler_poll(s, 0, on_record, &v) >= 0);
    assert_true(pms_sampler_target_gone(s));
    assert_int_equal(pms_sampler_disable(s), 0);
    pms_sampler_close(s);
    assert_int_equal(v.other_pid, 0);
}

/* Two processes at once (a shell runs two hotspots), followed with inherit: one buffer per
 * CPU. With time_order every record (samples, and the fork, comm, mmap and exit records by
 * their sample_id time) reaches the callback no older than the one before,
 * except those the sampler counts late (a CPU that wrote a record more than a poll after
 * stamping it); pms_sampler_flush() passes on the held-back rest. */
typedef struct ordered {
    uint64_t samples, decreases, last_time;
    pid_t pids[4]; /* the shell and its two children */
    uint64_t per_pid[4];
} ordered;

static int on_ordered(const struct perf_event_header *h, void *ctx)
{
    ordered *o = ctx;
    const uint64_t *w = (const uint64_t *)(const void *)(h + 1);
    /* A sample's time follows identifier, ip and pid|tid; every other record ends with
     * pid|tid, time, identifier (sample_id_all). */
    size_t words = (h->size - sizeof *h) / 8;
    uint64_t t = h->type == PERF_RECORD_SAMPLE ? w[3] : words >= 3 ? w[words - 2] : 0;
    o->decreases += t && t < o->last_time;
    if (t > o->last_time) o->last_time = t;
    if (h->type != PERF_RECORD_SAMPLE) return 0;
    o->samples++;
    pid_t pid = (pid_t)(uint32_t)w[2];
    for (int i = 0; i < 4; i++) {
        if (!o->pids[i]) o->pids[i] = pid;
        if (o->pids[i] == pid) {
            o->per_pid[i]++;
            break;
        }
    }
    return 0;
}

/* Runs the two processes under cfg; returns what the callback saw and the stats. */
static ordered run_two(pms_sampler_config *cfg, pms_sampler_stats *st)
{
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "%s --scale 2 & %s --scale 2; wait", workload("hotspots"), workload("hotspots"));
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    pms_child c;
    assert_int_equal(pms_child_spawn(&c, argv), 0);
    pms_sampler *s;
    assert_int_equal(pms_sampler_open(&s, cfg, c.pid), 0);
    assert_int_equal(pms_child_release(&c, "sh"), 0);
    ordered o = {0};
    int status = 0;
    for (;;) {
        assert_true(pms_sampler_poll(s, 50, on_ordered, &o) >= 0);
        if (waitpid(c.pid, &status, WNOHANG) == c.pid) break;
    }
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(pms_sampler_poll(s, 0, on_ordered, &o) >= 0);
    assert_int_equal(pms_sampler_flush(s, on_ordered, &o), 0);
    pms_sampler_get_stats(s, st);
    pms_sampler_close(s);
    return o;
}

static void test_time_order_across_cpus(void **state)
{
    (void)state;
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), .period = 100000};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .inherit = 1, .enable_on_exec = 1};
    pms_sampler_stats st;
    ordered plain = run_two(&cfg, &st);
    cfg.time_order = 1;
    ordered o = run_two(&cfg, &st);
    uint64_t busy = 0;
    for (int i = 0; i < 4; i++) busy += o.per_pid[i] > 1000;
    print_message("buffers drained one after another: %llu records older than the one before (%llu samples); "
                  "in time order: %llu (%llu counted late)\n",
                  (unsigned long long)plain.decreases, (unsigned long long)plain.samples,
                  (unsigned long long)o.decreases, (unsigned long long)st.late);
    /* About 0.7 s of CPU each at one sample per 100 us: every sample arrived, both ran. */
    assert_int_equal(o.samples, st.samples);
    assert_int_equal(busy, 2);
    assert_int_equal(o.decreases, st.late);
    assert_true(st.late <= o.samples / 100);
}

static void test_bad_configs(void **state)
{
    (void)state;
    pms_sampler *s;
    pms_sampling_event ev = {.event = sw_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK)};
    pms_sampler_config cfg = {.events = &ev, .nevents = 1};
    assert_int_equal(pms_sampler_open(&s, &cfg, getpid()), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "cpu-clock: no sampling period or frequency"));
    ev.freq = 1000;
    ev.randomize.kind = PMS_RANDOMIZE_EXP;
    assert_int_equal(pms_sampler_open(&s, &cfg, getpid()), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "needs a fixed period"));
    ev.randomize.kind = PMS_RANDOMIZE_NONE;
    cfg.mmap_pages = 3;
    assert_int_equal(pms_sampler_open(&s, &cfg, getpid()), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "not a power of 2"));
    cfg.mmap_pages = 0;
    assert_int_equal(pms_sampler_open(&s, &cfg, 999999999), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "999999999"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_of_a_child),
        cmocka_unit_test(test_two_events_share_one_buffer),
        cmocka_unit_test(test_read_group_in_every_sample),
        cmocka_unit_test(test_wrapping_small_buffer),
        cmocka_unit_test(test_lost_samples_counted),
        cmocka_unit_test(test_mask_randomisation),
        cmocka_unit_test(test_exp_randomisation),
        cmocka_unit_test(test_randomised_events_side_by_side),
        cmocka_unit_test(test_short_randomised_periods_side_by_side),
        cmocka_unit_test(test_set_period),
        cmocka_unit_test(test_attach_to_running_process),
        cmocka_unit_test(test_time_order_across_cpus),
        cmocka_unit_test(test_bad_configs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
