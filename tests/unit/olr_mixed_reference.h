/* The least end points of any segment file for one counter (docs/olr-format.md: whole-count
 * end points at the samples' x, decoded by rounding, ties up), by a plain forward dynamic
 * program without caps: every knot (a sample and a whole value within eps of it, costing the
 * least points of a chain ending there) keeps its exact rational interval of slopes that
 * decode every later sample within eps, narrowed at each sample until it is empty; a knot
 * costs one more than the cheapest knot a sample before (after a break) or than a knot whose
 * line reaches it. No sleeping knots, no hulls, nothing dropped: slow (each knot is looked at
 * every sample while a line from it fits), simple, and independent of the writer's program. */
#ifndef PMS_TEST_OLR_MIXED_REFERENCE_H
#define PMS_TEST_OLR_MIXED_REFERENCE_H
#include <stdint.h>
#include <stdlib.h>

typedef __int128 ref_i128;

typedef struct ref_knot {
    size_t i;
    ref_i128 v;
    uint64_t cost;
    ref_i128 ln, ld, hn, hd; /* slopes [ln / ld, hn / hd), once a sample has come */
    int has;
} ref_knot;

static ref_i128 ref_ceil_div(ref_i128 a, ref_i128 b) /* b > 0 */
{
    ref_i128 q = a / b;
    return q * b < a ? q + 1 : q;
}

/* Spans of x and y below 2^60 (the products stay within 128 bits). 0 for no samples. */
static uint64_t ref_mixed_points(size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps)
{
    const uint64_t INF = UINT64_MAX;
    size_t nv = (size_t)(2 * eps + 1), nk = 0, cap = 0;
    ref_knot *k = NULL;
    uint64_t *cost = malloc(nv * sizeof *cost), prevmin = 0;
    if (!cost) abort();
    for (size_t j = 0; j < n; j++) {
        ref_i128 lo_v = (ref_i128)y[j] - (ref_i128)eps, yj = (ref_i128)y[j], e = (ref_i128)eps;
        for (size_t o = 0; o < nv; o++) {
            ref_i128 v = lo_v + (ref_i128)o;
            cost[o] = v < 0 || v > (ref_i128)UINT64_MAX ? INF : j == 0 ? 1 : prevmin + 1;
        }
        size_t alive = 0;
        for (size_t q = 0; q < nk; q++) {
            ref_knot s = k[q];
            ref_i128 u = (ref_i128)(x[j] - x[s.i]);
            /* s.v + m u rounds into [y - eps, y + eps]: y - eps - 1/2 <= s.v + m u < y + eps + 1/2 */
            ref_i128 a = 2 * (yj - e - s.v) - 1, c = 2 * (yj + e - s.v) + 1;
            if (!s.has || a * s.ld > s.ln * 2 * u) s.ln = a, s.ld = 2 * u;
            if (!s.has || c * s.hd < s.hn * 2 * u) s.hn = c, s.hd = 2 * u;
            s.has = 1;
            if (!(s.ln * s.hd < s.hn * s.ld)) continue;
            k[alive++] = s;
            uint64_t dearest = 0;
            for (size_t o = 0; o < nv; o++)
                if (cost[o] != INF && cost[o] > dearest) dearest = cost[o];
            if (s.cost + 1 >= dearest) continue; /* improves no knot here */
            /* the whole values w at x[j] with a slope (w - v) / u in the interval */
            ref_i128 wlo = s.v + ref_ceil_div(s.ln * u, s.ld), whi = s.v + ref_ceil_div(s.hn * u, s.hd) - 1;
            for (ref_i128 w = wlo > lo_v ? wlo : lo_v; w <= whi && w <= lo_v + 2 * e; w++) {
                size_t o = (size_t)(w - lo_v);
                if (cost[o] != INF && s.cost + 1 < cost[o]) cost[o] = s.cost + 1;
            }
        }
        nk = alive;
        prevmin = INF;
        for (size_t o = 0; o < nv; o++) {
            if (cost[o] == INF) continue;
            if (cost[o] < prevmin) prevmin = cost[o];
            if (nk == cap) {
                cap = cap ? 2 * cap : 64;
                k = realloc(k, cap * sizeof *k);
                if (!k) abort();
            }
            k[nk++] = (ref_knot){.i = j, .v = lo_v + (ref_i128)o, .cost = cost[o]};
        }
    }
    free(k);
    free(cost);
    return n ? prevmin : 0;
}

#endif
