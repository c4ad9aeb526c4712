#include "stats/quantile.h"
#include "util/error.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int pms_quantiles_type7(const double *x, size_t n, double q[5])
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return pms_fail(PMS_ENOMEM, "out of memory for quantiles");
    memcpy(s, x, n * sizeof *s);
    gsl_sort(s, 1, n);
    static const double probs[5] = {0, 0.25, 0.5, 0.75, 1};
    for (int k = 0; k < 5; k++) {
        /* R: index = 1 + (n - 1) p; qs = (1 - h) x[lo] + h x[hi] where h = index - lo */
        double index = (double)(n - 1) * probs[k];
        size_t lo = (size_t)floor(index), hi = (size_t)ceil(index);
        double h = index - (double)lo;
        q[k] = s[lo];
        if (index > (double)lo && s[hi] != s[lo]) q[k] = (1 - h) * s[lo] + h * s[hi];
    }
    free(s);
    return PMS_OK;
}
