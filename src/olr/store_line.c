/* Whole-count end points of stored segments: exact evaluation and the joint test. */
#include "olr/store_line.h"

typedef unsigned __int128 u128;
typedef pms__i128 i128;

/* floor(a * u / d) and its remainder, for u <= d, d > 0: a * u can reach 2^128, so a is
 * split into a multiple of d and a remainder below it. */
static u128 mul_div(uint64_t a, uint64_t u, uint64_t d, uint64_t *rem)
{
    uint64_t qa = a / d, ra = a % d;
    u128 p = (u128)ra * u;
    *rem = (uint64_t)(p % d);
    return (u128)qa * u + p / d;
}

uint64_t pms__olr_line_at(uint64_t x0, uint64_t y0, uint64_t x1, uint64_t y1, uint64_t x)
{
    if (x1 <= x0 || x <= x0) return y0;
    if (x >= x1) return y1;
    uint64_t d = x1 - x0, u = x - x0, r;
    if (y1 >= y0) {
        u128 q = mul_div(y1 - y0, u, d, &r);
        q += r >= d - r; /* fraction >= 1/2: up */
        return y0 + (uint64_t)q; /* below y1 */
    }
    u128 q = mul_div(y0 - y1, u, d, &r);
    q += r > d - r; /* y0 - q - f: a tie goes up, so down only past 1/2 */
    return y0 - (uint64_t)q;
}

bool pms__olr_line_holds(uint64_t x0, uint64_t y0, uint64_t x1, uint64_t y1, const uint64_t *xs,
                         const uint64_t *ys, uint64_t n, uint64_t eps)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = pms__olr_line_at(x0, y0, x1, y1, xs[i]);
        uint64_t d = v > ys[i] ? v - ys[i] : ys[i] - v;
        if (d > eps) return false;
    }
    return true;
}

/* ceil(a / b), b > 0 */
static i128 ceil_div(i128 a, i128 b)
{
    i128 q = a / b;
    return q * b < a ? q + 1 : q;
}

bool pms__olr_joint_range(uint64_t xp, uint64_t yp, const uint64_t *xs, const uint64_t *ys, uint64_t n,
                          uint64_t eps, i128 *lo, i128 *hi)
{
    const i128 lim = (i128)1 << 61;
    uint64_t xe = xs[n - 1];
    if (xe - xp >= (uint64_t)lim || eps >= (uint64_t)lim) return false;
    i128 D = (i128)(xe - xp), l = -((i128)1 << 100), h = (i128)1 << 100;
    for (uint64_t i = 0; i < n; i++) {
        /* the decoded value is round(yp + t u / D), t = ye - yp: it is >= y - eps iff
         * t u / D >= y - eps - yp - 1/2, and <= y + eps iff t u / D < y + eps - yp + 1/2 */
        i128 dy = (i128)ys[i] - (i128)yp;
        if (dy >= lim || dy <= -lim) return false;
        i128 u = (i128)(xs[i] - xp);
        i128 a = ceil_div((2 * (dy - (i128)eps) - 1) * D, 2 * u);
        i128 b = ceil_div((2 * (dy + (i128)eps) + 1) * D, 2 * u) - 1;
        if (a > l) l = a;
        if (b < h) h = b;
        if (l > h) return false;
    }
    /* the end value itself must be a count */
    if (l < -(i128)yp) l = -(i128)yp;
    if (h > (i128)UINT64_MAX - (i128)yp) h = (i128)UINT64_MAX - (i128)yp;
    *lo = l;
    *hi = h;
    return l <= h;
}
