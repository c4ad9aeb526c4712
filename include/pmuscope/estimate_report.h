/* pmuscope: a cycle-estimation comparison (LP, MRA and MRACM fitted on some runs
 * of a runs table and judged on others, as TABLE X of Hattori & Takeuchi) and its
 * reports. The library prints nothing on its own: every writer takes the FILE*. */
#ifndef PMUSCOPE_ESTIMATE_REPORT_H
#define PMUSCOPE_ESTIMATE_REPORT_H
#include "pmuscope/estimate.h"
#include "pmuscope/stats.h"

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* LP, MRA and MRACM are the paper's methods (the default); ridge and principal-
 * component regression are remedies for multicollinearity fitted on request; forward
 * (MRA with forward selection by AIC, as R's step()), NNLS and the lasso are for fewer
 * runs than counters, the paper's own setting (10 runs). */
enum {
    PMS_EST_LP, PMS_EST_MRA, PMS_EST_MRACM, PMS_EST_RIDGE, PMS_EST_PCR, PMS_EST_FORWARD, PMS_EST_NNLS, PMS_EST_LASSO,
    PMS_EST_METHODS
};
/* The method's name as --method takes it ("lp", "mra", ...) and as reports label it ("LP", "MRA", ...). */
const char *pms_estimate_method_key(size_t method);
const char *pms_estimate_method_label(size_t method);

/* Which runs and counters to use. */
typedef struct pms_estimate_spec {
    const char *train;            /* pms_runs_select list; NULL: every run not in test */
    const char *test;             /* NULL: none */
    bool by_index;                /* read the lists as row numbers */
    const char *const *counters;  /* NULL-terminated; NULL: every counter column */
} pms_estimate_spec;

/* The data the models are fitted on: the chosen counters of the fitting runs. */
typedef struct pms_estimate_data {
    const pms_runs *runs;
    size_t n_counters;
    const char **names;  /* n_counters */
    size_t *counter_col; /* column of each counter in runs->events */
    size_t *train, n_train, *test, n_test;
    size_t *overlap, n_overlap; /* fitting runs that are also test runs, in fitting order (callers may warn) */
    /* Set when the spec lists runs by number and every label ends in a number, but two labels
     * end in the same one (runs clash[0] and clash[1]), so the numbers are row numbers (callers
     * may warn: the lists may not mean what the user thought). */
    bool number_clash;
    size_t clash[2];
    double *cycles;      /* n_train */
    double *events;      /* n_train x n_counters */
} pms_estimate_data;

/* Chooses the runs and counters of r (which must outlive d) and gathers the
 * fitting data. Fails when no run is left to fit on, on a counter name with
 * no column, and on a run list that matches no run; number_clash is set before
 * the runs are chosen, so it holds on failure too (free d either way). */
int pms_estimate_prepare(const pms_runs *r, const pms_estimate_spec *spec, pms_estimate_data *d);
void pms_estimate_data_free(pms_estimate_data *d);

typedef struct pms_estimate_options {
    bool method[PMS_EST_METHODS]; /* which to fit */
    const char *select_name;      /* MRA counter selection, as shown ("all", "p", "aic") */
    pms_mra_options mra;
    pms_mracm_options mracm;
    double pcr_share;             /* PCR: share of variance kept; 0 means PMS_PCR_SHARE */
    /* replicates > 0: bootstrap intervals of the coefficients of LP, ridge and PCR
     * (pms_estimate_bootstraps), resampling the fitting runs (block 0 or 1: case
     * resampling, the runs being independent) */
    pms_bootstrap_options bootstrap;
    pms_lasso_fit_options lasso;
    /* The held-out error of every method: each fitting run estimated by the method refitted
     * (selection and all) without it. folds 0: leave-one-out up to 100 fitting runs, 10
     * folds above; K: K folds (pms_folds with seed; K = the fitting runs is leave-one-out). */
    size_t folds;
    unsigned long long seed;
    double level;                 /* of the prediction intervals; 0 means 0.9 */
} pms_estimate_options;

/* How a test run's prediction interval was made. */
typedef enum pms_estimate_interval {
    PMS_INTERVAL_NONE = 0,
    /* as R's predict.lm(interval = "prediction"): the t interval of the final least-squares
     * fit (MRA, forward, MRACM), given its residual degrees of freedom; conditional on the
     * counters chosen */
    PMS_INTERVAL_T = 1,
    /* jackknife+ (Barber, Candes, Ramdas and Tibshirani, "Predictive inference with the
     * jackknife+", 2021; CV+ with folds) on the error % of the held-out estimates: with
     * r_i = |error %_i| / 100 of fitting run i and e_i(x) the estimate of the model fitted
     * without i's fold, run x's cycles c are inside fold i's interval when |e_i(x) - c| <=
     * r_i c, i.e. e_i(x) / (1 + r_i) <= c <= e_i(x) / (1 - r_i); the bounds are the
     * floor(a (m + 1))-th smallest lower and the ceil((1 - a)(m + 1))-th smallest upper
     * end over the m fitting runs, a = 1 - level (unbounded where that rank is outside
     * 1..m: too few fitting runs for the level). Coverage >= 1 - 2a whatever the method. */
    PMS_INTERVAL_JACKKNIFE = 2,
} pms_estimate_interval;

typedef struct pms_estimate_result {
    bool wanted;
    bool ok;
    char reason[512];     /* why not, when !ok */
    const pms_cycle_model *model;
    pms_lp_fit lp;
    pms_mra_fit mra;
    pms_mracm_fit mracm;
    pms_ridge_fit ridge;
    pms_pcr_fit pcr;
    pms_mra_fit forward;
    pms_nnls_fit nnls;
    pms_lasso_fit lasso;
    const char *select;   /* MRA counter selection, as given */
    /* the held-out error (options.folds): heldout[a] estimates fitting run d->train[a] by the
     * method refitted without its fold (NaN where that refit failed: heldout_reason says why) */
    size_t folds;              /* folds used (= n_train: leave-one-out) */
    double *heldout;           /* n_train */
    size_t heldout_failed;     /* fitting runs without a held-out estimate */
    double heldout_error_pct;  /* mean |error %| of the held-out estimates (NaN: none) */
    char heldout_reason[512];
    /* the prediction interval of each test run's cycles (NaN where none could be made) */
    pms_estimate_interval interval;
    double level;
    double *lower, *upper;     /* n_test */
    /* with bootstrap replicates: intervals of the intercept, then of every counter
     * (zero-filled when the bootstrap could not run: boot_reason says why) */
    pms_bootstrap boot;
    char boot_reason[512];
} pms_estimate_result;

/* Fits each wanted method on d into res[PMS_EST_METHODS]; a method that cannot
 * fit has ok false and its reason. Returns how many methods fitted. */
size_t pms_estimate_run(const pms_estimate_data *d, const pms_estimate_options *o, pms_estimate_result *res);
void pms_estimate_result_free(pms_estimate_result *res);
/* Whether the method gets bootstrap intervals (LP, ridge, PCR; MRA has its standard errors). */
bool pms_estimate_bootstraps(size_t method);

void pms_estimate_write_text(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res);
void pms_estimate_write_json(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res);
/* TABLE X as CSV: method,counters,heldout_abs_error_pct,test_abs_error_pct,fit_abs_error_pct,
 * <error % of each test run>,<run>_lower,<run>_upper (each test run's prediction interval in
 * cycles),interval,note (empty numbers and the reason in note for a method that could not fit). */
int pms_estimate_write_csv(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res);
/* An SVG chart of the error % of every run by each method (as the paper's Figs. 1-2 per TEST). */
int pms_estimate_write_svg(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res);

/* The bootstrap replicates kept (bootstrap.keep) of every method as CSV
 * (pms_bootstrap_write_replicates: what is the method, rows are 1-based positions
 * among the fitting runs d->train, the coefficients intercept then each counter). */
int pms_estimate_write_bootstrap_replicates(FILE *out, const pms_estimate_data *d, const pms_estimate_result *res);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
