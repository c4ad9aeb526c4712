/* Internal: the parts of MRACM shared between its files. */
#ifndef PMS_ESTIMATE_MRACM_INTERNAL_H
#define PMS_ESTIMATE_MRACM_INTERNAL_H
#include "pmuscope/estimate.h"

/* The instructions counter: the one named `want` (NULL: the first named
 * instructions, inst_retired or inst, any case), or PMS_MRACM_NONE. */
size_t pms__mracm_instructions(const char *const *names, size_t n, const char *want);

/* Partial correlation of each counter with cycles given the counter inst, into
 * partial[n] (NaN for inst itself and for counters constant over the runs). */
int pms__mracm_partial(const double *cycles, const double *events, size_t m, size_t n, size_t inst,
                       double *partial);

/* The counter with the largest |partial|, or PMS_MRACM_NONE when none is a number. */
size_t pms__mracm_partial_best(const double *partial, size_t n);

#endif
