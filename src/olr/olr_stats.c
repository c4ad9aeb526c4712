/* Error statistics of an open segment without its samples (see olr_stats.h). */
#include "olr/olr_stats.h"

#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

void pms__olr_resid_start(olr_resid *r, uint64_t x, uint64_t y)
{
    r->n = 1;
    r->next_rebase = 2;
    r->xo = x;
    r->yo = y;
    r->a = r->b = 0;
    r->sr = r->srr = r->sru = r->su = r->suu = 0;
    r->u_keep[0] = r->v_keep[0] = 0;
}

/* Carries the sums over to the line v = a + b u: r' = r - alpha - beta u. */
static void carry(olr_resid *r, double a, double b)
{
    double n = (double)r->n, al = a - r->a, be = b - r->b;
    double srr = r->srr - 2 * al * r->sr - 2 * be * r->sru + n * al * al + 2 * al * be * r->su + be * be * r->suu;
    r->sru = r->sru - al * r->su - be * r->suu;
    r->sr = r->sr - n * al - be * r->su;
    r->srr = srr > 0 ? srr : 0;
    r->a = a;
    r->b = b;
}

/* The sums afresh from the kept samples (all of them, while n <= OLR_RESID_KEEP). */
static void resum(olr_resid *r, double a, double b)
{
    r->a = a;
    r->b = b;
    r->sr = r->srr = r->sru = 0;
    for (uint64_t i = 0; i < r->n; i++) {
        double e = r->v_keep[i] - (a + b * r->u_keep[i]);
        r->sr += e;
        r->srr += e * e;
        r->sru += e * r->u_keep[i];
    }
}

void pms__olr_resid_rebase(olr_resid *r, double a, double b)
{
    if (r->n <= OLR_RESID_KEEP) resum(r, a, b);
    else carry(r, a, b);
    r->next_rebase = 2 * r->n;
}

double pms__olr_resid_sse(olr_resid *r, double a, double b)
{
    if (r->n <= OLR_RESID_KEEP) resum(r, a, b);
    else carry(r, a, b);
    return r->srr;
}

/* ---- hulls ---- */

static bool exact_range(uint64_t du, int64_t dv)
{
    return du < (UINT64_C(1) << 62) && dv < (INT64_C(1) << 62) && dv > -(INT64_C(1) << 62);
}

/* (b - a) x (c - a) > 0 (a left turn): exact, or in long double beyond 2^62 (wm only:
 * its line is in doubles anyway) */
static int turn(const olr_hulls *h, olr_hull_pt a, olr_hull_pt b, olr_hull_pt c)
{
    if (h->exact) {
        i128 t = (i128)(b.u - a.u) * (c.v - a.v) - (i128)(b.v - a.v) * (c.u - a.u);
        return (t > 0) - (t < 0);
    }
    long double t = ((long double)b.u - a.u) * ((long double)c.v - a.v) - ((long double)b.v - a.v) * ((long double)c.u - a.u);
    return (t > 0) - (t < 0);
}

void pms__olr_hulls_start(olr_hulls *h, uint64_t x, uint64_t y)
{
    h->xo = x;
    h->yo = y;
    h->exact = true;
    h->nup = h->nlo = 0;
    if (h->cap) {
        h->up[h->nup++] = (olr_hull_pt){0, 0};
        h->lo[h->nlo++] = (olr_hull_pt){0, 0};
    }
}

int pms__olr_hulls_add(olr_hulls *h, uint64_t x, uint64_t y)
{
    if (h->nup + 1 >= h->cap || h->nlo + 1 >= h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 16;
        olr_hull_pt *up = realloc(h->up, cap * sizeof *up);
        if (up) h->up = up;
        olr_hull_pt *lo = up ? realloc(h->lo, cap * sizeof *lo) : NULL;
        if (!lo) return -1;
        h->lo = lo;
        if (!h->cap) h->up[h->nup++] = h->lo[h->nlo++] = (olr_hull_pt){0, 0};
        h->cap = cap;
    }
    uint64_t du = x - h->xo;
    int64_t dv = (int64_t)(y - h->yo);
    if (!exact_range(du, dv)) h->exact = false;
    olr_hull_pt p = {(int64_t)du, dv};
    while (h->nlo >= 2 && turn(h, h->lo[h->nlo - 2], h->lo[h->nlo - 1], p) <= 0) h->nlo--;
    h->lo[h->nlo++] = p;
    while (h->nup >= 2 && turn(h, h->up[h->nup - 2], h->up[h->nup - 1], p) >= 0) h->nup--;
    h->up[h->nup++] = p;
    return 0;
}

void pms__olr_hulls_free(olr_hulls *h)
{
    free(h->up);
    free(h->lo);
    memset(h, 0, sizeof *h);
}
