/* The Wilcoxon rank sum (Mann-Whitney) test with the Hodges-Lehmann estimate and its
 * interval, as R's wilcox.test(x, y, conf.int = TRUE) (pmuscope/stats.h). GSL has no
 * distribution of the rank sum: its exact counts are made here. */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { EXACT_BELOW = 50 };              /* R's wilcox.test is exact below 50 values a side */
#define MAX_PAIRS 10000000.0            /* pairwise differences kept for the estimate */

/* c[u] for u = 0..m n: in how many of the C(m + n, m) orders of m values x among n values
 * y (no ties) U = #{(i, j): x_i > y_j} is u. Walking the values upwards, the s-th x to
 * come adds the y values seen before it; dp[s][u] counts the walks with s x so far. */
static double *mann_whitney_counts(size_t m, size_t n)
{
    size_t len = m * n + 1;
    double *dp = calloc((m + 1) * len, sizeof *dp);
    if (!dp) return NULL;
    dp[0] = 1;
    for (size_t t = 1; t <= m + n; t++)
        for (size_t s = t < m ? t : m; s >= 1; s--) {
            size_t below = t - s; /* the y values under the s-th x when it is value t */
            if (below > n) break;
            double *to = dp + s * len, *from = dp + (s - 1) * len;
            for (size_t u = len - 1; u + 1 > below; u--) to[u] += from[u - below];
        }
    memmove(dp, dp + m * len, len * sizeof *dp);
    return dp;
}

/* P(U <= u) (lower) or P(U > u) from the counts, summing the shorter tail as R's pwilcox
 * does (a small upper tail keeps its digits). */
static double counts_cdf(const double *c, size_t m, size_t n, double u, bool lower)
{
    double mn = (double)m * (double)n, total = 0, p = 0;
    u = floor(u + 1e-7);
    if (u < 0) return lower ? 0 : 1;
    if (u >= mn) return lower ? 1 : 0;
    for (size_t k = 0; k <= m * n; k++) total += c[k];
    if (u <= mn / 2) {
        for (size_t k = 0; k <= (size_t)u; k++) p += c[k] / total;
        return lower ? p : 1 - p;
    }
    for (size_t k = 0; k < (size_t)(mn - u); k++) p += c[k] / total; /* P(U >= mn - u + ...) by symmetry */
    return lower ? 1 - p : p;
}

double pms_wilcoxon_cdf(double u, size_t m, size_t n)
{
    if (!m || !n || m > 1000 || n > 1000 || isnan(u)) return NAN;
    double *c = mann_whitney_counts(m, n);
    double p = c ? counts_cdf(c, m, n, u, true) : NAN;
    free(c);
    return p;
}

/* R's qwilcox(p, m, n) for p <= 0.5: the smallest q with P(U <= q) >= p. */
static size_t counts_quantile(const double *c, size_t m, size_t n, double p)
{
    double total = 0, sum = 0;
    for (size_t k = 0; k <= m * n; k++) total += c[k];
    p -= 10 * 2.220446049250313e-16;
    size_t q = 0;
    while (q < m * n && (sum += c[q] / total) < p) q++;
    return q;
}

typedef struct value {
    double v;
    int from_x;
} value;

static int by_value(const void *a, const void *b)
{
    double x = ((const value *)a)->v, y = ((const value *)b)->v;
    return (x > y) - (x < y);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The two samples, with room to rank x - d against y. */
typedef struct samples {
    const double *x, *y;
    size_t nx, ny;
    value *all; /* nx + ny */
} samples;

/* W of x - d against y (ranks averaged over ties), and sum(t^3 - t) over the tied groups. */
static double rank_sum(const samples *s, double d, double *ties)
{
    size_t n = s->nx + s->ny;
    for (size_t i = 0; i < s->nx; i++) s->all[i] = (value){s->x[i] - d, 1};
    for (size_t j = 0; j < s->ny; j++) s->all[s->nx + j] = (value){s->y[j], 0};
    qsort(s->all, n, sizeof *s->all, by_value);
    double w = 0, t3 = 0;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        while (k + 1 < n && s->all[k + 1].v == s->all[i].v) k++;
        double rank = (double)(i + k + 2) / 2, t = (double)(k - i + 1);
        for (size_t j = i; j <= k; j++) w += s->all[j].from_x ? rank : 0;
        t3 += t * t * t - t;
        i = k + 1;
    }
    *ties = t3;
    return w - (double)s->nx * ((double)s->nx + 1) / 2;
}

/* The normal approximation's z of x - d against y, with the continuity and ties corrections. */
static double shift_z(const samples *s, double d)
{
    double ties, mx = (double)s->nx, my = (double)s->ny;
    double dz = rank_sum(s, d, &ties) - mx * my / 2;
    double sigma = sqrt(mx * my / 12 * ((mx + my + 1) - ties / ((mx + my) * (mx + my - 1))));
    double correction = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0;
    return (dz - correction) / sigma;
}

/* Where shift_z, a step function falling as d grows, crosses zq among the distinct sorted
 * differences u[0..k): the end of the range when it lies beyond it (as R's root()), else
 * the difference at which it steps past zq, the point uniroot closes in on. */
static double shift_where_z(const samples *s, const double *u, size_t k, double zq)
{
    if (shift_z(s, u[0]) - zq <= 0) return u[0];
    if (shift_z(s, u[k - 1]) - zq >= 0) return u[k - 1];
    /* z is constant between u[i - 1] and u[i]: g(i) for i in 1..k-1 is its value there
     * (at the midpoint) less zq, g(k) that at u[k - 1]; at the first i with g(i) <= 0 it
     * steps, at u[i - 1] */
    size_t lo = 1, hi = k;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (shift_z(s, mid < k ? u[mid - 1] / 2 + u[mid] / 2 : u[k - 1]) - zq <= 0) hi = mid;
        else lo = mid + 1;
    }
    if (lo < k && shift_z(s, u[lo - 1] / 2 + u[lo] / 2) == zq) return u[lo - 1] / 2 + u[lo] / 2; /* flat on zq */
    return u[lo - 1];
}

static double median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int pms_rank_sum_test(pms_test_result *out, const double *x, size_t nx, const double *y, size_t ny, double level)
{
    if (!nx || !ny || !(level > 0 && level < 1))
        return pms__fail(PMS_EINVAL, "wilcox.test: expected values on each side and a level in (0, 1), got %zu and "
                         "%zu values at %g", nx, ny, level);
    if ((double)nx * (double)ny > MAX_PAIRS)
        return pms__fail(PMS_EINVAL, "wilcox.test: %zu x %zu values make too many pairwise differences", nx, ny);
    for (size_t i = 0; i < nx + ny; i++)
        if (!isfinite(i < nx ? x[i] : y[i - nx]))
            return pms__fail(PMS_EINVAL, "wilcox.test: value %zu of %s is not finite", i < nx ? i + 1 : i - nx + 1,
                             i < nx ? "x" : "y");
    size_t npairs = nx * ny;
    samples s = {x, y, nx, ny, malloc((nx + ny) * sizeof *s.all)};
    double *diffs = malloc(npairs * sizeof *diffs), *counts = NULL;
    int rc = s.all && diffs ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        for (size_t i = 0; i < nx; i++)
            for (size_t j = 0; j < ny; j++) diffs[i * ny + j] = x[i] - y[j];
        qsort(diffs, npairs, sizeof *diffs, by_double);
        double ties, w = rank_sum(&s, 0, &ties), mn = (double)nx * (double)ny, alpha = 1 - level;
        *out = (pms_test_result){.statistic = w, .df = NAN, .estimate = median_sorted(diffs, npairs), .std_error = NAN};
        out->exact = nx < EXACT_BELOW && ny < EXACT_BELOW && ties == 0;
        if (out->exact && !(counts = mann_whitney_counts(nx, ny))) rc = pms__fail(PMS_ENOMEM, "out of memory");
        if (rc == PMS_OK && out->exact) {
            double p = w > mn / 2 ? counts_cdf(counts, nx, ny, w - 1, false) : counts_cdf(counts, nx, ny, w, true);
            out->p_value = fmin(2 * p, 1);
            size_t qu = counts_quantile(counts, nx, ny, alpha / 2);
            if (qu == 0) qu = 1;
            out->ci_low = diffs[qu - 1];        /* R's diffs[qu], 1-based */
            out->ci_high = diffs[npairs - qu]; /* diffs[n.x n.y - qu + 1] */
        } else if (rc == PMS_OK) {
            double z = shift_z(&s, 0);
            out->p_value = 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
            size_t k = 0; /* the distinct differences */
            for (size_t i = 0; i < npairs; i++)
                if (!k || diffs[i] != diffs[k - 1]) diffs[k++] = diffs[i];
            double zq = gsl_cdf_ugaussian_Qinv(alpha / 2);
            out->ci_low = shift_where_z(&s, diffs, k, zq);
            out->ci_high = shift_where_z(&s, diffs, k, -zq);
        }
    }
    free(counts);
    free(diffs);
    free(s.all);
    return rc;
}
