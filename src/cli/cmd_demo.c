/* pmuscope demo: everything pmuscope does, on the bundled workloads and data, in one
 * command and one page. The library runs the steps (pmuscope/demo.h: each a pmuscope
 * subcommand in a child process of this binary) and writes the page and the summaries;
 * here are the options, the progress lines and the printing. */
#include "cli/cli.h"
#include "pmuscope/event.h"
#include "pmuscope/demo.h"
#include "pmuscope/error.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

static void progress(void *ctx, const pms_demo *demo, size_t i, pms_demo_stage stage)
{
    (void)ctx;
    const pms_demo_step *s = &demo->steps[i];
    fprintf(stderr, "pmuscope demo: [%zu/%zu] %-11s ", i + 1, demo->nsteps, s->name);
    if (stage == PMS_DEMO_BACKGROUND)
        fputs("started in the background (valgrind, then one recording per period)\n", stderr);
    else if (stage == PMS_DEMO_RUNNING)
        fputs("running\n", stderr);
    else if (stage == PMS_DEMO_WAITING)
        fputs("waiting for it to end\n", stderr);
    else if (s->status != 0)
        fprintf(stderr, "FAILED after %.1f s: %s\n", s->seconds, s->why);
    else
        fprintf(stderr, "done in %.1f s\n", s->seconds);
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

/* The page in DIR/index.html: CLI_OK, or CLI_FAIL once said why. */
static int write_page(const pms_demo *demo, const char *path)
{
    FILE *f = cli_open_output(path);
    return f ? cli_finish_output(f, pms_demo_write_page(f, demo)) : CLI_FAIL;
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
    static pms_demo demo; /* large: the steps with their command lines */
    pms_demo_init(&demo);
    demo.program = "/proc/self/exe";
    demo.workloads = workloads;
    demo.fixtures = fixtures;
    demo.progress = progress;
    const char *only = NULL, *json = NULL;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "o:h", longopts)) != -1) {
        switch (c) {
        case 'o': demo.dir = optarg; break;
        case 'w': demo.workloads = optarg; break;
        case 'f': demo.fixtures = optarg; break;
        case 's': only = optarg; break;
        case 'j': json = cli_format_target(optarg); break;
        case 't':
            if (!cli_parse_double(optarg, &demo.step_timeout) || demo.step_timeout <= 0)
                return cli_usage_error("demo", "--step-timeout %s: expected a number of seconds above 0", optarg);
            break;
        case 'h': usage(stdout); return CLI_OK;
        case CLI_OPT_LISTED: return CLI_OK;
        default: return cli_usage_error("demo", "%s", cli_bad_option());
        }
    }
    if (optind < argc) return cli_usage_error("demo", "unexpected argument '%s'", argv[optind]);
    if (only && pms_demo_select(&demo, only) != PMS_OK)
        return cli_usage_error("demo", "--steps: %s (see --help)", pms_strerror());
    if (pms_demo_prepare(&demo) != PMS_OK) return cli_lib_error();
    FILE *jf = json ? cli_open_output(cli_is_main(json) ? "-" : json) : NULL; /* opened first: fail early */
    if (json && !jf) return CLI_FAIL;

    if (demo.pmu_note[0])
        fprintf(stderr, "pmuscope demo: this machine has no hardware PMU that pmuscope can use (%s).\n"
                        "pmuscope demo: so sampling uses cpu-clock, and CPI stacks and cycle estimates, which need "
                        "hardware counters, run on the bundled ARM Cortex-A15 recordings.\n", demo.pmu_note);
    else
        fprintf(stderr, "pmuscope demo: hardware PMU found; CPI stacks and cycle estimates run on the bundled "
                        "ARM Cortex-A15 recordings, so that they can be compared with the papers\n");
    if (demo.user_only)
        fprintf(stderr, "pmuscope demo: perf_event_paranoid is %d: the steps count user space only, as perf does "
                        "(their events are named task-clock:u, cpu-clock:u, ...)\n", pms_event_paranoid());
    fprintf(stderr, "pmuscope demo: %zu steps, files in %s/\n", demo.nsteps, demo.dir);
    pms_demo_run(&demo);

    char page[PATH_MAX];
    snprintf(page, sizeof page, "%s/index.html", demo.dir);
    int page_rc = write_page(&demo, page);
    if (jf) pms_demo_write_json(jf, &demo, page_rc == CLI_OK ? page : NULL);
    if (jf && cli_close_output(jf) != CLI_OK && page_rc == CLI_OK) page_rc = CLI_FAIL;
    if (!cli_is_main(json)) pms_demo_write_summary(stdout, &demo);
    size_t failed = pms_demo_failed(&demo);
    pms_demo_free(&demo);
    if (page_rc == CLI_OK && !cli_is_main(json)) printf("\npage: %s\n", page);
    if (page_rc != CLI_OK) return page_rc; /* said already: one message per run */
    if (failed)
        return cli_error("%zu of %zu steps failed (named above); the page shows what the others made", failed,
                         demo.nsteps);
    return CLI_OK;
}
