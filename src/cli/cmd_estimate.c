/* pmuscope estimate: estimate the cycles of runs from their event counts with
 * LP, MRA and MRACM (Hattori's paper) and compare them on runs not used for fitting. */
#include "cli/cli.h"
#include "cli/methods.h"
#include "pmuscope/estimate_report.h"
#include "pmuscope/error.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pmuscope estimate RUNS [--train LIST] [--test LIST] [--method lp,mra,mracm] [options]\n"
            "\n"
            "Estimate the CPU cycles of runs from their event counts as Hattori's paper (below):\n"
            "fit LP, MRA and MRACM models on the --train runs and print the error %% = (estimate -\n"
            "measured) / measured x 100 of each on the --test runs, as the paper's TABLE X, then\n"
            "each model.\n"
            "\n"
            "RUNS is a runs table (CSV/TSV, one row per run: label first, then a cycles column\n"
            "and counter columns; `pmuscope stat --schedule=runs` writes one), or with\n"
            "--sum-intervals an interval table whose rows are summed into runs, or with\n"
            "--windows a comma list of `perf stat -I` files summed per program.\n"
            "\n"
            "Runs:\n"
            "  --train LIST        runs to fit on, e.g. 1-10 (default: every run not in --test)\n"
            "  --test LIST         runs to estimate, e.g. 50 or 11-20,50\n"
            "                      LIST numbers match the number that ends each run label\n"
            "                      (TEST7 is 7) when every label ends in a distinct number,\n"
            "                      otherwise they are 1-based row numbers\n"
            "  --by-index          always read LIST numbers as row numbers\n"
            "  --cycles COL        the measured cycles column (default: cycles, CPU_CYCLES, ...)\n"
            "  --counters COLS     use only these counters (default: every counter column)\n"
            "  --ignore COLS       columns that are not counters\n"
            "Methods:\n"
            "  --method LIST       lp, mra, mracm, ridge, pcr, forward, nnls, lasso (default:\n"
            "                      lp,mra,mracm, the paper's); ridge: ridge regression on the\n"
            "                      standardised counters, lambda chosen by generalised\n"
            "                      cross-validation; pcr: regression on the leading principal\n"
            "                      components of the standardised counters; forward: MRA with\n"
            "                      forward selection by AIC (R's step(direction = \"forward\"));\n"
            "                      nnls: least squares with every coefficient >= 0 (R's nnls);\n"
            "                      lasso: glmnet's lasso, lambda by cross-validation (cv.glmnet);\n"
            "                      MRA, forward, NNLS and the lasso fit fewer runs than counters\n"
            "                      (MRA leaves the aliased counters out, as R's lm gives them NA)\n"
            "  --lasso-lambda min|1se|L\n"
            "                      cv.glmnet's lambda.min (default) or lambda.1se, or lambda L\n"
            "  --pcr-share F       pcr keeps the fewest components explaining a share F of the\n"
            "                      variance, F in (0, 1] (default 0.99)\n"
            "  --select all|p|aic|forward\n"
            "                      MRA counters: all (default), backward elimination by p value\n"
            "                      (--p-value, default 0.05) or by AIC as R's step(), or forward\n"
            "                      selection by AIC (as --method forward)\n"
            "  --p-value P         p value threshold for --select p and MRACM's selection\n"
            "  --mracm paper|thresholds\n"
            "                      paper (default): pair the counter least correlated with\n"
            "                      cycles among those MRA selects by p value with each selected\n"
            "                      high-correlation counter; thresholds: pair every |r| >= --high\n"
            "                      counter with every |r| < --low counter\n"
            "  --criterion fit|loo|partial\n"
            "                      MRACM's choice of pair (all three picks are printed): lowest\n"
            "                      error on the fitting runs (default, the paper), lowest\n"
            "                      leave-one-run-out error, or instructions with the counter of\n"
            "                      the largest partial correlation with cycles given instructions\n"
            "  --instructions COL  the instructions counter of --criterion partial\n"
            "                      (default: instructions, inst_retired or inst, any case)\n"
            "  --high R            MRACM high correlation: |r| >= R (default 0.9)\n"
            "  --low R             --mracm thresholds low correlation: |r| < R (default 0.4, the\n"
            "                      paper's paired counters have |r| <= 0.37, its high ones >= 0.96)\n"
            "  --max-vif V         MRACM rejects pairs with VIF >= V (default 10)\n"
            "  --holdout F         MRACM chooses the pair on a held-out fraction F of the\n"
            "                      fitting runs (default: on the fitting runs themselves)\n"
            "  --seed N            seed of the --holdout split, the folds and the bootstrap (default 1)\n"
            "Honest error:\n"
            "  --folds K           the held-out error of every method (shown first): each fitting\n"
            "                      run estimated by the method refitted without it, selection and\n"
            "                      tuning redone (default: leave-one-out up to 100 fitting runs,\n"
            "                      10 folds above); K: K folds\n"
            "  --level L           prediction intervals of the test runs' cycles (default 0.9): R's\n"
            "                      predict.lm t interval for MRA, forward and MRACM fits with\n"
            "                      residual degrees of freedom, otherwise jackknife+ from the\n"
            "                      held-out error %%\n"
            "  --bootstrap N       percentile intervals (95%%) of the LP, ridge, PCR, NNLS and lasso\n"
            "                      coefficients\n"
            "                      from N resamples of the fitting runs, each method refitted on each\n"
            "  --bootstrap-block L resample blocks of L consecutive runs (moving-block bootstrap,\n"
            "                      for runs that are intervals in time order; default 1: single runs)\n"
            "  --bootstrap-replicates FILE\n"
            "                      write every resample (its runs) and refit as CSV, for checking\n"
            "Inputs and outputs:\n"
            "  --sum-intervals     RUNS is an interval table: sum its rows per run; without\n"
            "                      --group-by it must be the ARM cBench merged TSV (grouped by\n"
            "                      Benchmark, frequency and Run(#))\n"
            "  --group-by COLS     the columns that identify a run (implies --sum-intervals)\n"
            "  --drop-missing      leave out the runs (with --sum-intervals: the intervals) with a\n"
            "                      count that is missing, not a number or negative, naming them,\n"
            "                      instead of stopping at the first with its file:line:column\n"
            "  --windows FILES     program windows (#Name Start(ns) End(ns)), one per RUNS file\n"
            "  --write-runs FILE   write the runs table used (CSV) to FILE\n"
            "  --write-lp FILE     write the LP model (CPLEX LP format, for glpsol --lp)\n"
            "  --svg FILE          chart of the error %% of every run by each method\n"
            "  --csv[=FILE]        the TABLE X summary as CSV (method,counters,heldout_abs_error_pct,\n"
            "                      test_abs_error_pct,fit_abs_error_pct, the error %% of each test\n"
            "                      run, each test run's interval RUN_lower,RUN_upper in cycles,\n"
            "                      interval,note), to FILE or instead of the text\n"
            "  --json[=FILE]       JSON, to FILE or instead of the text\n"
            "  -o, --output FILE   the text (or what --json/--csv put in its place) to FILE\n"
            CLI_INPUT_LIMIT_HELP
            "  -h, --help          show this help\n");
    cli_print_method(out, "estimate");
}

typedef struct est_options {
    const char *train, *test, *cycles, *write_runs, *write_lp, *svg, *csv, *json, *output, *boot_file;
    char **counters, **ignore, **group_by, **windows;
    bool by_index, sum_intervals, drop_missing;
    pms_estimate_options fit; /* methods and their options */
} est_options;

static bool parse_methods(const char *s, bool *method)
{
    memset(method, 0, PMS_EST_METHODS * sizeof *method);
    char **list = cli_split_list(s, NULL);
    bool ok = list && list[0];
    for (size_t k = 0; ok && list[k]; k++) {
        size_t m = 0;
        while (m < PMS_EST_METHODS && strcmp(list[k], pms_estimate_method_key(m)) != 0) m++;
        ok = m < PMS_EST_METHODS;
        if (ok) method[m] = true;
    }
    free(list);
    return ok;
}

static int parse_options(int argc, char **argv, est_options *o)
{
    enum { O_TRAIN = 256, O_TEST, O_BY_INDEX, O_CYCLES, O_COUNTERS, O_IGNORE, O_METHOD, O_SELECT, O_ALPHA, O_HIGH,
           O_LOW, O_MAXVIF, O_VALIDATE, O_SEED, O_SUM, O_GROUP, O_WINDOWS, O_WRUNS, O_WLP, O_SVG, O_JSON, O_CSV,
           O_MRACM, O_CRITERION, O_INSTRUCTIONS, O_PCR_SHARE, O_BOOT, O_BOOT_BLOCK, O_BOOT_FILE, O_FOLDS, O_LEVEL,
           O_LASSO_LAMBDA, O_DROP_MISSING };
    static const struct option opts[] = {
        {"train", required_argument, 0, O_TRAIN},       {"test", required_argument, 0, O_TEST},
        {"by-index", no_argument, 0, O_BY_INDEX},       {"cycles", required_argument, 0, O_CYCLES},
        {"counters", required_argument, 0, O_COUNTERS}, {"ignore", required_argument, 0, O_IGNORE},
        {"method", required_argument, 0, O_METHOD},     {"select", required_argument, 0, O_SELECT},
        {"p-value", required_argument, 0, O_ALPHA},       {"high", required_argument, 0, O_HIGH},
        {"low", required_argument, 0, O_LOW},           {"max-vif", required_argument, 0, O_MAXVIF},
        {"holdout", required_argument, 0, O_VALIDATE}, {"seed", required_argument, 0, O_SEED},
        {"sum-intervals", no_argument, 0, O_SUM},       {"group-by", required_argument, 0, O_GROUP},
        {"windows", required_argument, 0, O_WINDOWS},   {"write-runs", required_argument, 0, O_WRUNS},
        {"write-lp", required_argument, 0, O_WLP},      {"svg", required_argument, 0, O_SVG},
        {"json", optional_argument, 0, O_JSON},         {"csv", optional_argument, 0, O_CSV},
        {"output", required_argument, 0, 'o'},
        {"mracm", required_argument, 0, O_MRACM},       {"criterion", required_argument, 0, O_CRITERION},
        {"instructions", required_argument, 0, O_INSTRUCTIONS}, {"pcr-share", required_argument, 0, O_PCR_SHARE},
        {"bootstrap", required_argument, 0, O_BOOT},    {"bootstrap-block", required_argument, 0, O_BOOT_BLOCK},
        {"bootstrap-replicates", required_argument, 0, O_BOOT_FILE},
        {"folds", required_argument, 0, O_FOLDS},       {"level", required_argument, 0, O_LEVEL},
        {"lasso-lambda", required_argument, 0, O_LASSO_LAMBDA}, {"drop-missing", no_argument, 0, O_DROP_MISSING},
        CLI_INPUT_LIMIT_OPTION, {"help", no_argument, 0, 'h'},                  {0, 0, 0, 0},
    };
    for (size_t m = 0; m < PMS_EST_METHODS; m++) o->fit.method[m] = m <= PMS_EST_MRACM; /* the paper's three */
    o->fit.select_name = "all";
    o->fit.mracm.seed = o->fit.bootstrap.seed = o->fit.seed = o->fit.lasso.seed = CLI_DEFAULT_SEED;
    int c;
    double v;
    uint64_t u;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "o:h", opts)) != -1) {
        switch (c) {
        case CLI_OPT_INPUT_LIMIT:
            if (cli_set_input_limit("estimate", optarg)) return CLI_USAGE;
            break;
        case 'h': usage(stdout); return -1;
        case CLI_OPT_LISTED: return -1;
        case 'o': o->output = optarg; break;
        case O_TRAIN: o->train = optarg; break;
        case O_TEST: o->test = optarg; break;
        case O_BY_INDEX: o->by_index = true; break;
        case O_CYCLES: o->cycles = optarg; break;
        case O_COUNTERS: free(o->counters), o->counters = cli_split_list(optarg, NULL); break;
        case O_IGNORE: free(o->ignore), o->ignore = cli_split_list(optarg, NULL); break;
        case O_GROUP: free(o->group_by), o->group_by = cli_split_list(optarg, NULL), o->sum_intervals = true; break;
        case O_WINDOWS: free(o->windows), o->windows = cli_split_list(optarg, NULL); break;
        case O_SUM: o->sum_intervals = true; break;
        case O_DROP_MISSING: o->drop_missing = true; break;
        case O_WRUNS: o->write_runs = optarg; break;
        case O_WLP: o->write_lp = optarg; break;
        case O_SVG: o->svg = optarg; break;
        case O_CSV: o->csv = cli_format_target(optarg); break;
        case O_JSON: o->json = cli_format_target(optarg); break;
        case O_METHOD:
            if (!parse_methods(optarg, o->fit.method))
                return cli_usage_error("estimate", "--method '%s': expected a list of lp, mra, mracm, ridge, pcr, forward, nnls, lasso",
                                       optarg);
            break;
        case O_SELECT:
            o->fit.select_name = optarg;
            if (strcmp(optarg, "all") == 0) o->fit.mra.select = PMS_MRA_ALL;
            else if (strcmp(optarg, "p") == 0) o->fit.mra.select = PMS_MRA_STEP_P;
            else if (strcmp(optarg, "aic") == 0) o->fit.mra.select = PMS_MRA_STEP_AIC;
            else if (strcmp(optarg, "forward") == 0) o->fit.mra.select = PMS_MRA_FORWARD_AIC;
            else return cli_usage_error("estimate", "--select '%s': expected all, p, aic or forward", optarg);
            break;
        case O_MRACM:
            if (strcmp(optarg, "paper") == 0) o->fit.mracm.procedure = PMS_MRACM_PAPER;
            else if (strcmp(optarg, "thresholds") == 0) o->fit.mracm.procedure = PMS_MRACM_THRESHOLDS;
            else return cli_usage_error("estimate", "--mracm '%s': expected paper or thresholds", optarg);
            break;
        case O_CRITERION:
            if (strcmp(optarg, "fit") == 0) o->fit.mracm.criterion = PMS_MRACM_BY_FIT;
            else if (strcmp(optarg, "loo") == 0) o->fit.mracm.criterion = PMS_MRACM_BY_LOO;
            else if (strcmp(optarg, "partial") == 0) o->fit.mracm.criterion = PMS_MRACM_BY_PARTIAL;
            else return cli_usage_error("estimate", "--criterion '%s': expected fit, loo or partial", optarg);
            break;
        case O_INSTRUCTIONS: o->fit.mracm.instructions = optarg; break;
        case O_PCR_SHARE:
            if (!cli_parse_double(optarg, &v) || !(v > 0 && v <= 1))
                return cli_usage_error("estimate", "--pcr-share '%s': expected a number in (0, 1]", optarg);
            o->fit.pcr_share = v;
            break;
        case O_ALPHA: case O_HIGH: case O_LOW: case O_MAXVIF: case O_VALIDATE: {
            /* probabilities and fractions in (0, 1), correlations in (0, 1], VIF > 0 */
            double hi = c == O_MAXVIF ? INFINITY : 1.0;
            bool closed = c == O_HIGH || c == O_LOW;
            const char *name = c == O_ALPHA ? "--p-value" : c == O_HIGH ? "--high" : c == O_LOW ? "--low"
                             : c == O_MAXVIF ? "--max-vif" : "--holdout";
            if (!cli_parse_double(optarg, &v) || v <= 0 || v > hi || (!closed && v == hi))
                return cli_usage_error("estimate", "%s '%s': expected a number in (0, %s%s", name, optarg,
                                       c == O_MAXVIF ? "inf" : "1", closed ? "]" : ")");
            if (c == O_ALPHA) o->fit.mra.alpha = o->fit.mracm.alpha = v;
            if (c == O_HIGH) o->fit.mracm.high = v;
            if (c == O_LOW) o->fit.mracm.low = v;
            if (c == O_MAXVIF) o->fit.mracm.max_vif = v;
            if (c == O_VALIDATE) o->fit.mracm.validation = v;
            break;
        }
        case O_SEED:
            if (cli_parse_seed("estimate", optarg, &u)) return CLI_USAGE;
            o->fit.mracm.seed = o->fit.bootstrap.seed = o->fit.seed = o->fit.lasso.seed = u;
            break;
        case O_BOOT:
            if (cli_parse_bootstrap("estimate", false, optarg, &o->fit.bootstrap.replicates)) return CLI_USAGE;
            break;
        case O_BOOT_BLOCK:
            if (cli_parse_bootstrap("estimate", true, optarg, &o->fit.bootstrap.block)) return CLI_USAGE;
            break;
        case O_BOOT_FILE: o->boot_file = optarg, o->fit.bootstrap.keep = true; break;
        case O_FOLDS:
            if (!cli_parse_count(optarg, &u) || u < 2)
                return cli_usage_error("estimate", "--folds '%s': expected a number of folds, 2 or more", optarg);
            o->fit.folds = (size_t)u;
            break;
        case O_LEVEL:
            if (!cli_parse_double(optarg, &v) || !(v > 0 && v < 1))
                return cli_usage_error("estimate", "--level '%s': expected a number in (0, 1)", optarg);
            o->fit.level = v;
            break;
        case O_LASSO_LAMBDA:
            if (strcmp(optarg, "min") == 0) o->fit.lasso.choice = PMS_LASSO_MIN;
            else if (strcmp(optarg, "1se") == 0) o->fit.lasso.choice = PMS_LASSO_1SE;
            else if (!cli_parse_double(optarg, &v) || !(v > 0) || !isfinite(v))
                return cli_usage_error("estimate", "--lasso-lambda '%s': expected min, 1se or a lambda > 0", optarg);
            else o->fit.lasso.lambda = v;
            break;
        default: return cli_usage_error("estimate", "%s", cli_bad_option());
        }
    }
    if (optind + 1 != argc) return cli_usage_error("estimate", "expected one RUNS file");
    if (cli_is_main(o->json) && cli_is_main(o->csv))
        return cli_usage_error("estimate", "--json and --csv both want the main output: give one a FILE");
    if ((o->boot_file || o->fit.bootstrap.block) && !o->fit.bootstrap.replicates)
        return cli_usage_error("estimate", "--bootstrap-block and --bootstrap-replicates go with --bootstrap N");
    if (o->windows && o->sum_intervals)
        return cli_usage_error("estimate", "--windows and --sum-intervals/--group-by are different inputs: give one");
    return 0;
}

static int load_runs(const est_options *o, const char *arg, pms_runs **runs)
{
    const char *one[] = {arg, NULL};
    char **files = o->windows ? cli_split_list(arg, NULL) : NULL;
    pms_runs_input in = {.format = o->windows ? PMS_RUNS_WINDOWS : o->sum_intervals ? PMS_RUNS_INTERVALS : PMS_RUNS_TABLE,
                         .drop_missing = o->drop_missing,
                         .paths = files ? (const char *const *)files : one,
                         .windows = (const char *const *)o->windows,
                         .group_by = (const char *const *)o->group_by,
                         .ignore = (const char *const *)o->ignore,
                         .cycles_col = o->cycles};
    size_t nf = 0, nw = 0;
    while (files && files[nf]) nf++;
    while (o->windows && o->windows[nw]) nw++;
    int rc = nf == nw ? pms_runs_load(runs, &in) < 0 ? cli_lib_error() : 0
                      : cli_usage_error("estimate", "%zu interval files but %zu --windows files", nf, nw);
    free(files);
    if (rc == 0 && (*runs)->intervals_like)
        cli_warn("%s: the run labels (the first column: '%s', ...) are times or interval numbers: each row is a run here; "
                 "--sum-intervals --group-by COLS sums an interval table's rows into runs", arg, (*runs)->labels[0]);
    if (rc == 0 && (*runs)->n_dropped) /* the report names them all; a warning says how many */
        cli_warn("--drop-missing left out %zu %s with a missing or bad count, the first at line %zu (%s)",
                 (*runs)->n_dropped, o->sum_intervals ? "intervals" : "runs", (*runs)->dropped_lines[0],
                 (*runs)->dropped_why[0]);
    return rc;
}

/* Chooses the runs and counters; warns about runs that are both fitting and test runs. */
static int prepare(const est_options *o, const pms_runs *r, pms_estimate_data *d)
{
    pms_estimate_spec spec = {o->train, o->test, o->by_index, (const char *const *)o->counters};
    int rc = pms_estimate_prepare(r, &spec, d);
    if (d->number_clash)
        cli_warn("runs '%s' and '%s' end in the same number: --train/--test numbers are row numbers here "
                 "(--by-index says so)", r->labels[d->clash[0]], r->labels[d->clash[1]]);
    if (rc < 0) return cli_lib_error();
    for (size_t k = 0; k < d->n_overlap; k++)
        cli_warn("run %s is both a fitting and a test run", r->labels[d->overlap[k]]);
    return 0;
}

static int write_runs(const pms_runs *runs, const char *path)
{
    FILE *f = cli_open_output(path);
    return f ? cli_finish_output(f, pms_runs_write_csv(runs, f) < 0) : CLI_FAIL;
}

static int write_lp(const pms_estimate_data *d, const char *path)
{
    FILE *f = cli_open_output(path);
    return f ? cli_finish_output(f, pms_lp_write(d->cycles, d->events, d->n_train, d->n_counters, d->names, f) < 0)
             : CLI_FAIL;
}

static int write_text(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    pms_estimate_write_text(out, d, res);
    return 0;
}

static int write_json(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res)
{
    pms_estimate_write_json(out, d, res);
    return 0;
}

/* The main output (-o or stdout), --svg, --json=FILE and --csv=FILE: writer into path. */
static int write_output(int (*writer)(FILE *, const pms_estimate_data *, const pms_estimate_result *), const pms_estimate_data *d,
                        const pms_estimate_result *res, const char *path)
{
    FILE *f = cli_open_output(path);
    return f ? cli_finish_output(f, writer(f, d, res) < 0) : CLI_FAIL;
}


static void free_all(est_options *o, pms_estimate_data *d, pms_estimate_result *res, pms_runs *runs)
{
    free(o->counters), free(o->ignore), free(o->group_by), free(o->windows);
    pms_estimate_data_free(d);
    pms_estimate_result_free(res);
    pms_runs_destroy(runs);
}

int cmd_estimate(int argc, char **argv)
{
    est_options o = {0};
    pms_estimate_data d = {0};
    pms_estimate_result res[PMS_EST_METHODS] = {{0}};
    pms_runs *runs = NULL;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0) {
        free_all(&o, &d, res, runs);
        return rc < 0 ? CLI_OK : rc; /* -1: --help was shown */
    }
    rc = load_runs(&o, argv[optind], &runs);
    if (rc == 0 && o.write_runs) rc = write_runs(runs, o.write_runs);
    if (rc == 0) rc = prepare(&o, runs, &d);
    if (rc == 0 && o.write_lp) rc = write_lp(&d, o.write_lp);
    if (rc == 0) {
        size_t fitted = pms_estimate_run(&d, &o.fit, res);
        rc = write_output(cli_is_main(o.json) ? write_json : cli_is_main(o.csv) ? pms_estimate_write_csv : write_text, &d,
                          res, o.output);
        if (rc == 0 && fitted == 0) rc = cli_error("no method could fit a model (see the reasons above)");
        if (rc == 0 && o.svg) rc = write_output(pms_estimate_write_svg, &d, res, o.svg);
        if (rc == 0 && o.csv && !cli_is_main(o.csv)) rc = write_output(pms_estimate_write_csv, &d, res, o.csv);
        if (rc == 0 && o.json && !cli_is_main(o.json)) rc = write_output(write_json, &d, res, o.json);
        if (rc == 0 && o.boot_file) rc = write_output(pms_estimate_write_bootstrap_replicates, &d, res, o.boot_file);
    }
    free_all(&o, &d, res, runs);
    return rc;
}
