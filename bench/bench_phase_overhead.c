/* The phase monitor's overhead with both sides counted (Sembrant's thesis: below 1%): a
 * command run alone, then under the live monitor at its defaults, in turn, RUNS times.
 * The command's CPU time comes from getrusage(RUSAGE_CHILDREN) around its wait, where
 * the sampling interrupts are paid; the monitor's own CPU time (its reading thread:
 * draining the buffers, merging them in time order, the engine) from
 * getrusage(RUSAGE_SELF) around the session. Prints the medians and the ratio
 * (command + monitor) / command alone. Wall time is not used: on a shared machine it
 * measures the other jobs.
 * usage: bench_phase_overhead RUNS COMMAND [ARGS...] */
#include "pmuscope/error.h"
#include "pmuscope/phase.h"
#include "pmuscope/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>

static double cpu_s(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int die(const char *what)
{
    fprintf(stderr, "bench_phase_overhead: %s: %s\n", what, pms_strerror());
    return 1;
}

/* One run of argv; *target gets its CPU seconds, *own the monitor's (with monitor set). */
static int run(char **argv, int monitor, double *target, double *own, size_t *intervals)
{
    pms_child c;
    int status;
    double c0 = cpu_s(RUSAGE_CHILDREN), s0 = cpu_s(RUSAGE_SELF);
    if (pms_child_spawn(&c, argv)) return die("spawn");
    pms_phase_monitor *m = NULL;
    if (monitor) {
        pms_phase_monitor_config cfg;
        pms_phase_monitor_config_default(&cfg);
        cfg.enable_on_exec = cfg.inherit = 1;
        if (pms_phase_monitor_open(&m, c.pid, &cfg) || pms_phase_monitor_start(m)) {
            pms_child_abort(&c);
            return die("monitor");
        }
    }
    if (pms_child_release(&c, argv[0]) || pms_child_wait(&c, &status, NULL)) return die("command");
    if (m) {
        if (pms_phase_monitor_stop(m)) return die("monitor");
        pms_phase_summary sum;
        pms_phase_engine_summary(pms_phase_monitor_engine(m), &sum);
        *intervals = sum.intervals;
        pms_phase_monitor_close(m);
    }
    *target = cpu_s(RUSAGE_CHILDREN) - c0;
    *own = cpu_s(RUSAGE_SELF) - s0;
    return 0;
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[1]) : 0;
    if (runs < 1 || runs > 100) {
        fprintf(stderr, "usage: bench_phase_overhead RUNS COMMAND [ARGS...]\n");
        return 2;
    }
    double *alone = calloc((size_t)runs, sizeof(double)), *target = calloc((size_t)runs, sizeof(double)),
           *own = calloc((size_t)runs, sizeof(double)), *both = calloc((size_t)runs, sizeof(double));
    if (!alone || !target || !own || !both) return 1;
    size_t intervals = 0;
    for (int i = 0; i < runs; i++) {
        double unused;
        if (run(argv + 2, 0, &alone[i], &unused, &intervals) || run(argv + 2, 1, &target[i], &own[i], &intervals))
            return 1;
        both[i] = target[i] + own[i];
    }
    double a = median(alone, runs), t = median(target, runs), o = median(own, runs), b = median(both, runs);
    printf("phase monitor at its defaults on %s, median of %d runs each (CPU seconds, getrusage)\n", argv[2], runs);
    printf("  command alone             %8.3f s\n", a);
    printf("  command, monitored        %8.3f s  (ratio %.4f)\n", t, t / a);
    printf("  the monitor itself        %8.3f s  (%zu intervals in the last run)\n", o, intervals);
    printf("  command + monitor         %8.3f s  (ratio %.4f: %+.2f%%; goal below 1%%)\n", b, b / a, (b / a - 1) * 100);
    free(alone);
    free(target);
    free(own);
    free(both);
    return 0;
}
