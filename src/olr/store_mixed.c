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
} state;

/* A knot lines may start from: its slopes that keep every later sample within eps,
 * [ln / ld, hn / hd) (both denominators > 0), once a sample has come. */
typedef struct start {
    uint64_t i, cost;
    i128 v, ln, ld, hn, hd;
    uint8_t off, has;
} start;

typedef struct node {
    uint64_t i;
    uint8_t off;
} node;

struct pms__olr_mixed {
    uint64_t eps, nv;
    state *rows;           /* (last - wb + 1) rows of nv: the samples wb .. last */
    uint64_t wb, nrows;
    size_t rowcap;
    start *st;
    uint64_t nst;
    size_t stcap;
    node *nodes, *chain;   /* scratch: common ancestor and chain */
    size_t nodecap, chaincap;
    int emitted;           /* a knot was handed out: (wb, the only valid state of row 0) */
    uint64_t cut, since_check;
};

static const i128 LIM = (i128)1 << 61;

pms__olr_mixed *pms__olr_mixed_create(uint64_t eps)
{
    if (eps > PMS__OLR_MIXED_EPS_MAX) return NULL;
    pms__olr_mixed *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->eps = eps;
    m->nv = 2 * eps + 1;
    return m;
}

void pms__olr_mixed_destroy(pms__olr_mixed *m)
{
    if (!m) return;
    free(m->rows);
    free(m->st);
    free(m->nodes);
    free(m->chain);
    free(m);
}

uint64_t pms__olr_mixed_oldest(const pms__olr_mixed *m) { return m->wb; }
uint64_t pms__olr_mixed_cut(const pms__olr_mixed *m) { return m->cut; }

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

/* Adds sample (x, y) to start s; false when no line from it keeps every sample. */
static int narrow(start *s, uint64_t xi, uint64_t x, uint64_t y, uint64_t eps)
{
    uint64_t du = x - xi;
    i128 dy = (i128)y - s->v;
    if (du >= (uint64_t)LIM || dy >= LIM || dy <= -LIM) return 0;
    /* v + m u rounds (ties up) into [y - eps, y + eps] iff y - eps - 1/2 <= v + m u < y + eps + 1/2 */
    i128 u2 = 2 * (i128)du, a = 2 * (dy - (i128)eps) - 1, c = 2 * (dy + (i128)eps) + 1;
    if (!s->has) {
        s->ln = a, s->ld = u2, s->hn = c, s->hd = u2, s->has = 1;
    } else {
        if (a * s->ld > s->ln * u2) s->ln = a, s->ld = u2;
        if (c * s->hd < s->hn * u2) s->hn = c, s->hd = u2;
    }
    return s->ln * s->hd < s->hn * s->ld;
}

/* The chain ending at (i, off) back to the knot handed out last, in order, to fn. */
static int hand_out(pms__olr_mixed *m, uint64_t i, uint64_t off, pms__olr_knot_fn fn, void *ctx)
{
    uint64_t n = 0;
    for (;;) {
        const state *s = &row(m, i)[off];
        if (s->pdelta == 0 && m->emitted) break; /* row wb: handed out already */
        if (pms__grow(&m->chain, &m->chaincap, n + 1, sizeof *m->chain)) return -1;
        m->chain[n++] = (node){i, (uint8_t)off};
        if (s->pdelta == 0) break;
        uint64_t p = i - s->pdelta;
        off = s->poff;
        i = p;
    }
    for (uint64_t k = n; k-- > 0;) {
        const node *c = &m->chain[k];
        const state *s = &row(m, c->i)[c->off];
        /* the value of offset off at sample i: y - eps + off, kept by the caller's y */
        int rc = fn(c->i, (uint64_t)c->off, s->fresh || s->pdelta == 0, ctx);
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

static int add_node(pms__olr_mixed *m, uint64_t *n, uint64_t i, uint8_t off)
{
    for (uint64_t k = 0; k < *n; k++)
        if (m->nodes[k].i == i && m->nodes[k].off == off) return 0;
    if (pms__grow(&m->nodes, &m->nodecap, *n + 1, sizeof *m->nodes)) return -1;
    m->nodes[(*n)++] = (node){i, off};
    return 0;
}

/* The latest knot every open start and the best knot at sample j descend from: decided. */
static int commit_common(pms__olr_mixed *m, uint64_t j, pms__olr_knot_fn fn, void *ctx)
{
    uint64_t n = 0;
    if (add_node(m, &n, j, (uint8_t)best_off(m, j))) return -1;
    for (uint64_t k = 0; k < m->nst; k++)
        if (add_node(m, &n, m->st[k].i, m->st[k].off)) return -1;
    while (n > 1) {
        uint64_t top = 0;
        for (uint64_t k = 0; k < n; k++)
            if (m->nodes[k].i > top) top = m->nodes[k].i;
        uint64_t keep = 0, nm = 0;
        node up[64];
        for (uint64_t k = 0; k < n; k++) {
            node c = m->nodes[k];
            if (c.i != top) {
                m->nodes[keep++] = c;
                continue;
            }
            const state *s = &row(m, c.i)[c.off];
            if (s->pdelta == 0) return 0; /* two chains apart back to the first knot */
            node p = {c.i - s->pdelta, s->poff};
            int seen = 0;
            for (uint64_t q = 0; q < nm; q++) seen |= up[q].i == p.i && up[q].off == p.off;
            if (!seen) up[nm++] = p;
        }
        n = keep;
        for (uint64_t q = 0; q < nm; q++)
            if (add_node(m, &n, up[q].i, up[q].off)) return -1;
    }
    return commit(m, m->nodes[0].i, m->nodes[0].off, fn, ctx);
}

/* Over the cap: the starts of one sample go, the one in the middle of the closest
 * neighbours, so that the oldest (long segments) and the latest (the next segment's
 * knot) stay and the rest spread out. */
static void thin(pms__olr_mixed *m)
{
    uint64_t n = m->nst, best = 0, gap = UINT64_MAX, prev = 0;
    /* groups by sample: st is in sample order */
    for (uint64_t k = 0; k < n;) {
        uint64_t e = k;
        while (e < n && m->st[e].i == m->st[k].i) e++;
        if (k > 0 && e < n && m->st[e].i - m->st[prev].i < gap) gap = m->st[e].i - m->st[prev].i, best = k;
        prev = k;
        k = e;
    }
    if (gap == UINT64_MAX) best = 0; /* two samples' starts: the older goes */
    uint64_t e = best;
    while (e < n && m->st[e].i == m->st[best].i) e++;
    memmove(m->st + best, m->st + e, (n - e) * sizeof *m->st);
    m->nst -= e - best;
}

int pms__olr_mixed_add(pms__olr_mixed *m, const uint64_t *x, const uint64_t *y, uint64_t base, uint64_t j,
                       pms__olr_knot_fn fn, void *ctx)
{
    if (pms__grow(&m->rows, &m->rowcap, (m->nrows + 1) * m->nv, sizeof *m->rows)) return -1;
    if (m->nrows == 0) m->wb = j;
    m->nrows++;
    state *r = row(m, j);
    uint64_t yj = y[j - base], xj = x[j - base], eps = m->eps;
    i128 v0 = (i128)yj - (i128)eps;
    /* a knot after a break: the cheapest knot at the sample before, plus one */
    state fresh = {1, 0, 0, 1};
    if (j > m->wb) {
        uint64_t b = best_off(m, j - 1);
        fresh = (state){row(m, j - 1)[b].cost + 1, 1, (uint8_t)b, 1};
    }
    for (uint64_t o = 0; o < m->nv; o++) {
        i128 v = v0 + (i128)o;
        r[o] = fresh;
        if (v < 0 || v > (i128)UINT64_MAX) r[o].cost = UINT64_MAX;
    }
    /* lines from each open start to a knot here; a start no cheaper than a break
     * improves nothing here (only its slopes are kept up) */
    uint64_t alive = 0, brk = fresh.cost;
    for (uint64_t k = 0; k < m->nst; k++) {
        start s = m->st[k];
        uint64_t xi = x[s.i - base];
        if (!narrow(&s, xi, xj, yj, eps)) continue;
        m->st[alive++] = s;
        if (s.cost + 1 >= brk) continue;
        i128 u = (i128)(xj - xi);
        i128 lo = s.v + ceil_div(s.ln * u, s.ld), hi = s.v + ceil_div(s.hn * u, s.hd) - 1;
        if (lo < v0) lo = v0;
        if (hi > v0 + (i128)(m->nv - 1)) hi = v0 + (i128)(m->nv - 1);
        for (i128 w = lo; w <= hi; w++) {
            state *t = &r[(uint64_t)(w - v0)];
            if (t->cost != UINT64_MAX && s.cost + 1 < t->cost)
                *t = (state){s.cost + 1, (uint32_t)(j - s.i), s.off, 0};
        }
    }
    m->nst = alive;
    /* each knot here starts lines */
    if (pms__grow(&m->st, &m->stcap, m->nst + m->nv, sizeof *m->st)) return -1;
    for (uint64_t o = 0; o < m->nv; o++)
        if (r[o].cost != UINT64_MAX)
            m->st[m->nst++] = (start){.i = j, .cost = r[o].cost, .v = v0 + (i128)o, .off = (uint8_t)o};
    if (m->nst > PMS__OLR_MIXED_STARTS_MAX && m->nst > 8 * m->nv) {
        m->cut++; /* samples at which starts went */
        while (m->nst > PMS__OLR_MIXED_STARTS_MAX && m->nst > 8 * m->nv) thin(m);
    }
    if (m->nrows >= PMS__OLR_MIXED_WINDOW) {
        /* bounded memory: the best knot here is decided, the open starts but its go */
        uint64_t b = best_off(m, j);
        int rc = commit(m, j, b, fn, ctx);
        if (rc) return rc;
        m->nst = 0;
        m->st[m->nst++] = (start){.i = j, .cost = row(m, j)[b].cost, .v = v0 + (i128)b, .off = (uint8_t)b};
        m->cut++;
        return 0;
    }
    if (++m->since_check >= 64) {
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
