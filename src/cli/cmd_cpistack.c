/* pmuscope cpistack: CPI stacks from interval counts by regression (Choudhary and Singh). */
#include "cli/cli.h"
#include "cli/methods.h"
#include "pmuscope/cpistack_groups.h"
#include "pmuscope/error.h"
#include "pmuscope/perfstat.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fputs("usage: pmuscope cpistack [options] FILE [FILE...]\n\n"
          "Fits CPI = cycles / instructions per interval against miss events (OLS as R's lm, or\n"
          "non-negative least squares) and prints the model summary, the test error, the\n"
          "correlation of the events with their VIFs, and the CPI stack: base = intercept,\n"
          "component = coefficient x mean event value over the training intervals.\n\n"
          "FILE is `perf stat -I` output (CSV from -x or the plain form), `pmuscope stat --wide`\n"
          "output, or any CSV/TSV table with a header. Several FILEs are event groups measured in\n"
          "separate runs and are merged interval by interval; CPI divides the cycles and the\n"
          "instructions of one run (the instructions' own, e.g. CPU_CYCLES@2 / INST_RETIRED).\n"
          "With --group-by, a group that cannot be fitted is listed with why, the others fitted.\n\n"
          "Options:\n"
          "  --cycles NAME          cycles column (default: found by name: cycles, CPU_CYCLES, ...)\n"
          "  --instructions NAME    instructions column (instructions, INST_RETIRED, ...)\n"
          "  -e, --event A,B,...    regressors (default: every miss event: *-misses, *_REFILL, ...)\n"
          "  --per-interval         regress on counts per interval, as the paper (default: per instruction)\n"
          "  --normalize            min-max normalise the regressors to [0, 1], as the paper\n"
          "                         (minimum and range from the training intervals)\n"
          "  --weighted             weighted least squares by instructions: the stack adds up to\n"
          "                         the true CPI (total cycles / total instructions)\n"
          "  --drop-missing         drop intervals with a missing count (<not counted>, empty\n"
          "                         or NaN cells) instead of stopping at the first\n"
          "  --multiplexed keep|weight|drop|refuse\n"
          "                         intervals whose counts perf scaled from part of the time\n"
          "                         (its running share below 100%: the pct field of -x output,\n"
          "                         \"(NN.NN%)\" in the plain form): fitted and counted (keep, the\n"
          "                         default), weighted by that share, left out, or refused\n"
          "  --compare-models       also the stack under four models side by side (OLS and NNLS\n"
          "                         per instruction, OLS per interval, OLS min-max normalised):\n"
          "                         how much the stack moves with the model\n"
          "  --skip N               drop the first N intervals (cold start)\n"
          "  --range A:B            keep intervals A to B (1-based; 'A:' to the end)\n"
          "  --split F              fraction of intervals for training (default 0.8; 1 = no test)\n"
          "  --seed S               seed of the random split (default 1)\n"
          "  --validate random|blocked|runs\n"
          "                         random split (default), blocked (the first --split of the\n"
          "                         intervals in time order, then the rest), or runs (fit on\n"
          "                         the first run of --run-column, test on the others)\n"
          "  --run-column COL       the column naming the run of each interval (Run(#))\n"
          "  --newey-west           also Newey-West (HAC) standard errors, for residuals that\n"
          "                         are autocorrelated (see the Durbin-Watson statistic)\n"
          "  --method ols|nnls|ridge\n"
          "                         least squares (default), with every coefficient >= 0, or ridge\n"
          "                         regression on the standardised regressors with lambda chosen by\n"
          "                         generalised cross-validation (as estimate --method ridge)\n"
          "  --bootstrap N          95% percentile intervals of the coefficients from N resamples of\n"
          "                         the training intervals, refitted by --method; the intervals are a\n"
          "                         time series, so they are resampled in moving blocks of\n"
          "                         consecutive intervals (with --seed)\n"
          "  --bootstrap-block L    block length (default: n^(1/3) rounded up for n training\n"
          "                         intervals; 1 resamples single intervals)\n"
          "  --bootstrap-replicates FILE\n"
          "                         write every resample (its intervals) and refit as CSV\n"
          "  --group-by COLUMN      one CPI stack per distinct value of COLUMN (e.g. Benchmark)\n"
          "  --where COLUMN=VALUE   use only the rows where COLUMN equals VALUE (repeatable)\n"
          "  --windows FILES        label intervals with the program running in them, from a\n"
          "                         table 'Name Start(ns) End(ns)' (the ARM benchmarks.data), one\n"
          "                         per FILE in order; runs are then merged program by program\n"
          "                         and one stack is made per program (--group-by program)\n"
          "  --merge interval|time  how several FILEs are aligned (default interval)\n"
          "  --merge-tol SEC        largest time difference when merging by time (default 0.05)\n"
          "  --svg FILE             draw the stacks (bar per group, stacks per interval over time)\n"
          "  --brief                one line per CPI stack (with --group-by: a table of the groups)\n"
          "  --csv[=FILE]           the stacks as CSV, one row per group: group,n,R2,test_RMSE,\n"
          "                         base,<events...>,model_CPI,observed_CPI; to FILE or instead\n"
          "                         of the text\n"
          "  --json[=FILE]          JSON, to FILE or instead of the text\n"
          "  -o, --output FILE      the text (or what --json/--csv put in its place) to FILE\n"
          CLI_INPUT_LIMIT_HELP
          "  -h, --help             this help\n",
          out);
    cli_print_method(out, "cpistack");
}

enum { HELP_SHOWN = -1 }; /* parse_options: --help was printed, exit 0 */

struct opts {
    pms_cpistack_options c;
    const char *by, *svg, *csv, *json, *output, *boot_file; /* csv, json: see cli_format_target */
    bool brief, compare;
    pms_merge_key merge;
    double merge_tol;
    char **events; /* -e, from cli_split_list */
    const char *where[16];
    const char *programs[16];
    size_t nprograms;
};

static int parse_range(const char *s, struct opts *o)
{
    const char *colon = strchr(s, ':');
    char a[32] = "";
    if (!colon || (size_t)(colon - s) >= sizeof a) return -1;
    memcpy(a, s, (size_t)(colon - s));
    uint64_t first, last = 0;
    if (!cli_parse_count(a, &first) || first == 0) return -1;
    if (colon[1] && (!cli_parse_count(colon + 1, &last) || last < first)) return -1;
    o->c.range_first = first;
    o->c.range_last = last;
    return 0;
}

static int parse_options(int argc, char **argv, struct opts *o)
{
    enum { O_CYCLES = 256, O_INSTR, O_PER_INTERVAL, O_NORMALIZE, O_WEIGHTED, O_VALIDATE, O_RUNCOL, O_HAC, O_SKIP, O_RANGE, O_SPLIT, O_SEED, O_METHOD, O_BY,
           O_WHERE, O_MERGE, O_MERGE_TOL, O_SVG, O_JSON, O_BRIEF, O_PROGRAMS, O_DROP_MISSING, O_CSV, O_BOOT, O_BOOT_BLOCK, O_BOOT_FILE, O_MUX,
           O_COMPARE };
    static const struct option longopts[] = {
        {"cycles", required_argument, 0, O_CYCLES}, {"instructions", required_argument, 0, O_INSTR},
        {"event", required_argument, 0, 'e'},      {"per-interval", no_argument, 0, O_PER_INTERVAL},
        {"normalize", no_argument, 0, O_NORMALIZE}, {"weighted", no_argument, 0, O_WEIGHTED},
        {"validate", required_argument, 0, O_VALIDATE}, {"run-column", required_argument, 0, O_RUNCOL},
        {"newey-west", no_argument, 0, O_HAC}, {"skip", required_argument, 0, O_SKIP},
        {"range", required_argument, 0, O_RANGE},   {"split", required_argument, 0, O_SPLIT},
        {"seed", required_argument, 0, O_SEED},     {"method", required_argument, 0, O_METHOD},
        {"group-by", required_argument, 0, O_BY},         {"where", required_argument, 0, O_WHERE},
        {"merge", required_argument, 0, O_MERGE},   {"merge-tol", required_argument, 0, O_MERGE_TOL},
        {"svg", required_argument, 0, O_SVG},       {"json", optional_argument, 0, O_JSON},
        {"brief", no_argument, 0, O_BRIEF},         {"windows", required_argument, 0, O_PROGRAMS},
        {"drop-missing", no_argument, 0, O_DROP_MISSING}, {"csv", optional_argument, 0, O_CSV},
        {"bootstrap", required_argument, 0, O_BOOT}, {"bootstrap-block", required_argument, 0, O_BOOT_BLOCK},
        {"bootstrap-replicates", required_argument, 0, O_BOOT_FILE},
        {"multiplexed", required_argument, 0, O_MUX}, {"compare-models", no_argument, 0, O_COMPARE},
        {"output", required_argument, 0, 'o'},      CLI_INPUT_LIMIT_OPTION, {"help", no_argument, 0, 'h'},              {0, 0, 0, 0}};
    int c;
    uint64_t v;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "e:o:h", longopts)) != -1) {
        switch (c) {
        case O_CYCLES: o->c.cycles = optarg; break;
        case O_INSTR: o->c.instructions = optarg; break;
        case 'e':
            free(o->events);
            o->events = cli_split_list(optarg, &o->c.nevents);
            o->c.events = (const char *const *)o->events;
            if (!o->events || o->c.nevents == 0)
                return cli_usage_error("cpistack", "--event '%s': expected a comma-separated list of columns", optarg);
            break;
        case O_PER_INTERVAL: o->c.per_interval = true; break;
        case O_NORMALIZE: o->c.normalize = true; break;
        case O_WEIGHTED: o->c.weighted = true; break;
        case O_HAC: o->c.newey_west = true; break;
        case O_RUNCOL: o->c.run_column = optarg; break;
        case O_VALIDATE:
            if (strcmp(optarg, "random") == 0) o->c.validation = PMS_CPISTACK_RANDOM;
            else if (strcmp(optarg, "blocked") == 0) o->c.validation = PMS_CPISTACK_BLOCKED;
            else if (strcmp(optarg, "runs") == 0) o->c.validation = PMS_CPISTACK_RUNS;
            else return cli_usage_error("cpistack", "--validate '%s': expected random, blocked or runs", optarg);
            break;
        case O_SKIP:
            if (!cli_parse_count(optarg, &v)) return cli_usage_error("cpistack", "--skip '%s': expected a count", optarg);
            o->c.skip = (size_t)v;
            break;
        case O_RANGE:
            if (parse_range(optarg, o) < 0)
                return cli_usage_error("cpistack", "--range '%s': expected A:B or A: with 1 <= A <= B", optarg);
            break;
        case O_SPLIT:
            if (!cli_parse_double(optarg, &o->c.train_fraction) || !(o->c.train_fraction > 0 && o->c.train_fraction <= 1))
                return cli_usage_error("cpistack", "--split '%s': expected a fraction in (0, 1]", optarg);
            break;
        case O_SEED:
            if (cli_parse_seed("cpistack", optarg, &v)) return CLI_USAGE;
            o->c.seed = o->c.bootstrap.seed = v;
            break;
        case O_BOOT:
            if (cli_parse_bootstrap("cpistack", false, optarg, &o->c.bootstrap.replicates)) return CLI_USAGE;
            break;
        case O_BOOT_BLOCK:
            if (cli_parse_bootstrap("cpistack", true, optarg, &o->c.bootstrap.block)) return CLI_USAGE;
            break;
        case O_BOOT_FILE: o->boot_file = optarg, o->c.bootstrap.keep = true; break;
        case O_METHOD:
            if (strcmp(optarg, "ols") == 0)
                o->c.method = PMS_LM_OLS;
            else if (strcmp(optarg, "nnls") == 0)
                o->c.method = PMS_LM_NNLS;
            else if (strcmp(optarg, "ridge") == 0)
                o->c.method = PMS_LM_RIDGE;
            else
                return cli_usage_error("cpistack", "--method '%s': expected ols, nnls or ridge", optarg);
            break;
        case O_BY: o->by = optarg; break;
        case O_WHERE:
            if (o->c.nwhere == sizeof o->where / sizeof o->where[0] || !strchr(optarg, '='))
                return cli_usage_error("cpistack", "--where '%s': expected COLUMN=VALUE (at most 16)", optarg);
            o->where[o->c.nwhere++] = optarg;
            break;
        case O_MERGE:
            if (strcmp(optarg, "interval") == 0)
                o->merge = PMS_MERGE_BY_INTERVAL;
            else if (strcmp(optarg, "time") == 0)
                o->merge = PMS_MERGE_BY_TIME;
            else
                return cli_usage_error("cpistack", "--merge '%s': expected interval or time", optarg);
            break;
        case O_MERGE_TOL:
            if (!cli_parse_double(optarg, &o->merge_tol) || o->merge_tol < 0)
                return cli_usage_error("cpistack", "--merge-tol '%s': expected seconds >= 0", optarg);
            break;
        case O_SVG: o->svg = optarg; break;
        case O_JSON: o->json = cli_format_target(optarg); break;
        case 'o': o->output = optarg; break;
        case O_BRIEF: o->brief = true; break;
        case O_CSV: o->csv = cli_format_target(optarg); break;
        case O_DROP_MISSING: o->c.drop_missing = true; break;
        case O_MUX:
            if (strcmp(optarg, "keep") == 0) o->c.multiplexed = PMS_MUX_KEEP;
            else if (strcmp(optarg, "weight") == 0) o->c.multiplexed = PMS_MUX_WEIGHT;
            else if (strcmp(optarg, "drop") == 0) o->c.multiplexed = PMS_MUX_DROP;
            else if (strcmp(optarg, "refuse") == 0) o->c.multiplexed = PMS_MUX_REFUSE;
            else return cli_usage_error("cpistack", "--multiplexed '%s': expected keep, weight, drop or refuse", optarg);
            break;
        case O_COMPARE: o->compare = true; break;
        case O_PROGRAMS:
            if (o->nprograms == sizeof o->programs / sizeof o->programs[0])
                return cli_usage_error("cpistack", "--windows: at most 16 files");
            o->programs[o->nprograms++] = optarg;
            break;
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("cpistack", optarg)) return CLI_USAGE;
            break;
        case 'h': usage(stdout); return HELP_SHOWN;
        case CLI_OPT_LISTED: return HELP_SHOWN;
        default: return cli_usage_error("cpistack", "%s", cli_bad_option());
        }
    }
    o->c.where = o->where;
    if ((o->boot_file || o->c.bootstrap.block) && !o->c.bootstrap.replicates)
        return cli_usage_error("cpistack", "--bootstrap-block and --bootstrap-replicates go with --bootstrap N");
    if (cli_is_main(o->json) && cli_is_main(o->csv))
        return cli_usage_error("cpistack", "--json and --csv both want the main output: give one a FILE");
    if (optind >= argc) return cli_usage_error("cpistack", "expected an interval file");
    if (o->nprograms && o->nprograms != (size_t)(argc - optind))
        return cli_usage_error("cpistack", "%zu --windows files for %d interval files: expected one per file",
                               o->nprograms, argc - optind);
    if (o->nprograms && !o->by) o->by = "program";
    return CLI_OK;
}

enum { MAX_GROUP_CHARTS = 12 }; /* --svg: per-interval charts of the first groups only */

static int write_svg(const struct opts *o, const pms_cpistack_groups *g)
{
    if (g->n > MAX_GROUP_CHARTS) cli_warn("--svg: per-interval charts drawn for the first %d groups only", MAX_GROUP_CHARTS);
    FILE *f = cli_open_output(o->svg);
    return f ? cli_finish_output(f, pms_cpistack_groups_write_svg(f, g, MAX_GROUP_CHARTS)) : CLI_FAIL;
}

/* One output: the main one (text, or JSON/CSV in its place) or a --json/--csv FILE. */
static int write_one(const char *path, int what, const struct opts *o, const pms_cpistack_groups *g)
{
    FILE *out = cli_open_output(path);
    if (!out) return CLI_FAIL;
    int written = what == 'b' ? pms_cpistack_groups_write_bootstrap_replicates(out, g)
                : what == 'j' ? pms_cpistack_groups_write_json(out, g)
                : what == 'c' ? pms_cpistack_groups_write_csv(out, g)
                              : pms_cpistack_groups_write_text(out, g, o->brief);
    return cli_finish_output(out, written);
}

static int write_report(const struct opts *o, const pms_cpistack_groups *g)
{
    int main_what = cli_is_main(o->json) ? 'j' : cli_is_main(o->csv) ? 'c' : 't';
    int rc = write_one(o->output, main_what, o, g);
    if (rc == CLI_OK && o->json && !cli_is_main(o->json)) rc = write_one(o->json, 'j', o, g);
    if (rc == CLI_OK && o->csv && !cli_is_main(o->csv)) rc = write_one(o->csv, 'c', o, g);
    if (rc == CLI_OK && o->boot_file) rc = write_one(o->boot_file, 'b', o, g);
    return rc;
}

int cmd_cpistack(int argc, char **argv)
{
    struct opts o = {.c = {.seed = CLI_DEFAULT_SEED, .train_fraction = 0.8, .bootstrap.seed = CLI_DEFAULT_SEED},
                     .merge_tol = 0.05};
    int rc = parse_options(argc, argv, &o);
    if (rc != CLI_OK) {
        free(o.events);
        return rc == HELP_SHOWN ? CLI_OK : rc;
    }
    pms_table *t = NULL;
    pms_cpistack_groups g = {0};
    if (pms_cpistack_load(&t, argv + optind, (size_t)(argc - optind), o.nprograms ? o.programs : NULL, o.merge,
                          o.merge_tol) ||
        pms_cpistack_groups_compute(&g, t, o.by, &o.c) || (o.compare && pms_cpistack_groups_compare(&g, t, &o.c)))
        rc = cli_lib_error();
    if (rc == CLI_OK && g.nfailed) cli_warn("%zu of %zu groups could not be fitted (listed in the report)", g.nfailed, g.n);
    for (size_t k = 0; rc == CLI_OK && k < g.n; k++)
        if (g.stacks[k] && g.stacks[k]->cpi_note[0]) cli_warn("%s: CPI divides counts of two runs", g.stacks[k]->cpi_note);
    if (rc == CLI_OK) rc = write_report(&o, &g);
    if (rc == CLI_OK && o.svg) rc = write_svg(&o, &g);
    pms_cpistack_groups_free(&g);
    pms_table_free(t);
    free(o.events);
    return rc;
}
