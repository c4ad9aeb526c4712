/* Error statistics of an open segment without keeping its samples (so memory stays
 * flat however long a segment grows):
 *  - squared errors: each sample's residual against a provisional line is summed (with
 *    its square and its product with x); when the line is replaced, and at the close by
 *    the segment's own line, the sums are carried over exactly in real arithmetic
 *    (r' = r - alpha - beta u). The provisional line is re-taken from the fitter whenever
 *    the sample count doubles, so the residuals summed stay at the scale of the fit and
 *    the carrying-over loses no precision; the first samples are kept and summed afresh.
 *  - the largest error: at a vertex of the samples' convex hulls (y - line(x) is linear),
 *    so the hulls are kept (wm: here, Andrew's monotone chain; opt keeps its own).
 * Coordinates are relative to the first sample summed (the origin). */
#ifndef PMS_OLR_STATS_H
#define PMS_OLR_STATS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The first samples, summed afresh at each re-take of the line. */
#define OLR_RESID_KEEP 32

typedef struct olr_resid {
    uint64_t n, next_rebase;
    uint64_t xo, yo;             /* the origin */
    double a, b;                 /* provisional line: v = a + b u */
    double sr, srr, sru, su, suu;
    double u_keep[OLR_RESID_KEEP], v_keep[OLR_RESID_KEEP];
} olr_resid;

/* Starts a segment's sums at its first sample. */
void pms__olr_resid_start(olr_resid *r, uint64_t x, uint64_t y);
/* Adds a sample (after the first). Returns true when the caller should re-take the line
 * (pms__olr_resid_rebase) now. */
static inline bool pms__olr_resid_add(olr_resid *r, uint64_t x, uint64_t y)
{
    double u = (double)(x - r->xo), v = (double)(int64_t)(y - r->yo);
    uint64_t i = r->n++;
    if (i < OLR_RESID_KEEP) {
        r->u_keep[i] = u;
        r->v_keep[i] = v;
    }
    double e = v - (r->a + r->b * u);
    r->sr += e;
    r->srr += e * e;
    r->sru += e * u;
    r->su += u;
    r->suu += u * u;
    return r->n == r->next_rebase;
}
/* Replaces the provisional line by v = a + b u (in the origin's coordinates). */
void pms__olr_resid_rebase(olr_resid *r, double a, double b);
/* The sum of squared errors against v = a + b u (and that line becomes the provisional one). */
double pms__olr_resid_sse(olr_resid *r, double a, double b);

/* Convex hulls of a segment's samples, relative to its first (wm's largest error). */
typedef struct olr_hull_pt {
    int64_t u, v;
} olr_hull_pt;

typedef struct olr_hulls {
    olr_hull_pt *up, *lo;
    size_t nup, nlo, cap;
    uint64_t xo, yo;
    bool exact;                  /* spans below 2^62: integer cross products (else long double) */
} olr_hulls;

void pms__olr_hulls_start(olr_hulls *h, uint64_t x, uint64_t y);
int pms__olr_hulls_add(olr_hulls *h, uint64_t x, uint64_t y); /* 0 or -1 out of memory */
void pms__olr_hulls_free(olr_hulls *h);

#endif
