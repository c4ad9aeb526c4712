/* Kendall's tau-b in O(n log n) (Knight 1966): sort the pairs by (x, y), count the
 * ties, then count the discordant pairs as the swaps a merge sort on y makes. */
#include "pmuscope/hotspot.h"
#include <math.h>
#include <stdlib.h>

typedef struct pair {
    uint64_t x, y;
} pair;

static int cmp_xy(const void *a, const void *b)
{
    const pair *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->y < q->y ? -1 : p->y > q->y ? 1 : 0;
}

/* Pairs sharing a value: sum over runs of k(k-1)/2. same() compares neighbours. */
static double tied_pairs(const pair *v, size_t n, int (*same)(const pair *, const pair *))
{
    double t = 0;
    size_t run = 1;
    for (size_t i = 1; i <= n; i++) {
        if (i < n && same(&v[i - 1], &v[i])) {
            run++;
            continue;
        }
        t += (double)run * (double)(run - 1) / 2;
        run = 1;
    }
    return t;
}

static int same_x(const pair *a, const pair *b) { return a->x == b->x; }
static int same_xy(const pair *a, const pair *b) { return a->x == b->x && a->y == b->y; }
static int same_y(const pair *a, const pair *b) { return a->y == b->y; }

/* Stable merge sort on y; returns the number of inversions (strictly greater y before). */
static double sort_y_count_swaps(pair *v, pair *tmp, size_t n)
{
    if (n < 2)
        return 0;
    size_t h = n / 2;
    double swaps = sort_y_count_swaps(v, tmp, h) + sort_y_count_swaps(v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if (v[j].y < v[i].y) {
            swaps += (double)(h - i);
            tmp[k++] = v[j++];
        } else {
            tmp[k++] = v[i++];
        }
    }
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    for (k = 0; k < n; k++)
        v[k] = tmp[k];
    return swaps;
}

double pms_kendall_tau_b(const uint64_t *x, const uint64_t *y, size_t n)
{
    if (n < 2)
        return NAN;
    pair *v = malloc(2 * n * sizeof *v);
    if (!v)
        return NAN;
    for (size_t i = 0; i < n; i++)
        v[i] = (pair){x[i], y[i]};
    qsort(v, n, sizeof *v, cmp_xy);
    double n0 = (double)n * (double)(n - 1) / 2;
    double n1 = tied_pairs(v, n, same_x), n3 = tied_pairs(v, n, same_xy);
    double swaps = sort_y_count_swaps(v, v + n, n);
    double n2 = tied_pairs(v, n, same_y);
    free(v);
    double denom = sqrt((n0 - n1) * (n0 - n2));
    if (denom == 0)
        return NAN;
    /* concordant - discordant = n0 - n1 - n2 + n3 - 2 * discordant */
    return (n0 - n1 - n2 + n3 - 2 * swaps) / denom;
}
