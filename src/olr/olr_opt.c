/* opt: O'Rourke's online optimal piecewise-linear approximation (1981), in the
 * form the PGM-index uses (Ferragina & Vinciguerra, OptimalPiecewiseLinearModel):
 * the upper hull of (x, y + eps) and the lower hull of (x, y - eps) bound the
 * feasible lines; rect[] holds the points of the two extreme ones (least slope
 * through rect[0], rect[2]; greatest through rect[1], rect[3]). A point that
 * leaves no feasible line closes the segment.
 *
 * Coordinates are relative to the segment's first point and kept below 2^62 by
 * the caller's span cap, so every product of two differences is below 2^126 and
 * every cross product is exact in __int128. */
#include "olr/olr_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

/* Spans beyond which a segment is closed, so that the arithmetic stays exact. */
#define SPAN_X (INT64_C(1) << 62)
#define SPAN_Y (INT64_C(1) << 61)

static olr_pt sub(olr_pt a, olr_pt b) { return (olr_pt){a.x - b.x, a.y - b.y}; }
/* Slope comparisons of PGM (valid when both dx have the same sign). */
static bool slope_lt(olr_pt a, olr_pt b) { return (i128)a.y * b.x < (i128)a.x * b.y; }
static bool slope_gt(olr_pt a, olr_pt b) { return (i128)a.y * b.x > (i128)a.x * b.y; }
static i128 cross(olr_pt o, olr_pt a, olr_pt b)
{
    olr_pt oa = sub(a, o), ob = sub(b, o);
    return (i128)oa.x * ob.y - (i128)oa.y * ob.x;
}

/* Hull arrays start small and double when full (no cap unless max_hull is given). */
#define HULL_START 16

int pms__olr_opt_init(olr_opt *p, int64_t eps, int monotone, size_t max_hull)
{
    memset(p, 0, sizeof *p);
    p->eps = eps;
    p->monotone = monotone;
    p->max_hull = max_hull;
    p->cap = max_hull && max_hull < HULL_START ? max_hull : HULL_START;
    p->upper = malloc(p->cap * sizeof *p->upper);
    p->lower = malloc(p->cap * sizeof *p->lower);
    return p->upper && p->lower ? 0 : -1;
}

void pms__olr_opt_free(olr_opt *p)
{
    free(p->upper);
    free(p->lower);
}

/* Drops a hull's unused prefix when that frees at least half the array (so the copying
 * stays amortised O(1)). */
static void compact(olr_pt *h, size_t *n, size_t *start, size_t cap)
{
    if (*n < cap || *start < cap / 2) return;
    memmove(h, h + *start, (*n - *start) * sizeof *h);
    *n -= *start;
    *start = 0;
}

/* Room for one more point in both hulls: compacts, else doubles the arrays (up to
 * max_hull when one is set). */
static int room(olr_opt *p)
{
    compact(p->upper, &p->nup, &p->up_start, p->cap);
    compact(p->lower, &p->nlo, &p->lo_start, p->cap);
    if (p->nup < p->cap && p->nlo < p->cap) return OLR_FITS;
    if (p->max_hull && p->cap >= p->max_hull) return OLR_CUT_HULL;
    size_t cap = p->cap * 2;
    if (p->max_hull && cap > p->max_hull) cap = p->max_hull;
    olr_pt *up = realloc(p->upper, cap * sizeof *up);
    if (up) p->upper = up;
    olr_pt *lo = up ? realloc(p->lower, cap * sizeof *lo) : NULL;
    if (!lo) return OLR_NOMEM;
    p->lower = lo;
    p->cap = cap;
    return OLR_FITS;
}

int pms__olr_opt_fits(olr_opt *p, uint64_t x, uint64_t y)
{
    if (p->n == 0) return OLR_FITS;
    uint64_t dx = x - p->x0;
    i128 dy = (i128)y - (i128)p->y0; /* counts reach 2^64 - 1: the difference needs 65 bits */
    if (dx >= (uint64_t)SPAN_X || dy >= SPAN_Y || dy <= -SPAN_Y) return OLR_CUT_SPAN;
    if (p->nup == p->cap || p->nlo == p->cap) { /* rarely: the hulls are full */
        int rc = room(p);
        if (rc != OLR_FITS) return rc;
    }
    if (p->n < 2) return OLR_FITS;
    olr_pt p1 = {(int64_t)dx, (int64_t)dy + p->eps}, p2 = {(int64_t)dx, (int64_t)dy - p->eps};
    olr_pt slope1 = sub(p->rect[2], p->rect[0]), slope2 = sub(p->rect[3], p->rect[1]);
    bool outside1 = slope_lt(sub(p1, p->rect[2]), slope1);
    bool outside2 = slope_gt(sub(p2, p->rect[3]), slope2);
    return outside1 || outside2 ? OLR_BREAK : OLR_FITS;
}

void pms__olr_opt_add(olr_opt *p, uint64_t x, uint64_t y, uint64_t index)
{
    if (p->n == 0) {
        p->x0 = x;
        p->y0 = y;
        p->first = index;
    }
    int64_t dy = (int64_t)((i128)y - (i128)p->y0); /* within the span cap: |dy| < 2^61 */
    olr_pt p1 = {(int64_t)(x - p->x0), dy + p->eps};
    olr_pt p2 = {(int64_t)(x - p->x0), dy - p->eps};
    p->x_last = x;
    p->y_last = dy;
    if (p->n == 0) {
        p->rect[0] = p1;
        p->rect[1] = p2;
        p->nup = p->nlo = p->up_start = p->lo_start = 0;
        p->upper[p->nup++] = p1;
        p->lower[p->nlo++] = p2;
        p->n = 1;
        return;
    }
    if (p->n == 1) {
        p->rect[2] = p2;
        p->rect[3] = p1;
        p->upper[p->nup++] = p1;
        p->lower[p->nlo++] = p2;
        p->n = 2;
        return;
    }
    olr_pt slope1 = sub(p->rect[2], p->rect[0]), slope2 = sub(p->rect[3], p->rect[1]);
    if (slope_lt(sub(p1, p->rect[1]), slope2)) {
        /* p1 lowers the greatest slope: find the lower-hull point it now passes through */
        olr_pt min = sub(p->lower[p->lo_start], p1);
        size_t min_i = p->lo_start;
        for (size_t i = p->lo_start + 1; i < p->nlo; i++) {
            olr_pt val = sub(p->lower[i], p1);
            if (slope_gt(val, min)) break;
            min = val;
            min_i = i;
        }
        p->rect[1] = p->lower[min_i];
        p->rect[3] = p1;
        p->lo_start = min_i;
        size_t end = p->nup;
        while (end >= p->up_start + 2 && cross(p->upper[end - 2], p->upper[end - 1], p1) <= 0) end--;
        p->nup = end;
        p->upper[p->nup++] = p1;
    }
    if (slope_gt(sub(p2, p->rect[0]), slope1)) {
        /* p2 raises the least slope: find the upper-hull point it now passes through */
        olr_pt max = sub(p->upper[p->up_start], p2);
        size_t max_i = p->up_start;
        for (size_t i = p->up_start + 1; i < p->nup; i++) {
            olr_pt val = sub(p->upper[i], p2);
            if (slope_lt(val, max)) break;
            max = val;
            max_i = i;
        }
        p->rect[0] = p->upper[max_i];
        p->rect[2] = p2;
        p->up_start = max_i;
        size_t end = p->nlo;
        while (end >= p->lo_start + 2 && cross(p->lower[end - 2], p->lower[end - 1], p2) >= 0) end--;
        p->nlo = end;
        p->lower[p->nlo++] = p2;
    }
    p->n++;
}

static void horizontal(pms_olr_exact *e, int i, int64_t y)
{
    e->x[i] = 0;
    e->y[i] = y;
    e->dx[i] = 1;
    e->dy[i] = 0;
}

static void through(pms_olr_exact *e, int i, olr_pt a, olr_pt b)
{
    e->x[i] = a.x;
    e->y[i] = a.y;
    e->dx[i] = b.x - a.x;
    e->dy[i] = b.y - a.y;
}

void pms__olr_opt_segment(olr_opt *p, pms_olr_segment *s)
{
    pms_olr_exact *e = &s->exact;
    e->x0 = p->x0;
    e->y0 = p->y0;
    p->flat = false;
    if (p->n == 1) {
        horizontal(e, 0, 0);
        horizontal(e, 1, 0);
    } else {
        through(e, 0, p->rect[0], p->rect[2]); /* least slope */
        through(e, 1, p->rect[1], p->rect[3]); /* greatest slope */
        /* Mean slope below 0 on a counter that never decreases: then y_last - y_first
         * <= 2 eps (a feasible line falls), so the flat line at their middle fits. */
        p->flat = p->monotone && (i128)e->dy[0] * e->dx[1] + (i128)e->dy[1] * e->dx[0] < 0;
        if (p->flat) {
            horizontal(e, 0, 0);
            horizontal(e, 1, p->y_last);
        }
    }
    s->exact_valid = 1;
    s->first = p->first;
    s->count = p->n;
    s->x_first = p->x0;
    s->x_last = p->x_last;
    s->y_first = (double)pms__olr_exact_eval_real(e, p->x0);
    s->y_last = (double)pms__olr_exact_eval_real(e, p->x_last);
    s->slope = (double)(((long double)e->dy[0] / e->dx[0] + (long double)e->dy[1] / e->dx[1]) / 2);
    s->sigma = 0;
    p->n = 0;
}

void pms__olr_opt_line(const olr_opt *p, double *a, double *b)
{
    /* the mean of the extreme lines: through rect[0], rect[2] and through rect[1], rect[3] */
    double a2 = 0, b2 = 0;
    for (int i = 0; i < 2; i++) {
        olr_pt s = p->rect[i], t = p->rect[i + 2];
        double slope = (double)(t.y - s.y) / (double)(t.x - s.x);
        b2 += slope;
        a2 += (double)s.y - slope * (double)s.x;
    }
    *a = a2 / 2;
    *b = b2 / 2;
}

/* |y - decoded y| at a hull point (hull coordinates: y shifted by +-eps). */
static double error_at(const olr_opt *p, const pms_olr_segment *s, olr_pt pt, int64_t shift)
{
    i128 y = (i128)p->y0 + (pt.y - shift);
    i128 d = y - pms__olr_exact_eval(&s->exact, p->x0 + (uint64_t)pt.x);
    return d < 0 ? -(double)d : (double)d;
}

double pms__olr_opt_max_error(const olr_opt *p, const pms_olr_segment *s)
{
    /* A flat line on a counter that never decreases: the extremes are the first and last
     * samples. Otherwise y - line(x) is largest at a vertex of the samples' upper hull
     * (the lower array, shifted by -eps) and least at one of the lower hull (the upper
     * array, +eps); the decoded value rounds the line, and rounding is monotone, so the
     * same vertices give the largest decoding errors. The prefixes the fit dropped (and
     * points it never kept) are dominated by kept ones for every slope still feasible. */
    if (p->flat || p->nup == 0)
        return fmax(error_at(p, s, (olr_pt){0, 0}, 0),
                    error_at(p, s, (olr_pt){(int64_t)(p->x_last - p->x0), p->y_last}, 0));
    double max = 0;
    for (size_t i = p->up_start; i < p->nup; i++) max = fmax(max, error_at(p, s, p->upper[i], p->eps));
    for (size_t i = p->lo_start; i < p->nlo; i++) max = fmax(max, error_at(p, s, p->lower[i], -p->eps));
    return max;
}
