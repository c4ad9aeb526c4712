/* Benjamini-Hochberg q-values, as R's p.adjust(p, method = "BH") (pmuscope/stats.h). */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>

typedef struct ranked {
    double p;
    size_t at;
} ranked;

static int by_p_descending(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->p != y->p) return x->p < y->p ? 1 : -1;
    return (x->at > y->at) - (x->at < y->at); /* R's order() is stable */
}

int pms_p_adjust_bh(double *q, const double *p, size_t n)
{
    ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) return pms__fail(PMS_ENOMEM, "out of memory");
    size_t m = 0; /* the p-values that are numbers: NaN ones are left out, as R's NA */
    for (size_t i = 0; i < n; i++)
        if (!isnan(p[i])) r[m++] = (ranked){p[i], i};
    for (size_t i = 0; i < n; i++)
        if (isnan(p[i])) q[i] = NAN;
    qsort(r, m, sizeof *r, by_p_descending);
    /* q of the i-th smallest = min over j >= i of m / j * p_(j), at most 1 */
    double running = INFINITY;
    for (size_t k = 0; k < m; k++) {
        double v = (double)m / (double)(m - k) * r[k].p;
        if (v < running) running = v;
        q[r[k].at] = running < 1 ? running : 1;
    }
    free(r);
    return PMS_OK;
}
