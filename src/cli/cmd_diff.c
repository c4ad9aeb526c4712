/* pmuscope diff: did it really change? Two profiles (or sets of runs) or two sets of counts
 * compared with a test per row (pmuscope/diff.h). */
#include "cli/cli.h"
#include "pmuscope/diff.h"
#include "pmuscope/error.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CLI_CHANGED = 3 }; /* --fail-on-change: a row changed significantly */
#define PROGRESS_MIN_BYTES (64u << 20)

struct options {
    pms_diff_options diff;
    const char *output, *json, *csv, *html, *pprof;
    uint64_t limit;
    bool fail_on_change;
    double fail_pct;
    char **inputs[2];   /* --base/--new FILE, or BASE and NEW split at commas */
    size_t ninputs[2];
};

static void usage(FILE *out)
{
    fputs("usage: pmuscope diff [options] BASE NEW\n"
          "       pmuscope diff [options] --base FILE... --new FILE...\n"
          "\n"
          "Did it really change? Compares two profiles (perf.data or pprof files) row by row, or two\n"
          "sets of counts (what pmuscope stat -r N --json wrote), with a test per row, its confidence\n"
          "interval, a p-value and a Benjamini-Hochberg q-value over the rows, and a verdict: up, down,\n"
          "or nothing when the change could be sampling noise. BASE and NEW may each be several\n"
          "files, comma-separated (a,b,c): repeated runs of each side.\n"
          "\n"
          "Profiles: one row per function (or by --sort), matched by binary name and function. With\n"
          "one run a side the samples are independent draws: the two-proportion test of R's\n"
          "prop.test (with Yates' continuity correction; --no-continuity: without). With two or more\n"
          "runs a side the run is the unit: Welch's t test of the runs' shares (R's t.test), so the\n"
          "variation between runs counts too. The detectable column is the smallest change the row's\n"
          "test finds with --power (80%) were it the only change: read \"no change\" against it.\n"
          "\n"
          "Counts: per event, the Wilcoxon rank sum (Mann-Whitney) test of the runs' values, as Go's\n"
          "benchstat, and the ratio NEW/BASE (the median of the runs' pairwise ratios) with its\n"
          "interval (R's wilcox.test on the logarithms, conf.int = TRUE).\n"
          "\n"
          "      --base FILE        a BASE input (repeat for several runs)\n"
          "      --new FILE         a NEW input (repeat for several runs)\n"
          "  -e, --event NAME       the event (a pprof profile's sample type) compared (default: the\n"
          "                         first event of the first file with samples)\n"
          "  -s, --sort KEYS        rows as report's --sort: sym (default), symoff, ip, dso, comm, and\n"
          "                         several comma-separated (pid is not: thread ids differ between runs)\n"
          "      --fdr Q            false discovery rate of the verdicts (default 0.05)\n"
          "      --confidence C     level of the intervals (default 0.95)\n"
          "      --power P          power of the detectable change (default 0.8)\n"
          "      --no-continuity    the two-proportion test without Yates' correction\n"
          "      --fail-on-change[=PCT]  exit 3 if a row changed significantly by more than PCT\n"
          "                         percentage points of share (counts: percent; default 0)\n"
          "      --limit N          rows in the text and HTML tables (default 25, 0: all)\n"
          "      --json[=FILE]      JSON (every row), to FILE or instead of the text\n"
          "      --csv[=FILE]       CSV (every row), to FILE or instead of the text\n"
          "  -o, --output FILE      write the table to FILE instead of stdout\n"
          "      --html FILE        also a self-contained page: a two-sided bar chart of the changed\n"
          "                         rows with their intervals, and the table\n"
          "      --pprof FILE       also a gzipped pprof profile of NEW minus BASE, as go tool pprof\n"
          "                         -diff_base BASE NEW combines them (go tool pprof -top FILE)\n"
          "      --symfs DIR        read the binaries of perf.data files under DIR\n"
          CLI_INPUT_LIMIT_HELP
          "  -h, --help             this help\n"
          "\n"
          "Exit status: 0, or 3 with --fail-on-change when a row changed; 1 on an error, 2 on a usage error.\n",
          out);
}

/* Adds the comma-separated files of list to a side. */
static int add_inputs(struct options *o, int side, const char *list)
{
    size_t n = 0;
    char **files = cli_split_list(list, &n);
    if (!files) return cli_error("out of memory");
    char **grown = realloc(o->inputs[side], (o->ninputs[side] + n + 1) * sizeof *grown);
    if (!grown) {
        free(files);
        return cli_error("out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        if (!(grown[o->ninputs[side] + i] = strdup(files[i]))) n = i;
    }
    o->inputs[side] = grown;
    o->ninputs[side] += n;
    free(files);
    return CLI_OK;
}

static void free_inputs(struct options *o)
{
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < o->ninputs[s]; i++) free(o->inputs[s][i]);
        free(o->inputs[s]);
    }
}

/* A level in (0, 1) for option name. */
static int parse_level(const char *name, const char *arg, double *out)
{
    if (!cli_parse_double(arg, out) || !(*out > 0 && *out < 1))
        return cli_usage_error("diff", "--%s: expected a number between 0 and 1, got '%s'", name, arg);
    return CLI_OK;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    enum { OPT_BASE = 256, OPT_NEW, OPT_FDR, OPT_CONFIDENCE, OPT_POWER, OPT_NO_CONTINUITY, OPT_FAIL, OPT_LIMIT,
           OPT_JSON, OPT_CSV, OPT_HTML, OPT_PPROF, OPT_SYMFS };
    static const struct option longopts[] = {
        {"base", required_argument, NULL, OPT_BASE},       {"new", required_argument, NULL, OPT_NEW},
        {"event", required_argument, NULL, 'e'},           {"sort", required_argument, NULL, 's'},
        {"fdr", required_argument, NULL, OPT_FDR},         {"confidence", required_argument, NULL, OPT_CONFIDENCE},
        {"power", required_argument, NULL, OPT_POWER},     {"no-continuity", no_argument, NULL, OPT_NO_CONTINUITY},
        {"fail-on-change", optional_argument, NULL, OPT_FAIL}, {"limit", required_argument, NULL, OPT_LIMIT},
        {"json", optional_argument, NULL, OPT_JSON},       {"csv", optional_argument, NULL, OPT_CSV},
        {"output", required_argument, NULL, 'o'},          {"html", required_argument, NULL, OPT_HTML},
        {"pprof", required_argument, NULL, OPT_PPROF},     {"symfs", required_argument, NULL, OPT_SYMFS},
        CLI_INPUT_LIMIT_OPTION, {"help", no_argument, NULL, 'h'},                  {NULL, 0, NULL, 0},
    };
    *o = (struct options){.output = "-", .limit = 25};
    optind = 1;
    int c, rc = CLI_OK;
    while (rc == CLI_OK && (c = cli_getopt(argc, argv, "e:s:o:h", longopts)) != -1) {
        switch (c) {
        case OPT_BASE: rc = add_inputs(o, PMS_DIFF_BASE, optarg); break;
        case OPT_NEW: rc = add_inputs(o, PMS_DIFF_NEW, optarg); break;
        case 'e': o->diff.event = optarg; break;
        case 's': o->diff.sort = optarg; break;
        case OPT_FDR: rc = parse_level("fdr", optarg, &o->diff.fdr); break;
        case OPT_CONFIDENCE: rc = parse_level("confidence", optarg, &o->diff.confidence); break;
        case OPT_POWER: rc = parse_level("power", optarg, &o->diff.power); break;
        case OPT_NO_CONTINUITY: o->diff.no_continuity = true; break;
        case OPT_FAIL:
            o->fail_on_change = true;
            if (optarg && (!cli_parse_double(optarg, &o->fail_pct) || !(o->fail_pct >= 0) || isinf(o->fail_pct)))
                rc = cli_usage_error("diff", "--fail-on-change: expected a change in percent (points), got '%s'",
                                     optarg);
            break;
        case OPT_LIMIT:
            if (!cli_parse_count(optarg, &o->limit)) rc = cli_usage_error("diff", "--limit: expected a count, got '%s'", optarg);
            break;
        case OPT_JSON: o->json = cli_format_target(optarg); break;
        case OPT_CSV: o->csv = cli_format_target(optarg); break;
        case 'o': o->output = optarg; break;
        case OPT_HTML: o->html = optarg; break;
        case OPT_PPROF: o->pprof = optarg; break;
        case OPT_SYMFS: o->diff.symfs = optarg; break;
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("diff", optarg)) return CLI_USAGE;
            break;
        case 'h': usage(stdout); return -1;
        case CLI_OPT_LISTED: return -1;
        default: return cli_usage_error("diff", "%s", cli_bad_option());
        }
    }
    if (rc) return rc;
    int left = argc - optind;
    bool named = o->ninputs[PMS_DIFF_BASE] || o->ninputs[PMS_DIFF_NEW];
    if (named && left) return cli_usage_error("diff", "give BASE NEW or --base and --new, not both");
    if (!named && left != 2) return cli_usage_error("diff", "expected BASE and NEW, got %d input%s", left, left == 1 ? "" : "s");
    for (int s = 0; !named && s < 2 && rc == CLI_OK; s++) rc = add_inputs(o, s, argv[optind + s]);
    if (rc == CLI_OK && (!o->ninputs[PMS_DIFF_BASE] || !o->ninputs[PMS_DIFF_NEW]))
        return cli_usage_error("diff", "expected files on both sides: BASE and NEW");
    if (rc == CLI_OK && cli_is_main(o->json) && cli_is_main(o->csv))
        return cli_usage_error("diff", "--json and --csv both want the main output: give one a FILE");
    return rc;
}

/* The table to the main output (text unless --json or --csv takes it), the --json and
 * --csv files, the page and the pprof profile. */
static int emit(const struct options *o, const pms_diff_result *r)
{
    FILE *main_out = cli_open_output(o->output), *json = NULL, *csv = NULL;
    if (!main_out) return CLI_FAIL;
    FILE *text = cli_is_main(o->json) || cli_is_main(o->csv) ? NULL : main_out;
    int rc = CLI_OK;
    if (o->json && !(json = cli_is_main(o->json) ? main_out : cli_open_output(o->json))) rc = CLI_FAIL;
    if (o->csv && !(csv = cli_is_main(o->csv) ? main_out : cli_open_output(o->csv))) rc = CLI_FAIL;
    if (rc == CLI_OK && json && pms_diff_write_json(json, r)) rc = cli_output_error(json);
    if (rc == CLI_OK && csv && pms_diff_write_csv(csv, r)) rc = cli_output_error(csv);
    if (rc == CLI_OK && text && pms_diff_write_text(text, r, (size_t)o->limit)) rc = cli_output_error(text);
    if (json && json != main_out && cli_close_output(json) != CLI_OK) rc = CLI_FAIL;
    if (csv && csv != main_out && cli_close_output(csv) != CLI_OK) rc = CLI_FAIL;
    if (cli_close_output(main_out) != CLI_OK) rc = CLI_FAIL;
    if (rc == CLI_OK && o->html) {
        FILE *page = cli_open_output(o->html);
        rc = page ? cli_finish_output(page, pms_diff_write_html(page, r, (size_t)o->limit)) : CLI_FAIL;
    }
    if (rc == CLI_OK && o->pprof && pms_diff_write_pprof(o->pprof, r)) rc = cli_lib_error();
    return rc;
}

/* Progress of a big perf.data on stderr: ctx is whether a line is drawn. */
static void show_progress(uint64_t done, uint64_t total, void *ctx)
{
    bool *drawn = ctx;
    if (total < PROGRESS_MIN_BYTES || !cli_show_progress()) return;
    cli_progress("reading (MB)", done >> 20, total >> 20);
    *drawn = true;
}

int cmd_diff(int argc, char **argv)
{
    struct options o;
    int rc = parse_options(argc, argv, &o);
    if (rc) {
        free_inputs(&o);
        return rc < 0 ? CLI_OK : rc;
    }
    pms_diff *d = NULL;
    pms_diff_result r = {0};
    bool drawn = false;
    o.diff.progress = show_progress, o.diff.progress_ctx = &drawn;
    if (pms_diff_create(&d, &o.diff)) rc = cli_usage_error("diff", "%s", pms_strerror());
    for (int s = 0; s < 2 && rc == CLI_OK; s++)
        for (size_t i = 0; i < o.ninputs[s] && rc == CLI_OK; i++) {
            int added = pms_diff_add_file(d, (pms_diff_side)s, o.inputs[s][i]);
            if (drawn) cli_progress_end(), drawn = false;
            if (added) rc = cli_lib_error();
        }
    if (rc == CLI_OK && pms_diff_compute(&r, d)) rc = cli_lib_error();
    if (rc == CLI_OK && o.pprof && r.counts) rc = cli_usage_error("diff", "--pprof writes samples: counts have none");
    if (rc == CLI_OK) rc = emit(&o, &r);
    if (rc == CLI_OK && o.fail_on_change && pms_diff_changed_by(&r, o.fail_pct)) rc = CLI_CHANGED;
    pms_diff_result_free(&r);
    pms_diff_destroy(d);
    free_inputs(&o);
    return rc;
}
