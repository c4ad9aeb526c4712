/* The optimal joint/disjoint mix of the olr segment file, one counter (store_mixed.h). */
#include "olr/store_mixed.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

/* The cheapest chain ending in a knot at one sample and value. */
typedef struct state {
    uint64_t cost;   /* knots; UINT64_MAX: none */
    uint32_t pdelta; /* the previous knot: this sample - pdelta (0: the first knot of the chain) */
    uint8_t poff;    /* its value's offset */
    uint8_t fresh;   /* follows a break (the previous knot is the sample before) */
    uint8_t awake;   /* its lines were looked at (it is a start, or was one) */
    uint8_t mark;    /* scratch of commit_common */
} state;

/* An awake knot lines may start from: its slopes that keep every later sample within eps,
 * [ln / ld, hn / hd) (both denominators > 0), once a sample has come. */
typedef struct start {
    uint64_t i, cost, v;
    int64_t ln, ld, hn, hd; /* below 2^63 in magnitude (the spans are below 2^61): products */
    uint8_t off, has;       /* of two are single 64 x 64 -> 128-bit multiplies */
} start;

/* A bound of the samples since a start, doubled so that it is whole: (x, 2 (y - eps) - 1)
 * below, (x, 2 (y + eps) + 1) above. */
typedef struct hpt {
    uint64_t x;
    i128 y;
} hpt;

struct pms__olr_mixed {
    uint64_t eps, nv;
    state *rows;           /* (last - wb + 1) rows of nv: the samples wb .. last */
    uint64_t wb, nrows;
    size_t rowcap;
    start *st;             /* the awake starts */
    uint64_t nst;
    size_t stcap;
    uint64_t *chain;       /* scratch: a chain handed out, (sample << 8 | offset) */
    size_t chaincap;
    hpt *up, *lo;          /* scratch of wake: the upper hull of the lower bounds, the lower */
    size_t upcap, locap;   /* hull of the upper bounds */
    uint64_t sleep_lo;     /* rows before it hold no dormant knot */
    uint64_t thr;          /* knots below this cost are awake (the least cost a sample ago) */
    int emitted;           /* a knot was handed out: (wb, the only valid state of row 0) */
    uint64_t cut, since_check, peak, states_peak;
    uint64_t states_max, starts_max;
};

static const i128 LIM = (i128)1 << 61;

pms__olr_mixed *pms__olr_mixed_create(uint64_t eps)
{
    if (eps > PMS__OLR_MIXED_EPS_MAX) return NULL;
    pms__olr_mixed *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->eps = eps;
    m->nv = 2 * eps + 1;
    pms__olr_mixed_set_caps(m, 0, 0);
    return m;
}

void pms__olr_mixed_set_caps(pms__olr_mixed *m, uint64_t states_max, uint64_t starts_max)
{
    m->states_max = states_max ? states_max : PMS__OLR_MIXED_STATES_MAX;
    m->starts_max = starts_max ? starts_max : PMS__OLR_MIXED_STARTS_MAX;
}

void pms__olr_mixed_destroy(pms__olr_mixed *m)
{
    if (!m) return;
    free(m->rows);
    free(m->st);
    free(m->chain);
    free(m->up);
    free(m->lo);
    free(m);
}

uint64_t pms__olr_mixed_oldest(const pms__olr_mixed *m) { return m->wb; }
uint64_t pms__olr_mixed_cut(const pms__olr_mixed *m) { return m->cut; }
uint64_t pms__olr_mixed_peak(const pms__olr_mixed *m) { return m->peak; }
uint64_t pms__olr_mixed_states_peak(const pms__olr_mixed *m) { return m->states_peak; }

static state *row(const pms__olr_mixed *m, uint64_t i) { return m->rows + (i - m->wb) * m->nv; }

static uint64_t best_off(const pms__olr_mixed *m, uint64_t i)
{
    const state *r = row(m, i);
    uint64_t b = 0;
    for (uint64_t o = 1; o < m->nv; o++)
        if (r[o].cost < r[b].cost) b = o;
    return b;
}

static i128 ceil_div(i128 a, i128 b) /* b > 0 */
{
    i128 q = a / b;
    return q * b < a ? q + 1 : q;
}

/* ceil(n u / d), d > 0: in 64 bits where the product fits (a 128-bit division is a call) */
static i128 ceil_mul_div(int64_t n, uint64_t u, int64_t d)
{
    int64_t p;
    if (u <= INT64_MAX && !__builtin_mul_overflow(n, (int64_t)u, &p)) {
        int64_t q = p / d;
        return q * d < p ? q + 1 : q;
    }
    return ceil_div((i128)n * (i128)u, d);
}

/* Adds sample (x, y) to start s; false when no line from it keeps every sample. */
static int narrow(start *s, uint64_t xi, uint64_t x, uint64_t y, uint64_t eps)
{
    uint64_t du = x - xi;
    i128 dy = (i128)y - (i128)s->v;
    if (du >= (uint64_t)LIM || dy >= LIM || dy <= -LIM) return 0;
    /* v + m u rounds (ties up) into [y - eps, y + eps] iff y - eps - 1/2 <= v + m u < y + eps + 1/2 */
    int64_t u2 = 2 * (int64_t)du, a = 2 * ((int64_t)dy - (int64_t)eps) - 1, c = 2 * ((int64_t)dy + (int64_t)eps) + 1;
    if (!s->has) {
        s->ln = a, s->ld = u2, s->hn = c, s->hd = u2, s->has = 1;
    } else {
        if ((i128)a * s->ld > (i128)s->ln * u2) s->ln = a, s->ld = u2;
        if ((i128)c * s->hd < (i128)s->hn * u2) s->hn = c, s->hd = u2;
    }
    return (i128)s->ln * s->hd < (i128)s->hn * s->ld;
}

/* The chain ending at (i, off) back to the knot handed out last, in order, to fn. */
static int hand_out(pms__olr_mixed *m, uint64_t i, uint64_t off, pms__olr_knot_fn fn, void *ctx)
{
    uint64_t n = 0;
    for (;;) {
        const state *s = &row(m, i)[off];
        if (s->pdelta == 0 && m->emitted) break; /* row wb: handed out already */
        if (pms__grow(&m->chain, &m->chaincap, n + 1, sizeof *m->chain)) return -1;
        m->chain[n++] = i << 8 | off;
        if (s->pdelta == 0) break;
        uint64_t p = i - s->pdelta;
        off = s->poff;
        i = p;
    }
    for (uint64_t k = n; k-- > 0;) {
        uint64_t ci = m->chain[k] >> 8, co = m->chain[k] & 0xff;
        const state *s = &row(m, ci)[co];
        /* the value of offset off at sample i: y - eps + off, kept by the caller's y */
        int rc = fn(ci, co, s->fresh || s->pdelta == 0, ctx);
        if (rc) return rc;
    }
    return 0;
}

/* Makes (i, off) the first knot of every chain: rows before it go, and so do other states of its row. */
static void rebase(pms__olr_mixed *m, uint64_t i, uint64_t off)
{
    uint64_t drop = i - m->wb;
    memmove(m->rows, m->rows + drop * m->nv, (m->nrows - drop) * m->nv * sizeof *m->rows);
    m->nrows -= drop;
    m->wb = i;
    if (m->sleep_lo < i) m->sleep_lo = i;
    state *r = m->rows;
    for (uint64_t o = 0; o < m->nv; o++)
        if (o != off) r[o].cost = UINT64_MAX;
    r[off].pdelta = 0;
    m->emitted = 1;
}

/* Knot values are offsets here; the caller turns them into counts. */
static int commit(pms__olr_mixed *m, uint64_t i, uint64_t off, pms__olr_knot_fn fn, void *ctx)
{
    if (m->emitted && i == m->wb) return 0;
    int rc = hand_out(m, i, off, fn, ctx);
    if (rc == 0) rebase(m, i, off);
    return rc;
}

/* Marks state (i, o) as one of the chains to follow; *n counts the marked ones. */
static void mark(pms__olr_mixed *m, uint64_t i, uint64_t o, uint64_t *n)
{
    state *s = &row(m, i)[o];
    if (!s->mark) s->mark = 1, ++*n;
}

/* The latest knot that the best knot at sample j, every awake start and every dormant
 * knot descend from: decided. The chains are followed back a row at a time. */
static int commit_common(pms__olr_mixed *m, uint64_t j, pms__olr_knot_fn fn, void *ctx)
{
    uint64_t n = 0;
    mark(m, j, best_off(m, j), &n);
    for (uint64_t k = 0; k < m->nst; k++) mark(m, m->st[k].i, m->st[k].off, &n);
    for (uint64_t i = m->sleep_lo; i <= j; i++) {
        state *r = row(m, i);
        for (uint64_t o = 0; o < m->nv; o++)
            if (r[o].cost != UINT64_MAX && !r[o].awake) mark(m, i, o, &n);
    }
    int apart = 0; /* two chains back to different first knots: nothing is common */
    for (uint64_t i = j + 1; i-- > m->wb && n > 0;) {
        state *r = row(m, i);
        for (uint64_t o = 0; o < m->nv; o++) {
            if (!r[o].mark) continue;
            if (n == 1 && !apart) {
                r[o].mark = 0;
                return commit(m, i, o, fn, ctx);
            }
            r[o].mark = 0;
            n--;
            if (r[o].pdelta == 0) apart = 1;
            else if (!apart) mark(m, i - r[o].pdelta, r[o].poff, &n);
        }
    }
    return 0;
}

/* (b - a) x (c - a) */
static i128 cross(hpt a, hpt b, hpt c)
{
    return (i128)(b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (i128)(c.x - a.x);
}

/* Adds p, left of every point there, to a hull kept as a stack whose top is its leftmost
 * point: the upper hull (side 1) or the lower (side -1). */
static void hull_push(hpt *h, uint64_t *n, hpt p, int side)
{
    while (*n >= 2) {
        i128 c = cross(p, h[*n - 1], h[*n - 2]);
        if (side > 0 ? c < 0 : c > 0) break; /* the top stays a vertex */
        --*n;
    }
    h[(*n)++] = p;
}

/* The vertex of hull h (n points, top leftmost) with the greatest (side 1, upper hull) or
 * least (side -1, lower hull) slope from q, left of all: slopes from q along the hull rise
 * then fall (fall then rise), so a bisection finds the turn. */
static hpt tangent(const hpt *h, uint64_t n, hpt q, int side)
{
    uint64_t lo = 0, hi = n - 1; /* positions from the left: h[n - 1 - pos] */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        i128 c = cross(q, h[n - 1 - mid], h[n - 2 - mid]);
        if (side > 0 ? c > 0 : c < 0) lo = mid + 1; /* the next vertex is steeper (flatter) */
        else hi = mid;
    }
    return h[n - 1 - lo];
}

/* Knots of rows sleep_lo .. j - 1 that cost less than thr wake: each gets its interval of
 * slopes against the samples after it up to j - 1, from the hulls of their bounds, built
 * from the latest sample back. False when a span is too wide for exact arithmetic. */
static int wake(pms__olr_mixed *m, const uint64_t *x, const uint64_t *y, uint64_t base, uint64_t j)
{
    uint64_t first = m->sleep_lo, nup = 0, nlo = 0, eps = m->eps, ymin = UINT64_MAX, ymax = 0;
    for (uint64_t i = first; i < j; i++) {
        uint64_t yi = y[i - base];
        ymin = yi < ymin ? yi : ymin;
        ymax = yi > ymax ? yi : ymax;
    }
    if (x[j - base] - x[first - base] >= (uint64_t)LIM || ymax - ymin >= (uint64_t)1 << 58) return 0;
    if (pms__grow(&m->up, &m->upcap, j - first + 1, sizeof *m->up) ||
        pms__grow(&m->lo, &m->locap, j - first + 1, sizeof *m->lo))
        return -1;
    uint64_t lowest_asleep = j;
    for (uint64_t i = j; i-- > first;) {
        state *r = row(m, i);
        uint64_t xi = x[i - base], yi = y[i - base];
        for (uint64_t o = 0; o < m->nv; o++) {
            if (r[o].cost == UINT64_MAX || r[o].awake) continue;
            if (r[o].cost >= m->thr) {
                lowest_asleep = i;
                continue;
            }
            r[o].awake = 1;
            start s = {.i = i, .cost = r[o].cost, .v = yi - eps + o, .off = (uint8_t)o};
            if (nup > 0) {
                hpt q = {xi, 2 * (i128)s.v};
                hpt a = tangent(m->up, nup, q, 1), b = tangent(m->lo, nlo, q, -1);
                s.ln = (int64_t)(a.y - q.y), s.ld = 2 * (int64_t)(a.x - xi);
                s.hn = (int64_t)(b.y - q.y), s.hd = 2 * (int64_t)(b.x - xi);
                s.has = 1;
                if (!((i128)s.ln * s.hd < (i128)s.hn * s.ld)) continue; /* no line keeps them all */
            }
            if (pms__grow(&m->st, &m->stcap, m->nst + 1, sizeof *m->st)) return -1;
            m->st[m->nst++] = s;
        }
        i128 yd = 2 * (i128)yi;
        hull_push(m->up, &nup, (hpt){xi, yd - 2 * (i128)eps - 1}, 1);
        hull_push(m->lo, &nlo, (hpt){xi, yd + 2 * (i128)eps + 1}, -1);
    }
    m->sleep_lo = lowest_asleep;
    return 1;
}

/* A cap met at sample j: its best knot is decided, and every other knot goes. */
static int force(pms__olr_mixed *m, uint64_t j, pms__olr_knot_fn fn, void *ctx)
{
    m->cut++;
    m->nst = 0;
    return commit(m, j, best_off(m, j), fn, ctx);
}

int pms__olr_mixed_add(pms__olr_mixed *m, const uint64_t *x, const uint64_t *y, uint64_t base, uint64_t j,
                       pms__olr_knot_fn fn, void *ctx)
{
    if (m->nrows > 0) {
        /* knots cheaper than a break here wake, the first time the least cost reaches them */
        uint64_t thr = row(m, j - 1)[best_off(m, j - 1)].cost;
        if (thr > m->thr) {
            m->thr = thr;
            int rc = wake(m, x, y, base, j);
            if (rc < 0) return -1;
            if (rc == 0 && (rc = force(m, j - 1, fn, ctx))) return rc;
        }
        m->thr = thr;
    }
    if (pms__grow(&m->rows, &m->rowcap, (m->nrows + 1) * m->nv, sizeof *m->rows)) return -1;
    if (m->nrows == 0) m->wb = m->sleep_lo = j;
    m->nrows++;
    state *r = row(m, j);
    uint64_t yj = y[j - base], xj = x[j - base], eps = m->eps;
    i128 v0 = (i128)yj - (i128)eps;
    /* a knot after a break: the cheapest knot at the sample before, plus one */
    state fresh = {1, 0, 0, 1, 0, 0};
    if (j > m->wb) {
        uint64_t b = best_off(m, j - 1);
        fresh = (state){row(m, j - 1)[b].cost + 1, 1, (uint8_t)b, 1, 0, 0};
    }
    for (uint64_t o = 0; o < m->nv; o++) {
        i128 v = v0 + (i128)o;
        r[o] = fresh;
        if (v < 0 || v > (i128)UINT64_MAX) r[o].cost = UINT64_MAX;
    }
    /* lines from each awake start to a knot here; a start no cheaper than a break
     * improves nothing here (only its slopes are kept up) */
    uint64_t alive = 0, worst = fresh.cost; /* the dearest knot here */
    for (uint64_t k = 0; k < m->nst; k++) {
        start *s = &m->st[k];
        if (!narrow(s, x[s->i - base], xj, yj, eps)) continue;
        if (alive != k) m->st[alive] = *s;
        s = &m->st[alive++];
        uint64_t xi = x[s->i - base];
        if (s->cost + 1 >= worst) continue;
        uint64_t u = xj - xi;
        i128 sv = (i128)s->v;
        i128 lo = sv + ceil_mul_div(s->ln, u, s->ld), hi = sv + ceil_mul_div(s->hn, u, s->hd) - 1;
        if (lo < v0) lo = v0;
        if (hi > v0 + (i128)(m->nv - 1)) hi = v0 + (i128)(m->nv - 1);
        int better = 0;
        for (i128 w = lo; w <= hi; w++) {
            state *t = &r[(uint64_t)(w - v0)];
            if (t->cost != UINT64_MAX && s->cost + 1 < t->cost) {
                *t = (state){s->cost + 1, (uint32_t)(j - s->i), s->off, 0, 0, 0};
                better = 1;
            }
        }
        if (better) {
            worst = 0;
            for (uint64_t o = 0; o < m->nv; o++)
                if (r[o].cost != UINT64_MAX && r[o].cost > worst) worst = r[o].cost;
        }
    }
    m->nst = alive;
    if (alive > m->peak) m->peak = alive;
    /* memory: the rows since the first knot that may start a line, and the awake starts */
    if (m->nrows * m->nv > m->states_max || j - m->wb >= UINT32_MAX) return force(m, j, fn, ctx);
    if (m->nrows * m->nv > m->states_peak) m->states_peak = m->nrows * m->nv;
    if (m->nst > m->starts_max) { /* every other start goes (near neighbours, mostly) */
        m->cut++;
        for (uint64_t k = 0; 2 * k < m->nst; k++) m->st[k] = m->st[2 * k];
        m->nst = (m->nst + 1) / 2;
    }
    /* the chains are followed back from every knot that may start a line: as often as it
     * costs about as much as the samples added since */
    if (++m->since_check >= 64 && m->since_check >= m->nrows / 4) {
        m->since_check = 0;
        return commit_common(m, j, fn, ctx);
    }
    return 0;
}

int pms__olr_mixed_finish(pms__olr_mixed *m, pms__olr_knot_fn fn, void *ctx)
{
    if (m->nrows == 0) return 0;
    uint64_t j = m->wb + m->nrows - 1;
    int rc = commit(m, j, best_off(m, j), fn, ctx);
    m->nst = 0;
    return rc;
}
