#include "stats/quantile.h"
#include "util/error.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The smallest of x[0..n) above v, or v again when v occurs beyond position lo
 * (the order statistic just above x[lo] = v, positions 0-based): a linear scan
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

/* s[0..n) rearranged around the median's value m as [< m][== m][> m]: after one
 * selection every other order statistic is selected within the part that holds it,
 * the quartiles each in about half of the values. */
struct parts {
    double *s, m;
    size_t n, below, equal; /* s[0..below) < m, s[below..below + equal) == m */
};

static void partition(struct parts *p)
{
    size_t lt = 0, gt = p->n;
    for (size_t i = 0; i < gt;) { /* three-way partition (Dijkstra's flag) */
        double v = p->s[i];
        if (v < p->m) {
            p->s[i++] = p->s[lt];
            p->s[lt++] = v;
        } else if (v > p->m) {
            p->s[i] = p->s[--gt];
            p->s[gt] = v;
        } else {
            i++;
        }
    }
    p->below = lt;
    p->equal = gt - lt;
}

/* The order statistic at position pos into *a and, when b is not NULL, the one at
 * pos + 1 (< n) into *b. */
static void order_pair(const struct parts *p, size_t pos, double *a, double *b)
{
    size_t above = p->below + p->equal, nabove = p->n - above;
    if (pos < p->below) {
        *a = gsl_stats_select(p->s, 1, p->below, pos);
        if (b) *b = pos + 1 < p->below ? next_order_statistic(p->s, p->below, pos, *a) : p->m;
    } else if (pos < above) {
        *a = p->m;
        if (b) *b = pos + 1 < above ? p->m : gsl_stats_min(p->s + above, 1, nabove);
    } else {
        *a = gsl_stats_select(p->s + above, 1, nabove, pos - above);
        if (b) *b = next_order_statistic(p->s + above, nabove, pos - above, *a);
    }
}

int pms__quantiles_type7(const double *x, size_t n, double q[5])
{
    if (n == 0) return pms__fail(PMS_EINVAL, "quantiles of no values");
    double *s = malloc(n * sizeof *s);
    if (!s) return pms__fail(PMS_ENOMEM, "out of memory for quantiles");
    memcpy(s, x, n * sizeof *s);
    gsl_stats_minmax(&q[0], &q[4], s, 1, n);
    static const double probs[3] = {0.5, 0.25, 0.75}; /* the median first: it splits the values */
    struct parts p = {.s = s, .n = n};
    for (int k = 0; k < 3; k++) {
        /* R: index = 1 + (n - 1) p; qs = (1 - h) x[lo] + h x[hi] where h = index - lo */
        double index = (double)(n - 1) * probs[k];
        size_t lo = (size_t)floor(index);
        double h = index - (double)lo, xlo, xhi = 0;
        if (k == 0) {
            p.m = gsl_stats_select(s, 1, n, lo); /* order statistics by selection, O(n), not a sort */
            partition(&p);
        }
        order_pair(&p, lo, &xlo, h > 0 ? &xhi : NULL);
        q[k == 0 ? 2 : k == 1 ? 1 : 3] = h > 0 && xhi != xlo ? (1 - h) * xlo + h * xhi : xlo;
    }
    free(s);
    return PMS_OK;
}
