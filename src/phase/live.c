/* A phase analysis of a live program: launch a command or attach to a process. */
#include "phase/live.h"
#include "pmuscope/target.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static void describe(pms_phase_input *in, pms_phase_run *run, const char *what)
{
    const pms_phase_monitor *m = in->monitor;
    snprintf(run->source, sizeof run->source, "%s (live: samples of %s, intervals of %s)", what,
             pms_phase_monitor_sample_event(m), pms_phase_monitor_interval_event(m));
    int time_based = strstr(pms_phase_monitor_interval_event(m), "clock") != NULL;
    run->size_unit = time_based ? "ns" : "instructions";
    run->metric_name = run->n && run->rows[0].ev.metric_is_cpi ? "CPI" : "ns/sample";
    run->metric_about = pms_phase_monitor_metric_about(m);
    run->threads = pms_phase_monitor_threads(m);
    pms_phase_monitor_losses(m, &in->lost_samples, &in->empty_intervals);
    in->user_only = pms_phase_monitor_user_only(m);
    snprintf(in->user_only_events, sizeof in->user_only_events, "%s, %s", pms_phase_monitor_sample_event(m),
             pms_phase_monitor_interval_event(m));
}

/* A launched command: the monitor reads on its own thread while we wait for the child. */
static int run_command(pms_phase_input *in, pms_phase_run *run)
{
    pms_child child;
    int rc = pms_child_spawn(&child, in->argv);
    if (rc) return rc;
    in->live.enable_on_exec = 1;
    in->live.inherit = !in->no_inherit;
    in->live.own_thread = 1;
    in->live.on_interval = pms_phase_run_collect;
    in->live.user = run;
    if ((rc = pms_phase_monitor_open(&in->monitor, child.pid, &in->live)) ||
        (rc = pms_phase_monitor_start(in->monitor))) {
        pms_child_abort(&child);
        return rc;
    }
    if ((rc = pms_child_release(&child, in->argv[0]))) return rc;
    if ((rc = pms_child_wait(&child, &in->exit_status, NULL))) return rc;
    rc = pms_phase_monitor_stop(in->monitor);
    describe(in, run, in->argv[0]);
    return rc;
}

/* Whether tid is a thread that does not lead its process (its Tgid is another id). */
static int is_other_thread(pid_t tid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
    FILE *f = fopen(path, "r");
    long tgid = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Tgid: %ld", &tgid) == 1) break;
    if (f) fclose(f);
    return tgid > 0 && tgid != (long)tid;
}

/* An existing process, or one thread of it: read inside poll calls on this thread until it
 * exits or *stop is set. */
static int run_attached(pms_phase_input *in, pms_phase_run *run)
{
    in->live.own_thread = 0;
    in->live.inherit = 0;
    if (is_other_thread(in->pid)) in->live.thread_only = 1; /* a thread id: that thread alone */
    in->live.on_interval = pms_phase_run_collect;
    in->live.user = run;
    int rc = pms_phase_monitor_open(&in->monitor, in->pid, &in->live);
    if (rc || (rc = pms_phase_monitor_start(in->monitor))) return rc;
    while (!(in->stop && *in->stop) && rc >= 0 && !pms_phase_monitor_target_gone(in->monitor))
        rc = pms_phase_monitor_poll(in->monitor, 100);
    int stop = pms_phase_monitor_stop(in->monitor);
    char what[64];
    snprintf(what, sizeof what, "%s %d", in->live.thread_only ? "thread" : "process", (int)in->pid);
    describe(in, run, what);
    return rc < 0 ? rc : stop;
}

int pms__phase_live_run(pms_phase_input *in, pms_phase_run *run)
{
    /* CLOCK_MONOTONIC timestamps, comparable with a schedule the program writes itself. */
    in->live.use_clockid = 1;
    in->live.clockid = CLOCK_MONOTONIC;
    if (in->format != PMS_PHASE_FORMAT_AUTO || in->pc_path)
        return pms__fail(PMS_EINVAL, "a file format and a PC file apply to files, not to a live program");
    return in->argv ? run_command(in, run) : run_attached(in, run);
}
