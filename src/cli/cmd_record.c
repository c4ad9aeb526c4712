/* pmuscope record: sample a command or a running process into a perf.data file, as
 * perf record does. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/olr_live.h"
#include "pmuscope/pprof.h"
#include "pmuscope/record.h"
#include "pmuscope/record_report.h"
#include "pmuscope/target.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define DEFAULT_FREQ 4000

static void usage(FILE *out)
{
    fputs("usage: pmuscope record [options] -- COMMAND [ARGS...]\n"
          "       pmuscope record [options] -p PID\n"
          "       pmuscope record -a [-C CPUS] [options] [-- COMMAND [ARGS...]]\n\n"
          "Sample a command (from its exec, following its threads and children) or every thread\n"
          "of a running process (until it ends or Ctrl-C) into a perf.data file that perf script\n"
          "and perf report read. Every sample has IP, TID, TIME and PERIOD.\n\n"
          "  -e, --event EVENTS     sampling events, comma-separated (default cycles; cpu-clock\n"
          "                         on a machine without a hardware PMU, and it says so)\n"
          "  -c, --count PERIOD     sample every PERIOD events (64K, 1M accepted)\n"
          "  -F, --freq HZ          sample HZ times a second (default " "4000" ")\n"
          "      --read EVENTS      counters read at every sample of the first event (a\n"
          "                         PERF_SAMPLE_READ group; perf script -F event,period shows them);\n"
          "                         as with perf, the command's later threads and children are not\n"
          "                         followed then\n"
          "      --randomize=mask:BITS  after each sample the next period is PERIOD plus a uniform\n"
          "                         random value below 2^BITS (pfmon); needs -c\n"
          "      --randomize=exp    exponentially distributed periods with mean PERIOD, as\n"
          "                         Sembrant's phase library (pmuscope help methods)\n"
          "                         (cpu-clock, task-clock: a mean period under 1 ms keeps each\n"
          "                         drawn period for about 1 ms of samples, the same number per\n"
          "                         draw, since every change interrupts the command)\n"
          "      --seed N           seed of the randomised periods (default 1, as in every\n"
          "                         command: the same seed gives the same sequence)\n"
          "  -o, --output FILE      output file (default perf.data); - writes perf's pipe format to\n"
          "                         the standard output (| perf script -i -, | pmuscope report -i -),\n"
          "                         as it does to a FIFO; a device is written in place\n"
          "      --pprof FILE       also write the recording as a gzipped pprof profile (as\n"
          "                         pmuscope report --pprof does), its comment naming the seed\n"
          "  -z, --compression-level[=N]  compress the records with zstd at level N (1-22, default 1),\n"
          "                         as perf record -z: perf report reads the file as it is\n"
          "  -m, --mmap-pages N     ring buffer data pages per thread or CPU, a power of 2 (default 128)\n"
          "  -p, --pid PID          attach to all threads of process PID\n"
          "  -a, --all-cpus         system-wide: every task of every CPU, while COMMAND runs (if\n"
          "                         given) or until Ctrl-C; needs perf_event_paranoid <= 0 or root\n"
          "  -C, --cpu CPUS         system-wide on these CPUs only (0-3,6), as perf record -C\n"
          "  -g, --call-graph fp    every sample carries its callchain, walked by the kernel through\n"
          "                         frame pointers (PERF_SAMPLE_CALLCHAIN, as perf record -g): build\n"
          "                         the program with -fno-omit-frame-pointer; report --children\n"
          "      --call-graph dwarf[,SIZE]  every sample carries the user registers and SIZE bytes\n"
          "                         of the user stack (default 8192, at most 65528), unwound later\n"
          "                         with the binaries' DWARF CFI (.eh_frame) by pmuscope report and\n"
          "                         perf report: for programs built without frame pointers\n"
          "      --fallback         let cpu-clock stand in for an event this machine cannot count\n"
          "                         (the output says so)\n"
          "      --olr[=METHOD]     fit the --read counters against the first event's count with\n"
          "                         line segments while recording (pmuscope olr): wm (default),\n"
          "                         opt or opt:EPS (error bound in counts); segments go to\n"
          "                         FILE.olr as they close (the segment file of pmuscope olr\n"
          "                         --store; pmuscope olr --decode reads it), whole at each\n"
          "                         second's checkpoint, as perf.data is (FILE.olr.old kept)\n"
          "      --olr-output FILE  the segments to FILE instead of FILE.olr\n"
          "      --olr-csv          the segments as CSV rows (FILE.olr.csv) instead\n"
          "      --olr-only         keep the segments instead of the samples\n"
          "      --json[=FILE]      the summary as JSON (output, samples, lost, throttles, how the\n"
          "                         command ended, events and periods) to FILE, or to stdout\n"
          "                         after the command's own output\n"
          "  -h, --help             this help\n\n"
          "Ctrl-C, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM or the end of the\n"
          "target leave a complete file, the summary and the command ended (it is made valid\n"
          "every second while recording, so even SIGKILL loses at most a second; the command\n"
          "dies with pmuscope). The file is written beside FILE as FILE.tmp-XXXXXX and renamed\n"
          "to FILE at the first second that it holds a sample, or at the end; a FILE that was\n"
          "there is kept as FILE.old, as perf record does, and a recording that fails or is\n"
          "stopped before its first sample leaves FILE as it was.\n\n"
          "Exit status, as perf record: the command's (128+N if signal N ended it, so 143 when\n"
          "pmuscope, stopped by a signal, ends it with SIGTERM); 0 with -p; 1 if an event\n"
          "cannot be opened or the command cannot be run (the message says why), 2 for a usage error.\n",
          out);
}

/* --olr, --olr-output, --olr-csv, --olr-only */
typedef struct olr_opts {
    bool enabled;
    pms_olr_live_options fit;
    const char *path;  /* the segments; NULL: "<perf.data path>.olr" (.olr.csv with --olr-csv) */
} olr_opts;

typedef struct record_opts {
    const char *events, *reads, *output;
    uint64_t period, freq;
    pms_randomize randomize;
    const char *randomize_spec;
    const char *pprof;
    size_t pages;
    pid_t pid;
    bool system_wide;    /* -a, or -C */
    const char *cpus;    /* -C */
    bool fallback;
    bool callchain; /* -g, --call-graph fp */
    uint32_t dwarf_stack_size; /* --call-graph dwarf[,SIZE]: 0 without */
    int compression_level; /* -z: 0 none */
    olr_opts olr;
    const char *json; /* --json[=FILE]: cli_format_target */
    char **argv;
} record_opts;

/* --pprof FILE: the recording as a pprof profile whose comment says how it was sampled. */
static int write_pprof(const record_opts *o)
{
    char note[256];
    if (o->randomize.kind == PMS_RANDOMIZE_NONE)
        snprintf(note, sizeof note, "recorded by pmuscope record %s %llu, periods not randomised",
                 o->period ? "-c" : "-F", (unsigned long long)(o->period ? o->period : o->freq));
    else
        snprintf(note, sizeof note, "recorded by pmuscope record -c %llu --randomize=%s --seed %llu",
                 (unsigned long long)o->period, o->randomize_spec, (unsigned long long)o->randomize.seed);
    const char *notes[] = {note};
    pms_pprof_options po = {.notes = notes, .nnotes = 1};
    if (pms_pprof_write_perfdata(o->pprof, o->output, &po)) return cli_lib_error();
    fprintf(stderr, "[ pmuscope record: pprof profile in %s ]\n", o->pprof);
    return CLI_OK;
}

/* The argument of --olr: "wm", "opt" (eps 0) or "opt:EPS" (EPS in counts). 0 or -1. */
static int parse_olr(const char *arg, olr_opts *o)
{
    o->enabled = true;
    o->fit.eps = 0;
    if (!arg || strcmp(arg, "wm") == 0) {
        o->fit.method = PMS_OLR_WM;
        return 0;
    }
    if (strncmp(arg, "opt", 3) != 0 || (arg[3] && arg[3] != ':')) return -1;
    o->fit.method = PMS_OLR_OPT;
    return arg[3] == ':' && (!cli_parse_double(arg + 4, &o->fit.eps) || o->fit.eps < 0) ? -1 : 0;
}

enum { OPT_READ = 256, OPT_RANDOMIZE, OPT_SEED, OPT_FALLBACK, OPT_OLR, OPT_OLR_OUTPUT, OPT_OLR_ONLY, OPT_OLR_CSV,
       OPT_JSON, OPT_PPROF };

/* The kernel refuses frequencies above its limit; perf record lowers the rate to the limit
 * and says so. So does pmuscope. */
static void lower_to_max_sample_rate(record_opts *o)
{
    uint64_t max;
    if (!o->freq || pms_sampler_max_sample_rate(&max) != PMS_OK || !max || o->freq <= max) return;
    cli_warn("-F %llu Hz is above the maximum sample rate (perf_event_max_sample_rate: %llu Hz): sampling at "
             "%llu Hz. The limit can be raised in /proc/sys/kernel/perf_event_max_sample_rate",
             (unsigned long long)o->freq, (unsigned long long)max, (unsigned long long)max);
    o->freq = max;
}

/* perf record's --call-graph modes (fp, dwarf[,SIZE], lbr): the word after -g is one of them. */
static bool is_call_graph_mode(const char *word)
{
    return strcmp(word, "fp") == 0 || strcmp(word, "lbr") == 0 || strncmp(word, "dwarf", 5) == 0;
}

/* MODE of --call-graph: fp, or dwarf[,SIZE] (SIZE rounded up to 8 bytes, as perf does). */
static int parse_call_graph(const char *mode, record_opts *o)
{
    o->callchain = true;
    if (!mode || strcmp(mode, "fp") == 0) return CLI_OK;
    if (strcmp(mode, "dwarf") == 0) {
        o->dwarf_stack_size = PMS_DWARF_STACK_DEFAULT;
        return CLI_OK;
    }
    uint64_t size;
    if (strncmp(mode, "dwarf,", 6) != 0)
        return cli_usage_error("record", "--call-graph: expected 'fp' (frame pointers) or 'dwarf[,SIZE]', got '%s'",
                               mode);
    if (!cli_parse_count(mode + 6, &size) || !size || size > PMS_DWARF_STACK_MAX)
        return cli_usage_error("record", "--call-graph %s: expected a stack size from 1 to %u bytes", mode,
                               PMS_DWARF_STACK_MAX);
    o->dwarf_stack_size = (uint32_t)((size + 7) & ~7ull);
    return CLI_OK;
}

static int parse_options(int argc, char **argv, record_opts *o)
{
    static const struct option longopts[] = {
        {"event", required_argument, NULL, 'e'},       {"count", required_argument, NULL, 'c'},
        {"freq", required_argument, NULL, 'F'},        {"read", required_argument, NULL, OPT_READ},
        {"randomize", required_argument, NULL, OPT_RANDOMIZE}, {"seed", required_argument, NULL, OPT_SEED},
        {"pprof", required_argument, NULL, OPT_PPROF},
        {"output", required_argument, NULL, 'o'},      {"mmap-pages", required_argument, NULL, 'm'},
        {"pid", required_argument, NULL, 'p'},         {"fallback", no_argument, NULL, OPT_FALLBACK},
        {"all-cpus", no_argument, NULL, 'a'},          {"cpu", required_argument, NULL, 'C'},
        {"olr", optional_argument, NULL, OPT_OLR},     {"olr-output", required_argument, NULL, OPT_OLR_OUTPUT},
        {"olr-only", no_argument, NULL, OPT_OLR_ONLY}, {"olr-csv", no_argument, NULL, OPT_OLR_CSV},
        {"json", optional_argument, NULL, OPT_JSON},   {"call-graph", optional_argument, NULL, 'g'},
        {"compression-level", optional_argument, NULL, 'z'},
        {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
    };
    *o = (record_opts){.output = "perf.data"};
    uint64_t v, seed = CLI_DEFAULT_SEED;
    bool seed_given = false;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "+e:c:F:o:m:p:gz::aC:h", longopts)) != -1) {
        switch (c) {
        case 'e': o->events = optarg; break;
        case OPT_READ: o->reads = optarg; break;
        case 'o': o->output = optarg; break;
        case 'a': o->system_wide = true; break;
        case 'C': {
            int *cpus;
            size_t ncpus;
            if (pms_cpu_list(&cpus, &ncpus, optarg)) return cli_usage_error("record", "-C: %s", pms_strerror());
            free(cpus);
            o->system_wide = true;
            o->cpus = optarg;
            break;
        }
        case OPT_FALLBACK: o->fallback = true; break;
        case 'c':
            if (!cli_parse_count(optarg, &o->period) || !o->period)
                return cli_usage_error("record", "-c %s: expected a period of at least 1", optarg);
            break;
        case 'F':
            if (!cli_parse_count(optarg, &o->freq) || !o->freq)
                return cli_usage_error("record", "-F %s: expected a frequency in Hz, at least 1", optarg);
            break;
        case 'z':
            if (!optarg) v = 1;
            else if (!cli_parse_count(optarg, &v) || v < 1 || v > 22)
                return cli_usage_error("record", "-z %s: expected a zstd level from 1 to 22", optarg);
            o->compression_level = (int)v;
            break;
        case 'm':
            if (!cli_parse_count(optarg, &v) || !v || (v & (v - 1)))
                return cli_usage_error("record", "-m %s: expected a power of 2 of pages", optarg);
            o->pages = (size_t)v;
            break;
        case 'p':
            if (!cli_parse_count(optarg, &v) || !v || v > INT32_MAX)
                return cli_usage_error("record", "-p %s: expected a process id", optarg);
            o->pid = (pid_t)v;
            break;
        case OPT_RANDOMIZE:
            if (pms_randomize_parse(optarg, &o->randomize)) return cli_usage_error("record", "%s", cli_lib_message());
            o->randomize_spec = optarg;
            break;
        case OPT_SEED:
            if (cli_parse_seed("record", optarg, &seed)) return CLI_USAGE;
            seed_given = true;
            break;
        case OPT_OLR:
            if (parse_olr(optarg, &o->olr))
                return cli_usage_error("record", "--olr=%s: expected wm, opt or opt:EPS", optarg);
            break;
        case OPT_OLR_OUTPUT: o->olr.path = optarg; break;
        case OPT_OLR_ONLY: o->olr.fit.segments_only = true; break;
        case OPT_OLR_CSV: o->olr.fit.csv = true; break;
        case OPT_JSON: o->json = cli_format_target(optarg); break;
        case OPT_PPROF: o->pprof = optarg; break;
        case 'g': { /* -g, --call-graph[=]MODE: as perf, the mode may be the next word */
            const char *mode = optarg;
            if (!mode && optind < argc && is_call_graph_mode(argv[optind])) mode = argv[optind++];
            if (parse_call_graph(mode, o)) return CLI_USAGE;
            break;
        }
        case 'h': usage(stdout); return -1;
        case CLI_OPT_LISTED: return -1;
        default: return cli_usage_error("record", "%s", cli_bad_option());
        }
    }
    o->argv = argv + optind;
    if (o->period && o->freq) return cli_usage_error("record", "-c and -F exclude each other");
    if (!o->period && !o->freq) o->freq = DEFAULT_FREQ;
    lower_to_max_sample_rate(o);
    if ((o->olr.path || o->olr.fit.segments_only || o->olr.fit.csv) && !o->olr.enabled)
        return cli_usage_error("record", "--olr-output, --olr-only and --olr-csv go with --olr");
    if (o->olr.enabled && !o->reads)
        return cli_usage_error("record", "--olr fits the counters of --read EVENTS: give them");
    if (seed_given && o->randomize.kind == PMS_RANDOMIZE_NONE)
        return cli_usage_error("record", "--seed only applies with --randomize");
    o->randomize.seed = seed;
    if (o->randomize.kind != PMS_RANDOMIZE_NONE && !o->period)
        return cli_usage_error("record", "--randomize needs a fixed period: give -c PERIOD");
    if (strcmp(o->output, "-") == 0 && ((o->json && cli_is_main(o->json)) || o->olr.enabled || o->pprof))
        return cli_usage_error("record", "-o - writes the recording to the standard output: give --json=FILE; "
                                         "--olr and --pprof need a file");
    if (o->system_wide && o->pid)
        return cli_usage_error("record", "-a and -C record every task of the CPUs: they do not go with -p");
    if (!o->system_wide && !o->pid == !o->argv[0])
        return cli_usage_error("record", o->pid ? "give either -p PID or a command, not both"
                                                : "no command to record: give -- COMMAND or -p PID");
    return CLI_OK;
}

/* The default event: cycles where the machine has it, else cpu-clock, said aloud. */
static const char *default_event(void)
{
    const char *event;
    if (pms_sampler_default_event(&event) != PMS_OK)
        cli_warn("cycles cannot be sampled here (%s); sampling %s, the default without a PMU", pms_strerror(), event);
    return event;
}

static void print_summary(const record_opts *o, const pms_record_result *r)
{
    struct stat sb;
    const pms_sampler_stats *st = &r->stats;
    double mb = stat(o->output, &sb) == 0 ? (double)sb.st_size / (1024.0 * 1024.0) : 0.0;
    if (strcmp(o->output, "-") == 0)
        fprintf(stderr, "[ pmuscope record: Captured and wrote %llu samples to the standard output (pipe format) ]\n",
                (unsigned long long)r->samples);
    else if (r->stopped && !r->stats.samples)
        fprintf(stderr, "[ pmuscope record: stopped before the first sample: %s left as it was ]\n", o->output);
    else
        fprintf(stderr, "[ pmuscope record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb, o->output,
                (unsigned long long)r->samples);
    fprintf(stderr, "[ pmuscope record: %llu samples lost, %llu throttle and %llu unthrottle events ]\n",
            (unsigned long long)st->lost, (unsigned long long)st->throttles, (unsigned long long)st->unthrottles);
    if (o->randomize.kind != PMS_RANDOMIZE_NONE)
        fprintf(stderr, "[ pmuscope record: --randomize=%s --seed %llu: %llu period changes, %.1f us each ]\n",
                o->randomize_spec, (unsigned long long)o->randomize.seed, (unsigned long long)st->period_updates,
                st->period_updates ? (double)st->period_update_ns / 1e3 / (double)st->period_updates : 0.0);
}

/* The live fit's lines: what was fitted, each counter's summary and the share of the run
 * spent in the regression. */
static void print_olr_summary(const record_opts *o, const pms_olr_live *l, const char *path, double run_seconds)
{
    pms_olr_live_stats st;
    pms_olr_live_get_stats(&st, l);
    fprintf(stderr, "[ pmuscope record: olr %s: %llu samples of thread %u fitted (%llu others skipped), segments in %s ]\n",
            pms_olr_method_name(o->olr.fit.method), (unsigned long long)st.samples, st.tid,
            (unsigned long long)st.skipped, path);
    for (size_t j = 0; j < st.ncounters; j++) {
        pms_olr_summary s;
        const char *name;
        if (pms_olr_live_get_summary(&s, &name, l, j)) continue;
        fprintf(stderr, "[ pmuscope record: olr %s: %llu segments, reduction %.1f, max error %.4g, MNESD %.3g ]\n",
                name, (unsigned long long)s.segments, s.reduction, s.max_abs_error, s.mnesd);
        if (s.capped)
            fprintf(stderr, "[ pmuscope record: olr %s: %llu segments cut by a cap, not by the data ]\n", name,
                    (unsigned long long)s.capped);
    }
    fprintf(stderr, "[ pmuscope record: olr: %.3f ms in the regression, %.3f%% of the %.3f s run ]\n",
            1e3 * st.seconds, run_seconds > 0 ? 100 * st.seconds / run_seconds : 0.0, run_seconds);
}

/* The segments of --olr: --olr-output or "<perf.data>.olr" (.olr.csv with --olr-csv). */
static char *olr_path(const record_opts *o)
{
    char *path = NULL;
    if (o->olr.path) path = strdup(o->olr.path);
    else if (asprintf(&path, "%s.olr%s", o->output, o->olr.fit.csv ? ".csv" : "") < 0) path = NULL;
    return path;
}

static int run(const record_opts *o, pms_event *ev, size_t nev, pms_event *reads, size_t nreads, int argc,
               char **argv)
{
    pms_sampling_event *sev = calloc(nev, sizeof *sev);
    if (!sev) return cli_error("out of memory");
    for (size_t i = 0; i < nev; i++)
        sev[i] = (pms_sampling_event){.event = ev[i], .period = o->period, .freq = o->period ? 0 : o->freq,
                                      .randomize = o->randomize};
    sev[0].read = reads;
    sev[0].nread = nreads;
    pms_record_config cfg = {.events = sev, .nevents = nev, .mmap_pages = o->pages, .argv = o->argv,
                             .pid = o->pid, .system_wide = o->system_wide, .cpus = o->cpus, .output = o->output,
                             .cmdline_argc = argc, .cmdline_argv = argv, .stop = &stat_stop, .callchain = o->callchain,
                             .dwarf_stack_size = o->dwarf_stack_size,
                             .compression_level = o->compression_level};
    char *olr_file = NULL;
    pms_olr_live *olr = NULL;
    pms_record_tap tap;
    int ret = CLI_OK;
    /* from here on HUP, QUIT, USR1, USR2, PIPE and ALRM stop the recording as TERM does:
     * the file is finished, the summary said, the command ended, nothing temporary left */
    stat_install_signals();
    FILE *json = o->json ? cli_open_output(cli_is_main(o->json) ? "-" : o->json) : NULL;
    if (o->json && !json) ret = CLI_FAIL;
    if (!ret && o->olr.enabled) { /* the segments written as perf.data is: FILE.olr kept until a checkpoint */
        if (!(olr_file = olr_path(o))) ret = cli_error("out of memory");
        else if (pms_olr_live_open(&olr, &o->olr.fit, olr_file)) ret = cli_lib_error();
        else pms_olr_live_tap(&tap, olr), cfg.tap = &tap;
    }
    pms_record_result r = {0};
    bool recorded = false;
    char failure[1024] = ""; /* the first message of a failure, for the JSON summary */
    if (!ret) {
        if (pms_record_run(&r, &cfg)) {
            snprintf(failure, sizeof failure, "%s", cli_lib_message());
            ret = cli_lib_error();
        } else {
            recorded = true;
        }
    }
    if (!ret && r.exited && WIFSIGNALED(r.wait_status)) {
        char how[96];
        pms_wait_status_describe(how, sizeof how, r.wait_status);
        cli_warn("the command %s; the file holds its samples until then", how);
    }
    if (!ret) print_summary(o, &r);
    if (olr && recorded) {
        if (pms_olr_live_finish(olr)) { /* "cannot write FILE.olr: reason", or why the fit stopped */
            snprintf(failure, sizeof failure, "%s", cli_lib_message());
            ret = cli_lib_error();
        } else {
            print_olr_summary(o, olr, olr_file, r.seconds);
        }
    }
    if (json && ret != CLI_OK && !failure[0]) { /* failed before it recorded: no summary, the file as it was */
        cli_discard_output(json);
        json = NULL;
    }
    /* a recording that failed has its summary too, saying why (never an empty file) */
    if (json && (failure[0] ? pms_record_write_json_error(json, &cfg, &r, failure) : pms_record_write_json(json, &cfg, &r)))
        ret = cli_output_error(json);
    if (json && cli_close_output(json) != CLI_OK) ret = CLI_FAIL;
    if (!ret && o->pprof) ret = write_pprof(o);
    if (!ret) ret = r.exit_code; /* the command's status, as perf record and pmuscope stat return it */
    pms_olr_live_destroy(olr); /* a recording that failed leaves FILE.olr as it was, or at its last checkpoint */
    free(olr_file);
    free(sev);
    return ret;
}

int cmd_record(int argc, char **argv)
{
    record_opts o;
    int rc = parse_options(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    pms_event *ev = NULL, *reads = NULL;
    size_t nev = 0, nreads = 0;
    pms_unsupported_policy policy = o.fallback ? PMS_UNSUPPORTED_FALLBACK : PMS_UNSUPPORTED_FAIL;
    cli_user_only_hold();
    rc = cli_prepare_events(o.events ? o.events : default_event(), PMS_FALLBACK_SAMPLING, policy, &ev, &nev, NULL);
    if (!rc && o.reads) rc = cli_prepare_events(o.reads, PMS_FALLBACK_COUNTING, policy, &reads, &nreads, NULL);
    cli_user_only_release();
    if (!rc) rc = run(&o, ev, nev, reads, nreads, argc, argv);
    free(ev);
    free(reads);
    return rc;
}
