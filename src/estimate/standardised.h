/* Internal: the standardised design of the shrinkage methods (ridge, principal
 * components): varying counters centred and divided by their sd (n - 1, as R's
 * scale()), cycles centred; and the way back to a model in the counters' units. */
#ifndef PMS_ESTIMATE_STANDARDISED_H
#define PMS_ESTIMATE_STANDARDISED_H
#include "pmuscope/estimate.h"

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

typedef struct pms__std_design {
    size_t m, n, k;      /* runs, counters, varying counters (columns of z) */
    double *mean, *sd;   /* n */
    size_t *cols;        /* k: the counter of each column of z */
    size_t *dropped;     /* constant counters */
    size_t n_dropped;
    double ymean;
    gsl_matrix *z;       /* m x k */
    gsl_vector *yc;      /* m */
} pms__std_design;

/* Fails (naming method) when no counter varies or there are fewer than k + 2 runs
 * (GSL's SVD wants at least as many rows as columns; centring takes one). */
int pms__std_design_make(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                         const char *method, pms__std_design *s);
void pms__std_design_free(pms__std_design *s);
/* model (allocated for n counters) and std_coef[n] from the standardised coefficients b[k]. */
void pms__std_design_model(const pms__std_design *s, const gsl_vector *b, pms_cycle_model *model, double *std_coef);

#endif
