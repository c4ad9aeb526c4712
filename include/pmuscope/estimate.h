/* pmuscope: estimating the CPU cycles of a run from its event counts (Hattori's paper,
 * Hattori & Takeuchi): linear programming (LP), multiple regression (MRA) and
 * multiple regression considering multicollinearity (MRACM).
 *
 * Every method fits the model  c^ = x_I + sum_i x_i * E_i  on a set of runs
 * (measured cycles c_j and event totals E_ij) and is judged on other runs by
 * error % = (c^ - c) / c * 100.
 *
 * Data is passed as plain arrays: cycles[m] and events[m * n] (row-major, run j
 * at events[j * n .. j * n + n - 1]); names[n] label the counters in messages. */
#ifndef PMUSCOPE_ESTIMATE_H
#define PMUSCOPE_ESTIMATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* ---- the data: a runs table ------------------------------------------------ */

/* One row per run: a label ("TEST7", "bzip2d/1000MHz/1"), the measured cycles,
 * and the totals of the counters. Read-only for callers; pms_runs_destroy frees it. */
typedef struct pms_runs {
    size_t n_runs;
    size_t n_counters;
    char **labels;   /* n_runs */
    char **counters; /* n_counters column names */
    char *cycles_name;
    double *cycles;  /* n_runs */
    double *events;  /* n_runs x n_counters, row-major */
    size_t *lines;   /* line of each run in its source file (1-based), for messages */
    char *source;    /* the file the runs came from */
    /* rows (runs, or intervals summed into runs) left out because a count in them was
     * missing, not a number or negative (pms_runs_input.drop_missing), in file order: the
     * line of each and why ("column 'X': found 'abc'") */
    size_t n_dropped;
    size_t *dropped_lines;
    char **dropped_why;
    /* a runs table whose first column is a time or an interval number: maybe an interval
     * table, whose rows pms_runs_sum_intervals would sum into runs (callers may say so) */
    bool intervals_like;
} pms_runs;

void pms_runs_destroy(pms_runs *r);

struct pms_table; /* pmuscope/table.h */

/* Reads a runs table (CSV or TSV with a header; see pms_table): the first column
 * is the run label, `cycles_col` (NULL: "cycles", then "CPU_CYCLES") the measured
 * cycles, every other numeric column a counter except `size` and the names in
 * `ignore` (NULL-terminated, may be NULL). A text column is left out; one whose
 * cells are numbers but for some is a counter with bad cells. Fails with
 * file:line:column at the first count that is missing, not a number or negative
 * (pms_runs_load with drop_missing leaves such runs out instead), on zero cycles,
 * on a table with no runs or no counters, and on the ARM cBench interval table
 * (PMS_EFORMAT, naming the option that reads it: sum_intervals); a first column
 * that is a time or an interval number sets intervals_like. */
int pms_runs_read(const char *path, const char *cycles_col, const char *const *ignore, pms_runs **out);
/* The same from a table already read or built (lines as the table gives them). */
int pms_runs_from_table(const struct pms_table *t, const char *cycles_col, const char *const *ignore, pms_runs **out);

/* Builds runs by summing the rows of an interval table (one row per interval)
 * that share the values of the `group` columns (NULL-terminated); the label is
 * those values joined by '/'. Summed are the numeric columns other than the group
 * columns and `ignore`. Runs keep the order of their first interval.
 * With group NULL the table must be the ARM cBench merged TSV (ARMPM_BUILDMODEL
 * layout: Timestamp, Benchmark, Run(#), frequency, temperature, voltage, current,
 * power, then the PMU events), which is grouped by (Benchmark, frequency, Run)
 * with only the PMU event columns summed. */
int pms_runs_sum_intervals(const char *path, const char *const *group, const char *const *ignore,
                           const char *cycles_col, pms_runs **out);
/* The same from an interval table already read or built. */
int pms_runs_sum_table(const struct pms_table *t, const char *const *group, const char *const *ignore,
                       const char *cycles_col, pms_runs **out);

/* Builds one run per program from `perf stat -I` output files (CSV or plain,
 * see perfstat.h; they must give a start time, as the ARM cBench files do) and
 * matching program-window files ("#Name Start(ns) End(ns)", ns on the same
 * clock). An interval belongs to the program whose window holds its middle;
 * intervals between programs are left out. Files measured in separate passes
 * (event lists) are merged by program name: the counters of a later file that
 * an earlier one lacks are appended; an event in both (the cycles anchor) is
 * kept from the first. */
int pms_runs_sum_windows(const char *const *interval_paths, const char *const *window_paths, size_t nfiles,
                         const char *cycles_col, pms_runs **out);

/* Where runs come from: the three inputs above behind one call. */
typedef enum pms_runs_format {
    PMS_RUNS_TABLE = 0, /* paths[0] is a runs table (pms_runs_read) */
    PMS_RUNS_INTERVALS, /* paths[0] is an interval table summed per run (pms_runs_sum_intervals) */
    PMS_RUNS_WINDOWS,   /* paths are `perf stat -I` files, windows their program windows (pms_runs_sum_windows) */
} pms_runs_format;

typedef struct pms_runs_input {
    pms_runs_format format;
    const char *const *paths;    /* NULL-terminated; one file unless PMS_RUNS_WINDOWS */
    const char *const *windows;  /* PMS_RUNS_WINDOWS: NULL-terminated, one per path */
    const char *const *group_by; /* PMS_RUNS_INTERVALS: the run columns (NULL: the ARM cBench TSV) */
    const char *const *ignore;   /* columns that are not counters (tables) */
    const char *cycles_col;      /* NULL: the usual names (cycles, CPU_CYCLES, ...) */
    /* leave out the rows (runs of a table, intervals of an interval table) with a count that is
     * missing, not a number or negative, listing them (pms_runs.dropped_*), instead of failing */
    bool drop_missing;
} pms_runs_input;

/* Reads the runs of `in` into *out. Fails (PMS_EINVAL) on a missing path, on more than
 * one path for a table, and when the window files do not pair with the interval files. */
int pms_runs_load(pms_runs **out, const pms_runs_input *in);

/* Writes the runs as CSV: run,<cycles>,<counters...> (pms_table_write). */
int pms_runs_write_csv(const pms_runs *r, FILE *out);

/* Picks rows of the runs: `spec` is a list like "1-10,50". When every label ends
 * in a distinct number (TEST1 .. TEST50), the numbers select labels; otherwise
 * (or with by_index) they are 1-based row numbers. Fills idx (allocated,
 * *n_idx entries) in the order of the table. Fails naming the number that
 * matches no run. */
int pms_runs_select(const pms_runs *r, const char *spec, bool by_index, size_t **idx, size_t *n_idx);

/* True if pms_runs_select would match spec numbers against label numbers. */
bool pms_runs_numbered(const pms_runs *r);
/* Why spec numbers are row numbers although every label ends in a number: two labels end
 * in the same one (a1 and b1). True with the two runs in *first and *second. */
bool pms_runs_number_clash(const pms_runs *r, size_t *first, size_t *second);

/* ---- a fitted model --------------------------------------------------------- */

typedef struct pms_cycle_model {
    size_t n_counters; /* as in the data it was fitted on */
    double intercept;
    double *coef;      /* n_counters; 0 for counters not in the model */
    bool *used;        /* n_counters; counters in the model */
    size_t n_used;     /* "No. of counters" of the paper's TABLE X */
} pms_cycle_model;

void pms_cycle_model_free(pms_cycle_model *m);
/* Estimated cycles of one run (row of n_counters event values). */
double pms_cycle_model_predict(const pms_cycle_model *m, const double *events_row);
/* (estimate - measured) / measured * 100. */
double pms_estimate_error_pct(double estimate, double measured);

/* ---- LP --------------------------------------------------------------------- */

/* minimise sum_j eps_j  s.t.  eps_j = c_j - (x_I + sum_i x_i E_ij) >= 0,
 * x_I >= 0, x_i >= 0 (Hattori's paper, B.1), solved with GLPK's simplex, over the
 * counters that vary over the runs (the constant ones are named in dropped). */
typedef struct pms_lp_fit {
    pms_cycle_model model; /* counters with x_i > 0 are "used" */
    size_t *dropped;       /* counters constant over the runs, left out of the LP (a constant
                              counter only adds a second intercept) */
    size_t n_dropped;
    double objective;      /* sum of eps_j */
    size_t n_runs;
    double *eps;           /* n_runs residuals c_j - c^_j, all >= 0 */
    bool *tight;           /* n_runs: eps_j = 0 (the model touches that run) */
    size_t n_tight;
} pms_lp_fit;

int pms_lp_fit_runs(const double *cycles, const double *events, size_t m, size_t n, pms_lp_fit *out);
void pms_lp_fit_free(pms_lp_fit *f);

/* Writes the same model (constant counters left out) in CPLEX LP format (what glpsol --lp reads). Columns are
 * named x_I, x_<counter> (characters other than letters, digits and '_' become
 * '_'; x<i> when names collide) and eps_<j> (j = 1..m); rows run_<j>. The model goes
 * into out (flushed); PMS_EIO when a write to out failed. */
int pms_lp_write(const double *cycles, const double *events, size_t m, size_t n,
                 const char *const *names, FILE *out);

/* ---- MRA -------------------------------------------------------------------- */

typedef enum pms_mra_select {
    PMS_MRA_ALL = 0,    /* every counter given (the paper's MRA) */
    PMS_MRA_STEP_P = 1, /* backward elimination: drop the counter with the largest p
                           value while it is above alpha */
    PMS_MRA_STEP_AIC = 2, /* backward elimination by AIC as R's step(): drop the
                             counter whose removal lowers n log(RSS/n) + 2k most */
    PMS_MRA_FORWARD_AIC = 3, /* forward selection by AIC as R's step(lm(cycles ~ 1),
                                scope = ~ every counter, direction = "forward"): from the
                                intercept alone, add the counter that lowers the AIC most
                                while one does (first in counter order on a tie); a counter
                                aliased with those in the model cannot enter (R drops additions
                                with 0 degrees of freedom); a fit that interpolates the runs
                                has AIC -Inf and ends the selection */
} pms_mra_select;

typedef struct pms_mra_options {
    pms_mra_select select;
    double alpha; /* for PMS_MRA_STEP_P; 0 means 0.05 */
} pms_mra_options;

/* Why R's lm gives a counter NA (it is aliased, in R's pivoting order: each counter
 * against the intercept and the counters before it that were kept). */
typedef enum pms_alias_reason {
    PMS_ALIAS_CONSTANT = 0,    /* constant over the runs: collinear with the intercept */
    PMS_ALIAS_COMBINATION = 1, /* a linear combination of the kept counters before it */
    PMS_ALIAS_NO_RUNS_LEFT = 2, /* the runs are used up: m runs fit at most m - 1 counters
                                   beside the intercept, and those before it took them */
} pms_alias_reason;

/* OLS (stats module, as R's lm) of cycles on the counters. Counters that are
 * constant or linear combinations of earlier ones over the runs, and those past
 * the rank the runs allow (R prints NA for all of them), are left out and listed in
 * dropped with their reason; with as many coefficients as runs the fit interpolates
 * them (R's lm with 0 residual degrees of freedom: coefficients, no standard errors).
 * The backward options then remove more, listed in removal order after them; forward
 * selection lists in added the counters in the order they entered, and in dropped
 * (n_aliased 0) those that never did. Fails with fewer than 2 runs or when no counter
 * varies. */
typedef struct pms_mra_fit {
    pms_cycle_model model;
    struct pms_lm *lm;     /* summary of the final fit; its columns are the used counters */
    size_t *dropped;       /* counter indices left out */
    size_t n_aliased;      /* the first n_aliased of dropped were aliased (collinear) */
    pms_alias_reason *alias_reason; /* n_aliased: why each was */
    size_t n_dropped;
    size_t *added;         /* PMS_MRA_FORWARD_AIC: the counters in the order they entered */
    size_t n_added;
    double aic;            /* n log(RSS/n) + 2 (k + 1) of the final fit, as R's extractAIC */
} pms_mra_fit;

int pms_mra_fit_runs(const double *cycles, const double *events, size_t m, size_t n,
                     const char *const *names, const pms_mra_options *opt, pms_mra_fit *out);
void pms_mra_fit_free(pms_mra_fit *f);

/* ---- MRACM ------------------------------------------------------------------ */

/* Default thresholds on |r| (Pearson correlation with cycles over the fitting
 * runs). The paper pairs counters at r = 0.96..0.99 with counters at |r| =
 * 0.11..0.37 (its TABLES IV, VII-IX). high marks the high-correlation counters
 * in both procedures; low is used only by PMS_MRACM_THRESHOLDS. */
#define PMS_MRACM_HIGH 0.9
#define PMS_MRACM_LOW 0.4
#define PMS_MRACM_MAX_VIF 10.0

typedef enum pms_mracm_procedure {
    /* The paper's (B.3 and V.A): the counters MRA selects (backward elimination
     * by p value, alpha), the one of them least correlated with cycles paired
     * with each selected high-correlation counter; not applicable when the least
     * correlated selected counter is itself a high one. */
    PMS_MRACM_PAPER = 0,
    /* Every counter with |r| >= high paired with every counter with |r| < low. */
    PMS_MRACM_THRESHOLDS = 1,
} pms_mracm_procedure;

/* How the pair is chosen; every criterion's pick is reported, this one is the model. */
typedef enum pms_mracm_criterion {
    PMS_MRACM_BY_FIT = 0,     /* lowest mean |error %| on the selection runs (the paper) */
    PMS_MRACM_BY_LOO = 1,     /* lowest mean |error %| of leave-one-run-out predictions */
    PMS_MRACM_BY_PARTIAL = 2, /* the instructions counter with the counter whose partial
                                 correlation with cycles given instructions is largest */
    PMS_MRACM_CRITERIA = 3,
} pms_mracm_criterion;

typedef struct pms_mracm_options {
    pms_mracm_procedure procedure;
    pms_mracm_criterion criterion;
    double high;     /* |r| >= high is a high-correlation counter; 0 means 0.9 */
    double low;      /* PMS_MRACM_THRESHOLDS: |r| < low is a low-correlation counter; 0 means 0.4 */
    double alpha;    /* PMS_MRACM_PAPER: MRA's p value threshold; 0 means 0.05 */
    double max_vif;  /* pairs with VIF >= max_vif are rejected; 0 means 10, INFINITY keeps all */
    /* The instructions counter of PMS_MRACM_BY_PARTIAL; NULL: the first named
     * instructions, INST_RETIRED or inst_retired (any case). */
    const char *instructions;
    /* 0: choose the pair with the lowest mean |error %| on the fitting runs.
     * In (0, 1): hold out that fraction of the fitting runs (pms_split with
     * seed), fit each pair on the rest, choose on the held-out runs. The chosen
     * pair is refitted on all fitting runs. */
    double validation;
    unsigned long long seed;
} pms_mracm_options;

typedef struct pms_mracm_pair {
    size_t high, low;     /* counter indices (for the partial pick: instructions, the other) */
    double vif;           /* INFINITY when the two are exactly collinear */
    bool rejected;        /* vif >= max_vif */
    bool candidate;       /* a pair of the procedure (false: added as the partial pick only) */
    double error_pct;     /* mean |error %| on the selection runs (NaN when rejected) */
    double loo_error_pct; /* mean |error %| of leave-one-run-out predictions (NaN when rejected) */
    /* the pair's fit on the selection fitting runs (all fitting runs without a
     * validation split): cycles = coef[0] + coef[1] E_high + coef[2] E_low; NaN when rejected */
    double coef[3];
} pms_mracm_pair;

#define PMS_MRACM_NONE ((size_t)-1)

typedef struct pms_mracm_fit {
    bool applicable;
    char reason[480];      /* why not, as "NA" in the paper's TABLE X: the |r| seen, and what would pass */
    /* set when the chosen pair's fit does not support it: a counter of the pair whose
     * coefficient is not significant (p > alpha), e.g. a noise counter paired with
     * instructions */
    char warning[256];
    pms_mracm_procedure procedure;
    pms_mracm_criterion criterion;
    size_t n_held_out;     /* runs the pairs were judged on with a validation split (0: none) */
    unsigned long long seed; /* that split's seed (n_held_out > 0) */
    double *correlation;   /* n: r of each counter with cycles (NaN: constant counter) */
    bool *selected;        /* n: counters the procedure draws pairs from (PAPER: MRA's selection) */
    size_t low;            /* PAPER: the least correlated selected counter (PMS_MRACM_NONE: none) */
    size_t instructions;   /* the instructions counter (PMS_MRACM_NONE: none found) */
    double *partial;       /* n: partial r with cycles given instructions (NaN: none, or instructions) */
    pms_mracm_pair *pairs; /* the candidate pairs, then the partial pick when it is not one of them */
    size_t n_pairs;
    size_t pick[PMS_MRACM_CRITERIA]; /* each criterion's pair (PMS_MRACM_NONE: none) */
    size_t best;           /* pick[criterion] when applicable */
    pms_cycle_model model; /* the chosen pair, fitted on all fitting runs */
    struct pms_lm *lm;     /* its summary */
} pms_mracm_fit;

/* Estimated cycles of one run (row of n counter values) by a pair's own fit; NaN
 * for a rejected pair. */
double pms_mracm_pair_predict(const pms_mracm_pair *p, const double *events_row);

/* Returns PMS_OK with applicable false and a reason when the procedure finds no
 * pair, or every pair is rejected, or the criterion picks none; fails only on bad input. */
int pms_mracm_fit_runs(const double *cycles, const double *events, size_t m, size_t n,
                       const char *const *names, const pms_mracm_options *opt, pms_mracm_fit *out);
void pms_mracm_fit_free(pms_mracm_fit *f);

/* ---- Ridge ------------------------------------------------------------------ */

/* A remedy for multicollinearity: the counters standardised (centred, divided by
 * their sd with m - 1 as R's scale()), cycles centred, the standardised
 * coefficients b = solve(Z'Z + lambda I, Z'y) with lambda minimising the
 * generalised cross-validation score GCV(lambda) = m RSS / (m - df)^2, df the
 * trace of the hat matrix Z (Z'Z + lambda I)^-1 Z' (as MASS::lm.ridge); GSL's
 * SVD, GCV curve and minimiser do the work. The intercept is not penalised.
 * Constant counters are left out (dropped). Fails on fewer than k + 2 runs for
 * k varying counters. */
typedef struct pms_ridge_fit {
    pms_cycle_model model; /* in the counters' own units */
    double lambda;         /* the penalty on the standardised coefficients */
    double df;             /* effective degrees of freedom (trace of the hat matrix) */
    double rss;            /* residual sum of squares of the fitting runs */
    double gcv;            /* GCV(lambda) */
    double *std_coef;      /* n: the standardised coefficients (0 for dropped counters) */
    size_t *dropped;       /* constant counters */
    size_t n_dropped;
} pms_ridge_fit;

int pms_ridge_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       pms_ridge_fit *out);
void pms_ridge_fit_free(pms_ridge_fit *f);

/* ---- Principal-component regression --------------------------------------- */

/* The other remedy (Hattori's paper suggests PCA): the principal components of the
 * standardised counters (as R's prcomp(scale. = TRUE)), the fewest leading ones
 * whose variance reaches `share` of the total kept, cycles regressed on their scores
 * (as R's lm on prcomp(...)$x[, 1:k]) and the coefficients carried back to the
 * counters. Constant counters are left out. Fails on fewer than k + 2 runs for k
 * varying counters. */
#define PMS_PCR_SHARE 0.99

typedef struct pms_pcr_fit {
    pms_cycle_model model; /* in the counters' own units */
    double share;          /* the share asked */
    size_t n_components;   /* kept */
    size_t n_total;        /* components (varying counters) */
    double kept_share;     /* share of the variance the kept components explain */
    double *std_coef;      /* n: the standardised coefficients (0 for dropped counters) */
    size_t *dropped;       /* constant counters */
    size_t n_dropped;
} pms_pcr_fit;

/* share in (0, 1]; 0 means PMS_PCR_SHARE. */
int pms_pcr_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                     double share, pms_pcr_fit *out);
void pms_pcr_fit_free(pms_pcr_fit *f);

/* ---- NNLS ------------------------------------------------------------------- */

/* Least squares with every coefficient >= 0, the intercept too, as R's
 * nnls(cbind(1, E), c) (Lawson and Hanson, the stats module's pms_nnls). Works with
 * fewer runs than counters. Counters at 0 are not "used". */
typedef struct pms_nnls_fit {
    pms_cycle_model model;
    double rss;            /* residual sum of squares over the runs */
} pms_nnls_fit;

int pms_nnls_fit_runs(const double *cycles, const double *events, size_t m, size_t n, pms_nnls_fit *out);
void pms_nnls_fit_free(pms_nnls_fit *f);

/* ---- Lasso ------------------------------------------------------------------ */

/* The lasso as R's glmnet (pms_lasso_cv, pmuscope/stats.h: counters standardised with
 * divisor m, lambda in cycles, the intercept not penalised) with lambda chosen by
 * cross-validation over the runs as cv.glmnet: lambda.min (the default) or lambda.1se,
 * or a lambda given. Works with fewer runs than counters; needs 3 runs (3 folds). */
typedef enum pms_lasso_choice {
    PMS_LASSO_MIN = 0, /* cv.glmnet's lambda.min: the smallest cross-validated error */
    PMS_LASSO_1SE = 1, /* lambda.1se: the largest lambda within one standard error of it */
} pms_lasso_choice;

typedef struct pms_lasso_fit_options {
    pms_lasso_choice choice;
    double lambda;  /* > 0: this lambda (on the default path's scale), no cross-validation */
    size_t nfolds;  /* 0: min(10, runs) */
    unsigned long long seed; /* of the folds */
} pms_lasso_fit_options;

typedef struct pms_lasso_fit {
    pms_cycle_model model;
    double lambda;         /* the lambda of the model */
    struct pms_lasso *path; /* the path and its cross-validation (NULL with a lambda given) */
} pms_lasso_fit;

int pms_lasso_fit_runs(const double *cycles, const double *events, size_t m, size_t n,
                       const pms_lasso_fit_options *opt, pms_lasso_fit *out);
void pms_lasso_fit_free(pms_lasso_fit *f);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
