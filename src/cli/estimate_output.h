/* pmuscope estimate: the results of the three methods and how they are shown. */
#ifndef PMS_CLI_ESTIMATE_OUTPUT_H
#define PMS_CLI_ESTIMATE_OUTPUT_H
#include "pmuscope/estimate.h"

#include <stdbool.h>
#include <stdio.h>

enum { EST_LP, EST_MRA, EST_MRACM, EST_METHODS };

/* The data the models were fitted on: the chosen counters of the fitting runs. */
typedef struct est_data {
    const pms_runs *runs;
    size_t n_counters;
    const char **names;  /* n_counters */
    size_t *counter_col; /* column of each counter in runs->events */
    size_t *train, n_train, *test, n_test;
    double *cycles;      /* n_train */
    double *events;      /* n_train x n_counters */
} est_data;

typedef struct est_result {
    bool wanted;
    bool ok;
    char reason[512];     /* why not, when !ok */
    const pms_cycle_model *model;
    pms_lp_fit lp;
    pms_mra_fit mra;
    pms_mracm_fit mracm;
    const char *select;   /* MRA counter selection, as given */
} est_result;

/* The estimate of run j (a row of runs) by a model over the chosen counters. */
double est_predict(const est_data *d, const pms_cycle_model *m, size_t run);

void est_print_text(FILE *out, const est_data *d, const est_result *res);
void est_print_json(FILE *out, const est_data *d, const est_result *res);
/* TABLE X as CSV: method,counters,fit_abs_error_pct,<error % of each test run>,note
 * (empty numbers and the reason in note for a method that could not fit). */
int est_write_csv(FILE *out, const est_data *d, const est_result *res);
/* An SVG chart of the error % of every run by each method (as the paper's Figs. 1-2 per TEST). */
int est_write_svg(FILE *out, const est_data *d, const est_result *res);

#endif
