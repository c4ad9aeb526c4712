/* pmuscope hotspot: how well sampled hotspots match the exact counts (Wu & Mencer).
 *   pmuscope hotspot --truth DIR perf.data          the measures of one recording
 *   pmuscope hotspot --sweep 64K,...,16M -- CMD     valgrind once, then samples at every period */
#include "cli/cli.h"
#include "cli/methods.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "pmuscope/hotspot.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PERIODS PMS_HOTSPOT_MAX_PERIODS

typedef struct options {
    const char *truth, *save_truth, *sweep, *event, *svg, *csv, *output, *json; /* csv, json: cli_format_target */
    size_t top, rows;
    uint64_t seed; /* the recording at period P uses seed + P */
    int randomize, fallback, allow_other_run, od_covered;
} options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pmuscope hotspot --truth DIR [options] perf.data\n"
            "       pmuscope hotspot --sweep PERIODS [options] -- COMMAND [ARGS...]\n\n"
            "Compares sampled IP hotspots with the exact execution counts that valgrind\n"
            "measures, with the measures of Wu & Mencer: NRMSE_SR, sample coverage SC and\n"
            "order deviation OD, plus top-N precision/recall and Kendall's tau-b.\n\n"
            "  --truth DIR        ground truth: a directory written by --sweep --save-truth\n"
            "                     or by --record-truth (one callgrind run of the command)\n"
            "  --record-truth DIR -- COMMAND   run COMMAND under valgrind into DIR and stop\n"
            "  --sweep LIST       sampling periods, e.g. 64K,128K,256K,512K,1M,2M,4M,8M,16M\n"
            "                     (K/M/G are powers of 1024); valgrind runs once (unless\n"
            "                     --truth is given) with the command recorded beside\n"
            "                     it: one run for all periods of cpu-clock (randomised\n"
            "                     or not), one run per period of a hardware event;\n"
            "                     the command's standard output is discarded\n"
            "  --save-truth DIR   keep the valgrind output of a sweep in DIR\n"
            "  --od WHICH         the sweep table's and SVG's OD: paper (default: over all\n"
            "                     sampled instructions) or covered (over those valgrind ran);\n"
            "                     the CSV and JSON give both\n"
            "  --allow-other-run  compare with a truth of another command or other arguments\n"
            "                     (a warning; default: refused)\n"
            "  -e, --event EVENT  sampling event of the sweep (default cycles:u; on a machine\n"
            "                     without a hardware PMU, cpu-clock and periods in ns)\n"
            "  --fallback         with -e: sample cpu-clock if this machine cannot count EVENT\n"
            "  --no-randomize     fixed periods (default: add a random value below 1/8 of\n"
            "                     the period at every sample, as pfmon did in the paper; of\n"
            "                     cpu-clock under 1 ms, once per about 1 ms of samples)\n"
            "  --seed N           seed the randomisation, for a repeatable sweep (the recording\n"
            "                     at period P uses seed N + P; default 1, as in every command)\n"
            "  --top N            N of the top-N precision and recall (default 10)\n"
            "  --rows N           sampled IPs listed (default 15; 0: all, as report's --limit 0)\n"
            "  --svg FILE         sweep: NRMSE_SR, SC and OD against the period (a binary axis for\n"
            "                     periods in powers of 2, log where they or OD span a decade)\n"
            "  --csv[=FILE]       sweep: one row per period (period,samples,m,NRMSE_SR,SC,OD,\n"
            "                     tau_b,top_precision,top_recall)\n"
            "  --json[=FILE]      JSON, to FILE or instead of the text\n"
            "  -o, --output FILE  write the output to FILE\n"
            CLI_INPUT_LIMIT_HELP
            "  -h, --help         this help\n");
    cli_print_method(out, "hotspot");
}

static int parse_periods(const char *list, uint64_t *periods, size_t *n)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return -1;
    strcpy(buf, list);
    *n = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == MAX_PERIODS || !cli_parse_count(tok, &periods[*n]) || periods[*n] == 0)
            return -1;
        (*n)++;
    }
    return *n ? 0 : -1;
}

/* The sampling event; the hint when the machine cannot sample the user's event. */
static int choose_event(const options *o, pms_hotspot_sweep *sw)
{
    bool refused;
    if (pms_hotspot_sweep_choose_event(sw, o->event, o->fallback, &refused) == PMS_OK) {
        if (sw->user_only) cli_warn_user_only(sw->event);
        return CLI_OK;
    }
    return refused ? cli_error("%s (add --fallback to sample cpu-clock instead)", pms_strerror()) : cli_lib_error();
}

static void progress(const char *what, size_t done, size_t total)
{
    if (cli_show_progress())
        cli_progress(what, done, total);
}

static void sweep_progress(void *ctx, size_t done, size_t total)
{
    progress(ctx, done, total);
}

static void restore_stdout(int saved)
{
    if (saved < 0)
        return;
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
}

/* --svg FILE, --csv FILE: one of the sweep's files. */
static int write_file(const char *path, int (*write)(FILE *, const pms_hotspot_sweep *), const pms_hotspot_sweep *sw)
{
    FILE *f = cli_open_output(path);
    return f ? cli_finish_output(f, write(f, sw)) : CLI_FAIL;
}

/* A truth describes one command with its arguments: another one is refused, or with
 * --allow-other-run compared with a warning. cmdline: "... -- CMD ARGS". */
static int check_truth_command(const options *o, const pms_hotspot_truth *truth, char *const cmdline[], size_t n)
{
    int rc = pms_hotspot_truth_check_command(truth, cmdline, n);
    if (rc == PMS_OK)
        return CLI_OK;
    if (rc == PMS_ENOENT) { /* nothing to compare: say so */
        cli_warn("%s", pms_strerror());
        return CLI_OK;
    }
    if (rc != PMS_EINVAL || !o->allow_other_run)
        return rc == PMS_EINVAL ? cli_error("%s (--allow-other-run compares anyway)", pms_strerror()) : cli_lib_error();
    cli_warn("%s", pms_strerror());
    return CLI_OK;
}

static int sweep(const options *o, char **cmd, int ncmd, FILE *out)
{
    uint64_t periods[MAX_PERIODS];
    size_t np;
    if (parse_periods(o->sweep, periods, &np) < 0)
        return cli_usage_error("hotspot", "--sweep: expected periods such as 64K,1M,16M (at most %d)", MAX_PERIODS);
    pms_hotspot_sweep sw = {.nperiods = np, .randomized = o->randomize, .seed = o->seed, .od_covered = o->od_covered};
    int rc = choose_event(o, &sw);
    if (rc != CLI_OK)
        return rc;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->truth ? o->truth : o->save_truth ? o->save_truth : "/tmp/pmuscope-truth-XXXXXX");
    if (!o->truth && !o->save_truth && !mkdtemp(dir))
        return cli_error("cannot create a temporary directory for valgrind's output");
    /* the command runs up to 2 + np times: keep its output out of ours */
    fflush(stdout);
    int saved_stdout = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_stdout >= 0 && null >= 0)
        dup2(null, STDOUT_FILENO);
    if (null >= 0)
        close(null);
    char data[PATH_MAX + 16];
    snprintf(data, sizeof data, "%s/sweep.data", dir);
    for (size_t i = 0; i < np; i++)
        sw.points[i].period = periods[i];
    pms_hotspot_sweep_config cfg = {.argv = cmd, .scratch = data, .top = o->top, .progress = sweep_progress,
                                    .ctx = (void *)(o->truth ? "sampling" : "sampling beside valgrind")};
    pms_hotspot_truth *truth = NULL;
    int keep_dir = 0;
    if (!o->truth) {
        /* one valgrind pass, the recordings beside it; valgrind's log stays when the message names it */
        if (pms_hotspot_sweep_run(&sw, dir, &truth, &cfg)) {
            keep_dir = strstr(pms_strerror(), dir) != NULL;
            rc = cli_lib_error();
        }
    } else if (pms_hotspot_truth_load(&truth, dir) < 0) {
        rc = cli_lib_error();
    } else { /* the command as the truth's command line would show it */
        char **line = calloc((size_t)ncmd + 2, sizeof *line);
        if (!line)
            rc = cli_error("out of memory");
        else {
            line[0] = "--";
            memcpy(line + 1, cmd, (size_t)ncmd * sizeof *line);
            rc = check_truth_command(o, truth, line, (size_t)ncmd + 1);
            free(line);
        }
        if (rc == CLI_OK && pms_hotspot_sweep_record(&sw, truth, &cfg))
            rc = cli_lib_error();
    }
    restore_stdout(saved_stdout);
    if (cli_show_progress())
        cli_progress_end();
    if (rc == CLI_OK) {
        if (cli_is_main(o->csv) ? pms_hotspot_write_sweep_csv(out, &sw)
                                : pms_hotspot_write_sweep(out, &sw, truth, cli_is_main(o->json)))
            rc = cli_output_error(out);
        if (rc == CLI_OK && o->json && !cli_is_main(o->json)) {
            FILE *f = cli_open_output(o->json);
            rc = f ? cli_finish_output(f, pms_hotspot_write_sweep(f, &sw, truth, 1)) : CLI_FAIL;
        }
        if (rc == CLI_OK && o->svg)
            rc = write_file(o->svg, pms_hotspot_write_sweep_svg, &sw);
        if (rc == CLI_OK && o->csv && !cli_is_main(o->csv))
            rc = write_file(o->csv, pms_hotspot_write_sweep_csv, &sw);
    }
    for (size_t i = 0; i < np; i++)
        pms_hotspot_result_free(&sw.points[i].result);
    pms_hotspot_truth_free(truth);
    if (!o->truth && !o->save_truth && !keep_dir)
        pms_hotspot_truth_remove(dir);
    return rc;
}

static int one_recording(const options *o, const char *perfdata, FILE *out)
{
    pms_hotspot_truth *truth;
    if (pms_hotspot_truth_load(&truth, o->truth) < 0)
        return cli_lib_error();
    pms_hotspot_recording rec;
    if (pms_hotspot_recording_read(&rec, perfdata) < 0) {
        pms_hotspot_truth_free(truth);
        return cli_lib_error();
    }
    pms_hotspot_result r;
    int rc = check_truth_command(o, truth, rec.cmdline, rec.ncmdline);
    if (rc == CLI_OK && pms_hotspot_evaluate(truth, rec.samples, rec.n, o->top, &r) < 0)
        rc = cli_lib_error();
    else if (rc == CLI_OK) {
        if (pms_hotspot_write_one(out, truth, &rec, &r, o->rows, cli_is_main(o->json)))
            rc = cli_output_error(out);
        if (rc == CLI_OK && o->json && !cli_is_main(o->json)) {
            FILE *f = cli_open_output(o->json);
            rc = f ? cli_finish_output(f, pms_hotspot_write_one(f, truth, &rec, &r, o->rows, 1)) : CLI_FAIL;
        }
        pms_hotspot_result_free(&r);
    }
    pms_hotspot_recording_free(&rec);
    pms_hotspot_truth_free(truth);
    return rc;
}

int cmd_hotspot(int argc, char **argv)
{
    enum { OPT_TRUTH = 256, OPT_SWEEP, OPT_SAVE, OPT_RECORD, OPT_NORAND, OPT_TOP, OPT_ROWS, OPT_SVG,
           OPT_JSON, OPT_FALLBACK, OPT_CSV, OPT_SEED, OPT_ALLOW, OPT_OD };
    static const struct option longopts[] = {
        {"truth", required_argument, NULL, OPT_TRUTH},         {"sweep", required_argument, NULL, OPT_SWEEP},
        {"save-truth", required_argument, NULL, OPT_SAVE},     {"record-truth", required_argument, NULL, OPT_RECORD},
        {"event", required_argument, NULL, 'e'},               {"no-randomize", no_argument, NULL, OPT_NORAND},
        {"top", required_argument, NULL, OPT_TOP},
        {"rows", required_argument, NULL, OPT_ROWS},           {"svg", required_argument, NULL, OPT_SVG},
        {"json", optional_argument, NULL, OPT_JSON},                 {"fallback", no_argument, NULL, OPT_FALLBACK},
        {"csv", optional_argument, NULL, OPT_CSV},             {"seed", required_argument, NULL, OPT_SEED},
        {"output", required_argument, NULL, 'o'},              CLI_INPUT_LIMIT_OPTION, {"help", no_argument, NULL, 'h'},
        {"allow-other-run", no_argument, NULL, OPT_ALLOW},     {"od", required_argument, NULL, OPT_OD},
        {NULL, 0, NULL, 0}};
    options o = {.top = 10, .rows = 15, .randomize = 1, .seed = CLI_DEFAULT_SEED};
    const char *record_dir = NULL;
    uint64_t v;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "e:o:h", longopts)) != -1) {
        switch (c) {
        case OPT_TRUTH: o.truth = optarg; break;
        case OPT_SWEEP: o.sweep = optarg; break;
        case OPT_SAVE: o.save_truth = optarg; break;
        case OPT_RECORD: record_dir = optarg; break;
        case 'e': o.event = optarg; break;
        case OPT_NORAND: o.randomize = 0; break;
        case OPT_SEED:
            if (cli_parse_seed("hotspot", optarg, &o.seed)) return CLI_USAGE;
            break;
        case OPT_FALLBACK: o.fallback = 1; break;
        case OPT_ALLOW: o.allow_other_run = 1; break;
        case OPT_OD:
            if (strcmp(optarg, "paper") && strcmp(optarg, "covered"))
                return cli_usage_error("hotspot", "--od: '%s': expected paper or covered", optarg);
            o.od_covered = !strcmp(optarg, "covered");
            break;
        case OPT_TOP:
        case OPT_ROWS:
            if (!cli_parse_count(optarg, &v) || v > 1000000 || (c == OPT_TOP && v == 0))
                return cli_usage_error("hotspot", "--%s: expected a count, got '%s'", c == OPT_TOP ? "top" : "rows",
                                       optarg);
            *(c == OPT_TOP ? &o.top : &o.rows) = c == OPT_ROWS && v == 0 ? SIZE_MAX : (size_t)v; /* 0: all */
            break;
        case OPT_SVG: o.svg = optarg; break;
        case OPT_CSV: o.csv = cli_format_target(optarg); break;
        case OPT_JSON: o.json = cli_format_target(optarg); break;
        case CLI_OPT_LISTED: return CLI_OK;
        case 'o': o.output = optarg; break;
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("hotspot", optarg)) return CLI_USAGE;
            break;
        case 'h': usage(stdout); return CLI_OK;
        default: return cli_usage_error("hotspot", "%s", cli_bad_option());
        }
    }
    int rest = argc - optind;
    if (record_dir) {
        if (rest < 1)
            return cli_usage_error("hotspot", "--record-truth: give the command after --");
        if (pms_hotspot_truth_record(record_dir, argv + optind) < 0)
            return cli_lib_error();
        return CLI_OK;
    }
    if (o.sweep) {
        if (rest < 1)
            return cli_usage_error("hotspot", "--sweep: give the command to run after --");
    } else if (!o.truth || rest != 1) {
        return cli_usage_error("hotspot", "expected --truth DIR and one perf.data file, or --sweep PERIODS -- COMMAND");
    }
    if (cli_is_main(o.json) && cli_is_main(o.csv))
        return cli_usage_error("hotspot", "--json and --csv both want the main output: give one a FILE");
    if ((o.svg || o.csv) && !o.sweep)
        return cli_usage_error("hotspot", "--%s writes a sweep: use it with --sweep", o.svg ? "svg" : "csv");
    FILE *out = cli_open_output(o.output);
    if (!out)
        return CLI_FAIL;
    int rc = o.sweep ? sweep(&o, argv + optind, rest, out) : one_recording(&o, argv[optind], out);
    if (cli_close_output(out) != CLI_OK) rc = CLI_FAIL;
    return rc;
}
