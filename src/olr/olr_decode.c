/* Decoding segments back to samples: exact rational evaluation of opt's lines, and
 * the double form shared by both methods. */
#include "olr/olr_internal.h"

#include <math.h>

typedef __int128 i128;

/* floor(a / b) and the remainder in [0, b), for b > 0. */
static i128 floor_div(i128 a, i128 b, i128 *rem)
{
    i128 q = a / b, r = a % b;
    if (r < 0) {
        q -= 1;
        r += b;
    }
    *rem = r;
    return q;
}

i128 pms__olr_exact_eval(const pms_olr_exact *e, uint64_t x)
{
    /* Li(u) = y[i] + q[i] + r[i] / dx[i]; the result is round((L0 + L1) / 2), i.e.
     * floor((A + 1 + f) / 2) with A = y0' + q0 + y1' + q1 and f = r0/dx0 + r1/dx1 in [0, 2). */
    i128 u = (i128)x - (i128)e->x0;
    i128 r[2], a = 0;
    for (int i = 0; i < 2; i++)
        a += e->y[i] + floor_div((u - e->x[i]) * e->dy[i], e->dx[i], &r[i]);
    i128 m = a + 1;
    i128 half;
    if ((m & 1) == 0) {
        half = m / 2;
    } else {
        /* f >= 1  <=>  r0 dx1 + r1 dx0 >= dx0 dx1  <=>  r0 dx1 >= dx0 (dx1 - r1) */
        bool f_ge_1 = r[0] * e->dx[1] >= (i128)e->dx[0] * (e->dx[1] - r[1]);
        half = (m - 1) / 2 + (f_ge_1 ? 1 : 0);
    }
    return (i128)e->y0 + half;
}

long double pms__olr_exact_eval_real(const pms_olr_exact *e, uint64_t x)
{
    long double u = (long double)x - (long double)e->x0, sum = 0;
    for (int i = 0; i < 2; i++) sum += e->y[i] + (u - e->x[i]) * (long double)e->dy[i] / e->dx[i];
    return e->y0 + sum / 2;
}

double pms_olr_segment_eval(const pms_olr_segment *s, uint64_t x)
{
    if (s->exact_valid) return (double)pms__olr_exact_eval_real(&s->exact, x);
    return s->y_first + s->slope * ((double)x - (double)s->x_first);
}

uint64_t pms_olr_segment_eval_count(const pms_olr_segment *s, uint64_t x)
{
    if (s->exact_valid) { /* 128-bit: exact for every count up to 2^64 - 1 */
        i128 v = pms__olr_exact_eval(&s->exact, x);
        return v < 0 ? 0 : v > (i128)UINT64_MAX ? UINT64_MAX : (uint64_t)v;
    }
    double v = round(pms_olr_segment_eval(s, x)); /* wm: a double line */
    return !(v > 0) ? 0 : v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
}

void pms_olr_segment_decode(const pms_olr_segment *s, const uint64_t *x, size_t n, uint64_t *y)
{
    for (size_t i = 0; i < n; i++) y[i] = pms_olr_segment_eval_count(s, x[i]);
}

/* floor(2 L(x)) of an exact line, and whether 2 L(x) is a whole number:
 * 2 L = 2 y0 + sum_i (y[i] + q[i]) + f, f = r0 / dx0 + r1 / dx1 in [0, 2). */
static i128 twice_floor(const pms_olr_exact *e, uint64_t x, bool *whole)
{
    i128 u = (i128)x - (i128)e->x0, r[2], a = 2 * (i128)e->y0;
    for (int i = 0; i < 2; i++) a += e->y[i] + floor_div((u - e->x[i]) * e->dy[i], e->dx[i], &r[i]);
    i128 lhs = r[0] * e->dx[1] + r[1] * (i128)e->dx[0], one = (i128)e->dx[0] * e->dx[1];
    *whole = lhs == 0 || lhs == one;
    return a + (lhs >= one);
}

static i128 half_floor(i128 m) { return m >= 0 ? m / 2 : -((1 - m) / 2); }

void pms__olr_exact_ends(const pms_olr_exact *e, uint64_t xa, uint64_t xb, i128 *ya, i128 *yb)
{
    bool wa, wb;
    i128 ma = twice_floor(e, xa, &wa), mb = twice_floor(e, xb, &wb);
    bool tie_a = wa && (ma & 1), tie_b = wb && (mb & 1);
    *ya = half_floor(ma + 1);                    /* nearest, ties up */
    /* Both ends exactly between two counts and the line not flat: round them apart, so that
     * the whole-count line stays less than 1/2 from the exact one between them. */
    *yb = tie_a && tie_b && ma != mb ? half_floor(mb - 1) : half_floor(mb + 1);
}
