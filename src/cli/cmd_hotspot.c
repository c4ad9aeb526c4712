/* pmuscope hotspot: how well sampled hotspots match the exact counts (Wu & Mencer).
 *   pmuscope hotspot --truth DIR perf.data          the measures of one recording
 *   pmuscope hotspot --sweep 64K,...,16M -- CMD     valgrind once, then samples at every period */
#include "cli/cli.h"
#include "cli/methods.h"
#include "cli/stat_cli.h"
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PERIODS PMS_HOTSPOT_MAX_PERIODS

typedef struct options {
    const char *truth, *save_truth, *sweep, *event, *svg, *csv, *output, *json; /* csv, json: cli_format_target */
    const char *stdin_path; /* --stdin FILE */
    size_t top, rows, ideal_draws;
    uint64_t seed; /* the recording at period P uses seed + P */
    int randomize, fallback, allow_other_run, od_covered, no_cpu_mask, quiet;
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
            "                     every run reads --stdin FILE (or < FILE; else\n"
            "                     /dev/null), its standard output is compared with\n"
            "                     the other runs' and discarded; valgrind follows\n"
            "                     children (fork, exec)\n"
            "  --stdin FILE       what the command reads as its standard input, opened\n"
            "                     for each run (with --sweep and --record-truth); without\n"
            "                     it, a file given as pmuscope's standard input (< FILE)\n"
            "  --no-cpu-mask      run natively as is: by default the native runs get\n"
            "                     GLIBC_TUNABLES masking the CPU features that valgrind's\n"
            "                     virtual CPU lacks (worked out from ld.so\n"
            "                     --list-diagnostics natively and under valgrind), so that\n"
            "                     glibc runs the routines valgrind counted\n"
            "  --ideal-draws N    beside each measure, what an ideal random sampler with the\n"
            "                     same samples gives: mean and 95%% range over N seeded\n"
            "                     draws from the exact counts (default 200; 0: none)\n"
            "  -q, --quiet        no progress lines on stderr\n"
            "  --save-truth DIR   keep the valgrind output of a sweep in DIR, and its\n"
            "                     recordings (DIR/sweep.data: one run for every period of\n"
            "                     a software event, else DIR/sweep.data.PERIOD)\n"
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
            "  --csv[=FILE]       sweep: one row per period (period,samples,m,outside_share,\n"
            "                     each measure with its _ideal,_ideal_low,_ideal_high,\n"
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

/* A progress line on stderr: what the sweep is doing. */
static void sweep_note(void *ctx, const char *text)
{
    if (!*(const int *)ctx)
        fprintf(stderr, "pmuscope hotspot: %s\n", text);
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

/* The periods with no measures, and those with many samples outside the truth: why. */
static void sweep_warnings(const pms_hotspot_sweep *sw)
{
    char why[1536], name[32];
    for (size_t i = 0; i < sw->nperiods; i++) {
        const pms_hotspot_sweep_point *p = &sw->points[i];
        pms_hotspot_period_name(p->period, name, sizeof name);
        if (!p->valid)
            cli_warn("period %s: %llu samples, none in a file: the period is longer than the command's run (no "
                     "measures in its row)", name, (unsigned long long)p->samples);
        else if (pms_hotspot_outside_share(&p->result) > PMS_HOTSPOT_OUTSIDE_WARN &&
                 pms_hotspot_sweep_explain(sw, i, why, sizeof why))
            cli_warn("period %s: %s", name, why);
    }
    if (sw->runs_differ[0])
        cli_warn("the runs did not all do the same: %s", sw->runs_differ);
}

/* valgrind's log of the command's own process, on stderr: the temporary directory that
 * holds it goes. */
static void show_valgrind_log(const char *dir)
{
    char path[PATH_MAX + 32], line[512];
    snprintf(path, sizeof path, "%s/callgrind.log", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fprintf(stderr, "pmuscope hotspot: valgrind's log (%s, removed with its temporary directory):\n", path);
    while (fgets(line, sizeof line, f))
        if (!strstr(line, "Copyright") && !strstr(line, "Command:") && !strstr(line, "Using Valgrind"))
            fprintf(stderr, "valgrind: %s", line);
    fclose(f);
}

/* Runs the sweep into sw (valgrind beside it unless --truth). */
static int sweep_run(const options *o, pms_hotspot_sweep *sw, char **cmd, int ncmd, const char *dir,
                     pms_hotspot_truth **truth, int *keep_log)
{
    char data[PATH_MAX + 16];
    snprintf(data, sizeof data, "%s/sweep.data", dir);
    static int quiet;
    quiet = o->quiet;
    pms_hotspot_sweep_config cfg = {.argv = cmd, .scratch = data, .top = o->top, .stop = &stat_stop,
                                    .note = sweep_note, .ctx = &quiet, .keep_recordings = o->save_truth != NULL};
    stat_install_signals();
    if (!o->truth) { /* one valgrind pass, the recordings beside it */
        if (pms_hotspot_sweep_run(sw, dir, truth, &cfg) == PMS_OK)
            return CLI_OK;
        *keep_log = strstr(pms_strerror(), dir) != NULL;
        return cli_lib_error();
    }
    if (pms_hotspot_truth_load(truth, dir) < 0)
        return cli_lib_error();
    char **line = calloc((size_t)ncmd + 2, sizeof *line); /* the command as a truth's command line shows it */
    if (!line)
        return cli_error("out of memory");
    line[0] = "--";
    memcpy(line + 1, cmd, (size_t)ncmd * sizeof *line);
    int rc = check_truth_command(o, *truth, line, (size_t)ncmd + 1);
    free(line);
    if (rc == CLI_OK && pms_hotspot_sweep_record(sw, *truth, &cfg))
        rc = cli_lib_error();
    return rc;
}

static int sweep_outputs(const options *o, const pms_hotspot_sweep *sw, const pms_hotspot_truth *truth, FILE *out)
{
    int rc = CLI_OK;
    if (cli_is_main(o->csv) ? pms_hotspot_write_sweep_csv(out, sw)
                            : pms_hotspot_write_sweep(out, sw, truth, cli_is_main(o->json)))
        rc = cli_output_error(out);
    if (rc == CLI_OK && o->json && !cli_is_main(o->json)) {
        FILE *f = cli_open_output(o->json);
        rc = f ? cli_finish_output(f, pms_hotspot_write_sweep(f, sw, truth, 1)) : CLI_FAIL;
    }
    if (rc == CLI_OK && o->svg)
        rc = write_file(o->svg, pms_hotspot_write_sweep_svg, sw);
    if (rc == CLI_OK && o->csv && !cli_is_main(o->csv))
        rc = write_file(o->csv, pms_hotspot_write_sweep_csv, sw);
    return rc;
}

static int sweep(const options *o, char **cmd, int ncmd, FILE *out)
{
    uint64_t periods[MAX_PERIODS];
    size_t np;
    if (parse_periods(o->sweep, periods, &np) < 0)
        return cli_usage_error("hotspot", "--sweep: expected periods such as 64K,1M,16M (at most %d)", MAX_PERIODS);
    pms_hotspot_sweep sw = {.nperiods = np, .randomized = o->randomize, .seed = o->seed, .od_covered = o->od_covered,
                            .stdin_path = o->stdin_path, .no_cpu_mask = o->no_cpu_mask,
                            .ideal_draws = o->ideal_draws};
    int rc = choose_event(o, &sw);
    if (rc != CLI_OK)
        return rc;
    if (o->stdin_path && access(o->stdin_path, R_OK) < 0)
        return cli_error("--stdin %s: %s", o->stdin_path, strerror(errno));
    int temporary = !o->truth && !o->save_truth;
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    if (temporary)
        snprintf(dir, sizeof dir, "%s/pmuscope-truth-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    else
        snprintf(dir, sizeof dir, "%s", o->truth ? o->truth : o->save_truth);
    if (temporary && !mkdtemp(dir))
        return cli_error("cannot create a temporary directory for valgrind's output in %s: %s",
                         tmp && tmp[0] ? tmp : "/tmp", strerror(errno));
    for (size_t i = 0; i < np; i++)
        sw.points[i].period = periods[i];
    pms_hotspot_truth *truth = NULL;
    int keep_log = 0;
    rc = sweep_run(o, &sw, cmd, ncmd, dir, &truth, &keep_log);
    if (rc == CLI_OK) {
        sweep_warnings(&sw);
        rc = sweep_outputs(o, &sw, truth, out);
    }
    for (size_t i = 0; i < np; i++)
        pms_hotspot_result_free(&sw.points[i].result);
    pms_hotspot_truth_free(truth);
    if (temporary) { /* on every path; what valgrind said goes to stderr first */
        if (keep_log)
            show_valgrind_log(dir);
        pms_hotspot_truth_remove(dir);
    }
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

/* Without --stdin, what the shell gave pmuscope as its standard input: a file (`< FILE`) is
 * what the command was meant to read, so every run opens it afresh as --stdin FILE (runs that
 * shared the open file, one offset, would each read part of it); a pipe cannot be read once
 * per run, and the runs read /dev/null, which is said. NULL: /dev/null. */
static const char *stdin_redirected(void)
{
    static char path[PATH_MAX];
    struct stat st, named;
    if (fstat(STDIN_FILENO, &st) < 0) return NULL;
    if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
        cli_warn("the standard input is a pipe, which the runs cannot each read whole: every run reads "
                 "/dev/null (give the command's input with --stdin FILE)");
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) return NULL; /* a terminal, /dev/null */
    ssize_t n = readlink("/proc/self/fd/0", path, sizeof path - 1);
    if (n > 0) path[n] = '\0';
    if (n <= 0 || stat(path, &named) < 0 || named.st_dev != st.st_dev || named.st_ino != st.st_ino) {
        cli_warn("the standard input is a file that cannot be opened again by its name: every run reads "
                 "/dev/null (give the command's input with --stdin FILE)");
        return NULL;
    }
    return path;
}

int cmd_hotspot(int argc, char **argv)
{
    enum { OPT_TRUTH = 256, OPT_SWEEP, OPT_SAVE, OPT_RECORD, OPT_NORAND, OPT_TOP, OPT_ROWS, OPT_SVG,
           OPT_JSON, OPT_FALLBACK, OPT_CSV, OPT_SEED, OPT_ALLOW, OPT_OD, OPT_STDIN, OPT_NOMASK, OPT_IDEAL };
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
        {"stdin", required_argument, NULL, OPT_STDIN},         {"no-cpu-mask", no_argument, NULL, OPT_NOMASK},
        {"ideal-draws", required_argument, NULL, OPT_IDEAL},   {"quiet", no_argument, NULL, 'q'},
        {NULL, 0, NULL, 0}};
    options o = {.top = 10, .rows = 15, .randomize = 1, .seed = CLI_DEFAULT_SEED, .ideal_draws = 200};
    const char *record_dir = NULL;
    uint64_t v;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "e:o:qh", longopts)) != -1) {
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
        case OPT_STDIN: o.stdin_path = optarg; break;
        case OPT_NOMASK: o.no_cpu_mask = 1; break;
        case 'q': o.quiet = 1; break;
        case OPT_IDEAL:
            if (!cli_parse_count(optarg, &v) || v > 100000)
                return cli_usage_error("hotspot", "--ideal-draws: expected a count up to 100000, got '%s'", optarg);
            o.ideal_draws = (size_t)v;
            break;
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
    if ((record_dir || o.sweep) && !o.stdin_path) o.stdin_path = stdin_redirected();
    if (record_dir) {
        if (o.sweep || o.truth || o.save_truth) /* each runs valgrind or reads a truth: which did the user mean? */
            return cli_usage_error("hotspot", "--record-truth runs the command under valgrind and stops: not with --%s",
                                   o.sweep ? "sweep" : o.truth ? "truth" : "save-truth");
        if (rest < 1)
            return cli_usage_error("hotspot", "--record-truth: give the command after --");
        pms_child_setup setup = {.stdin_path = o.stdin_path};
        if (pms_hotspot_truth_record_with(record_dir, argv + optind, o.stdin_path ? &setup : NULL) < 0)
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
