/* Internal: pieces shared by the cycle-estimation methods. */
#ifndef PMS_ESTIMATE_MODEL_H
#define PMS_ESTIMATE_MODEL_H
#include "pmuscope/estimate.h"
#include "pmuscope/stats.h"

/* Fails (PMS_EINVAL) on fewer than min_runs runs, no counters, cycles that are
 * not finite and positive, or event values that are not finite, naming the run
 * (1-based) and counter (by name when names is not NULL). */
int pms__estimate_check(const double *cycles, const double *events, size_t m, size_t n,
                       const char *const *names, size_t min_runs);

/* Allocates coef and used for n counters, all zero. */
int pms__cycle_model_alloc(pms_cycle_model *model, size_t n);

/* The m x k matrix of columns cols[0..k-1] of the m x n events (malloc'd), and
 * the matching names (array of pointers into names, malloc'd); NULL when out of memory. */
double *pms__estimate_columns(const double *events, size_t m, size_t n, const size_t *cols, size_t k);
const char **pms__estimate_names(const char *const *names, const size_t *cols, size_t k);

/* Fills model (allocated for n counters) from an OLS fit on the columns cols[0..k-1]. */
int pms__cycle_model_from_lm(pms_cycle_model *model, size_t n, const struct pms_lm *lm, const size_t *cols,
                            size_t k);

/* The LP's bound on simplex iterations per attempt (dual, then primal); a limit
 * <= 0 restores the default. For tests of the bound. */
#define PMS__LP_ITERATION_LIMIT 100000
void pms__lp_set_iteration_limit(int limit);

struct pms_estimate_data;
struct pms_estimate_options;
struct pms_estimate_result;

/* The chosen counters of run `run` (a row of d's runs table) into out[d->n_counters]. */
void pms__estimate_counters_of(const struct pms_estimate_data *d, size_t run, double *out);

/* Fits method k (PMS_EST_*) as o asks on the m runs (cycles c, events e of n counters)
 * into r: its fit, model, ok and reason. */
void pms__estimate_fit(size_t k, const double *c, const double *e, size_t m, size_t n, const char *const *names,
                       const struct pms_estimate_options *o, struct pms_estimate_result *r);
/* Frees the fits and the held-out results of one result (zeroed ones too). */
void pms__estimate_result_clear(struct pms_estimate_result *r);
/* The held-out estimates of method k's fit r on the fitting runs of d (o->folds), its
 * held-out error and the prediction intervals of the test runs. */
int pms__estimate_heldout(const struct pms_estimate_data *d, const struct pms_estimate_options *o, size_t k,
                          struct pms_estimate_result *r);

/* The bootstrap of one method (pms_estimate_bootstraps) on the fitting runs of d. */
int pms__estimate_bootstrap(const struct pms_estimate_data *d, const struct pms_estimate_options *o, size_t method,
                            pms_bootstrap *out);

#endif
