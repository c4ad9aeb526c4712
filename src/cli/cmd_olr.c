/* pmuscope olr: fit a sample stream with line segments (Wu & Mencer's online linear
 * regression, or the optimal bounded-error PLA) and report how well it keeps it. */
#include "cli/cli.h"
#include "cli/methods.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_series.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fputs("usage: pmuscope olr [options] INPUT\n"
          "       pmuscope olr --decode FILE [--x-from SAMPLES] [-o OUT]\n\n"
          "Replace a stream of samples by line segments fitted online. INPUT is a perf.data\n"
          "with read values (perf record -e '{cpu-clock,page-faults}:S', pmuscope record) or a\n"
          "CSV/TSV table with an x column and one column per counter, all cumulative counts\n"
          "(whole numbers up to 2^64 - 1, read exactly).\n\n"
          "      --method M        wm: Wu & Mencer's online regression (3 sigma, alpha test),\n"
          "                        default; opt: optimal segments with |error| <= eps at every sample\n"
          "      --eps E           opt: the error bound: a count (1000), a share of the range\n"
          "                        (0.5%, the default 0.1%), or mean per-sample increments (2step);\n"
          "                        NAME=E sets it for one counter; repeatable\n"
          "      --counters LIST   fit only these counters (comma-separated names)\n"
          "      --x NAME           x: perf.data: the sampling event's count (default), 'time',\n"
          "                        or another read event; table: a column (default the first)\n"
          "      --tid TID         perf.data: the samples of this thread (default: the thread of\n"
          "                        the first sample; each thread counts on its own)\n"
          "      --per-counter     break each counter's lines on its own (default: all break\n"
          "                        together when one does)\n"
          "      --alpha A         wm: relative test while a line has 2 samples (0.01)\n"
          "      --nsigma S        wm: outlier threshold in sigmas (3)\n"
          "      --max-len N       samples per segment at most (default 0: no cap)\n"
          "      --max-hull N      opt: convex hull points at most (default 0: no cap)\n"
          "      --no-monotone     counters may decrease (default: a decrease is an error)\n"
          "  -o, --output FILE     the summary (or what --json/--csv put in its place) to FILE\n"
          "      --csv[=FILE]      the segments as CSV, to FILE or instead of the summary\n"
          "      --store FILE      the segment file (docs/olr-format.md, version 4): x as byte\n"
          "                        planes of its steps, each counter as whole-count end points\n"
          "                        of segments or as predictive codes (--encoding), zstd\n"
          "      --no-x            leave x out of the segment file (the reader has it elsewhere)\n"
          "      --lossless        store each sample's residual too: decoding gives it exactly\n"
          "      --level N         zstd level of the segment file's chunks (19; a chunk zstd does\n"
          "                        not shorten is stored as it is)\n"
          "      --joints HOW      opt's end points in the segment file: 'optimal' (default for\n"
          "                        eps <= 31: the fewest of any joint/disjoint mix, Luo et al.,\n"
          "                        ICDE 2015) or 'greedy' (opt's segments, joint where a line\n"
          "                        from the previous end point fits)\n"
          "      --encoding HOW    opt's counters in the segment file: 'auto' (default: each the\n"
          "                        smaller of the two), 'segments' or 'predictive' (each sample's\n"
          "                        difference from a prediction, quantised to 2 eps + 1 counts)\n"
          "      --decode FILE     with INPUT: the samples decoded back, each at its own x (CSV as\n"
          "                        --samples): from the --store file, or without --store from the\n"
          "                        segments (as --encoding segments); alone: decode the segment file\n"
          "                        FILE to -o (standard output)\n"
          "      --x-from SAMPLES  --decode of a file without x: the samples' x from this input\n"
          "      --samples FILE    the input samples as CSV\n"
          "      --svg FILE        per counter: samples and lines, then each sample's error\n"
          "                        against its line (with opt's eps band or wm's 3 sigma band)\n"
          "      --json[=FILE]     the summary as JSON, to FILE or instead of the text\n"
          CLI_INPUT_LIMIT_HELP
          "  -h, --help            this help\n",
          out);
    cli_print_method(out, "olr");
}

enum { OPT_METHOD = 256, OPT_EPS, OPT_COUNTERS, OPT_X, OPT_CSV, OPT_TID, OPT_PER_COUNTER, OPT_ALPHA, OPT_NSIGMA, OPT_MAX_LEN, OPT_MAX_HULL, OPT_NO_MONOTONE,
       OPT_DECODE, OPT_SAMPLES, OPT_SVG, OPT_JSON, OPT_STORE, OPT_NO_X, OPT_LOSSLESS, OPT_LEVEL, OPT_X_FROM, OPT_JOINTS,
       OPT_ENCODING };

/* "[NAME=]VALUE[%|step]" */
static int parse_eps(char *arg, pms_olr_eps_spec *out)
{
    char *eq = strrchr(arg, '=');
    out->name = NULL;
    if (eq) {
        *eq = 0;
        out->name = arg;
        arg = eq + 1;
    }
    pms_olr_counter_options_init(&out->c);
    size_t len = strlen(arg);
    char num[64];
    if (len == 0 || len >= sizeof num) return -1;
    memcpy(num, arg, len + 1);
    if (len > 1 && num[len - 1] == '%') {
        out->c.unit = PMS_OLR_EPS_RANGE;
        num[len - 1] = 0;
    } else if (len > 4 && strcmp(num + len - 4, "step") == 0) {
        out->c.unit = PMS_OLR_EPS_STEP;
        num[len - 4] = 0;
    }
    if (!cli_parse_double(num, &out->c.eps) || out->c.eps < 0) return -1;
    if (out->c.unit == PMS_OLR_EPS_RANGE) out->c.eps /= 100;
    return 0;
}

/* Writes one output file with fn; a write that failed (a full disk) fails the command. */
static int write_file(const char *path, int (*fn)(FILE *, const pms_olr_series *, const pms_olr_fit *),
                      const pms_olr_series *s, const pms_olr_fit *f)
{
    FILE *out = cli_open_output(path);
    return out ? cli_finish_output(out, fn(out, s, f)) : CLI_FAIL;
}

/* The summary, and the bytes of the segment file after it. */
static const pms_olr_stream_result *summary_result;
static const char *summary_store_path;

static int write_summary(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    int rc = pms_olr_write_summary(out, s, f);
    if (rc == 0 && summary_result->has_store) rc = pms_olr_write_store_stats(out, summary_store_path, &summary_result->store);
    return rc;
}

static int write_charts(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    return pms_olr_chart_data_write_svg(summary_result->charts, out, s, f);
}

typedef struct outputs {
    const char *output, *json, *csv, *samples, *store, *decode, *svg;
    const pms_olr_store_options *so;
} outputs;

/* Closes an output of the run; a failed close fails the run. */
static void close_output(FILE *f, int *rc)
{
    if (f && cli_close_output(f) != CLI_OK) *rc = CLI_FAIL;
}

/* Why the streamed fit failed: one of its files that could not be written (said once, so
 * that closing it says nothing more), or the library's reason. */
static int stream_failure(const pms_olr_stream_outputs *S)
{
    FILE *files[] = {S->segments, S->samples, S->store, S->decoded};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i] && ferror(files[i])) return cli_output_error(files[i]);
    return cli_lib_error();
}

/* The run, a row at a time: segments, samples, the segment file and the decoded samples
 * written as they come, the charts thinned as they grow, the summary at the end. */
static int olr_streaming(const char *path, const pms_olr_input_options *in, const pms_olr_options *opt,
                         const pms_olr_eps_spec *specs, size_t nspecs, int monotone, const outputs *o)
{
    pms_olr_series meta = {0};
    pms_olr_fit fit = {0};
    pms_olr_stream_result res = {0};
    pms_olr_stream_outputs S = {.store_path = o->store, .store_options = o->so, .charts = o->svg != NULL};
    int rc = CLI_OK;
    /* the segments go to their file, or to the main output in place of the summary */
    if (o->csv && !(S.segments = cli_open_output(cli_is_main(o->csv) ? o->output : o->csv))) return CLI_FAIL;
    if (o->samples && !(S.samples = cli_open_output(o->samples))) rc = CLI_FAIL;
    if (rc == CLI_OK && o->store && !(S.store = cli_open_output(o->store))) rc = CLI_FAIL;
    if (rc == CLI_OK && o->decode && !(S.decoded = cli_open_output(o->decode))) rc = CLI_FAIL;
    if (rc == CLI_OK && pms_olr_fit_stream_outputs(&fit, &meta, &res, path, in, opt, specs, nspecs, monotone, &S))
        rc = stream_failure(&S);
    summary_result = &res;
    summary_store_path = o->store;
    close_output(S.segments, &rc);
    close_output(S.samples, &rc);
    close_output(S.store, &rc);
    close_output(S.decoded, &rc);
    if (rc == CLI_OK && res.charts) rc = write_file(o->svg, write_charts, &meta, &fit);
    if (rc == CLI_OK && o->json && !cli_is_main(o->json)) rc = write_file(o->json, pms_olr_write_json, &meta, &fit);
    if (rc == CLI_OK && !cli_is_main(o->csv))
        rc = write_file(o->output, cli_is_main(o->json) ? pms_olr_write_json : write_summary, &meta, &fit);
    pms_olr_chart_data_destroy(res.charts);
    if (fit.sums) pms_olr_fit_free(&fit);
    pms_olr_series_free(&meta);
    return rc;
}

/* pmuscope olr --decode FILE: the segment file's samples as CSV. */
static int decode_file(const char *path, const char *x_from, const pms_olr_input_options *in, const char *output)
{
    pms_olr_stored st;
    if (pms_olr_stored_read(&st, path)) return cli_lib_error();
    if (st.stopped)
        cli_warn("%s: no end chunk: its writer stopped (a recording killed?) after the checkpoint that ends at offset "
                 "%llu; the %llu samples up to it are decoded, what follows it is not read",
                 path, (unsigned long long)st.stopped_at, (unsigned long long)st.n);
    pms_olr_series xs = {0};
    const uint64_t *x = NULL;
    int rc = CLI_OK;
    if (x_from) {
        if (pms_olr_series_load(&xs, x_from, in)) rc = cli_lib_error();
        else if (xs.n != st.n)
            rc = cli_error("%s: %zu samples, but %s holds %llu", x_from, xs.n, path, (unsigned long long)st.n);
        else x = xs.x;
    } else if (!st.has_x) {
        rc = cli_error("%s holds no x values (stored with --no-x): give the samples' x with --x-from", path);
    }
    if (rc == CLI_OK) {
        FILE *out = cli_open_output(output);
        rc = out ? cli_finish_output(out, pms_olr_stored_write_csv(out, &st, x)) : CLI_FAIL;
    }
    pms_olr_series_free(&xs);
    pms_olr_stored_free(&st);
    return rc;
}

int cmd_olr(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"method", required_argument, NULL, OPT_METHOD}, {"eps", required_argument, NULL, OPT_EPS},
        {"counters", required_argument, NULL, OPT_COUNTERS}, {"x", required_argument, NULL, OPT_X},
        {"tid", required_argument, NULL, OPT_TID},  {"per-counter", no_argument, NULL, OPT_PER_COUNTER},
        {"alpha", required_argument, NULL, OPT_ALPHA}, {"nsigma", required_argument, NULL, OPT_NSIGMA},
        {"max-len", required_argument, NULL, OPT_MAX_LEN}, {"max-hull", required_argument, NULL, OPT_MAX_HULL},
        {"no-monotone", no_argument, NULL, OPT_NO_MONOTONE}, {"output", required_argument, NULL, 'o'},
        {"decode", required_argument, NULL, OPT_DECODE}, {"samples", required_argument, NULL, OPT_SAMPLES},
        {"svg", required_argument, NULL, OPT_SVG},  {"json", optional_argument, NULL, OPT_JSON},
        {"csv", optional_argument, NULL, OPT_CSV},  {"store", required_argument, NULL, OPT_STORE},
        {"no-x", no_argument, NULL, OPT_NO_X},      {"lossless", no_argument, NULL, OPT_LOSSLESS},
        {"level", required_argument, NULL, OPT_LEVEL}, {"x-from", required_argument, NULL, OPT_X_FROM},
        {"joints", required_argument, NULL, OPT_JOINTS}, {"encoding", required_argument, NULL, OPT_ENCODING},
        CLI_INPUT_LIMIT_OPTION, {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    pms_olr_input_options in;
    pms_olr_input_options_init(&in);
    pms_olr_eps_spec specs[32];
    size_t nspecs = 0;
    int monotone = 1;
    const char *output = "-", *json = NULL, *csv = NULL, *decode = NULL, *samples = NULL, *svg = NULL;
    const char *store = NULL, *x_from = NULL;
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    uint64_t count;
    optind = 1;
    for (int ch; (ch = cli_getopt(argc, argv, "o:h", longopts)) != -1;) {
        switch (ch) {
        case OPT_METHOD:
            if (pms_olr_method_parse(optarg, &opt.method)) return cli_usage_error("olr", "%s", pms_strerror());
            break;
        case OPT_EPS:
            if (nspecs == 32 || parse_eps(optarg, &specs[nspecs]))
                return cli_usage_error("olr", "--eps %s: expected [NAME=]E, E a count, E%% or Estep", optarg);
            nspecs++;
            break;
        case OPT_COUNTERS: in.counters = optarg; break;
        case OPT_X: in.x = optarg; break;
        case OPT_TID:
            if (!cli_parse_count(optarg, &count) || count > INT32_MAX)
                return cli_usage_error("olr", "--tid %s: expected a thread id", optarg);
            in.tid = (long)count;
            break;
        case OPT_PER_COUNTER: opt.per_counter = 1; break;
        case OPT_ALPHA:
            if (!cli_parse_double(optarg, &opt.alpha) || opt.alpha < 0 || opt.alpha >= 1)
                return cli_usage_error("olr", "--alpha %s: expected a number in [0, 1)", optarg);
            break;
        case OPT_NSIGMA:
            if (!cli_parse_double(optarg, &opt.nsigma) || opt.nsigma <= 0)
                return cli_usage_error("olr", "--nsigma %s: expected a positive number", optarg);
            break;
        case OPT_MAX_LEN:
            if (!cli_parse_count(optarg, &opt.max_len) || opt.max_len == 1)
                return cli_usage_error("olr", "--max-len %s: expected 0 or a count >= 2", optarg);
            break;
        case OPT_MAX_HULL:
            if (!cli_parse_count(optarg, &count) || (count && count < 8) || count > (1u << 30))
                return cli_usage_error("olr", "--max-hull %s: expected 0 (no cap) or a count >= 8", optarg);
            opt.max_hull = (size_t)count;
            break;
        case OPT_NO_MONOTONE: monotone = 0; break;
        case 'o': output = optarg; break;
        case OPT_DECODE: decode = optarg; break;
        case OPT_SAMPLES: samples = optarg; break;
        case OPT_SVG: svg = optarg; break;
        case OPT_JSON: json = cli_format_target(optarg); break;
        case OPT_CSV: csv = cli_format_target(optarg); break;
        case OPT_STORE: store = optarg; break;
        case OPT_NO_X: so.keep_x = 0; break;
        case OPT_LOSSLESS: so.lossless = 1; break;
        case OPT_LEVEL:
            if (!cli_parse_count(optarg, &count) || count < 1 || count > 22)
                return cli_usage_error("olr", "--level %s: expected a zstd level from 1 to 22", optarg);
            so.level = (int)count;
            break;
        case OPT_X_FROM: x_from = optarg; break;
        case OPT_JOINTS:
            if (strcmp(optarg, "optimal") && strcmp(optarg, "greedy"))
                return cli_usage_error("olr", "--joints %s: expected 'optimal' or 'greedy'", optarg);
            so.greedy_joints = !strcmp(optarg, "greedy");
            break;
        case OPT_ENCODING:
            if (!strcmp(optarg, "auto")) so.encoding = PMS_OLR_ENCODING_AUTO;
            else if (!strcmp(optarg, "segments")) so.encoding = PMS_OLR_ENCODING_SEGMENTS;
            else if (!strcmp(optarg, "predictive")) so.encoding = PMS_OLR_ENCODING_PREDICTIVE;
            else return cli_usage_error("olr", "--encoding %s: expected 'auto', 'segments' or 'predictive'", optarg);
            break;
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("olr", optarg)) return CLI_USAGE;
            break;
        case 'h': usage(stdout); return CLI_OK;
        case CLI_OPT_LISTED: return CLI_OK;
        default: return cli_usage_error("olr", "%s", cli_bad_option());
        }
    }
    if (decode && optind == argc) return decode_file(decode, x_from, &in, output);
    if (x_from) return cli_usage_error("olr", "--x-from goes with --decode FILE and no INPUT");
    if (optind + 1 != argc) return cli_usage_error("olr", "expected one INPUT file");
    if (cli_is_main(json) && cli_is_main(csv)) return cli_usage_error("olr", "--json and --csv both want the main output: give one a FILE");
    outputs o = {output, json, csv, samples, store, decode, svg, &so};
    return olr_streaming(argv[optind], &in, &opt, specs, nspecs, monotone, &o);
}
