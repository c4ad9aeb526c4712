/* pmuscope report: the hotspot table of a perf.data (perf's or pmuscope's own). */
#include "cli/cli.h"
#include "pmuscope/error.h"
#include "pmuscope/profile_report.h"
#include "pmuscope/symbols.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define PROGRESS_MIN_BYTES (64u << 20)

struct options {
    const char *event, *output, *html, *pprof;
    bool pprof_input, input_given;
    char **files; /* FILE... after the options: one is -i, more are merged */
    size_t nfiles;
    pms_profile_report rep; /* input, sort keys, weight, confidence and limit; the tables later */
    const char *json, *csv; /* --json[=FILE], --csv[=FILE] (see cli_format_target) */
    const char *symfs;      /* --symfs DIR */
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pmuscope report [-i FILE | FILE...] [--sort KEYS] [--weight samples|period] [--confidence C]\n"
            "                       [--limit N] [--json[=FILE]] [--csv[=FILE]] [-e EVENT] [-o FILE] [--html FILE]\n"
            "                       [--pprof FILE] [--pprof-input] [--symfs DIR] [--children | --no-children]\n"            "\n"
            "Reads a perf.data written by `perf record` or `pmuscope record` (or a pprof profile) in one streaming pass\n"
            "(memory grows with the number of distinct IPs, not of samples) and prints where the\n"
            "samples fell: binary, function, samples and share of each event's samples.\n"
            "\n"
            "  -i, --input FILE      perf.data to read (default: perf.data); - reads the standard\n"
            "                        input (perf record -o - | pmuscope report -i -)\n"
            "  FILE...               several perf.data and pprof files merged into one table per\n"
            "                        event: rows by (binary, function), binaries by build-id where\n"
            "                        the files give one (memory grows with the distinct rows only)\n"
            "  -s, --sort KEY        sym: one row per function (default); ip: one row per instruction,\n"
            "                        with its run-time IP, file offset and offset in the function;\n"
            "                        dso: one row per binary (perf report --sort dso); comm: per\n"
            "                        command name; pid: per thread, printed TID:comm as perf does;\n"
            "                        symoff: per instruction, printed function+0xOFF (perf script's\n"
            "                        sym+symoff); several comma-separated (comm,dso, pid,sym,\n"
            "                        dso,comm,sym...): the text's columns in that order, as perf's\n"
            "      --children        with callchains (perf record -g, pmuscope record -g): each row also\n"
            "                        gets the samples whose callchain passes through it (its callees'\n"
            "                        included, each sample once), rows sorted by them: perf report\n"
            "                        --children, the default for files with callchains as in perf;\n"
            "                        on a pprof profile, its cum values (go tool pprof -top -cum;\n"
            "                        there the default is flat, as -top)\n"
            "      --no-children     only the samples taken in each row (perf report --no-children)\n"
            "  -g, --call-graph[=folded]  under each row, the call paths of its own samples: function\n"
            "                        names leaf first, ';' between, with their share of all samples,\n"
            "                        as perf report --no-children -g folded prints them (text, JSON)\n"
            "  -e, --event NAME      only this event (default: one table per event in the file)\n"
            "      --weight W        what a share counts: samples (default), or period: the events\n"
            "                        the samples stand for, as perf report's overhead (they differ when\n"
            "                        periods vary, as with perf record -F)\n"
            "      --confidence C    level of the confidence intervals (default 0.95). Each share\n"
            "                        comes with a Wilson score interval: treating each sample as an\n"
            "                        independent draw that lands in the row or not, the true share of\n"
            "                        the run lies in [low, high] with probability C. Few samples give\n"
            "                        wide intervals; rows whose intervals overlap are not reliably ordered.\n"
            "      --limit N         print the N largest rows of each table (default 25, 0: all)\n"
            "      --json[=FILE]     JSON (all fields, full paths), to FILE or instead of the text\n"
            "      --csv[=FILE]      CSV, to FILE or instead of the text: event,binary,function,ip,\n"
            "                        file_offset,symbol_offset,samples,period,share,ci_low,ci_high\n"
            "                        (and comm,pid,thread_comm with --sort comm or pid; and children_samples,\n"
            "                        children_period,children_share,children_ci_low,children_ci_high\n"
            "                        when a table has children)\n"
            "  -o, --output FILE     write the report to FILE instead of stdout\n"
            "      --html FILE       also write a self-contained HTML page: the tables, and a bar\n"
            "                        chart of the top 10 shares of each event with their intervals\n"
            "      --pprof FILE      also write the recording as a gzipped pprof profile.proto (go tool\n"
            "                        pprof, Parca, Pyroscope, speedscope): every event's samples and\n"
            "                        periods (and --read counters' increments), locations with their\n"
            "                        mappings, functions and DWARF lines; each sample labelled with\n"
            "                        its share and Wilson interval, the comment naming the events,\n"
            "                        their periods and each event's top functions with intervals\n"
            "      --pprof-input     the input is a pprof profile (gzipped or not; told by its\n"
            "                        content otherwise): from Go's runtime/pprof, a JVM agent, Parca or\n"
            "                        pmuscope; the table of its default sample type (-e TYPE: another),\n"
            "                        by function, flat, with intervals over its sample count\n"
            "      --symfs DIR       read the binaries under DIR, as perf report --symfs: a binary\n"
            "                        recorded at /usr/bin/x is read from DIR/usr/bin/x (a recording\n"
            "                        from another machine or architecture); rows keep the recorded path\n"
            CLI_INPUT_LIMIT_HELP
            "  -h, --help            this help\n"
            "\n"
            "With a fixed period (-c) both weights give perf report's overhead. Period shares get\n"
            "their interval from Kish's effective sample size (sum of periods)^2 / sum of squares.\n"
            "Kernel-mode samples are counted in [kernel.kallsyms], addresses in no known mapping in [unknown].\n");
}

static int parse_options(int argc, char **argv, struct options *o)
{
    enum { OPT_CONFIDENCE = 256, OPT_JSON, OPT_CSV, OPT_HTML, OPT_WEIGHT, OPT_LIMIT, OPT_PPROF, OPT_PPROF_INPUT, OPT_SYMFS,
           OPT_CHILDREN, OPT_NO_CHILDREN };
    static const struct option longopts[] = {
        {"input", required_argument, NULL, 'i'},     {"sort", required_argument, NULL, 's'},
        {"weight", required_argument, NULL, OPT_WEIGHT}, {"event", required_argument, NULL, 'e'},
        {"confidence", required_argument, NULL, OPT_CONFIDENCE},
        {"limit", required_argument, NULL, OPT_LIMIT}, {"json", optional_argument, NULL, OPT_JSON},
        {"csv", optional_argument, NULL, OPT_CSV},         {"output", required_argument, NULL, 'o'},
        {"html", required_argument, NULL, OPT_HTML}, {"pprof", required_argument, NULL, OPT_PPROF},
        {"pprof-input", no_argument, NULL, OPT_PPROF_INPUT},
        {"children", no_argument, NULL, OPT_CHILDREN}, {"no-children", no_argument, NULL, OPT_NO_CHILDREN},
        {"call-graph", optional_argument, NULL, 'g'},
        {"symfs", required_argument, NULL, OPT_SYMFS},
        CLI_INPUT_LIMIT_OPTION, {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
    };
    *o = (struct options){.output = "-",
                          .rep = {.input = "perf.data", .sort = "sym", .key = PMS_PROFILE_BY_SYMBOL,
                                  .weight = PMS_WEIGHT_SAMPLES, .confidence = 0.95, .limit = 25}};
    pms_profile_report *rep = &o->rep;
    optind = 1;
    int c;
    while ((c = cli_getopt(argc, argv, "i:s:e:o:gh", longopts)) != -1) {
        switch (c) {
        case 'i': rep->input = optarg, o->input_given = true; break;
        case 'e': o->event = optarg; break;
        case 'o': o->output = optarg; break;
        case 's':
            if (pms_profile_report_sort(rep, optarg)) return cli_usage_error("report", "--sort: %s", pms_strerror());
            break;
        case OPT_WEIGHT:
            if (strcmp(optarg, "samples") == 0)
                rep->weight = PMS_WEIGHT_SAMPLES;
            else if (strcmp(optarg, "period") == 0)
                rep->weight = PMS_WEIGHT_PERIOD;
            else
                return cli_usage_error("report", "--weight: expected 'samples' or 'period', got '%s'", optarg);
            break;
        case OPT_CONFIDENCE:
            if (!cli_parse_double(optarg, &rep->confidence) || rep->confidence <= 0 || rep->confidence >= 1)
                return cli_usage_error("report", "--confidence: expected a level between 0 and 1, got '%s'", optarg);
            break;
        case OPT_LIMIT:
            if (!cli_parse_count(optarg, &rep->limit))
                return cli_usage_error("report", "--limit: expected a count, got '%s'", optarg);
            break;
        case OPT_JSON: o->json = cli_format_target(optarg); break;
        case OPT_CSV: o->csv = cli_format_target(optarg); break;
        case OPT_HTML: o->html = optarg; break;
        case OPT_PPROF: o->pprof = optarg; break;
        case OPT_PPROF_INPUT: o->pprof_input = true; break;
        case OPT_CHILDREN: rep->children = PMS_CHILDREN_ON; break;
        case OPT_NO_CHILDREN: rep->children = PMS_CHILDREN_OFF; break;
        case 'g': /* perf report -g folded: the only print type here */
            if (optarg && strcmp(optarg, "folded") != 0)
                return cli_usage_error("report", "--call-graph: expected 'folded', got '%s'", optarg);
            rep->call_paths = 1;
            break;
        case OPT_SYMFS: o->symfs = optarg; break;
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("report", optarg)) return CLI_USAGE;
            break;
        case 'h': usage(stdout); return -1;
        case CLI_OPT_LISTED: return -1;
        default: return cli_usage_error("report", "%s", cli_bad_option());
        }
    }
    o->files = argv + optind;
    o->nfiles = (size_t)(argc - optind);
    if (o->nfiles && o->input_given) return cli_usage_error("report", "give -i FILE or FILE..., not both");
    if (o->nfiles == 1) rep->input = o->files[0];
    if (o->nfiles > 1 && (rep->key != PMS_PROFILE_BY_SYMBOL || rep->weight != PMS_WEIGHT_SAMPLES || o->pprof || o->html))
        return cli_usage_error("report", "merging files gives the table by function and samples: --sort, --weight, "
                               "--pprof and --html apply to one file");
    if (o->symfs && o->nfiles > 1)
        return cli_usage_error("report", "--symfs applies to one perf.data (-i FILE)");
    if (o->html && (rep->key & (PMS_PROFILE_WITH_COMM | PMS_PROFILE_WITH_PID)))
        return cli_usage_error("report", "--html shows rows by location: --sort comm and pid apply to the text, "
                               "--json and --csv");
    if (cli_is_main(o->json) && cli_is_main(o->csv))
        return cli_usage_error("report", "--json and --csv both want the main output: give one a FILE");
    return CLI_OK;
}

static void show_progress(uint64_t done, uint64_t total, void *ctx)
{
    (void)ctx;
    cli_progress("reading (MB)", done >> 20, total >> 20);
}

/* Reads the file into a profile; prints progress for big files. */
static int read_profile(pms_perfdata_reader *r, pms_profile *p)
{
    int progress = cli_show_progress() && pms_perfdata_data_size(r) >= PROGRESS_MIN_BYTES;
    int rc = pms_profile_read(p, r, progress ? show_progress : NULL, NULL);
    if (progress) cli_progress_end();
    return rc;
}

/* Writes the report to the main output (text unless --json or --csv want it), the
 * --json and --csv files, and the --html page. */
static int emit(const struct options *o)
{
    FILE *main_out = cli_open_output(o->output), *json = NULL, *csv = NULL, *html = NULL;
    if (!main_out) return CLI_FAIL;
    FILE *text = cli_is_main(o->json) || cli_is_main(o->csv) ? NULL : main_out;
    int rc = CLI_OK;
    if (o->json && !(json = cli_is_main(o->json) ? main_out : cli_open_output(o->json))) rc = CLI_FAIL;
    if (o->csv && !(csv = cli_is_main(o->csv) ? main_out : cli_open_output(o->csv))) rc = CLI_FAIL;
    if (o->html && rc == CLI_OK && !(html = cli_open_output(o->html))) rc = CLI_FAIL;
    if (rc == CLI_OK && json && pms_profile_report_write_json(json, &o->rep)) rc = cli_output_error(json);
    if (rc == CLI_OK && csv && pms_profile_report_write_csv(csv, &o->rep)) rc = cli_output_error(csv);
    if (rc == CLI_OK && text && pms_profile_report_write_text(text, &o->rep)) rc = cli_output_error(text);
    if (rc == CLI_OK && html && pms_profile_report_write_html(html, &o->rep)) rc = cli_output_error(html);
    if (html && cli_close_output(html) != CLI_OK) rc = CLI_FAIL;
    if (json && json != main_out) cli_close_output(json);
    if (csv && csv != main_out) cli_close_output(csv);
    cli_close_output(main_out);
    return rc;
}

static int report_perfdata(struct options *o)
{
    pms_perfdata_reader *r = NULL;
    pms_symbols *syms = NULL;
    pms_profile *p = NULL;
    const char *input = o->rep.input;
    int rc;
    if (pms_perfdata_open(&r, input) || pms_symbols_create(&syms) || pms_symbols_set_symfs(syms, o->symfs) ||
        pms_profile_create(&p, syms) || read_profile(r, p) || pms_profile_report_add_perfdata(&o->rep, p, r, o->event)) {
        rc = cli_lib_error();
    } else {
        rc = emit(o);
        pms_pprof_options po = {.confidence = o->rep.confidence, .symfs = o->symfs};
        if (rc == CLI_OK && o->pprof && pms_pprof_write_perfdata(o->pprof, input, &po)) rc = cli_lib_error();
        const char *path, *recorded, *on_disk;
        for (size_t i = 0; i < pms_symbols_build_id_mismatches(syms, i, &path, &recorded, &on_disk); i++)
            cli_warn("%s: build-id %s on disk, %s in %s: rebuilt since the recording? Its samples are left "
                     "without symbols",
                     path, on_disk, recorded, input);
    }
    pms_profile_report_free(&o->rep);
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    return rc;
}

/* A pprof profile: the table of its default sample type, or of the --event one (a
 * sample type's name); its rows as report's, by function. */
static int report_pprof(struct options *o)
{
    if (o->rep.key != PMS_PROFILE_BY_SYMBOL || o->rep.weight != PMS_WEIGHT_SAMPLES || o->pprof)
        return cli_usage_error("report", "%s is a pprof profile: --sort, --weight and --pprof apply to perf.data "
                               "files (-e picks the sample type)", o->rep.input);
    pms_pprof *p = NULL;
    int rc = pms_pprof_open(&p, o->rep.input) || pms_profile_report_add_pprof(&o->rep, p, o->event) ? cli_lib_error()
                                                                                                  : emit(o);
    pms_profile_report_free(&o->rep);
    pms_pprof_close(p);
    return rc;
}

/* FILE...: the files merged one at a time into tables by function. */
static int report_merge(struct options *o)
{
    pms_merge *m = NULL;
    int rc = pms_merge_create(&m) ? cli_lib_error() : CLI_OK;
    for (size_t i = 0; i < o->nfiles && rc == CLI_OK; i++)
        if (pms_merge_add_file(m, o->files[i])) rc = cli_lib_error();
    char what[64];
    snprintf(what, sizeof what, "%zu files merged", o->nfiles);
    o->rep.input = what;
    if (rc == CLI_OK) rc = pms_profile_report_add_merge(&o->rep, m, o->event) ? cli_lib_error() : emit(o);
    pms_profile_report_free(&o->rep);
    pms_merge_destroy(m);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    struct options o;
    int rc = parse_options(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    if (o.nfiles > 1) return report_merge(&o);
    const char *input = o.rep.input;
    bool pprof = o.pprof_input;
    /* -i -: perf.data on the standard input (as perf's -i -); sniffing would eat its start */
    if (!pprof && strcmp(input, "-") != 0) { /* by content: a perf.data of any kind, else a pprof profile */
        pms_profile_kind kind;
        if (pms_profile_sniff(&kind, input)) return cli_lib_error(); /* neither: says so */
        pprof = kind == PMS_PROFILE_PPROF;
    }
    return pprof ? report_pprof(&o) : report_perfdata(&o);
}
