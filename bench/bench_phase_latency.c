/* How late the live phase monitor's decisions come after their intervals end, in wall
 * time (the callback's CLOCK_MONOTONIC against the interval's last sample's, on the same
 * clock) and in the target's samples taken meanwhile (each one sample period of its CPU
 * time): for a launched command (children followed: a buffer per CPU), an attached
 * process (a buffer per thread, read in poll calls) and, as the peer, the calling
 * process monitoring itself (one thread, one buffer: what the issue measured at 0.07 ms).
 * Prints the median and 90th percentile of each, and the monitor's own CPU time.
 * usage: bench_phase_latency RUNS PHASES_WORKLOAD */
#include "pmuscope/error.h"
#include "pmuscope/phase.h"
#include "pmuscope/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 4096

typedef struct decisions {
    double wall_ms[MAX_EVENTS], samples[MAX_EVENTS];
    uint64_t end[MAX_EVENTS], at[MAX_EVENTS];
    size_t n;
    uint64_t times[MAX_EVENTS * 8]; /* every sample's time, from the intervals */
    size_t ntimes;
} decisions;

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double self_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

static int on_interval(const pms_phase_event *ev, void *user)
{
    decisions *d = user;
    if (d->n < MAX_EVENTS) {
        d->end[d->n] = ev->end_time;
        d->at[d->n++] = now_ns(CLOCK_MONOTONIC);
    }
    for (size_t k = 0; k < ev->samples && d->ntimes < MAX_EVENTS * 8; k++) d->times[d->ntimes++] = ev->sample_times[k];
    return 0;
}

/* Each decision (the last, made at the stop, left out): its wall delay and the samples
 * taken between the interval's end and it. */
static void measure(decisions *d)
{
    if (d->n) d->n--;
    for (size_t i = 0; i < d->n; i++) {
        d->wall_ms[i] = ((double)d->at[i] - (double)d->end[i]) / 1e6;
        d->samples[i] = 0;
        for (size_t k = 0; k < d->ntimes; k++) d->samples[i] += d->times[k] > d->end[i] && d->times[k] <= d->at[i];
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(double *v, size_t n, double q)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp);
    return v[(size_t)(q * (double)(n - 1) + 0.5)];
}

static pms_phase_monitor_config config(decisions *d, int own_thread)
{
    pms_phase_monitor_config cfg;
    pms_phase_monitor_config_default(&cfg);
    cfg.sample_event = "cpu-clock"; /* the software defaults, with or without a PMU */
    cfg.interval_event = "task-clock";
    cfg.use_clockid = 1;
    cfg.clockid = CLOCK_MONOTONIC;
    cfg.own_thread = own_thread;
    cfg.on_interval = on_interval;
    cfg.user = d;
    return cfg;
}

static int fail(const char *what)
{
    fprintf(stderr, "bench_phase_latency: %s: %s\n", what, pms_strerror());
    return -1;
}

static int launched(char **argv, decisions *d)
{
    pms_child c;
    int status;
    if (pms_child_spawn(&c, argv)) return fail("spawn");
    pms_phase_monitor_config cfg = config(d, 1);
    cfg.inherit = cfg.enable_on_exec = 1;
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, c.pid, &cfg) || pms_phase_monitor_start(m)) {
        pms_child_abort(&c);
        return fail("monitor");
    }
    int rc = pms_child_release(&c, argv[0]) || pms_child_wait(&c, &status, NULL) || pms_phase_monitor_stop(m);
    pms_phase_monitor_close(m);
    return rc ? fail("launched run") : 0;
}

static int attached(char **argv, decisions *d)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    usleep(50000);
    pms_phase_monitor_config cfg = config(d, 0);
    pms_phase_monitor *m;
    int rc = pms_phase_monitor_open(&m, pid, &cfg) || pms_phase_monitor_start(m);
    while (!rc && !pms_phase_monitor_target_gone(m)) rc = pms_phase_monitor_poll(m, 100) < 0;
    if (!rc) rc = pms_phase_monitor_stop(m);
    pms_phase_monitor_close(m);
    waitpid(pid, NULL, 0);
    return rc ? fail("attached run") : 0;
}

static volatile uint64_t sink;

/* This process, one thread spinning, the monitor reading on its own thread. */
static int self(char **argv, decisions *d)
{
    (void)argv;
    pms_phase_monitor_config cfg = config(d, 1);
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, 0, &cfg) || pms_phase_monitor_start(m)) return fail("self");
    struct timespec ts;
    uint64_t end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    end = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 1000000000u;
    for (uint64_t x = 1;; x = x * 6364136223846793005ull + 1) {
        sink += x;
        if ((x & 0xffff) == 1 && now_ns(CLOCK_THREAD_CPUTIME_ID) >= end) break;
    }
    int rc = pms_phase_monitor_stop(m);
    pms_phase_monitor_close(m);
    return rc ? fail("self run") : 0;
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[1]) : 0;
    if (runs < 1 || runs > 20) {
        fprintf(stderr, "usage: bench_phase_latency RUNS PHASES_WORKLOAD\n");
        return 2;
    }
    char *cmd[] = {argv[2], "--sequence", "AD", "--ms", "500", "--repeat", "1", NULL};
    const struct {
        const char *name;
        int (*run)(char **, decisions *);
    } modes[] = {{"launched (a buffer per CPU)", launched}, {"attached (a buffer per thread)", attached},
                 {"itself, one thread (peer)", self}};
    static decisions all[3], one;
    printf("decisions of the live phase monitor (cpu-clock every 4 ms, intervals of 7 samples), %d runs each\n", runs);
    printf("  %-32s %9s %9s %13s %13s %12s\n", "target", "wall med", "wall p90", "samples med", "samples p90",
           "monitor CPU");
    for (size_t k = 0; k < 3; k++) {
        double cpu = 0;
        for (int r = 0; r < runs; r++) {
            memset(&one, 0, sizeof one);
            double c0 = self_cpu_s();
            if (modes[k].run(cmd, &one)) return 1;
            cpu += self_cpu_s() - c0;
            measure(&one);
            decisions *a = &all[k];
            for (size_t i = 0; i < one.n && a->n < MAX_EVENTS; i++, a->n++) {
                a->wall_ms[a->n] = one.wall_ms[i];
                a->samples[a->n] = one.samples[i];
            }
        }
        decisions *a = &all[k];
        /* the self run's CPU is the spinning thread's too: not the monitor's alone */
        printf("  %-32s %7.2f ms %6.2f ms %13.0f %13.0f %9.3f s%s\n", modes[k].name, quantile(a->wall_ms, a->n, 0.5),
               quantile(a->wall_ms, a->n, 0.9), quantile(a->samples, a->n, 0.5), quantile(a->samples, a->n, 0.9),
               cpu / runs, k == 2 ? " (with its spin)" : "");
    }
    printf("  (samples: the target's samples taken after an interval's end, before its decision: 4 ms of its CPU each)\n");
    return 0;
}
