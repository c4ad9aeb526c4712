/* Internal: pieces shared by the cycle-estimation methods. */
#ifndef PMS_ESTIMATE_MODEL_H
#define PMS_ESTIMATE_MODEL_H
#include "pmuscope/estimate.h"

/* Fails (PMS_EINVAL) on fewer than min_runs runs, no counters, cycles that are
 * not finite and positive, or event values that are not finite, naming the run
 * (1-based) and counter (by name when names is not NULL). */
int pms_estimate_check(const double *cycles, const double *events, size_t m, size_t n,
                       const char *const *names, size_t min_runs);

/* Allocates coef and used for n counters, all zero. */
int pms_cycle_model_alloc(pms_cycle_model *model, size_t n);

#endif
