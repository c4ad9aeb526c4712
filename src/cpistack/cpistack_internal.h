/* Internal: pieces of the CPI stack computation in their own files. */
#ifndef PMS_CPISTACK_INTERNAL_H
#define PMS_CPISTACK_INTERNAL_H
#include "pmuscope/cpistack.h"

/* What ridge regression chose (pms_ridge_fit). */
typedef struct pms__cpistack_ridge {
    double lambda, df, gcv;
} pms__cpistack_ridge;

/* Fits CPI y on the n x p regressors x (weights w, NULL: unweighted) as o asks: o->method OLS or NNLS
 * through pms_lm_fit, PMS_LM_RIDGE through pms_ridge_fit_runs and pms_lm_from_coef
 * (ridge receives its lambda, df and GCV score; may be NULL). */
int pms__cpistack_fit(const double *x, size_t n, size_t p, const double *y, const double *w, const char *const *names,
                      const pms_cpistack_options *o, pms_lm **out, pms__cpistack_ridge *ridge);

/* Bootstrap intervals of the coefficients into s->boot: the training rows (xtr, ytr
 * and the fit's weights wtr or NULL, in time order) resampled in moving blocks (o->bootstrap.block,
 * 0: pms_bootstrap_block_length) and refitted as the model was. */
int pms__cpistack_bootstrap(pms_cpistack *s, const pms_cpistack_options *o, const double *xtr, const double *ytr,
                            const double *wtr);

#endif
