/* Internal: pieces of the CPI stack computation in their own files. */
#ifndef PMS_CPISTACK_INTERNAL_H
#define PMS_CPISTACK_INTERNAL_H
#include "pmuscope/cpistack.h"

/* Bootstrap intervals of the coefficients into s->boot: the training rows (xtr, ytr
 * and weights wtr, in time order) resampled in moving blocks (o->bootstrap.block,
 * 0: pms_bootstrap_block_length) and refitted as the model was. */
int pms__cpistack_bootstrap(pms_cpistack *s, const pms_cpistack_options *o, const double *xtr, const double *ytr,
                            const double *wtr);

#endif
