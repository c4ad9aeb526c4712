/* pmuscope: CPI stacks by linear regression (Choudhary and Singh).
 *
 * From a wide interval table: CPI = cycles / instructions per interval; the
 * regressors are miss events, per instruction (default) or per interval as the
 * paper used them, optionally min-max normalised; cold-start intervals are
 * skipped and the range clipped; a seeded random split (4:1 by default) gives
 * the training and test intervals; CPI is fitted by OLS or NNLS; the CPI stack
 * is base = intercept and component_i = coefficient_i x mean of event i over
 * the training intervals. */
#ifndef PMUSCOPE_CPISTACK_H
#define PMUSCOPE_CPISTACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "pmuscope/chart.h"
#include "pmuscope/json.h"
#include "pmuscope/stats.h"
#include "pmuscope/table.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* How the intervals are split into training and test intervals. */
typedef enum pms_cpistack_validation {
    PMS_CPISTACK_RANDOM = 0,  /* a seeded random split (train_fraction) */
    PMS_CPISTACK_BLOCKED = 1, /* the first train_fraction of the intervals in time order, then the rest */
    PMS_CPISTACK_RUNS = 2,    /* the intervals of the first run (run_column) against every other run */
} pms_cpistack_validation;

/* What to do with intervals whose counts perf scaled from part of the time (multiplexing:
 * a running_pct(EVENT) column below 100, see pmuscope/perfstat.h, for the cycles, the
 * instructions or a regressor). */
typedef enum pms_cpistack_multiplexed {
    PMS_MUX_KEEP = 0,   /* fit them as they are, counted and marked in the report */
    PMS_MUX_WEIGHT = 1, /* fit them with weight = their smallest running share (times the
                           instructions with the weighted option) */
    PMS_MUX_DROP = 2,   /* leave them out, counted */
    PMS_MUX_REFUSE = 3, /* fail at the first, naming it */
} pms_cpistack_multiplexed;

typedef struct pms_cpistack_options {
    const char *cycles;        /* column name by hand, or NULL to recognise it */
    const char *instructions;  /* idem */
    const char *const *events; /* regressors by hand; NULL: every miss-like column */
    size_t nevents;
    const char *const *where;  /* "COLUMN=VALUE" row filters (all must hold) */
    size_t nwhere;
    bool per_interval;         /* regressors as counts per interval (the paper) instead of per instruction */
    bool normalize;            /* min-max normalise the regressors: min and max from the training
                                  intervals, applied to the test intervals as well */
    bool weighted;             /* weighted least squares by instructions: the stack then adds up to
                                  the true CPI (total cycles / total instructions) of the training intervals */
    size_t skip;               /* cold-start intervals dropped from the front */
    size_t range_first;        /* keep positions range_first..range_last (1-based, after filtering); 0 = all */
    size_t range_last;
    double train_fraction;     /* (0, 1]; 0 means 0.8; 1 fits on every interval and leaves none to test */
    uint64_t seed;
    pms_lm_method method;      /* OLS, NNLS, or PMS_LM_RIDGE (pms_ridge_fit_runs, not weighted) */
    bool drop_missing;         /* drop intervals with an empty/NaN count (<not counted>) instead of failing */
    pms_cpistack_validation validation;
    const char *run_column;    /* PMS_CPISTACK_RUNS: the column naming the run of each interval */
    bool newey_west;           /* also Newey-West (HAC) standard errors (OLS without weights) */
    /* replicates > 0: bootstrap intervals of the coefficients, the training intervals
     * resampled in moving blocks of `block` intervals (0: pms_bootstrap_block_length,
     * n^(1/3); 1: single intervals) and refitted by the same method and weights */
    pms_bootstrap_options bootstrap;
    pms_cpistack_multiplexed multiplexed;
} pms_cpistack_options;

typedef struct pms_cpistack {
    size_t nevents;
    char **events;         /* regressor names */
    size_t nrows;          /* intervals used */
    size_t *rows;          /* their row indices in the table */
    size_t ndropped;       /* intervals dropped for zero instructions */
    size_t nmissing;       /* intervals dropped for a missing count (drop_missing) */
    double *cpi;           /* nrows observed CPI */
    double *instructions;  /* nrows instructions of each interval */
    double *x;             /* nrows x nevents regressors as fitted */
    size_t ntrain, ntest;
    size_t *train, *test;  /* positions in 0..nrows-1 */
    bool seeded;           /* a random split with a test part: the seed chose it */
    uint64_t seed;         /* the split's seed (seeded) */
    pms_lm *model;
    double durbin_watson;  /* of the training residuals in time order */
    size_t hac_lag;        /* Newey-West lag (newey_west) */
    double *hac_se;        /* ncoef Newey-West standard errors, or NULL */
    double test_rmse, test_mae; /* on the test intervals (NaN when there are none) */
    double *cor;           /* nevents x nevents Pearson correlation (training intervals) */
    double *vif;           /* nevents VIFs (NaN when not defined) */
    char vif_note[256];    /* why VIFs are NaN, or "" */
    double base;           /* intercept */
    double *component;     /* nevents: coefficient x mean regressor over the training intervals
                              (weighted by instructions with the weighted option) */
    double model_cpi;      /* base + sum of components */
    double observed_cpi;   /* mean of the interval CPIs over the training intervals */
    double true_cpi;       /* total cycles / total instructions over the training intervals */
    double program_cpi;    /* total cycles / total instructions over every interval used */
    double *stack;         /* nrows x (1 + nevents): base, coefficient x regressor of each interval */
    pms_bootstrap boot;    /* with bootstrap replicates: intervals of model->coef */
    /* PMS_LM_RIDGE: the penalty on the standardised regressors chosen by GCV, the
     * effective degrees of freedom and the GCV score (pms_ridge_fit); NaN otherwise */
    double ridge_lambda, ridge_df, ridge_gcv;
    /* CPI = cycles / instructions of one run: in a table merged from runs measured apart
     * (pms_table_col_source), the cycles column of the instructions' own run ("CPU_CYCLES@2"),
     * never the cycles of one run over the instructions of another */
    char *cycles_name, *instructions_name;
    size_t cpi_source;       /* that run (0: a table of one run) */
    char cpi_note[256];      /* set when columns named by hand come from two runs */
    /* multiplexed intervals (options.multiplexed) */
    size_t nmultiplexed;     /* used intervals with a count scaled from part of the time */
    size_t nmux_dropped;     /* intervals left out for it (PMS_MUX_DROP) */
    double min_running_pct;  /* the smallest running share among the used intervals (100: none multiplexed) */
    bool mux_weighted;       /* the fit weighted them by their share (PMS_MUX_WEIGHT) */
    double *running_pct;     /* nrows: each interval's smallest running share */
} pms_cpistack;

int pms_cpistack_compute(const pms_table *t, const pms_cpistack_options *opt, pms_cpistack **out);
void pms_cpistack_free(pms_cpistack *s);

/* The stack under four models on the same intervals and split (the other options as
 * given), to show how much it moves with the model (security_sha's base CPI runs from 0.47
 * to 0.88 across them with the same model CPI): OLS and NNLS on the events per instruction,
 * OLS on the events per interval (the paper's), OLS on the events per instruction min-max
 * normalised. A model that cannot be fitted is NULL with why. */
enum { PMS_CPISTACK_MODELS = 4 };
typedef struct pms_cpistack_comparison {
    const char *names[PMS_CPISTACK_MODELS];  /* "OLS", "NNLS", "per interval", "normalised" */
    pms_cpistack *stacks[PMS_CPISTACK_MODELS];
    char why[PMS_CPISTACK_MODELS][256];
} pms_cpistack_comparison;

int pms_cpistack_compare(const pms_table *t, const pms_cpistack_options *opt, pms_cpistack_comparison *out);
void pms_cpistack_comparison_free(pms_cpistack_comparison *c);
/* The stacks side by side: base, each event, model CPI, true CPI, R^2 and test RMSE per model. */
int pms_cpistack_write_comparison(const pms_cpistack_comparison *c, FILE *out);
/* [{"model": ..., "fitted": ..., "base": ..., "components": {...}, "model_cpi": ..., "r_squared": ...}, ...] */
void pms_cpistack_write_comparison_json(const pms_cpistack_comparison *c, struct pms_json *j);

/* Reports (src/cpistack/cpistack_report.c). */
/* The lm-style summary, test errors, correlation matrix with VIFs, and the stack. */
int pms_cpistack_write_text(const pms_cpistack *s, FILE *out);
/* One line per stack for many groups: a header (first = true) names the columns
 * "group n R2 test_RMSE base <events...> model_CPI observed_CPI". */
int pms_cpistack_write_row(const pms_cpistack *s, const char *group, bool first, FILE *out);
/* One JSON object with every number of the text report. */
void pms_cpistack_write_json(const pms_cpistack *s, struct pms_json *j);
/* The bootstrap replicates kept (bootstrap.keep) as CSV (pms_bootstrap_write_replicates;
 * rows are 1-based positions among the training intervals), what naming the group. */
int pms_cpistack_write_bootstrap_replicates(const pms_cpistack *s, const char *what, bool header, FILE *out);
/* A chart of the stacked CPI per interval over time and one of observed
 * against model CPI; title names the group (may be NULL). */
int pms_cpistack_charts(const pms_cpistack *s, const char *title, pms_chart **stacks, pms_chart **cpi);
/* Stacked bars, one bar per stack (base, then the components). All stacks
 * must have the same events. */
int pms_cpistack_bar_chart(const pms_cpistack *const *s, const char *const *labels, size_t n, pms_chart **out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
