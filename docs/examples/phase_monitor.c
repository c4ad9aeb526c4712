/* phase_monitor: the phase monitor API of include/pmuscope/phase.h in a small program.
 *
 *   phase_monitor -- COMMAND [ARGS...]   classify COMMAND's phases while it runs; the
 *                                        monitor reads its samples on its own thread
 *   phase_monitor --self                 classify this program's own phases (two loops
 *                                        that take turns); no extra thread: the program
 *                                        calls pms_phase_monitor_poll() between its chunks
 *
 * It prints a line at every phase change (the on_change callback) and, at the end, how
 * many intervals each phase had (the on_interval callback). --self's loops take turns every
 * few tens of milliseconds, shorter than the monitor's default intervals (7 samples of 4 ms,
 * chosen for an overhead below 1%), so this program samples cpu-clock every 50 us and ends
 * an interval every 4 ms of task-clock: software events, which work with or without a
 * hardware PMU. (The bundled phases workload's phases last 200 ms by default, which the
 * defaults find too.)
 *
 * Build against an installed pmuscope:
 *   cc -o phase_monitor phase_monitor.c $(pkg-config --cflags --libs pmuscope) */
#include <pmuscope/phase.h>
#include <pmuscope/target.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define MAX_PHASES 64

struct tally {
    unsigned long intervals[MAX_PHASES];
    unsigned long changes;
};

static int on_interval(const pms_phase_event *ev, void *user)
{
    struct tally *t = user;
    t->intervals[ev->phase < MAX_PHASES ? ev->phase : MAX_PHASES - 1]++;
    return 0;
}

static int on_change(const pms_phase_event *ev, void *user)
{
    struct tally *t = user;
    t->changes++;
    printf("interval %4llu: phase %d -> %d  (predicted next: %d, confidence %.2f; %zu samples)\n",
           (unsigned long long)ev->index, ev->previous_phase, ev->phase, ev->prediction.phase,
           ev->prediction.confidence, ev->samples);
    return 0;
}

/* Two kernels with different code, for --self. */
static volatile uint64_t sink;
static void hash_loop(void)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 3000000; i++) h = (h ^ (uint64_t)i) * 1099511628211ull;
    sink = h;
}
static void float_loop(void)
{
    double x = 1.0;
    for (int i = 0; i < 3000000; i++) x = x * 1.0000001 + 1e-9;
    sink = (uint64_t)x;
}

static int run_command(pms_phase_monitor_config *cfg, char **argv)
{
    pms_child child;
    if (pms_child_spawn(&child, argv) < 0) return -1;
    cfg->enable_on_exec = 1; /* the child is held before exec: count from its exec */
    cfg->inherit = 1;
    cfg->own_thread = 1;
    pms_phase_monitor *m;
    if (pms_phase_monitor_open(&m, child.pid, cfg) < 0) {
        pms_child_abort(&child);
        return -1;
    }
    int status = 0;
    int rc = pms_phase_monitor_start(m);
    if (rc == 0) rc = pms_child_release(&child, argv[0]);
    if (rc == 0) rc = pms_child_wait(&child, &status, NULL);
    int stop = pms_phase_monitor_stop(m); /* handles the last, partial interval */
    pms_phase_monitor_close(m);
    if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) != 0)
        fprintf(stderr, "phase_monitor: %s exited with status %d\n", argv[0], WEXITSTATUS(status));
    return rc < 0 ? rc : stop;
}

static int run_self(pms_phase_monitor_config *cfg)
{
    pms_phase_monitor *m;
    cfg->own_thread = 0; /* callbacks run inside pms_phase_monitor_poll() */
    if (pms_phase_monitor_open(&m, 0, cfg) < 0) return -1;
    int rc = pms_phase_monitor_start(m);
    for (int round = 0; round < 6 && rc >= 0; round++)
        for (int chunk = 0; chunk < 8 && rc >= 0; chunk++) {
            if (round % 2) float_loop();
            else hash_loop();
            rc = pms_phase_monitor_poll(m, 0);
        }
    int stop = pms_phase_monitor_stop(m);
    pms_phase_monitor_close(m);
    return rc < 0 ? rc : stop;
}

int main(int argc, char **argv)
{
    int self = argc == 2 && strcmp(argv[1], "--self") == 0;
    int command = argc >= 3 && strcmp(argv[1], "--") == 0;
    if (!self && !command) {
        fprintf(stderr, "usage: phase_monitor -- COMMAND [ARGS...]\n       phase_monitor --self\n");
        return 2;
    }
    struct tally t = {{0}, 0};
    pms_phase_monitor_config cfg;
    pms_phase_monitor_config_default(&cfg);
    cfg.sample_event = "cpu-clock";
    cfg.sample_period = 50000;      /* ns */
    cfg.interval_event = "task-clock";
    cfg.interval_size = 4000000;    /* ns: 80 samples an interval */
    /* % of the largest distance. 80 samples are noisy, but at 50 a centroid that has averaged
     * both of --self's loops lies within reach of each and absorbs them (2 runs in 12 under
     * ASan); 40 keeps them apart (0 in 20) and still finds the workload's phases. */
    cfg.phase.classifier.threshold = 40;
    cfg.on_interval = on_interval;
    cfg.on_change = on_change;
    cfg.user = &t;
    int rc = self ? run_self(&cfg) : run_command(&cfg, argv + 2);
    if (rc < 0) {
        fprintf(stderr, "phase_monitor: %s\n", pms_strerror());
        return 1;
    }
    printf("%lu phase changes; intervals per phase:", t.changes);
    for (int p = 0; p < MAX_PHASES; p++)
        if (t.intervals[p]) printf(" %d:%lu", p, t.intervals[p]);
    printf("  (0 = transition)\n");
    return 0;
}
