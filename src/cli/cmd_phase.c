/* pmuscope phase: online phase classification and prediction (Sembrant, "Low Overhead
 * Online Phase Predictor and Classifier", MSc thesis, Uppsala University), on a live
 * program or replayed from perf.data, exp-bbv and SimPoint files. */
#include "cli/cli.h"
#include "cli/methods.h"
#include "pmuscope/phase_input.h"
#include "pmuscope/phase_report.h"
#include "pmuscope/event.h"

#include <getopt.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pmuscope phase [options] -- CMD [ARGS]   classify a command's phases live\n"
            "       pmuscope phase [options] -p PID          ... of a running process\n"
            "       pmuscope phase [options] --tid TID       ... of one thread of it\n"
            "       pmuscope phase [options] FILE            replay perf.data, exp-bbv or SimPoint .bb\n"
            "\n"
            "Signatures and classification:\n"
            "      --signature-size N   entries per signature, a power of two (default: 256 below\n"
            "                           100 samples an interval, the thesis's 32 from 100 on)\n"
            "      --seed N             seed of the random projection and of --randomize=exp\n"
            "                           (default 1, as in every command)\n"
            "      --classifier NAME    distance (default) or kmeans\n"
            "      --threshold PCT      similarity threshold in %% of the maximum distance 2 (default: by\n"
            "                           the samples an interval holds, 80 below 8 (7 without a PMU)\n"
            "                           down to the thesis's 35 from 100 on)\n"
            "      --transition N       sightings before a new phase gets its own id (default: 1\n"
            "                           below 16 samples an interval, the thesis's 2 from 16 on)\n"
            "      --cache N            classifier cache entries (default 32)\n"
            "      --k N                k-means: number of phases (default 4)\n"
            "      --learning-rate R    k-means: step towards each signature (default 1/weight)\n"
            "Prediction:\n"
            "      --predictor NAME     last (default), markov, ppm or run-length: the one reported\n"
            "                           in events; all four are scored side by side\n"
            "      --history N          Markov history length (default 2)\n"
            "      --ppm-history N      longest PPM history (default 3)\n"
            "      --predictor-cache N  predictor table entries (default 256)\n"
            "      --min-confidence X   least confidence (0..1) to use a table entry (default 0.5); an\n"
            "                           entry's confidence is 1/3 (seen once), 2/3 or 1\n"
            "Dynamic intervals:\n"
            "      --grow MULT          grow a stable phase's interval by MULT (default 1: fixed)\n"
            "      --max-interval N     largest interval in base intervals (default 16)\n"
            "Threads (each has its own intervals and phases; the tid column says whose):\n"
            "      --shared-phases      one phase table for all threads (phase ids shared)\n"
            "      --save-phases FILE   write the phase table (ids and centroid signatures) to FILE\n"
            "      --load-phases FILE   start from the phase table in FILE: its phases keep their ids\n"
            "Live (-- CMD, -p PID or --tid TID; a thread id given to -p is that thread alone):\n"
            "  -e, --event EVENT        sampling event (default branches, or cycles on a PMU without\n"
            "                           branches; cpu-clock without a PMU)\n"
            "  -c, --count N            sample period (default 100000 branches; 4000000 ns of\n"
            "                           cpu-clock without a PMU, below 1%% overhead)\n"
            "      --fallback           let cpu-clock and task-clock stand in for events this\n"
            "                           machine cannot count\n"
            "      --randomize=exp      exponentially distributed sample periods\n"
            "      --interval-event EV  event ending intervals (default instructions; task-clock\n"
            "                           without a PMU); for perf.data, the recorded event that does\n"
            "      --interval-size N    interval size in the interval event's unit (default 100M\n"
            "                           instructions; task-clock: 5 sample periods, 20 ms); a\n"
            "                           command's children followed, an interval is size / -c of\n"
            "                           each thread's own samples\n"
            "      --no-inherit         follow the command's own process only: the processes it\n"
            "                           starts are not sampled (a shell script's commands, make's\n"
            "                           compilers: their samples are left out); Linux before 6.12\n"
            "                           then reads each interval's CPI (with children, the metric\n"
            "                           is ns per sample there)\n"
            "Files:\n"
            "      --samples-per-interval N  perf.data without an interval event (default 100)\n"
            "      --pc FILE            exp-bbv PC file (block addresses and functions)\n"
            "      --format NAME        auto (default), perf, bbv or simpoint\n"
            "Output:\n"
            "      --truth FILE         known schedule (\"start_ns end_ns label\", phases --trace):\n"
            "                           adds the adjusted Rand index; --truth functions labels\n"
            "                           exp-bbv intervals by their dominant function (needs --pc)\n"
            "  -q, --quiet              no per-interval table (timeline and summary only)\n"
            "      --csv[=FILE]         one row per interval, to FILE or instead of the text\n"
            "      --json[=FILE]        JSON, to FILE or instead of the text\n"
            "      --svg FILE           timeline above a heat map of the signatures\n"
            "      --trace FILE         the timeline as Chrome trace event JSON (Perfetto, chrome://tracing):\n"
            "                           a slice per run of one phase, a counter track of the metric\n"
            "      --write-bb FILE      the signatures as SimPoint .bb vectors\n"
            "      --simpoints FILE     SimPoint's simulation points: per phase, the interval closest\n"
            "                           to its centroid (\"INTERVAL PHASE\" lines)\n"
            "      --weights FILE       SimPoint's weights: per phase, its share of the run\n"
            "                           (\"WEIGHT PHASE\" lines)\n"
            "  -o, --output FILE        the text (or what --json/--csv put in its place) to FILE\n"
            CLI_INPUT_LIMIT_HELP
            "  -h, --help\n\n"
            "Exit status: a launched command's (128+N if signal N ended it), as stat and record;\n"
            "1 if pmuscope cannot classify (the message says why), 2 for a usage error.\n");
    cli_print_method(out, "phase");
}

enum {
    OPT_SIGSIZE = 256, OPT_SEED, OPT_CLASSIFIER, OPT_TRANSITION, OPT_CACHE, OPT_RATE, OPT_PREDICTOR, OPT_HISTORY,
    OPT_PPM, OPT_PCACHE, OPT_CONF, OPT_GROW, OPT_MAXIV, OPT_RANDOM, OPT_IVEVENT, OPT_SPI, OPT_PC, OPT_FORMAT,
    OPT_TRUTH, OPT_CSV, OPT_JSON, OPT_SVG, OPT_TRACE, OPT_WRITEBB, OPT_THRESHOLD, OPT_K, OPT_INTERVAL, OPT_NO_INHERIT,
    OPT_SHARED, OPT_SAVE, OPT_LOAD, OPT_SIMPOINTS, OPT_WEIGHTS, OPT_FALLBACK, OPT_TID,
};

static int parse_predictor(const char *s, pms_predictor_kind *out)
{
    for (int k = 0; k < PMS_PREDICT_COUNT; k++)
        if (!strcmp(s, pms_predictor_name((pms_predictor_kind)k))) {
            *out = (pms_predictor_kind)k;
            return 1;
        }
    return 0;
}

/* Parses a count option into an unsigned from min to max: CLI_OK, or CLI_USAGE once said why. */
static int count_opt(const char *name, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!cli_parse_count(arg, out) || *out < min || *out > max)
        return cli_usage_error("phase", "--%s: '%s' is not a number from %llu to %llu", name, arg,
                               (unsigned long long)min, (unsigned long long)max);
    return CLI_OK;
}

static int double_opt(const char *name, const char *arg, double min, double max, double *out)
{
    if (!cli_parse_double(arg, out) || *out < min || *out > max)
        return cli_usage_error("phase", "--%s: '%s' is not a number from %g to %g", name, arg, min, max);
    return CLI_OK;
}

static int write_json(const pms_phase_run *run, FILE *out)
{
    pms_phase_write_json(run, out);
    return 0;
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { (void)sig; interrupted = 1; }
/* Caught, not ignored: an ignored SIGINT is inherited across exec, and the launched command
 * would then ignore Ctrl-C too (xz, python3 ran on to their end). */
static void on_sigint_launched(int sig) { (void)sig; }

/* Ctrl-C stops a launched command (it gets the signal too), not the report of what ran;
 * an attached process is left alone and its analysis ends. */
static int run_analysis(pms_phase_input *in, pms_phase_run *run)
{
    struct sigaction sa = {.sa_handler = in->argv ? on_sigint_launched : on_sigint,
                           .sa_flags = in->argv ? SA_RESTART : 0}, old;
    int live = !in->path;
    if (live) sigaction(SIGINT, &sa, &old);
    in->stop = &interrupted;
    int rc = pms_phase_input_run(in, run);
    if (live) sigaction(SIGINT, &old, NULL);
    if (rc) return cli_lib_error();
    if (!live) return CLI_OK;
    if (in->user_only) cli_warn_user_only(in->user_only_events);
    if (in->lost_samples)
        cli_warn("%llu samples were lost (ring buffer full): raise -c", (unsigned long long)in->lost_samples);
    if (in->empty_intervals)
        cli_warn("%llu intervals had no samples and were not classified: lower -c or raise --interval-size",
                 (unsigned long long)in->empty_intervals);
    int status = in->exit_status;
    if (in->argv && WIFSIGNALED(status)) cli_warn("%s was killed by signal %d", in->argv[0], WTERMSIG(status));
    else if (in->argv && WEXITSTATUS(status)) cli_warn("%s exited with status %d", in->argv[0], WEXITSTATUS(status));
    return CLI_OK;
}

/* A launched command's own exit status, 128 + N where signal N ended it, as stat and record
 * (and perf) return it: a script sees a command that failed under phase fail. */
static int command_exit_code(const pms_phase_input *in)
{
    if (!in->argv || in->path) return CLI_OK;
    return WIFSIGNALED(in->exit_status) ? 128 + WTERMSIG(in->exit_status) : WEXITSTATUS(in->exit_status);
}

/* --fallback: cpu-clock samples and task-clock intervals where the events asked for cannot
 * be counted here, each said on stderr (a period given for the missing event is dropped: it
 * counted something else). */
static void apply_fallback(pms_phase_input *in)
{
    struct {
        const char **name;
        const char *substitute;
        uint64_t *size;
    } roles[] = {{&in->live.sample_event, "cpu-clock", &in->live.sample_period},
                 {&in->live.interval_event, "task-clock", &in->live.interval_size}};
    for (size_t i = 0; i < 2; i++) {
        pms_event e;
        if (!*roles[i].name || pms_event_parse(*roles[i].name, &e) || pms_event_probe(&e) == PMS_OK) continue;
        cli_warn("%s stands in for %s (--fallback): %s%s", roles[i].substitute, *roles[i].name, pms_strerror(),
                 *roles[i].size ? "; its period is the default one" : "");
        *roles[i].name = roles[i].substitute;
        *roles[i].size = 0;
    }
}

/* --load-phases: the table, whose signature size and seed the run takes unless they were
 * given (then they must agree: the library says so). */
static int load_table(const char *path, pms_phase_config *cfg, int size_given, int seed_given, pms_phase_table **out)
{
    if (pms_phase_table_load(out, path)) return cli_lib_error();
    if (!size_given) cfg->classifier.signature_size = pms_phase_table_signature_size(*out);
    if (!seed_given) cfg->seed = pms_phase_table_seed(*out);
    cfg->table = *out;
    return CLI_OK;
}

static int write_table(const pms_phase_run *run, FILE *out) { return pms_phase_threads_write_table(run->threads, out); }
static int write_simpoints(const pms_phase_run *run, FILE *out) { return pms_phase_write_simpoints(run, out, NULL); }
static int write_weights(const pms_phase_run *run, FILE *out) { return pms_phase_write_simpoints(run, NULL, out); }

/* Nothing to analyse is a failure, not a report of nan: say what was missing. */
static int require_intervals(const pms_phase_input *in, const pms_phase_run *run)
{
    if (run->n) return CLI_OK;
    if (in->path) return cli_error("nothing to analyse: no intervals in %s", run->source);
    if (in->empty_intervals)
        return cli_error("nothing to analyse: %llu intervals of %s, none with a sample (lower -c)",
                         (unsigned long long)in->empty_intervals, run->source);
    if (in->no_inherit && in->argv) /* the likeliest reason: its work was in processes it started */
        return cli_error("nothing to analyse: no samples from %s: --no-inherit follows its own process only, "
                         "and the processes it started are not sampled (without --no-inherit they are; else a "
                         "longer run, or a smaller --interval-size or -c)", run->source);
    return cli_error("nothing to analyse: no samples from %s: it ended before its first interval (a longer "
                     "run, or a smaller --interval-size or -c)", run->source);
}

int cmd_phase(int argc, char **argv)
{
    static const struct option opts[] = {
        {"signature-size", required_argument, 0, OPT_SIGSIZE}, {"seed", required_argument, 0, OPT_SEED},
        {"classifier", required_argument, 0, OPT_CLASSIFIER},  {"threshold", required_argument, 0, OPT_THRESHOLD},
        {"transition", required_argument, 0, OPT_TRANSITION},  {"cache", required_argument, 0, OPT_CACHE},
        {"k", required_argument, 0, OPT_K},                      {"learning-rate", required_argument, 0, OPT_RATE},
        {"predictor", required_argument, 0, OPT_PREDICTOR},    {"history", required_argument, 0, OPT_HISTORY},
        {"ppm-history", required_argument, 0, OPT_PPM},        {"predictor-cache", required_argument, 0, OPT_PCACHE},
        {"min-confidence", required_argument, 0, OPT_CONF},        {"grow", required_argument, 0, OPT_GROW},
        {"max-interval", required_argument, 0, OPT_MAXIV},     {"event", required_argument, 0, 'e'},
        {"count", required_argument, 0, 'c'},                  {"randomize", required_argument, 0, OPT_RANDOM},
        {"interval-event", required_argument, 0, OPT_IVEVENT}, {"interval-size", required_argument, 0, OPT_INTERVAL},
        {"no-inherit", no_argument, 0, OPT_NO_INHERIT},
        {"samples-per-interval", required_argument, 0, OPT_SPI}, {"pc", required_argument, 0, OPT_PC},
        {"format", required_argument, 0, OPT_FORMAT},          {"truth", required_argument, 0, OPT_TRUTH},
        {"quiet", no_argument, 0, 'q'},                        {"csv", optional_argument, 0, OPT_CSV},
        {"json", optional_argument, 0, OPT_JSON},                    {"svg", required_argument, 0, OPT_SVG},
        {"trace", required_argument, 0, OPT_TRACE},
        {"write-bb", required_argument, 0, OPT_WRITEBB},       {"output", required_argument, 0, 'o'},
        {"pid", required_argument, 0, 'p'},                    {"tid", required_argument, 0, OPT_TID},
        {"shared-phases", no_argument, 0, OPT_SHARED},         {"save-phases", required_argument, 0, OPT_SAVE},
        {"load-phases", required_argument, 0, OPT_LOAD},       {"simpoints", required_argument, 0, OPT_SIMPOINTS},
        {"weights", required_argument, 0, OPT_WEIGHTS},        {"fallback", no_argument, 0, OPT_FALLBACK},
        CLI_INPUT_LIMIT_OPTION, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    pms_phase_input in;
    pms_phase_input_defaults(&in);
    pms_phase_config *cfg = &in.cfg;
    cfg->seed = in.live.random_seed = CLI_DEFAULT_SEED; /* --randomize=exp's periods too */
    const char *truth_path = NULL, *csv_path = NULL, *svg_path = NULL, *bb_path = NULL, *out_path = NULL;
    const char *trace_path = NULL, *save_path = NULL, *load_path = NULL, *simpoints_path = NULL;
    const char *weights_path = NULL;
    const char *json = NULL;
    int quiet = 0, c, fallback = 0, size_given = 0, seed_given = 0;
    uint64_t u;
    double d;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "e:c:p:qo:h", opts)) != -1) {
        switch (c) {
        case OPT_SIGSIZE:
            if (count_opt("signature-size", optarg, 2, PMS_PHASE_MAX_SIGNATURE, &u)) return CLI_USAGE;
            cfg->classifier.signature_size = u;
            size_given = 1;
            break;
        case OPT_SEED:
            if (cli_parse_seed("phase", optarg, &cfg->seed)) return CLI_USAGE;
            in.live.random_seed = cfg->seed;
            seed_given = 1;
            break;
        case OPT_CLASSIFIER:
            if (!strcmp(optarg, "distance")) cfg->classifier.kind = PMS_CLASSIFIER_DISTANCE;
            else if (!strcmp(optarg, "kmeans")) cfg->classifier.kind = PMS_CLASSIFIER_KMEANS;
            else return cli_usage_error("phase", "--classifier: '%s': expected distance or kmeans", optarg);
            break;
        case OPT_THRESHOLD:
            if (double_opt("threshold", optarg, 0, 100, &cfg->classifier.threshold)) return CLI_USAGE;
            break;
        case OPT_TRANSITION:
            if (count_opt("transition", optarg, 1, 1000000, &u)) return CLI_USAGE;
            cfg->classifier.transition_threshold = (unsigned)u;
            break;
        case OPT_CACHE:
            if (count_opt("cache", optarg, 1, 65536, &u)) return CLI_USAGE;
            cfg->classifier.cache_size = u;
            break;
        case OPT_K:
            if (count_opt("k", optarg, 1, 65536, &u)) return CLI_USAGE;
            cfg->classifier.k = u;
            break;
        case OPT_RATE:
            if (double_opt("learning-rate", optarg, 0, 1, &cfg->classifier.learning_rate)) return CLI_USAGE;
            break;
        case OPT_PREDICTOR:
            if (!parse_predictor(optarg, &cfg->predictor))
                return cli_usage_error("phase", "--predictor: '%s': expected last, markov, ppm or run-length", optarg);
            break;
        case OPT_HISTORY:
            if (count_opt("history", optarg, 1, 8, &u)) return CLI_USAGE;
            cfg->predictors[PMS_PREDICT_MARKOV].history = (unsigned)u;
            break;
        case OPT_PPM:
            if (count_opt("ppm-history", optarg, 1, 8, &u)) return CLI_USAGE;
            cfg->predictors[PMS_PREDICT_PPM].history = (unsigned)u;
            break;
        case OPT_PCACHE:
            if (count_opt("predictor-cache", optarg, 1, 1u << 20, &u)) return CLI_USAGE;
            for (int k = 0; k < PMS_PREDICT_COUNT; k++) cfg->predictors[k].cache_size = u;
            break;
        case OPT_CONF:
            if (double_opt("min-confidence", optarg, 0, 1, &d)) return CLI_USAGE;
            for (int k = 0; k < PMS_PREDICT_COUNT; k++) cfg->predictors[k].confidence_threshold = d;
            break;
        case OPT_GROW:
            if (double_opt("grow", optarg, 1, 1024, &cfg->dynamic.multiplier)) return CLI_USAGE;
            break;
        case OPT_MAXIV:
            if (count_opt("max-interval", optarg, 1, 1u << 20, &u)) return CLI_USAGE;
            cfg->dynamic.maximum = (unsigned)u;
            break;
        case 'e': in.live.sample_event = optarg; break;
        case 'c':
            if (count_opt("count", optarg, 1, UINT64_MAX, &in.live.sample_period)) return CLI_USAGE;
            break;
        case OPT_RANDOM:
            if (strcmp(optarg, "exp") != 0)
                return cli_usage_error("phase", "--randomize=%s: phase draws exponential periods: --randomize=exp", optarg);
            in.live.randomize = 1;
            break;
        case OPT_NO_INHERIT: in.no_inherit = 1; break;
        case OPT_IVEVENT:
            in.live.interval_event = optarg;
            in.source.interval_event = optarg;
            break;
        case OPT_INTERVAL:
            if (count_opt("interval-size", optarg, 1, UINT64_MAX, &in.live.interval_size)) return CLI_USAGE;
            break;
        case OPT_SPI:
            if (count_opt("samples-per-interval", optarg, 1, 1u << 30, &in.source.samples_per_interval))
                return CLI_USAGE;
            break;
        case OPT_PC: in.pc_path = optarg; break;
        case OPT_FORMAT:
            if (!pms_phase_input_parse_format(optarg, &in.format))
                return cli_usage_error("phase", "--format: '%s': expected auto, perf, bbv or simpoint", optarg);
            break;
        case OPT_TRUTH: truth_path = optarg; break;
        case 'q': quiet = 1; break;
        case OPT_CSV: csv_path = cli_format_target(optarg); break;
        case OPT_JSON: json = cli_format_target(optarg); break;
        case OPT_SVG: svg_path = optarg; break;
        case OPT_WRITEBB: bb_path = optarg; break;
        case OPT_TRACE: trace_path = optarg; break;
        case 'o': out_path = optarg; break;
        case 'p':
        case OPT_TID: {
            char *end;
            long pid = strtol(optarg, &end, 10);
            if (*end || pid <= 0 || pid > INT32_MAX)
                return cli_usage_error("phase", "%s: '%s' is not a %s id", c == 'p' ? "-p" : "--tid", optarg,
                                       c == 'p' ? "process" : "thread");
            if (in.pid) return cli_usage_error("phase", "-p and --tid: one target");
            in.pid = (pid_t)pid;
            in.live.thread_only = c == OPT_TID;
            break;
        }
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("phase", optarg)) return CLI_USAGE;
            break;
        case OPT_SHARED: cfg->shared_table = 1; break;
        case OPT_SAVE: save_path = optarg; break;
        case OPT_LOAD: load_path = optarg; break;
        case OPT_SIMPOINTS: simpoints_path = optarg; break;
        case OPT_WEIGHTS: weights_path = optarg; break;
        case OPT_FALLBACK: fallback = 1; break;
        case 'h': usage(stdout); return CLI_OK;
        case CLI_OPT_LISTED: return CLI_OK;
        default: return cli_usage_error("phase", "%s", cli_bad_option());
        }
    }
    if (cli_is_main(json) && cli_is_main(csv_path))
        return cli_usage_error("phase", "--json and --csv both want the main output: give one a FILE");
    int nargs = argc - optind;
    if (in.pid && nargs) return cli_usage_error("phase", "-p or --tid and a FILE or command cannot be combined");
    if (!in.pid && nargs == 0) return cli_usage_error("phase", "expected -- CMD, -p PID, --tid TID or a FILE");
    if (!in.pid) {
        /* "--" before the command means live; a single argument without it is a file. */
        if (!strcmp(argv[optind - 1], "--")) in.argv = argv + optind;
        else if (nargs == 1) in.path = argv[optind];
        else return cli_usage_error("phase", "one FILE expected; put -- before a command to run");
    }
    if (!in.path && (in.format != PMS_PHASE_FORMAT_AUTO || in.pc_path))
        return cli_usage_error("phase", "--format and --pc apply to files, not to a live program");
    if (in.format == PMS_PHASE_FORMAT_SIMPOINT && in.pc_path)
        return cli_usage_error("phase", "--pc belongs to exp-bbv files, not SimPoint .bb");
    if (cfg->classifier.kind == PMS_CLASSIFIER_KMEANS && cfg->classifier.k > cfg->classifier.cache_size)
        return cli_usage_error("phase", "--k %zu is larger than the cache (%zu)", cfg->classifier.k,
                               cfg->classifier.cache_size);

    if (fallback && in.path) return cli_usage_error("phase", "--fallback applies to a live program, not to a file");
    if (fallback) apply_fallback(&in);
    pms_phase_table *table = NULL;
    if (load_path && load_table(load_path, cfg, size_given, seed_given, &table)) return CLI_FAIL;

    pms_phase_run run = {0};
    run.cfg = cfg;
    pms_phase_truth *truth = NULL;
    int by_function = truth_path && !strcmp(truth_path, "functions");
    if (by_function && !in.pc_path) return cli_usage_error("phase", "--truth functions needs an exp-bbv file with --pc");
    int rc = run_analysis(&in, &run);
    if (rc == CLI_OK) rc = require_intervals(&in, &run);
    /* Loaded afterwards: a live command may be the one writing it (phases --trace). */
    if (rc == CLI_OK && truth_path && !by_function && pms_phase_truth_load(&truth, truth_path))
        rc = cli_lib_error();
    if (rc == CLI_OK && truth && pms_phase_run_label(&run, truth, truth_path))
        rc = cli_error("--truth %s%s", pms_strerror(), run.n && !run.rows[run.n - 1].ev.end_time
                       ? " (--truth functions labels exp-bbv intervals, with --pc)" : "");
    if (rc == CLI_OK && by_function && pms_phase_input_function_truth(&in, &run)) rc = cli_lib_error();
    if (rc == CLI_OK) {
        FILE *out = cli_open_output(out_path);
        if (!out) rc = CLI_FAIL;
        else {
            if (cli_is_main(json)) pms_phase_write_json(&run, out);
            else if (cli_is_main(csv_path)) {
                if (pms_phase_write_csv(&run, out)) rc = cli_output_error(out);
            } else {
                if (!quiet) pms_phase_print_table(&run, out);
                pms_phase_print_summary(&run, out);
            }
            if (cli_close_output(out) != CLI_OK) rc = CLI_FAIL;
        }
        const struct {
            const char *path;
            int (*write)(const pms_phase_run *, FILE *);
        } files[] = {{csv_path, pms_phase_write_csv}, {json, write_json}, {svg_path, pms_phase_write_svg},
                     {bb_path, pms_phase_write_bb}, {trace_path, pms_phase_write_trace},
                     {save_path, write_table}, {simpoints_path, write_simpoints}, {weights_path, write_weights}};
        for (size_t i = 0; rc == CLI_OK && i < sizeof files / sizeof files[0]; i++) {
            if (!files[i].path || cli_is_main(files[i].path)) continue;
            FILE *f = cli_open_output(files[i].path);
            rc = f ? cli_finish_output(f, files[i].write(&run, f)) : CLI_FAIL;
        }
    }
    if (rc == CLI_OK) rc = command_exit_code(&in);
    pms_phase_input_close(&in);
    pms_phase_run_free(&run);
    pms_phase_truth_free(truth);
    pms_phase_table_free(table);
    return rc;
}
