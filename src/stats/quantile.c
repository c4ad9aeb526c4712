#include "stats/quantile.h"
#include "util/error.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The order statistic just above x[lo] = v (positions 0-based): v again when v
 * occurs beyond position lo, else the smallest value above v. A linear scan
 * instead of a second selection. */
static double next_order_statistic(const double *x, size_t n, size_t lo, double v)
{
    size_t at_most = 0;
    double above = INFINITY;
    for (size_t i = 0; i < n; i++) {
        at_most += x[i] <= v;
        if (x[i] > v && x[i] < above) above = x[i];
    }
    return at_most > lo + 1 ? v : above;
}

int pms__quantiles_type7(const double *x, size_t n, double q[5])
{
    if (n == 0) return pms__fail(PMS_EINVAL, "quantiles of no values");
    double *s = malloc(n * sizeof *s);
    if (!s) return pms__fail(PMS_ENOMEM, "out of memory for quantiles");
    memcpy(s, x, n * sizeof *s);
    q[0] = q[4] = s[0];
    for (size_t i = 1; i < n; i++) q[0] = fmin(q[0], s[i]), q[4] = fmax(q[4], s[i]);
    static const double probs[3] = {0.25, 0.5, 0.75};
    for (int k = 0; k < 3; k++) {
        /* R: index = 1 + (n - 1) p; qs = (1 - h) x[lo] + h x[hi] where h = index - lo */
        double index = (double)(n - 1) * probs[k];
        size_t lo = (size_t)floor(index);
        double h = index - (double)lo;
        /* order statistics by selection, O(n), instead of a full sort */
        double xlo = gsl_stats_select(s, 1, n, lo);
        q[k + 1] = xlo;
        if (h > 0) {
            double xhi = next_order_statistic(s, n, lo, xlo);
            if (xhi != xlo) q[k + 1] = (1 - h) * xlo + h * xhi;
        }
    }
    free(s);
    return PMS_OK;
}
