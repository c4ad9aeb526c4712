/* pmuscope phase on a live program: launch a command or attach to a process. */
#include "cli/cli.h"
#include "cli/phase_input.h"
#include "pmuscope/target.h"

#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { (void)sig; interrupted = 1; }

static int collect(const pms_phase_event *ev, void *ctx)
{
    return phase_run_add(ctx, ev) ? PMS_ENOMEM : 0;
}

static void describe(phase_input *in, phase_run *run, const char *what)
{
    const pms_phase_monitor *m = in->monitor;
    snprintf(run->source, sizeof run->source, "%s (live: samples of %s, intervals of %s)", what,
             pms_phase_monitor_sample_event(m), pms_phase_monitor_interval_event(m));
    int time_based = strstr(pms_phase_monitor_interval_event(m), "clock") != NULL;
    run->size_unit = time_based ? "ns" : "instructions";
    run->metric_name = run->n && run->rows[0].ev.metric_is_cpi ? "CPI" : "ns/sample";
    run->engine = pms_phase_monitor_engine(m);
}

static void report_losses(const pms_phase_monitor *m)
{
    uint64_t lost, empty;
    pms_phase_monitor_losses(m, &lost, &empty);
    if (lost) cli_warn("%llu samples were lost (ring buffer full): raise -c", (unsigned long long)lost);
    if (empty) cli_warn("%llu intervals had no samples and were not classified: lower -c or raise -I",
                        (unsigned long long)empty);
}

/* A launched command: the monitor reads on its own thread while we wait for the child. */
static int run_command(phase_input *in, phase_run *run)
{
    pms_child child;
    if (pms_child_spawn(&child, in->argv)) return cli_lib_error();
    in->live.enable_on_exec = 1;
    in->live.inherit = 1;
    in->live.own_thread = 1;
    in->live.on_interval = collect;
    in->live.user = run;
    if (pms_phase_monitor_open(&in->monitor, child.pid, &in->live) || pms_phase_monitor_start(in->monitor)) {
        pms_child_abort(&child);
        return cli_lib_error();
    }
    if (pms_child_release(&child, in->argv[0])) return cli_lib_error();
    /* Ctrl-C stops the command (it gets the signal too), not the report of what ran. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
    sigaction(SIGINT, &ignore, &old);
    int status = 0;
    int waited = pms_child_wait(&child, &status, NULL);
    sigaction(SIGINT, &old, NULL);
    if (waited) return cli_lib_error();
    int rc = pms_phase_monitor_stop(in->monitor);
    describe(in, run, in->argv[0]);
    if (rc) return cli_lib_error();
    report_losses(in->monitor);
    if (WIFSIGNALED(status)) cli_warn("%s was killed by signal %d", in->argv[0], WTERMSIG(status));
    else if (WEXITSTATUS(status)) cli_warn("%s exited with status %d", in->argv[0], WEXITSTATUS(status));
    return CLI_OK;
}

/* An existing process: read inside poll calls on this thread until it exits or Ctrl-C. */
static int run_attached(phase_input *in, phase_run *run)
{
    in->live.own_thread = 0;
    in->live.inherit = 0;
    in->live.on_interval = collect;
    in->live.user = run;
    if (pms_phase_monitor_open(&in->monitor, in->pid, &in->live) || pms_phase_monitor_start(in->monitor))
        return cli_lib_error();
    struct sigaction sa = {.sa_handler = on_sigint}, old;
    sigaction(SIGINT, &sa, &old);
    int rc = 0;
    while (!interrupted && rc >= 0 && !pms_phase_monitor_target_gone(in->monitor))
        rc = pms_phase_monitor_poll(in->monitor, 100);
    sigaction(SIGINT, &old, NULL);
    int stop = pms_phase_monitor_stop(in->monitor);
    char what[64];
    snprintf(what, sizeof what, "process %d", (int)in->pid);
    describe(in, run, what);
    if (rc < 0 || stop) return cli_lib_error();
    report_losses(in->monitor);
    return CLI_OK;
}

int phase_live_run(phase_input *in, phase_run *run)
{
    /* CLOCK_MONOTONIC timestamps, comparable with a schedule the program writes itself. */
    in->live.use_clockid = 1;
    in->live.clockid = CLOCK_MONOTONIC;
    if (in->format != FORMAT_AUTO || in->pc_path)
        return cli_usage_error("phase", "--format and --pc apply to files, not to a live program");
    return in->argv ? run_command(in, run) : run_attached(in, run);
}
