/* The demo's HTML page, built from the files the steps wrote. */
#include "pmuscope/demo.h"
#include "pmuscope/error.h"
#include "pmuscope/html.h"
#include "pmuscope/methods.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

static void command_line(const pms_demo_step *s, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "$");
    for (size_t k = 0; s->argv[k] && used < n; k++) used += (size_t)snprintf(buf + used, n - used, " %s", s->argv[k]);
}

static bool exists(const pms_demo *run, const char *file)
{
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", run->dir, file);
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* One file of a step on the page; returns 0, or -1 when it could not be shown (said on the page). */
static int show(pms_html *h, const pms_demo *run, const pms_demo_shown *d)
{
    char path[PATH_MAX], msg[700];
    snprintf(path, sizeof path, "%s/%s", run->dir, d->file);
    int rc = 0;
    if (d->kind == PMS_DEMO_SVG) {
        rc = pms_html_svg_file(h, path, d->caption);
    } else if (d->kind == PMS_DEMO_TABLE) {
        pms_table *t;
        rc = pms_table_read(path, NULL, &t);
        if (rc == 0) {
            if (d->caption) pms_html_paragraph(h, d->caption);
            rc = pms_html_table_from(h, t, d->max_rows);
            pms_table_free(t);
        }
    } else if (pms_html_text_file(h, path, d->max_rows) < 0) {
        snprintf(msg, sizeof msg, "%s: cannot be read", d->file);
        pms_html_paragraph(h, msg);
        return -1;
    }
    if (rc < 0) {
        snprintf(msg, sizeof msg, "%s cannot be shown: %s", d->file, pms_strerror());
        pms_html_paragraph(h, msg);
        return -1;
    }
    return 0;
}

static void steps_table(pms_html *h, const pms_demo *run)
{
    static const char *const head[] = {"step", "status", "seconds", "command"};
    pms_html_table_begin(h, head, 4);
    for (size_t i = 0; i < run->nsteps; i++) {
        const pms_demo_step *s = &run->steps[i];
        char secs[32], cmd[2048];
        snprintf(secs, sizeof secs, "%.1f", s->seconds);
        command_line(s, cmd, sizeof cmd);
        const char *row[] = {s->name, s->status == 0 ? "ok" : s->why, secs, cmd + 2};
        pms_html_table_row(h, row, 4);
    }
    pms_html_table_end(h);
}

static void intro(pms_html *h, const pms_demo *run)
{
    char text[1200], when[64];
    struct utsname u;
    time_t t = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %Z", localtime(&t));
    if (uname(&u) < 0) snprintf(u.nodename, sizeof u.nodename, "?");
    snprintf(text, sizeof text,
             "Made by pmuscope demo on %s (%s %s) at %s in %.1f s. Each section below ran one pmuscope "
             "command as a child process; the tables and figures are the files it wrote (CSV, SVG, text), "
             "which lie beside this page.",
             u.nodename, u.sysname, u.release, when, run->seconds);
    pms_html_paragraph(h, text);
    if (run->pmu_note[0]) {
        snprintf(text, sizeof text,
                 "This machine has no hardware PMU that pmuscope can use (%s). So sampling uses the cpu-clock "
                 "software event, and CPI stacks and cycle estimation, which need hardware counters, run on "
                 "the bundled ARM Cortex-A15 recordings.", run->pmu_note);
        pms_html_paragraph(h, text);
    }
    if (run->user_only) {
        snprintf(text, sizeof text,
                 "perf_event_paranoid let this user count user space only: every step counted it alone, as "
                 "perf does at that level, and its events carry perf's :u (task-clock:u, cpu-clock:u).");
        pms_html_paragraph(h, text);
    }
    steps_table(h, run);
}

int pms_demo_write_page(FILE *out, const pms_demo *run)
{
    pms_html h;
    pms_html_begin(&h, out, "pmuscope demo");
    intro(&h, run);
    int bad = 0;
    for (size_t i = 0; i < run->nsteps; i++) {
        const pms_demo_step *s = &run->steps[i];
        char cmd[2048], msg[700];
        pms_html_section(&h, s->title);
        pms_html_paragraph(&h, s->about);
        const pms_method *m = pms_method_of(s->name); /* the method's first step cites its paper */
        if (m) {
            snprintf(msg, sizeof msg, "Method: %s. Paper: %s.", m->name, m->citation);
            pms_html_paragraph(&h, msg);
        }
        command_line(s, cmd, sizeof cmd);
        pms_html_pre(&h, cmd);
        if (s->status != 0) {
            /* what it said on stderr, then whatever it wrote before failing */
            snprintf(msg, sizeof msg, "This step failed: %s", s->why);
            pms_html_paragraph(&h, msg);
            snprintf(msg, sizeof msg, "%s.log", s->name);
            pms_demo_shown log = {PMS_DEMO_TEXT, msg, NULL, 0};
            if (exists(run, msg)) show(&h, run, &log);
        }
        for (size_t k = 0; k < PMS_DEMO_MAX_SHOWN && s->shown[k].file; k++) {
            if (s->status != 0 && !exists(run, s->shown[k].file)) continue;
            if (show(&h, run, &s->shown[k]) < 0 && s->status == 0) bad = 1;
        }
    }
    int rc = pms_html_end(&h);
    if (rc == PMS_OK && bad) rc = pms__fail(PMS_EFORMAT, "some files could not be shown (the page says which)");
    return rc;
}
