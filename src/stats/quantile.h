/* Internal: sample quantiles as R's quantile() computes them by default (type 7). */
#ifndef PMS_STATS_QUANTILE_H
#define PMS_STATS_QUANTILE_H
#include <stddef.h>

/* Min, 1st quartile, median, 3rd quartile and max of x (n > 0) into q[5]. */
int pms__quantiles_type7(const double *x, size_t n, double q[5]);

#endif
