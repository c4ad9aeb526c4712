/* wm: the online linear regression of Wu & Mencer's paper, section 3.
 * Coordinates are the scaled values x/x1, y/y1; the running sums are taken
 * relative to the line's first point (ox, oy), which leaves equations 3, 4 and 8
 * unchanged in exact arithmetic (least squares is translation invariant) and keeps
 * them from cancelling when counts are large. The alpha test is not translation
 * invariant and uses the absolute yhat = vhat + oy, as the paper writes it. */
#include "olr/olr_internal.h"

#include <float.h>
#include <math.h>

/* Equations 3 and 4: slope k and intercept b of the line through the sums. */
static void fit(const olr_wm *w, double *k, double *b)
{
    double n = (double)w->n;
    double den = n * w->sxx - w->sx * w->sx;
    *k = (n * w->sxy - w->sx * w->sy) / den;
    *b = (w->sy * w->sxx - w->sx * w->sxy) / den;
}

/* Equations 7 and 8: sigma from the running sums (0 for a line of <= 2 points). */
static double sigma(const olr_wm *w, double k, double b)
{
    if (w->n <= 2) return 0.0;
    double n = (double)w->n;
    double sse = w->syy + k * k * w->sxx + n * b * b - 2 * k * w->sxy - 2 * b * w->sy + 2 * k * b * w->sx;
    if (sse < 0) sse = 0; /* rounding of an exact fit */
    return sqrt(sse / (n - 2));
}

bool pms__olr_wm_breaks(const olr_wm *w, double x, double y, double alpha, double nsigma)
{
    if (w->n <= 1) return false;
    double k, b;
    fit(w, &k, &b);
    double u = x - w->ox, v = y - w->oy;
    double vhat = k * u + b;
    double r = fabs(v - vhat);
    /* A residual at the level of rounding is no evidence of a new line; without this
     * an exactly linear or constant series would break at random. The sums' rounding
     * grows with the number of points summed (seen at 1e-12 relative after 170,000
     * points of a straight line), hence the n DBL_EPSILON term. */
    double rounding = (1e-12 + (double)w->n * DBL_EPSILON) * (fabs(k * u) + fabs(b) + fabs(w->oy) + fabs(y));
    if (r <= rounding) return false;
    if (w->n == 2) {
        double yhat = vhat + w->oy;
        return !(r < alpha * fabs(yhat));
    }
    return r > nsigma * sigma(w, k, b);
}

void pms__olr_wm_add(olr_wm *w, double x, double y, uint64_t index, uint64_t raw_x)
{
    if (w->n == 0) {
        w->ox = x;
        w->oy = y;
        w->sx = w->sy = w->sxx = w->syy = w->sxy = 0;
        w->first = index;
        w->x_first = raw_x;
    }
    double u = x - w->ox, v = y - w->oy;
    w->sx += u;
    w->sy += v;
    w->sxx += u * u;
    w->syy += v * v;
    w->sxy += u * v;
    w->n++;
    w->lx = x;
    w->ly = y;
    w->last = index;
    w->x_last = raw_x;
}

void pms__olr_wm_segment(const olr_wm *w, double scale_x, double scale_y, pms_olr_segment *s)
{
    double k = 0, b = 0, sig = 0;
    if (w->n >= 2) {
        fit(w, &k, &b);
        sig = sigma(w, k, b);
    } else {
        b = w->ly - w->oy;
    }
    s->first = w->first;
    s->count = w->n;
    s->x_first = w->x_first;
    s->x_last = w->x_last;
    /* y = y1 * (k (x/x1 - ox) + b + oy) */
    double u_first = (double)w->x_first / scale_x - w->ox;
    double u_last = (double)w->x_last / scale_x - w->ox;
    s->y_first = scale_y * (k * u_first + b + w->oy);
    s->y_last = scale_y * (k * u_last + b + w->oy);
    s->slope = k * scale_y / scale_x;
    s->sigma = sig * scale_y;
    s->exact_valid = 0;
}

void pms__olr_wm_line(const olr_wm *w, double scale_x, double scale_y, uint64_t xo, uint64_t yo, double *a,
                      double *b)
{
    double k, c;
    fit(w, &k, &c);
    /* y = scale_y (k (x / scale_x - ox) + c + oy) */
    *a = scale_y * (k * ((double)xo / scale_x - w->ox) + c + w->oy) - (double)yo;
    *b = scale_y * k / scale_x;
}

void pms__olr_wm_restart(olr_wm *w)
{
    /* The new line starts from the last sample of the current one (n = 1, sums of that
     * point alone, which are zero relative to it). */
    w->ox = w->lx;
    w->oy = w->ly;
    w->sx = w->sy = w->sxx = w->syy = w->sxy = 0;
    w->n = 1;
    w->first = w->last;
    w->x_first = w->x_last;
}
