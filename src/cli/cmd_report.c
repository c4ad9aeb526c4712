/* pmuscope report: the hotspot table of a perf.data (perf's or pmuscope's own). */
#include "cli/cli.h"
#include "pmuscope/profile_html.h"
#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/merge.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "pmuscope/profile.h"
#include "pmuscope/symbols.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define PROGRESS_MIN_BYTES (64u << 20)

struct options {
    const char *input, *event, *output, *html, *pprof, *sort;
    bool pprof_input, input_given;
    int children; /* --children 1, --no-children 0, -1: as perf, children when the file has callchains */
    char **files; /* FILE... after the options: one is -i, more are merged */
    size_t nfiles;
    pms_profile_key key;
    pms_profile_weight weight;
    double confidence;
    uint64_t limit;
    const char *json, *csv; /* --json[=FILE], --csv[=FILE] (see cli_format_target) */
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pmuscope report [-i FILE | FILE...] [--sort KEYS] [--weight samples|period] [--confidence C]\n"
            "                       [--limit N] [--json[=FILE]] [--csv[=FILE]] [-e EVENT] [-o FILE] [--html FILE]\n"
            "                       [--pprof FILE] [--pprof-input] [--children | --no-children]\n"            "\n"
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
            "                        several comma-separated (comm,dso, pid,sym, comm,dso,sym...)\n"
            "      --children        with callchains (perf record -g, pmuscope record -g): each row also\n"
            "                        gets the samples whose callchain passes through it (its callees'\n"
            "                        included, each sample once), rows sorted by them: perf report\n"
            "                        --children, the default for files with callchains as in perf\n"
            "      --no-children     only the samples taken in each row (perf report --no-children)\n"
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
            "                        with --children)\n"
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
            "  -h, --help            this help\n"
            "\n"
            "With a fixed period (-c) both weights give perf report's overhead. Period shares get\n"
            "their interval from Kish's effective sample size (sum of periods)^2 / sum of squares.\n"
            "Kernel-mode samples are counted in [kernel.kallsyms], addresses in no known mapping in [unknown].\n");
}

/* --sort KEYS: comma-separated perf keys; the finest location among ip, sym and dso
 * (sym rows are by binary and function: dso,sym and sym give the same rows). */
static int parse_sort(const char *arg, pms_profile_key *key)
{
    int base = PMS_PROFILE_BY_NONE, flags = 0;
    const char *p = arg;
    do {
        size_t len = strcspn(p, ",");
#define IS(word) (len == strlen(word) && strncmp(p, word, len) == 0)
        if (IS("ip")) base = PMS_PROFILE_BY_IP;
        else if (IS("sym") || IS("symbol")) base = base == PMS_PROFILE_BY_IP ? base : PMS_PROFILE_BY_SYMBOL;
        else if (IS("dso")) base = base == PMS_PROFILE_BY_NONE ? PMS_PROFILE_BY_DSO : base;
        else if (IS("comm")) flags |= PMS_PROFILE_WITH_COMM;
        else if (IS("pid")) flags |= PMS_PROFILE_WITH_PID;
        else return -1;
#undef IS
        p += len;
    } while (*p++ == ',');
    *key = (pms_profile_key)(base | flags);
    return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    enum { OPT_CONFIDENCE = 256, OPT_JSON, OPT_CSV, OPT_HTML, OPT_WEIGHT, OPT_LIMIT, OPT_PPROF, OPT_PPROF_INPUT,
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
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
    };
    *o = (struct options){.input = "perf.data", .output = "-", .sort = "sym", .key = PMS_PROFILE_BY_SYMBOL,
                          .weight = PMS_WEIGHT_SAMPLES, .confidence = 0.95, .limit = 25, .children = -1};
    optind = 1;
    int c;
    while ((c = cli_getopt(argc, argv, "i:s:e:o:h", longopts)) != -1) {
        switch (c) {
        case 'i': o->input = optarg, o->input_given = true; break;
        case 'e': o->event = optarg; break;
        case 'o': o->output = optarg; break;
        case 's':
            if (parse_sort(optarg, &o->key))
                return cli_usage_error("report", "--sort: expected keys among sym, ip, dso, comm and pid separated "
                                       "by commas, got '%s'", optarg);
            o->sort = optarg;
            break;
        case OPT_WEIGHT:
            if (strcmp(optarg, "samples") == 0)
                o->weight = PMS_WEIGHT_SAMPLES;
            else if (strcmp(optarg, "period") == 0)
                o->weight = PMS_WEIGHT_PERIOD;
            else
                return cli_usage_error("report", "--weight: expected 'samples' or 'period', got '%s'", optarg);
            break;
        case OPT_CONFIDENCE:
            if (!cli_parse_double(optarg, &o->confidence) || o->confidence <= 0 || o->confidence >= 1)
                return cli_usage_error("report", "--confidence: expected a level between 0 and 1, got '%s'", optarg);
            break;
        case OPT_LIMIT:
            if (!cli_parse_count(optarg, &o->limit))
                return cli_usage_error("report", "--limit: expected a count, got '%s'", optarg);
            break;
        case OPT_JSON: o->json = cli_format_target(optarg); break;
        case OPT_CSV: o->csv = cli_format_target(optarg); break;
        case OPT_HTML: o->html = optarg; break;
        case OPT_PPROF: o->pprof = optarg; break;
        case OPT_PPROF_INPUT: o->pprof_input = true; break;
        case OPT_CHILDREN: o->children = 1; break;
        case OPT_NO_CHILDREN: o->children = 0; break;
        case 'h': usage(stdout); return -1;
        case CLI_OPT_LISTED: return -1;
        default: return cli_usage_error("report", "%s", cli_bad_option());
        }
    }
    o->files = argv + optind;
    o->nfiles = (size_t)(argc - optind);
    if (o->nfiles && o->input_given) return cli_usage_error("report", "give -i FILE or FILE..., not both");
    if (o->nfiles == 1) o->input = o->files[0];
    if (o->nfiles > 1 && (o->key != PMS_PROFILE_BY_SYMBOL || o->weight != PMS_WEIGHT_SAMPLES || o->pprof || o->html))
        return cli_usage_error("report", "merging files gives the table by function and samples: --sort, --weight, "
                               "--pprof and --html apply to one file");
    if (o->html && (o->key & (PMS_PROFILE_WITH_COMM | PMS_PROFILE_WITH_PID)))
        return cli_usage_error("report", "--html shows rows by location: --sort comm and pid apply to the text, "
                               "--json and --csv");
    if (cli_is_main(o->json) && cli_is_main(o->csv))
        return cli_usage_error("report", "--json and --csv both want the main output: give one a FILE");
    return CLI_OK;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

static void show_progress(uint64_t done, uint64_t total, void *ctx)
{
    (void)ctx;
    cli_progress("reading (MB)", done >> 20, total >> 20);
}

struct table {
    const char *event;
    uint64_t samples;
    pms_profile_row *rows;
    size_t nrows;
    bool children; /* rows carry children shares and are sorted by them */
};

static size_t shown_rows(const struct options *o, const struct table *t)
{
    return o->limit && o->limit < t->nrows ? (size_t)o->limit : t->nrows;
}

static pms_profile_key base_key(const struct options *o) { return (pms_profile_key)(o->key & 0xff); }
static bool by_thread(const struct options *o) { return (o->key & (PMS_PROFILE_WITH_COMM | PMS_PROFILE_WITH_PID)) != 0; }

/* perf's name of a thread whose comm is unknown: ":TID" */
static const char *name_or_tid(const char *comm, uint32_t tid, char *buf, size_t size)
{
    if (comm) return comm;
    snprintf(buf, size, ":%u", (unsigned)tid);
    return buf;
}

/* The comm and pid columns, as perf report prints them (pid: TID:comm). */
static void print_thread(FILE *out, const struct options *o, const pms_profile_row *r)
{
    char buf[16], pid[64];
    if (o->key & PMS_PROFILE_WITH_COMM) fprintf(out, "%-16s ", name_or_tid(r->comm, r->tid, buf, sizeof buf));
    if (o->key & PMS_PROFILE_WITH_PID) {
        snprintf(pid, sizeof pid, "%u:%s", (unsigned)r->tid, name_or_tid(r->thread_comm, r->tid, buf, sizeof buf));
        fprintf(out, "%-24s ", pid);
    }
}

static void print_text(FILE *out, const struct options *o, const struct table *t, uint64_t lost)
{
    fprintf(out, "# %s: event %s, %llu samples", o->input, t->event, (unsigned long long)t->samples);
    if (lost) fprintf(out, ", %llu lost", (unsigned long long)lost);
    fprintf(out, "; share of %s with its %g%% Wilson interval\n", o->weight == PMS_WEIGHT_PERIOD ? "period" : "samples",
            100 * o->confidence);
    if (t->children) fprintf(out, "%8s  %-17s ", "children", "interval");
    fprintf(out, "%8s  %-17s %9s  ", t->children ? "self" : "share", "interval", "samples");
    if (o->key & PMS_PROFILE_WITH_COMM) fprintf(out, "%-16s ", "comm");
    if (o->key & PMS_PROFILE_WITH_PID) fprintf(out, "%-24s ", "pid:comm");
    if (base_key(o) == PMS_PROFILE_BY_IP)
        fprintf(out, "%-18s %-20s %10s  %s\n", "ip", "binary", "offset", "function");
    else if (base_key(o) == PMS_PROFILE_BY_DSO)
        fprintf(out, "%s\n", "binary");
    else if (base_key(o) == PMS_PROFILE_BY_SYMBOL)
        fprintf(out, "%-20s %s\n", "binary", "function");
    else
        fputc('\n', out);
    size_t shown = shown_rows(o, t);
    for (size_t i = 0; i < shown; i++) {
        const pms_profile_row *r = &t->rows[i];
        char interval[40];
        if (t->children) {
            snprintf(interval, sizeof interval, "[%.2f, %.2f]", 100 * r->children_ci_low, 100 * r->children_ci_high);
            fprintf(out, "%7.2f%%  %-17s ", 100 * r->children_share, interval);
        }
        snprintf(interval, sizeof interval, "[%.2f, %.2f]", 100 * r->ci_low, 100 * r->ci_high);
        fprintf(out, "%7.2f%%  %-17s %9llu  ", 100 * r->share, interval, (unsigned long long)r->samples);
        print_thread(out, o, r);
        if (base_key(o) == PMS_PROFILE_BY_NONE) {
            fputc('\n', out);
        } else if (base_key(o) == PMS_PROFILE_BY_IP) {
            fprintf(out, "0x%-16llx %-20s %#10llx  %s", (unsigned long long)r->ip, base_name(r->binary),
                    (unsigned long long)r->file_offset, r->symbol ? r->symbol : "[unknown]");
            if (r->symbol) fprintf(out, "+%#llx", (unsigned long long)r->symbol_offset);
            fputc('\n', out);
        } else if (base_key(o) == PMS_PROFILE_BY_DSO) {
            fprintf(out, "%s\n", base_name(r->binary));
        } else if (r->symbol) {
            fprintf(out, "%-20s %s\n", base_name(r->binary), r->symbol);
        } else { /* perf's name for an address without a symbol */
            fprintf(out, "%-20s %#.16llx\n", base_name(r->binary), (unsigned long long)r->file_offset);
        }
    }
    if (shown < t->nrows) {
        uint64_t rest = 0;
        double rest_share = 0;
        for (size_t i = shown; i < t->nrows; i++) {
            rest += t->rows[i].samples;
            rest_share += t->rows[i].share;
        }
        fprintf(out, "# %zu more rows with %llu samples (%.2f%%); --limit 0 shows all\n", t->nrows - shown,
                (unsigned long long)rest, 100 * rest_share);
    }
}

/* A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break: demangled
 * names such as `std::map<int, int>::find` do. */
static void put_csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void print_csv(FILE *out, const struct options *o, const struct table *t, bool children)
{
    for (size_t i = 0; i < shown_rows(o, t); i++) {
        const pms_profile_row *r = &t->rows[i];
        put_csv_field(out, t->event);
        fputc(',', out);
        put_csv_field(out, r->binary);
        fputc(',', out);
        put_csv_field(out, r->symbol ? r->symbol : "");
        fprintf(out, ",%#llx,%#llx,%#llx,%llu,%llu,%.9f,%.9f,%.9f", (unsigned long long)r->ip, (unsigned long long)r->file_offset,
                (unsigned long long)r->symbol_offset, (unsigned long long)r->samples, (unsigned long long)r->period,
                r->share, r->ci_low, r->ci_high);
        if (by_thread(o)) {
            char buf[16];
            fputc(',', out);
            put_csv_field(out, (o->key & PMS_PROFILE_WITH_COMM) ? name_or_tid(r->comm, r->tid, buf, sizeof buf) : "");
            fprintf(out, ",%u,", (unsigned)r->tid);
            put_csv_field(out, (o->key & PMS_PROFILE_WITH_PID) ? name_or_tid(r->thread_comm, r->tid, buf, sizeof buf) : "");
        }
        if (children)
            fprintf(out, ",%llu,%llu,%.9f,%.9f,%.9f", (unsigned long long)r->children_samples,
                    (unsigned long long)r->children_period, r->children_share, r->children_ci_low, r->children_ci_high);
        fputc('\n', out);
    }
}

static void print_json_table(pms_json *j, const struct options *o, const struct table *t)
{
    pms_json_object_begin(j);
    pms_json_kv_string(j, "event", t->event);
    pms_json_kv_uint(j, "samples", t->samples);
    pms_json_key(j, "rows");
    pms_json_array_begin(j);
    for (size_t i = 0; i < shown_rows(o, t); i++) {
        const pms_profile_row *r = &t->rows[i];
        pms_json_object_begin(j);
        if (o->key & PMS_PROFILE_WITH_COMM) {
            pms_json_key(j, "comm");
            if (r->comm) pms_json_string(j, r->comm);
            else pms_json_null(j);
        }
        if (o->key & PMS_PROFILE_WITH_PID) {
            pms_json_kv_uint(j, "pid", r->tid);
            pms_json_key(j, "thread_comm");
            if (r->thread_comm) pms_json_string(j, r->thread_comm);
            else pms_json_null(j);
        }
        pms_json_kv_string(j, "binary", r->binary);
        pms_json_key(j, "function");
        if (r->symbol) pms_json_string(j, r->symbol);
        else pms_json_null(j);
        if (base_key(o) == PMS_PROFILE_BY_IP) {
            pms_json_kv_uint(j, "ip", r->ip);
            pms_json_kv_uint(j, "symbol_offset", r->symbol_offset);
        }
        pms_json_kv_uint(j, "file_offset", r->file_offset);
        pms_json_kv_uint(j, "samples", r->samples);
        pms_json_kv_uint(j, "period", r->period);
        pms_json_kv_double(j, "share", r->share);
        pms_json_kv_double(j, "ci_low", r->ci_low);
        pms_json_kv_double(j, "ci_high", r->ci_high);
        if (t->children) {
            pms_json_kv_uint(j, "children_samples", r->children_samples);
            pms_json_kv_uint(j, "children_period", r->children_period);
            pms_json_kv_double(j, "children_share", r->children_share);
            pms_json_kv_double(j, "children_ci_low", r->children_ci_low);
            pms_json_kv_double(j, "children_ci_high", r->children_ci_high);
        }
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
    pms_json_kv_uint(j, "rows_total", t->nrows);
    pms_json_object_end(j);
}

/* Reads the file into a profile; prints progress for big files. */
static int read_profile(pms_perfdata_reader *r, pms_profile *p)
{
    int progress = cli_show_progress() && pms_perfdata_data_size(r) >= PROGRESS_MIN_BYTES;
    int rc = pms_profile_read(p, r, progress ? show_progress : NULL, NULL);
    if (progress) cli_progress_end();
    return rc;
}

/* The streams a report goes to: text, JSON and CSV, each NULL when not wanted. */
struct sinks {
    FILE *text, *json, *csv;
};

/* The tables of a report, made before any is printed. */
struct tables {
    struct table *t;
    size_t n;
    uint64_t lost;
    bool children; /* some table has children shares */
};

static void tables_free(struct tables *ts)
{
    for (size_t i = 0; i < ts->n; i++) free(ts->t[i].rows);
    free(ts->t);
}

static int emit(const struct sinks *out, const struct options *o, const struct tables *ts)
{
    pms_json j;
    if (out->json) {
        pms_json_init(&j, out->json, true);
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "file", o->input);
        pms_json_kv_string(&j, "sort", o->sort);
        pms_json_kv_string(&j, "weight", o->weight == PMS_WEIGHT_PERIOD ? "period" : "samples");
        pms_json_kv_double(&j, "confidence", o->confidence);
        pms_json_kv_uint(&j, "lost", ts->lost);
        pms_json_key(&j, "events");
        pms_json_array_begin(&j);
    }
    if (out->csv)
        fprintf(out->csv, "event,binary,function,ip,file_offset,symbol_offset,samples,period,share,ci_low,ci_high%s%s\n",
                by_thread(o) ? ",comm,pid,thread_comm" : "",
                ts->children ? ",children_samples,children_period,children_share,children_ci_low,children_ci_high" : "");
    pms_profile_html page;
    FILE *html = NULL;
    if (o->html) {
        if (!(html = cli_open_output(o->html))) return CLI_FAIL;
        pms_profile_html_begin(&page, html, o->input, o->confidence, base_key(o) == PMS_PROFILE_BY_IP, ts->lost);
    }
    int rc = CLI_OK;
    for (size_t i = 0; i < ts->n && rc == CLI_OK; i++) {
        const struct table *t = &ts->t[i];
        if (out->json) print_json_table(&j, o, t);
        if (out->csv) print_csv(out->csv, o, t, ts->children);
        if (out->text) print_text(out->text, o, t, ts->lost);
        if (html && pms_profile_html_event(&page, t->event, t->samples, t->rows, t->nrows, shown_rows(o, t)))
            rc = cli_output_error(html);
    }
    if (html) {
        if (pms_profile_html_end(&page) && rc == CLI_OK) rc = cli_output_error(html);
        if (cli_close_output(html) != CLI_OK) rc = CLI_FAIL;
    }
    if (rc != CLI_OK) return rc;
    if (out->json) {
        pms_json_array_end(&j);
        pms_json_object_end(&j);
        pms_json_finish(&j);
    }
    if (!ts->n && out->text) fprintf(out->text, "# %s: no samples\n", o->input);
    return CLI_OK;
}

/* Opens the main output and the --json/--csv files, emits, closes. */
static int emit_all(const struct options *o, const struct tables *ts)
{
    FILE *main_out = cli_open_output(o->output);
    if (!main_out) return CLI_FAIL;
    struct sinks out = {.text = cli_is_main(o->json) || cli_is_main(o->csv) ? NULL : main_out};
    int rc = CLI_OK;
    if (o->json && !(out.json = cli_is_main(o->json) ? main_out : cli_open_output(o->json))) rc = CLI_FAIL;
    if (o->csv && !(out.csv = cli_is_main(o->csv) ? main_out : cli_open_output(o->csv))) rc = CLI_FAIL;
    if (rc == CLI_OK) rc = emit(&out, o, ts);
    if (out.json && out.json != main_out) cli_close_output(out.json);
    if (out.csv && out.csv != main_out) cli_close_output(out.csv);
    cli_close_output(main_out);
    return rc;
}

static int add_table(struct tables *ts, struct table t)
{
    struct table *grown = realloc(ts->t, (ts->n + 1) * sizeof *ts->t);
    if (!grown) {
        free(t.rows);
        return cli_error("out of memory");
    }
    ts->t = grown;
    ts->t[ts->n++] = t;
    return CLI_OK;
}

/* One table per event of the perf.data that has samples (or the --event one). */
static int perfdata_tables(const struct options *o, pms_perfdata_reader *r, pms_profile *p, struct tables *ts)
{
    ts->lost = pms_profile_lost(p);
    int found = 0;
    for (size_t e = 0; e < pms_perfdata_nattrs(r); e++) {
        const char *name = pms_perfdata_get_attr(r, e)->name;
        if (o->event ? strcmp(o->event, name) != 0 : pms_profile_samples(p, e) == 0) continue;
        found = 1;
        bool children = o->children == 1 || (o->children < 0 && pms_profile_has_callchains(p, e));
        struct table t = {name, pms_profile_samples(p, e), NULL, 0, children};
        pms_profile_key key = (pms_profile_key)(o->key | (children ? PMS_PROFILE_CHILDREN : 0));
        if (pms_profile_table_weighted(p, e, key, o->weight, o->confidence, &t.rows, &t.nrows))
            return cli_lib_error();
        ts->children |= children;
        if (add_table(ts, t)) return CLI_FAIL;
    }
    if (o->event && !found) return cli_error("%s: no event named '%s' in the file", o->input, o->event);
    return CLI_OK;
}

static int report_perfdata(const struct options *o)
{
    pms_perfdata_reader *r = NULL;
    pms_symbols *syms = NULL;
    pms_profile *p = NULL;
    struct tables ts = {0};
    int rc;
    if (pms_perfdata_open(&r, o->input) || pms_symbols_create(&syms) || pms_profile_create(&p, syms) ||
        read_profile(r, p)) {
        rc = cli_lib_error();
    } else {
        rc = perfdata_tables(o, r, p, &ts);
        if (rc == CLI_OK) rc = emit_all(o, &ts);
        pms_pprof_options po = {.confidence = o->confidence};
        if (rc == CLI_OK && o->pprof && pms_pprof_write_perfdata(o->pprof, o->input, &po)) rc = cli_lib_error();
        const char *path, *recorded, *on_disk;
        for (size_t i = 0; i < pms_symbols_build_id_mismatches(syms, i, &path, &recorded, &on_disk); i++)
            cli_warn("%s: build-id %s on disk, %s in %s: rebuilt since the recording? Its samples are left "
                     "without symbols",
                     path, on_disk, recorded, o->input);
    }
    tables_free(&ts);
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    return rc;
}

/* A pprof profile: the table of its default sample type, or of the --event one (a
 * sample type's name); its rows as report's, by function. */
static int report_pprof(const struct options *o)
{
    if (o->key != PMS_PROFILE_BY_SYMBOL || o->weight != PMS_WEIGHT_SAMPLES || o->pprof)
        return cli_usage_error("report", "%s is a pprof profile: --sort, --weight and --pprof apply to perf.data "
                               "files (-e picks the sample type)", o->input);
    pms_pprof *p = NULL;
    if (pms_pprof_open(&p, o->input)) return cli_lib_error();
    size_t type = pms_pprof_default_type(p);
    const char *name, *unit;
    if (o->event) {
        for (type = 0; type < pms_pprof_ntypes(p); type++) {
            pms_pprof_type(p, type, &name, &unit);
            if (strcmp(name, o->event) == 0) break;
        }
    }
    int rc = CLI_OK;
    struct tables ts = {0};
    pms_pprof_row *rows = NULL;
    size_t n = 0;
    if (type >= pms_pprof_ntypes(p)) {
        rc = o->event ? cli_error("%s: no sample type named '%s' in the profile", o->input, o->event)
                      : cli_error("%s: the profile has no sample types", o->input);
    } else if (pms_pprof_table(p, type, o->confidence, &rows, &n)) {
        rc = cli_lib_error();
    } else {
        pms_pprof_type(p, type, &name, &unit);
        struct table t = {name, 0, calloc(n ? n : 1, sizeof *t.rows), n, false};
        if (!t.rows) rc = cli_error("out of memory");
        for (size_t i = 0; i < n && rc == CLI_OK; i++) {
            uint64_t value = rows[i].value > 0 ? (uint64_t)rows[i].value : 0;
            t.rows[i] = (pms_profile_row){.binary = rows[i].binary[0] ? rows[i].binary : rows[i].file, .symbol = rows[i].function,
                                          .samples = rows[i].samples ? rows[i].samples : value, .period = value,
                                          .share = rows[i].share, .ci_low = rows[i].ci_low, .ci_high = rows[i].ci_high};
            t.samples += t.rows[i].samples;
        }
        if (rc == CLI_OK && !(rc = add_table(&ts, t))) rc = emit_all(o, &ts);
    }
    free(rows);
    tables_free(&ts);
    pms_pprof_close(p);
    return rc;
}

/* FILE...: the files merged one at a time into tables by function. */
static int report_merge(struct options *o)
{
    pms_merge *m = NULL;
    struct tables ts = {0};
    int rc = pms_merge_create(&m) ? cli_lib_error() : CLI_OK;
    for (size_t i = 0; i < o->nfiles && rc == CLI_OK; i++)
        if (pms_merge_add_file(m, o->files[i])) rc = cli_lib_error();
    char what[64];
    snprintf(what, sizeof what, "%zu files merged", o->nfiles);
    o->input = what;
    int found = 0;
    for (size_t e = 0; rc == CLI_OK && e < pms_merge_nevents(m); e++) {
        if (o->event && strcmp(o->event, pms_merge_event(m, e)) != 0) continue;
        found = 1;
        struct table t = {pms_merge_event(m, e), pms_merge_samples(m, e), NULL, 0, false};
        if (pms_merge_table(m, e, o->confidence, &t.rows, &t.nrows)) rc = cli_lib_error();
        else rc = add_table(&ts, t);
    }
    if (rc == CLI_OK && o->event && !found) rc = cli_error("no event named '%s' in the files", o->event);
    if (rc == CLI_OK) rc = emit_all(o, &ts);
    tables_free(&ts);
    pms_merge_destroy(m);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    struct options o;
    int rc = parse_options(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    if (o.nfiles > 1) return report_merge(&o);
    bool pprof = o.pprof_input, perfdata = false;
    /* -i -: perf.data on the standard input (as perf's -i -); sniffing would eat its start */
    if (!pprof && strcmp(o.input, "-") != 0) { /* by content: a perf.data of any kind, else a pprof profile */
        if (pms_perfdata_sniff(&perfdata, o.input)) return cli_lib_error();
        if (!perfdata && pms_pprof_sniff(&pprof, o.input)) return cli_lib_error();
    }
    return pprof ? report_pprof(&o) : report_perfdata(&o);
}
