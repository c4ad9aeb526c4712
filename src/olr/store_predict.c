/* Predictive coding of a counter (see store_predict.h). */
#include "olr/store_predict.h"
#include "olr/store_line.h"

#include <stdlib.h>
#include <string.h>

static uint64_t clamp_count(pms__i128 v)
{
    return v < 0 ? 0 : v > (pms__i128)UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* Round(step (x - x1) / (x1 - x2)): |step| < 2^64 and x's steps below 2^64, so the product
 * fits 128 bits unsigned; a quotient of 2^65 or more clamps the prediction all the same. */
static pms__i128 step_at_rate(pms__i128 step, uint64_t dx, uint64_t dx_before)
{
    if (dx_before == 0) return step; /* x increases strictly: never, but no division by 0 */
    if (dx == dx_before) return step; /* a fixed period: no division on the per-sample path */
    unsigned __int128 mag = (unsigned __int128)(step < 0 ? -step : step) * dx;
    if (mag < (unsigned __int128)1 << 63) /* the common case, in 64-bit division */
        mag = ((uint64_t)mag + dx_before / 2) / dx_before;
    else
        mag = (mag + dx_before / 2) / dx_before;
    pms__i128 q = mag > (unsigned __int128)1 << 65 ? (pms__i128)1 << 65 : (pms__i128)mag;
    return step < 0 ? -q : q;
}

uint64_t pms__olr_predict(int predictor, const pms__olr_history *h, uint64_t x)
{
    if (h->seen == 0) return 0;
    if (predictor == PMS__OLR_PREDICT_PREVIOUS || h->seen == 1) return h->d1;
    pms__i128 step = (pms__i128)h->d1 - (pms__i128)h->d2;
    if (predictor == PMS__OLR_PREDICT_RATE) step = step_at_rate(step, x - h->x1, h->x1 - h->x2);
    return clamp_count((pms__i128)h->d1 + step);
}

void pms__olr_history_push(pms__olr_history *h, uint64_t decoded, uint64_t x)
{
    h->d2 = h->d1;
    h->d1 = decoded;
    h->x2 = h->x1;
    h->x1 = x;
    if (h->seen < 2) h->seen++;
}

static uint64_t zigzag(uint64_t v) { return (v << 1) ^ (0 - (v >> 63)); }

/* floor(a / b) for b > 0 (C's division truncates toward 0) */
static pms__i128 floor_div(pms__i128 a, pms__i128 b)
{
    pms__i128 q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

uint64_t pms__olr_quantise(uint64_t y, uint64_t p, uint64_t eps, uint64_t *decoded)
{
    if (eps == 0) {
        *decoded = y;
        return zigzag(y - p);
    }
    pms__i128 quantum = 2 * (pms__i128)eps + 1, d = (pms__i128)y - (pms__i128)p;
    /* 2 eps + 1 is odd: d / quantum is never halfway, so the nearest q is unique */
    pms__i128 q = floor_div(d + (pms__i128)eps, quantum); /* |q| < 2^63 */
    *decoded = clamp_count((pms__i128)p + q * quantum);
    return zigzag((uint64_t)(int64_t)q);
}

int pms__olr_dequantise(uint64_t z, uint64_t p, uint64_t eps, uint64_t *decoded)
{
    uint64_t s = (z >> 1) ^ (0 - (z & 1)); /* q as two's complement bits */
    if (eps == 0) {
        *decoded = p + s;
        return 0;
    }
    pms__i128 q = (int64_t)s, quantum = 2 * (pms__i128)eps + 1, mag = q < 0 ? -q : q;
    if (mag > ((pms__i128)1 << 65) / quantum) return -1;
    *decoded = clamp_count((pms__i128)p + q * quantum);
    return 0;
}

void pms__olr_planes_put(pms__obuf *out, const uint64_t *z, size_t m)
{
    uint64_t all = 0;
    for (size_t i = 0; i < m; i++) all |= z[i];
    uint8_t w = 1; /* at least one: a reader bounds the codes by the bytes */
    while (w < 8 && (all >> (8 * w)) != 0) w++;
    pms__obuf_bytes(out, &w, 1);
    for (unsigned b = 0; b < w; b++)
        for (size_t i = 0; i < m; i++) {
            uint8_t byte = (uint8_t)(z[i] >> (8 * b));
            pms__obuf_bytes(out, &byte, 1);
        }
}

int pms__olr_pcoder_add(pms__olr_pcoder *c, uint64_t x, uint64_t y)
{
    unsigned uses = pms__olr_pcoder_uses(c);
    if (c->m == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        for (int p = 0; p < PMS__OLR_P_CODINGS; p++) {
            if (!(uses >> p & 1)) continue;
            uint64_t *z = realloc(c->z[p], cap * sizeof *z);
            if (!z) return -1;
            c->z[p] = z;
            if (!(z = realloc(c->d[p], cap * sizeof *z))) return -1;
            c->d[p] = z;
        }
        c->cap = cap;
    }
    for (int p = 0; p < PMS__OLR_P_CODINGS; p++) {
        if (!(uses >> p & 1)) continue;
        c->z[p][c->m] = pms__olr_quantise(y, pms__olr_predict(pms__olr_coding_predictor(p), &c->h[p], x),
                                          pms__olr_coding_eps(p, c->eps), &c->d[p][c->m]);
        pms__olr_history_push(&c->h[p], c->d[p][c->m], x);
    }
    c->m++;
    return 0;
}

void pms__olr_pcoder_chose(pms__olr_pcoder *c, int p)
{
    for (int q = 0; q < PMS__OLR_P_CODINGS; q++) c->h[q] = c->h[p];
    c->m = 0;
}

void pms__olr_pcoder_free(pms__olr_pcoder *c)
{
    for (int p = 0; p < PMS__OLR_P_CODINGS; p++) {
        free(c->z[p]);
        free(c->d[p]);
    }
    memset(c, 0, sizeof *c);
}

uint64_t pms__olr_x_code(int predictor, uint64_t i, uint64_t x, uint64_t px, uint64_t pd)
{
    uint64_t d = x - px;
    return predictor == PMS__OLR_PREDICT_PREVIOUS || i < 2 ? d : zigzag(d - pd);
}

int pms__olr_x_decode(int predictor, uint64_t i, uint64_t z, uint64_t px, uint64_t pd, uint64_t *x)
{
    uint64_t d = predictor == PMS__OLR_PREDICT_PREVIOUS || i < 2 ? z : pd + ((z >> 1) ^ (0 - (z & 1)));
    *x = px + d;
    return i > 0 && (d == 0 || *x < px) ? -1 : 0;
}
