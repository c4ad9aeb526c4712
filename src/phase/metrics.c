/* Phase quality metrics: adjusted Rand index (Hubert and Arabie), run lengths and the
 * intra-phase coefficient of variation (Sembrant's thesis, 4.2). */
#include "pmuscope/phase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Replaces labels by dense ranks 0..k-1 in out; returns k (0 when out of memory). */
static size_t dense_ranks(const int *labels, size_t n, size_t *out)
{
    int *sorted = malloc(n * sizeof *sorted);
    if (!sorted) return 0;
    memcpy(sorted, labels, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_int);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || sorted[i] != sorted[i - 1]) sorted[k++] = sorted[i];
    for (size_t i = 0; i < n; i++) {
        const int *hit = bsearch(&labels[i], sorted, k, sizeof *sorted, cmp_int);
        out[i] = (size_t)(hit - sorted);
    }
    free(sorted);
    return k;
}

static double choose2(double x) { return x * (x - 1) / 2; }

double pms_adjusted_rand_index(const int *a, const int *b, size_t n)
{
    if (n < 2) return NAN;
    size_t *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
    size_t ka = ra ? dense_ranks(a, n, ra) : 0, kb = rb ? dense_ranks(b, n, rb) : 0;
    double *table = ka && kb ? calloc(ka * kb, sizeof *table) : NULL;
    double *rows = table ? calloc(ka, sizeof *rows) : NULL, *cols = table ? calloc(kb, sizeof *cols) : NULL;
    double ari = NAN;
    if (rows && cols) {
        for (size_t i = 0; i < n; i++) {
            table[ra[i] * kb + rb[i]]++;
            rows[ra[i]]++;
            cols[rb[i]]++;
        }
        double index = 0, sum_rows = 0, sum_cols = 0;
        for (size_t i = 0; i < ka * kb; i++) index += choose2(table[i]);
        for (size_t i = 0; i < ka; i++) sum_rows += choose2(rows[i]);
        for (size_t j = 0; j < kb; j++) sum_cols += choose2(cols[j]);
        double expected = sum_rows * sum_cols / choose2((double)n);
        double max_index = (sum_rows + sum_cols) / 2;
        /* Both partitions trivial (all in one cluster, or all singletons) and equal: 1. */
        ari = max_index == expected ? (index == expected ? 1.0 : 0.0) : (index - expected) / (max_index - expected);
    }
    free(ra);
    free(rb);
    free(table);
    free(rows);
    free(cols);
    return ari;
}

double pms_mean_run_length(const int *labels, size_t n)
{
    if (n == 0) return NAN;
    size_t runs = 1;
    for (size_t i = 1; i < n; i++)
        if (labels[i] != labels[i - 1]) runs++;
    return (double)n / (double)runs;
}

/* CoV of the values whose label is `label` (all when all is set); count in *n. */
static double cov_of(const int *labels, const double *values, size_t n, int label, int all, size_t *count)
{
    double sum = 0, sq = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if ((all || labels[i] == label) && !isnan(values[i])) {
            sum += values[i];
            m++;
        }
    *count = m;
    if (m == 0) return NAN;
    double mean = sum / (double)m;
    for (size_t i = 0; i < n; i++)
        if ((all || labels[i] == label) && !isnan(values[i])) sq += (values[i] - mean) * (values[i] - mean);
    return mean != 0 ? sqrt(sq / (double)m) / fabs(mean) : NAN;
}

double pms_whole_cov(const double *values, size_t n)
{
    size_t m;
    return cov_of(NULL, values, n, 0, 1, &m);
}

double pms_intra_phase_cov(const int *labels, const double *values, size_t n)
{
    size_t *ranks = malloc((n ? n : 1) * sizeof *ranks);
    if (!ranks) return NAN;
    size_t k = n ? dense_ranks(labels, n, ranks) : 0;
    double weighted = 0;
    size_t total = 0;
    for (size_t r = 0; r < k; r++) {
        int label = 0;
        for (size_t i = 0; i < n; i++)
            if (ranks[i] == r) {
                label = labels[i];
                break;
            }
        size_t m;
        double cov = cov_of(labels, values, n, label, 0, &m);
        if (isnan(cov)) continue;
        weighted += cov * (double)m;
        total += m;
    }
    free(ranks);
    return total ? weighted / (double)total : NAN;
}
