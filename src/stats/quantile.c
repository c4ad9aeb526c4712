#include "stats/quantile.h"
#include "util/error.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int pms_quantiles_type7(const double *x, size_t n, double q[5])
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return pms_fail(PMS_ENOMEM, "out of memory for quantiles");
    memcpy(s, x, n * sizeof *s);
    static const double probs[5] = {0, 0.25, 0.5, 0.75, 1};
    for (int k = 0; k < 5; k++) {
        /* R: index = 1 + (n - 1) p; qs = (1 - h) x[lo] + h x[hi] where h = index - lo */
        double index = (double)(n - 1) * probs[k];
        size_t lo = (size_t)floor(index), hi = (size_t)ceil(index);
        double h = index - (double)lo;
        /* order statistics by selection, O(n) each, instead of a full sort */
        double xlo = gsl_stats_select(s, 1, n, lo), xhi = hi == lo ? xlo : gsl_stats_select(s, 1, n, hi);
        q[k] = xlo;
        if (index > (double)lo && xhi != xlo) q[k] = (1 - h) * xlo + h * xhi;
    }
    free(s);
    return PMS_OK;
}
