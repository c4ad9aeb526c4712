/* The demo's steps run: each a pmuscope subcommand in a child process, its stdout and
 * stderr kept in the demo directory, its status and why it failed read back. */
#include "demo/demo_internal.h"
#include "pmuscope/demo.h"
#include "pmuscope/sampler.h"
#include "util/error.h"
#include "util/file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pms_demo_prepare(pms_demo *demo)
{
    if (!demo->program) return pms__fail(PMS_EINVAL, "the pmuscope binary that runs the steps is not set (program)");
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/phases", demo->workloads ? demo->workloads : ".");
    if (access(probe, X_OK) < 0)
        return pms__fail(pms__status_from_errno(errno),
                         "%s: %s: the bundled workloads are needed (build them, or give --workloads DIR)", probe,
                         strerror(errno));
    snprintf(probe, sizeof probe, "%s/armpm/cbench-excerpt.tsv", demo->fixtures ? demo->fixtures : ".");
    if (access(probe, R_OK) < 0)
        return pms__fail(pms__status_from_errno(errno),
                         "%s: %s: the bundled ARM data is needed (give --fixtures DIR: tests/fixtures of the "
                         "source tree)", probe, strerror(errno));
    int rc = pms__mkdir_p(demo->dir);
    if (rc != PMS_OK) return rc;
    const char *event; /* cpu-clock where cycles cannot be sampled, and why not */
    demo->pmu_note[0] = '\0';
    if (pms_sampler_default_event(&event) != PMS_OK)
        snprintf(demo->pmu_note, sizeof demo->pmu_note, "%s", pms_strerror());
    pms_event ev; /* the steps' events fall back as this one does (perf_event_paranoid) */
    if (pms_event_parse("task-clock", &ev) == PMS_OK) (void)pms_event_probe_user_fallback(&ev, &demo->user_only);
    return PMS_OK;
}

/* {dir}, {w} and {fx} in an argument template. Returns a malloc'd string. */
static char *expand(const char *tmpl, const pms_demo *demo)
{
    static const char *const keys[] = {"{dir}", "{w}", "{fx}"};
    const char *vals[] = {demo->dir, demo->workloads, demo->fixtures};
    char buf[PATH_MAX * 2];
    size_t n = 0;
    for (const char *p = tmpl; *p && n + 1 < sizeof buf;) {
        size_t k = 0;
        while (k < 3 && strncmp(p, keys[k], strlen(keys[k])) != 0) k++;
        if (k < 3) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", vals[k]);
            p += strlen(keys[k]);
        } else {
            buf[n++] = *p++;
        }
    }
    buf[n < sizeof buf ? n : sizeof buf - 1] = '\0';
    return strdup(buf);
}

static void path_in(const pms_demo *demo, const char *file, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", demo->dir, file);
}

static void log_path(const pms_demo *demo, const pms_demo_step *s, char *buf, size_t n)
{
    char name[128];
    snprintf(name, sizeof name, "%s.log", s->name);
    path_in(demo, name, buf, n);
}

static void start(pms_demo *demo, pms_demo_step *s)
{
    size_t n = 0;
    s->argv[n++] = strdup("pmuscope");
    for (size_t i = 0; i < PMS_DEMO_MAX_ARGS && s->args[i]; i++) s->argv[n++] = expand(s->args[i], demo);
    s->argv[n] = NULL;
    char out[PATH_MAX], err[PATH_MAX];
    if (s->out) path_in(demo, s->out, out, sizeof out);
    log_path(demo, s, err, sizeof err);
    /* a file left by an earlier demo must not pass for this run's */
    for (size_t i = 0; i < PMS_DEMO_MAX_SHOWN && s->shown[i].file; i++) {
        char path[PATH_MAX];
        path_in(demo, s->shown[i].file, path, sizeof path);
        unlink(path);
    }
    s->seconds = pms__demo_now();
    s->pid = pms__demo_spawn(demo->program, s->argv, s->out ? out : NULL, err);
    if (s->pid < 0) {
        s->status = -1;
        s->seconds = 0;
        snprintf(s->why, sizeof s->why, "could not start %s: %s", demo->program, strerror(errno));
    }
}

/* After the step ended: its status, and why it failed (the last line of its stderr). */
static void finish(const pms_demo *demo, pms_demo_step *s, int status)
{
    s->seconds = pms__demo_now() - s->seconds;
    s->status = status;
    char err[PATH_MAX], last[400];
    log_path(demo, s, err, sizeof err);
    pms__demo_last_line(err, last, sizeof last);
    if (status == PMS_DEMO_TIMED_OUT) {
        snprintf(s->why, sizeof s->why, "stopped after %g s (--step-timeout)", demo->step_timeout);
        return;
    }
    if (status != 0) {
        snprintf(s->why, sizeof s->why, "exit status %d%s%s", status, last[0] ? ": " : "", last);
        return;
    }
    for (size_t i = 0; i < PMS_DEMO_MAX_SHOWN && s->shown[i].file; i++) {
        char path[PATH_MAX];
        struct stat st;
        path_in(demo, s->shown[i].file, path, sizeof path);
        if (stat(path, &st) < 0 || st.st_size == 0) {
            s->status = 1;
            snprintf(s->why, sizeof s->why, "it ended well but did not write %s", s->shown[i].file);
            return;
        }
    }
}

static void tell(const pms_demo *demo, size_t i, pms_demo_stage stage)
{
    if (demo->progress) demo->progress(demo->progress_ctx, demo, i, stage);
}

/* Waits for a started step (if it started) and says that it ended. */
static void wait_for(pms_demo *demo, size_t i)
{
    pms_demo_step *s = &demo->steps[i];
    if (s->pid > 0) finish(demo, s, pms__demo_wait(s->pid, s->seconds + demo->step_timeout));
    tell(demo, i, PMS_DEMO_ENDED);
}

int pms_demo_run(pms_demo *demo)
{
    double t0 = pms__demo_now();
    for (size_t i = 0; i < demo->nsteps; i++) {
        if (!demo->steps[i].background) continue;
        start(demo, &demo->steps[i]);
        tell(demo, i, demo->steps[i].status != 0 ? PMS_DEMO_ENDED : PMS_DEMO_BACKGROUND);
    }
    for (size_t i = 0; i < demo->nsteps; i++) {
        if (demo->steps[i].background) continue;
        tell(demo, i, PMS_DEMO_RUNNING);
        start(demo, &demo->steps[i]);
        wait_for(demo, i);
    }
    for (size_t i = 0; i < demo->nsteps; i++) {
        if (!demo->steps[i].background || demo->steps[i].pid <= 0) continue;
        tell(demo, i, PMS_DEMO_WAITING);
        wait_for(demo, i);
    }
    demo->seconds = pms__demo_now() - t0;
    return PMS_OK;
}

size_t pms_demo_failed(const pms_demo *demo)
{
    size_t failed = 0;
    for (size_t i = 0; i < demo->nsteps; i++) failed += demo->steps[i].status != 0;
    return failed;
}

void pms_demo_free(pms_demo *demo)
{
    for (size_t i = 0; i < demo->nsteps; i++) {
        for (size_t k = 0; demo->steps[i].argv[k]; k++) free(demo->steps[i].argv[k]);
        demo->steps[i].argv[0] = NULL;
    }
}
