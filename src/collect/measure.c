/* One measurement: launch a command (or attach to a process), read the counters at
 * intervals, and read the totals when the target ends or the caller asks to stop.
 * The target's end is noticed through a pidfd, so intervals stay on time. */
#include "pmuscope/counter.h"
#include "pmuscope/target.h"

#include "collect/tool_events.h"
#include "util/error.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Without a pidfd (kernels before 5.3) the end is checked at this period. */
#define POLL_FALLBACK_MS 20
/* Without -I the counters are still read at this period: each read closes a window from which
 * a multiplexed count's uncertainty is estimated (pmuscope/multiplex.h). */
#define WINDOW_MS 100

struct target {
    pid_t pid;   /* 0: none (system-wide until stopped) */
    int pidfd;
    bool launched;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool target_ended(const struct target *tg)
{
    if (tg->pid == 0) return false;
    if (tg->launched) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        return waitid(P_PID, (id_t)tg->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == tg->pid;
    }
    if (kill(tg->pid, 0) < 0 && errno == ESRCH) return true;
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)tg->pid);
    FILE *f = fopen(path, "r");
    if (!f) return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')'); /* the state follows the command name */
    return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'); /* paren[1] may end buf */
}

static uint64_t ns_of(double s) { return s > 0 ? (uint64_t)llround(s * 1e9) : 0; }

static int report_interval(pms_counter *c, const pms_measure_opts *o, double t, pms_count *prev, pms_count *now,
                           pms_count *delta)
{
    size_t n = pms_counter_count(c);
    int r = pms_counter_read(c, now);
    if (r) return r;
    pms__tool_counts_fill(c, now, ns_of(t), NULL); /* rusage is known only at the end, as in perf */
    pms_count_delta(now, prev, n, delta);
    memcpy(prev, now, n * sizeof *now);
    return o->on_interval ? o->on_interval(t, delta, n, o->ctx) : 0;
}

/* Whether any counter moved since the last interval (reads the counters into now). */
static bool counts_moved(pms_counter *c, const pms_count *prev, pms_count *now)
{
    size_t n = pms_counter_count(c);
    if (pms_counter_read(c, now) != PMS_OK) return true; /* report_interval reports the error */
    for (size_t i = 0; i < n; i++)
        if (!pms_event_is_tool(pms_counter_event(c, i)) && now[i].raw != prev[i].raw) return true;
    return false;
}

/* A read that only closes a window (of the sums and of each unit), between intervals. */
static int read_window(pms_counter *c, pms_count *now)
{
    size_t units = pms_counter_units(c), n = pms_counter_count(c);
    int r = pms_counter_read(c, now);
    if (r || units < 2) return r;
    pms_count *all = malloc(units * n * sizeof *all);
    if (!all) return pms__fail(PMS_ENOMEM, "out of memory");
    r = pms_counter_read_units(c, all);
    free(all);
    return r;
}

static int measure_loop(pms_counter *c, struct target *tg, double start, const pms_measure_opts *o,
                        pms_count *totals, pms_measure_result *res)
{
    size_t n = pms_counter_count(c);
    pms_count *prev = calloc(n, sizeof *prev), *now = calloc(n, sizeof *now), *delta = calloc(n, sizeof *delta);
    if (!prev || !now || !delta) {
        free(prev), free(now), free(delta);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    double step = (o->interval_ms ? o->interval_ms : WINDOW_MS) / 1000.0, next = start + step, last_tick = start;
    bool forwarded = false, stopped_by_callback = false;
    int r = PMS_OK;
    for (;;) {
        if (target_ended(tg)) break;
        double left = next - now_s();
        int timeout = left > 0 ? (int)(left * 1000.0 + 0.999) : 0;
        if (tg->pidfd < 0 && (timeout < 0 || timeout > POLL_FALLBACK_MS)) timeout = POLL_FALLBACK_MS;
        struct pollfd pfd = {.fd = tg->pidfd, .events = POLLIN};
        int ready = poll(&pfd, tg->pidfd >= 0 ? 1 : 0, timeout);
        if (ready < 0 && errno != EINTR) {
            r = pms__fail_errno(PMS_EIO, errno, "waiting for process %d", (int)tg->pid);
            break;
        }
        if (o->stop && *o->stop && !forwarded) {
            res->stop_signal = (int)*o->stop;
            forwarded = true;
            if (!tg->launched) break;
            kill(tg->pid, res->stop_signal); /* the command decides how to end; we keep counting */
        }
        if (ready > 0) continue; /* the pidfd says the target ended: checked at the top */
        if (now_s() >= next && !o->interval_ms) {
            if ((r = read_window(c, now)) != 0) break;
            next += step;
        } else if (now_s() >= next) {
            double t = now_s();
            if ((r = report_interval(c, o, t - start, prev, now, delta)) != 0) {
                stopped_by_callback = r > 0;
                break;
            }
            last_tick = t;
            next += step;
        }
    }
    double end = now_s();
    res->elapsed_s = end - start;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (tg->launched) {
        if (stopped_by_callback || r < 0) kill(tg->pid, SIGKILL);
        pid_t w;
        do w = wait4(tg->pid, &res->wait_status, 0, &ru); while (w < 0 && errno == EINTR);
        res->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
        res->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    } else {
        res->target_ended = res->stop_signal == 0;
    }
    if (r >= 0) r = PMS_OK;
    /* The last, partial interval (as perf stat -I prints it), then the totals. A short one
     * is left out only when nothing moved in it, so the intervals always add up to the totals. */
    if (r == PMS_OK && o->interval_ms && !stopped_by_callback &&
        (end - last_tick > 1e-3 || counts_moved(c, prev, now))) {
        r = report_interval(c, o, end - start, prev, now, delta);
        if (r > 0) r = PMS_OK;
    }
    if (r == PMS_OK) r = pms_counter_read(c, totals);
    if (r == PMS_OK) pms__tool_counts_fill(c, totals, ns_of(end - start), tg->launched ? &ru : NULL);
    free(prev), free(now), free(delta);
    return r;
}

static int open_pidfd(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int pms_measure_command(pms_counter *c, char *const argv[], const pms_measure_opts *o, pms_count *totals,
                        pms_measure_result *res)
{
    memset(res, 0, sizeof *res);
    pms_child child;
    int r = pms_child_spawn(&child, argv);
    if (r) return r;
    if ((r = pms_counter_open_child(c, child.pid)) != PMS_OK ||
        (o->on_spawn && (r = o->on_spawn(o->ctx, child.pid)) != PMS_OK)) {
        pms_child_abort(&child);
        return r;
    }
    struct target tg = {child.pid, open_pidfd(child.pid), true};
    double start = now_s(); /* the command may be done before the loop starts */
    if ((r = pms_child_release(&child, argv[0])) != PMS_OK) {
        if (tg.pidfd >= 0) close(tg.pidfd);
        return r;
    }
    r = measure_loop(c, &tg, start, o, totals, res);
    if (tg.pidfd >= 0) close(tg.pidfd);
    return r;
}

int pms_measure_pid(pms_counter *c, pid_t pid, const pms_measure_opts *o, pms_count *totals,
                    pms_measure_result *res)
{
    memset(res, 0, sizeof *res);
    if (pid <= 0) return pms__fail(PMS_EINVAL, "invalid pid %d", (int)pid);
    int r = pms_counter_attach(c, pid);
    if (r) return r;
    struct target tg = {pid, open_pidfd(pid), false};
    r = measure_loop(c, &tg, now_s(), o, totals, res);
    if (tg.pidfd >= 0) close(tg.pidfd);
    return r;
}

int pms_measure_cpus(pms_counter *c, const char *cpus, char *const argv[], const pms_measure_opts *o,
                     pms_count *totals, pms_measure_result *res)
{
    memset(res, 0, sizeof *res);
    bool launch = argv && argv[0];
    pms_child child;
    int r = launch ? pms_child_spawn(&child, argv) : PMS_OK;
    if (r) return r;
    if ((r = pms_counter_open_cpus(c, cpus)) != PMS_OK || /* enabled: counting from here */
        (launch && o->on_spawn && (r = o->on_spawn(o->ctx, child.pid)) != PMS_OK)) {
        if (launch) pms_child_abort(&child);
        return r;
    }
    struct target tg = {launch ? child.pid : 0, launch ? open_pidfd(child.pid) : -1, launch};
    double start = now_s();
    if (launch && (r = pms_child_release(&child, argv[0])) != PMS_OK) {
        if (tg.pidfd >= 0) close(tg.pidfd);
        return r;
    }
    r = measure_loop(c, &tg, start, o, totals, res);
    if (tg.pidfd >= 0) close(tg.pidfd);
    return r;
}
