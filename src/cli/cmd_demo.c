/* pmuscope demo: everything pmuscope does, on the bundled workloads and data, in one
 * command and one page. The steps are pmuscope subcommands run as child processes
 * (demo_steps.c); the page and the summary are built from the files they write. */
#include "cli/cli.h"
#include "cli/demo.h"
#include "pmuscope/error.h"
#include "pmuscope/sampler.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PMS_FIXTURES_DIR
#define PMS_FIXTURES_DIR "tests/fixtures"
#endif

static void usage(FILE *out)
{
    fputs("usage: pmuscope demo [-o DIR] [--workloads DIR] [--fixtures DIR]\n\n"
          "Runs record, report, olr, a short hotspot sweep and phase on the bundled workloads,\n"
          "and cpistack and estimate on the bundled ARM Cortex-A15 data, each as a pmuscope\n"
          "subcommand in a child process; shows progress on stderr, prints a summary, and\n"
          "writes one self-contained HTML page with every table and plot (inline SVG, no\n"
          "scripts, nothing fetched) beside the files the steps wrote.\n\n"
          "  -o, --output DIR     where the page and the files go (default pmuscope-demo;\n"
          "                       the page is DIR/index.html)\n"
          "      --workloads DIR  the phases and hotspots programs (default: workloads/ beside\n"
          "                       the pmuscope binary in a build tree, else ../libexec/pmuscope)\n"
          "      --fixtures DIR   the ARM data (default: the source tree's tests/fixtures, else\n"
          "                       ../share/pmuscope/fixtures beside the binary's directory)\n"
          "      --steps LIST     run only these steps (comma-separated): hotspot, record, report,\n"
          "                       olr, olr-opt, phase, cpistack, cpistack-lm, estimate\n"
          "      --step-timeout S a step still running after S seconds is stopped and reported\n"
          "                       as failed (default 300)\n"
          "      --json[=FILE]    every step as JSON (its method and paper, status, command, the\n"
          "                       files it wrote, the summary's rows or lines) to FILE, or to\n"
          "                       stdout instead of the summary\n"
          "  -h, --help           this help\n\n"
          "A step that fails is named with its reason, the others still run and the page is\n"
          "still written; the exit status is then 1.\n",
          out);
}

static int mkdir_p(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) < 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* {dir}, {w} and {fx} in an argument template. Returns a malloc'd string. */
static char *expand(const char *tmpl, const demo_run *run)
{
    static const char *const keys[] = {"{dir}", "{w}", "{fx}"};
    const char *vals[] = {run->dir, run->workloads, run->fixtures};
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

static void path_in(const demo_run *run, const char *file, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", run->dir, file);
}

static void log_path(const demo_run *run, const demo_step *s, char *buf, size_t n)
{
    char name[128];
    snprintf(name, sizeof name, "%s.log", s->name);
    path_in(run, name, buf, n);
}

static void start(demo_run *run, demo_step *s)
{
    size_t n = 0;
    s->argv[n++] = strdup("pmuscope");
    for (size_t i = 0; i < DEMO_MAX_ARGS && s->args[i]; i++) s->argv[n++] = expand(s->args[i], run);
    s->argv[n] = NULL;
    char out[PATH_MAX], err[PATH_MAX];
    if (s->out) path_in(run, s->out, out, sizeof out);
    log_path(run, s, err, sizeof err);
    /* a file left by an earlier demo must not pass for this run's */
    for (size_t i = 0; i < DEMO_MAX_SHOWN && s->shown[i].file; i++) {
        char path[PATH_MAX];
        path_in(run, s->shown[i].file, path, sizeof path);
        unlink(path);
    }
    s->seconds = now();
    s->pid = demo_spawn(s->argv, s->out ? out : NULL, err);
    if (s->pid < 0) {
        s->status = -1;
        s->seconds = 0;
        snprintf(s->why, sizeof s->why, "could not start /proc/self/exe: %s", strerror(errno));
    }
}

/* After the step ended: its status, and why it failed (the last line of its stderr). */
static void finish(const demo_run *run, demo_step *s, int status)
{
    s->seconds = now() - s->seconds;
    s->status = status;
    char err[PATH_MAX], last[400];
    log_path(run, s, err, sizeof err);
    demo_last_line(err, last, sizeof last);
    if (status == DEMO_TIMED_OUT) {
        snprintf(s->why, sizeof s->why, "stopped after %g s (--step-timeout)", run->step_timeout);
        return;
    }
    if (status != 0) {
        snprintf(s->why, sizeof s->why, "exit status %d%s%s", status, last[0] ? ": " : "", last);
        return;
    }
    for (size_t i = 0; i < DEMO_MAX_SHOWN && s->shown[i].file; i++) {
        char path[PATH_MAX];
        struct stat st;
        path_in(run, s->shown[i].file, path, sizeof path);
        if (stat(path, &st) < 0 || st.st_size == 0) {
            s->status = 1;
            snprintf(s->why, sizeof s->why, "it ended well but did not write %s", s->shown[i].file);
            return;
        }
    }
}

static void progress_line(const demo_run *run, const demo_step *s, const char *what)
{
    size_t k = (size_t)(s - run->steps) + 1;
    if (s->status != 0)
        fprintf(stderr, "pmuscope demo: [%zu/%zu] %-11s FAILED after %.1f s: %s\n", k, run->nsteps, s->name,
                s->seconds, s->why);
    else
        fprintf(stderr, "pmuscope demo: [%zu/%zu] %-11s %s\n", k, run->nsteps, s->name, what);
}

static void report_done(const demo_run *run, const demo_step *s)
{
    char what[64];
    snprintf(what, sizeof what, "done in %.1f s", s->seconds);
    progress_line(run, s, what);
}

static void run_steps(demo_run *run)
{
    for (size_t i = 0; i < run->nsteps; i++) {
        demo_step *s = &run->steps[i];
        if (!s->background) continue;
        start(run, s);
        progress_line(run, s, "started in the background (valgrind, then one recording per period)");
    }
    for (size_t i = 0; i < run->nsteps; i++) {
        demo_step *s = &run->steps[i];
        if (s->background) continue;
        fprintf(stderr, "pmuscope demo: [%zu/%zu] %-11s running\n", i + 1, run->nsteps, s->name);
        start(run, s);
        if (s->pid > 0) finish(run, s, demo_wait(s->pid, s->seconds + run->step_timeout));
        report_done(run, s);
    }
    for (size_t i = 0; i < run->nsteps; i++) {
        demo_step *s = &run->steps[i];
        if (!s->background || s->pid <= 0) continue;
        fprintf(stderr, "pmuscope demo: [%zu/%zu] %-11s waiting for it to end\n", i + 1, run->nsteps, s->name);
        finish(run, s, demo_wait(s->pid, s->seconds + run->step_timeout));
        report_done(run, s);
    }
}

/* Keeps the steps named in list (in their own order): CLI_OK, or CLI_USAGE naming an unknown one. */
static int select_steps(demo_run *run, const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    bool keep[DEMO_MAX_STEPS] = {false};
    for (char *save, *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < run->nsteps && strcmp(run->steps[i].name, name) != 0) i++;
        if (i == run->nsteps) return cli_usage_error("demo", "--steps: no step '%s' (see --help)", name);
        keep[i] = true;
    }
    size_t n = 0;
    for (size_t i = 0; i < run->nsteps; i++)
        if (keep[i]) run->steps[n++] = run->steps[i];
    run->nsteps = n;
    return CLI_OK;
}

static void probe_pmu(demo_run *run)
{
    const char *event; /* cpu-clock where cycles cannot be sampled, and why not */
    if (pms_sampler_default_event(&event) != PMS_OK)
        snprintf(run->pmu_note, sizeof run->pmu_note, "%s", pms_strerror());
}

/* The first of two places that exists: the build tree's, else the install's, both found
 * from where this binary is (so that pmuscope demo works in build/ and after make install). */
static void pick_dir(const char *build_tree, const char *installed, char *buf, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    struct stat st;
    if (build_tree[0] == '/')
        snprintf(buf, n, "%s", build_tree);
    else
        snprintf(buf, n, "%s/%s", slash ? exe : ".", build_tree);
    if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return;
    snprintf(buf, n, "%s/%s", slash ? exe : ".", installed);
}

int cmd_demo(int argc, char **argv)
{
    static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                             {"workloads", required_argument, NULL, 'w'},
                                             {"fixtures", required_argument, NULL, 'f'},
                                             {"steps", required_argument, NULL, 's'},
                                             {"step-timeout", required_argument, NULL, 't'},
                                             {"json", optional_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    char workloads[PATH_MAX + 64], fixtures[PATH_MAX + 64];
    pick_dir("workloads", "../libexec/pmuscope", workloads, sizeof workloads);
    pick_dir(PMS_FIXTURES_DIR, "../share/pmuscope/fixtures", fixtures, sizeof fixtures);
    demo_run run = {.dir = "pmuscope-demo", .workloads = workloads, .fixtures = fixtures, .step_timeout = 300};
    const char *only = NULL, *json = NULL;
    run.nsteps = demo_steps(&run.steps);
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "o:h", longopts)) != -1) {
        switch (c) {
        case 'o': run.dir = optarg; break;
        case 'w': run.workloads = optarg; break;
        case 'f': run.fixtures = optarg; break;
        case 's': only = optarg; break;
        case 'j': json = cli_format_target(optarg); break;
        case 't':
            if (!cli_parse_double(optarg, &run.step_timeout) || run.step_timeout <= 0)
                return cli_usage_error("demo", "--step-timeout %s: expected a number of seconds above 0", optarg);
            break;
        case 'h': usage(stdout); return CLI_OK;
        case CLI_OPT_LISTED: return CLI_OK;
        default: return cli_usage_error("demo", "%s", cli_bad_option());
        }
    }
    if (optind < argc) return cli_usage_error("demo", "unexpected argument '%s'", argv[optind]);
    int rc = only ? select_steps(&run, only) : CLI_OK;
    if (rc != CLI_OK) return rc;
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/phases", run.workloads);
    if (access(probe, X_OK) < 0)
        return cli_error("%s: %s: the bundled workloads are needed (build them, or give --workloads DIR)", probe,
                         strerror(errno));
    snprintf(probe, sizeof probe, "%s/armpm/cbench-excerpt.tsv", run.fixtures);
    if (access(probe, R_OK) < 0)
        return cli_error("%s: %s: the bundled ARM data is needed (give --fixtures DIR: tests/fixtures of the "
                         "source tree)", probe, strerror(errno));
    if (mkdir_p(run.dir) < 0) return cli_error("cannot create %s: %s", run.dir, strerror(errno));
    FILE *jf = json ? cli_open_output(cli_is_main(json) ? "-" : json) : NULL; /* opened first: fail early */
    if (json && !jf) return CLI_FAIL;

    probe_pmu(&run);
    if (run.pmu_note[0])
        fprintf(stderr, "pmuscope demo: this machine has no hardware PMU that pmuscope can use (%s).\n"
                        "pmuscope demo: so sampling uses cpu-clock, and CPI stacks and cycle estimates, which need "
                        "hardware counters, run on the bundled ARM Cortex-A15 recordings.\n", run.pmu_note);
    else
        fprintf(stderr, "pmuscope demo: hardware PMU found; CPI stacks and cycle estimates run on the bundled "
                        "ARM Cortex-A15 recordings, so that they can be compared with the papers\n");
    fprintf(stderr, "pmuscope demo: %zu steps, files in %s/\n", run.nsteps, run.dir);

    double t0 = now();
    run_steps(&run);
    run.seconds = now() - t0;

    char page[PATH_MAX];
    path_in(&run, "index.html", page, sizeof page);
    int page_rc = demo_write_page(&run, page);
    if (jf) demo_write_json(&run, page_rc == CLI_OK ? page : NULL, jf);
    if (jf && cli_close_output(jf) != CLI_OK && page_rc == CLI_OK) page_rc = CLI_FAIL;
    if (!cli_is_main(json)) demo_print_summary(&run, stdout);
    size_t failed = 0;
    for (size_t i = 0; i < run.nsteps; i++) {
        failed += run.steps[i].status != 0;
        for (size_t k = 0; run.steps[i].argv[k]; k++) free(run.steps[i].argv[k]);
    }
    if (page_rc == CLI_OK && !cli_is_main(json)) printf("\npage: %s\n", page);
    if (page_rc != CLI_OK) return page_rc; /* said already: one message per run */
    if (failed)
        return cli_error("%zu of %zu steps failed (named above); the page shows what the others made", failed,
                         run.nsteps);
    return CLI_OK;
}
