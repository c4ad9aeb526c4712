/* An exact reference for olr's opt: the least number of disjoint segments that keep
 * every sample within eps of its segment's line, and where they start.
 *
 * Independent of the library's online hull (O'Rourke's algorithm): a batch check
 * whether one line fits a run of samples, used greedily (the longest run that fits from
 * each start, which is optimal since a sub-run of a run that fits also fits). A run fits
 * iff the least vertical width of its points, min over slopes b of
 *   W(b) = max_i (y_i - b x_i) - min_i (y_i - b x_i),
 * is at most 2 eps. W is convex and piecewise linear with breaks at the slopes of the
 * edges of the run's upper and lower convex hulls, so the minimum is at one of those:
 * found by binary search on the sign of W's right derivative. All in exact integers:
 * coordinates relative to the run's first sample, slopes as fractions, 128-bit products
 * (spans below 2^62, as the library's own span cap keeps them). Header-only, for tests
 * and benchmarks. */
#ifndef PMS_TEST_OLR_REFERENCE_H
#define PMS_TEST_OLR_REFERENCE_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef __int128 ref_i128;

typedef struct ref_pt {
    ref_i128 u, v;
} ref_pt;

typedef struct ref_hulls {
    ref_pt *up, *lo;
    size_t nup, nlo;
} ref_hulls;

/* (b - a) x (c - a): > 0 for a left turn */
static ref_i128 ref_cross(ref_pt a, ref_pt b, ref_pt c)
{
    return (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u);
}

/* Andrew's monotone chain over samples [s, e) (x increasing). */
static void ref_build_hulls(ref_hulls *h, const uint64_t *x, const uint64_t *y, size_t s, size_t e)
{
    h->nup = h->nlo = 0;
    for (size_t i = s; i < e; i++) {
        ref_pt p = {(ref_i128)x[i] - (ref_i128)x[s], (ref_i128)y[i] - (ref_i128)y[s]};
        while (h->nlo >= 2 && ref_cross(h->lo[h->nlo - 2], h->lo[h->nlo - 1], p) <= 0) h->nlo--;
        h->lo[h->nlo++] = p;
        while (h->nup >= 2 && ref_cross(h->up[h->nup - 2], h->up[h->nup - 1], p) >= 0) h->nup--;
        h->up[h->nup++] = p;
    }
}

/* A slope p/q, q > 0: an edge of a hull. */
typedef struct ref_slope {
    ref_i128 p, q;
} ref_slope;

static int ref_slope_lt(ref_slope a, ref_slope b) { return a.p * b.q < b.p * a.q; }

/* W(b) * q and the sign of W's right derivative at b = p/q. */
static ref_i128 ref_width(const ref_hulls *h, ref_slope b, int *rising)
{
    ref_i128 max = 0, min = 0, u_max = 0, u_min = 0;
    for (size_t i = 0; i < h->nup; i++) {
        ref_i128 t = h->up[i].v * b.q - b.p * h->up[i].u;
        if (i == 0 || t > max || (t == max && h->up[i].u < u_max)) max = t, u_max = h->up[i].u;
    }
    for (size_t i = 0; i < h->nlo; i++) {
        ref_i128 t = h->lo[i].v * b.q - b.p * h->lo[i].u;
        if (i == 0 || t < min || (t == min && h->lo[i].u > u_min)) min = t, u_min = h->lo[i].u;
    }
    *rising = u_min - u_max >= 0; /* W'(b+) = -min u of the maximisers + max u of the minimisers */
    return max - min;
}

/* Does one line fit samples [s, e) within eps? */
static int ref_fits(ref_hulls *h, ref_slope *cand, const uint64_t *x, const uint64_t *y, size_t s, size_t e,
                    uint64_t eps)
{
    if (e - s <= 2) return 1;
    ref_build_hulls(h, x, y, s, e);
    /* the edge slopes in increasing order: the lower hull's left to right, merged with the
     * upper hull's right to left */
    size_t n = 0, i = 1, j = h->nup - 1;
    while (i < h->nlo || j > 0) {
        ref_slope a = {0, 0}, b = {0, 0};
        if (i < h->nlo) a = (ref_slope){h->lo[i].v - h->lo[i - 1].v, h->lo[i].u - h->lo[i - 1].u};
        if (j > 0) b = (ref_slope){h->up[j].v - h->up[j - 1].v, h->up[j].u - h->up[j - 1].u};
        if (j == 0 || (i < h->nlo && ref_slope_lt(a, b))) cand[n++] = a, i++;
        else cand[n++] = b, j--;
    }
    size_t lo = 0, hi = n - 1; /* the first candidate where W stops falling */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int rising;
        ref_width(h, cand[mid], &rising);
        if (rising) hi = mid;
        else lo = mid + 1;
    }
    int rising;
    return ref_width(h, cand[lo], &rising) <= (ref_i128)2 * (ref_i128)eps * cand[lo].q;
}

/* The least number of segments for samples [0, n); starts[] (room for n, or NULL) gets
 * the first sample of each. Returns 0 when out of memory. */
static size_t ref_min_segments(size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps, uint64_t *starts)
{
    ref_hulls h = {malloc(n * sizeof *h.up), malloc(n * sizeof *h.lo), 0, 0};
    ref_slope *cand = malloc(2 * n * sizeof *cand);
    size_t count = 0;
    for (size_t s = 0; h.up && h.lo && cand && s < n;) {
        /* gallop to a run that does not fit, then bisect: [s, s + good) fits, [s, s + bad) not */
        size_t good = 1, bad = 2;
        while (s + bad <= n && ref_fits(&h, cand, x, y, s, s + bad, eps)) good = bad, bad *= 2;
        if (bad > n - s) bad = n - s + 1;
        while (bad - good > 1) {
            size_t mid = good + (bad - good) / 2;
            if (ref_fits(&h, cand, x, y, s, s + mid, eps)) good = mid;
            else bad = mid;
        }
        if (starts) starts[count] = s;
        count++;
        s += good;
    }
    if (!h.up || !h.lo || !cand) count = 0;
    free(h.up);
    free(h.lo);
    free(cand);
    return count;
}

#endif
