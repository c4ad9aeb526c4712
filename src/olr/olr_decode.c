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

int64_t pms__olr_exact_eval(const pms_olr_exact *e, uint64_t x)
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
    return (int64_t)(e->y0 + half);
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

int64_t pms_olr_segment_eval_count(const pms_olr_segment *s, uint64_t x)
{
    if (s->exact_valid) return pms__olr_exact_eval(&s->exact, x);
    return (int64_t)llround(pms_olr_segment_eval(s, x));
}

void pms_olr_segment_decode(const pms_olr_segment *s, const uint64_t *x, size_t n, int64_t *y)
{
    for (size_t i = 0; i < n; i++) y[i] = pms_olr_segment_eval_count(s, x[i]);
}
