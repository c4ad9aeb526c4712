/* The uncertainty of a multiplexed count (pmuscope/multiplex.h states the model). */
#include "pmuscope/multiplex.h"

#include <math.h>

void pms_mux_windows_add(pms_mux_windows *w, uint64_t count, uint64_t running)
{
    if (running == 0) return;
    double c = (double)count, r = (double)running;
    w->n++;
    w->count += c;
    w->running += r;
    w->count2_per_running += c * c / r;
}

double pms_mux_dispersion(const pms_mux_windows *w)
{
    if (w->n < 2 || w->running <= 0) return -1;
    /* sum (c_k - lambda r_k)^2 / r_k = sum c_k^2 / r_k - (sum c_k)^2 / sum r_k */
    double ss = w->count2_per_running - w->count * w->count / w->running;
    return ss > 0 ? ss / (double)(w->n - 1) : 0; /* rounding can leave a tiny negative */
}

double pms_mux_uncertainty(double dispersion, uint64_t raw, uint64_t enabled, uint64_t running)
{
    if (running == 0) return NAN;
    if (running >= enabled) return 0;
    double r = (double)running, e = (double)enabled;
    if (dispersion < 0) return (double)raw * (e - r) / r; /* no spread known: all of the unseen part */
    return sqrt(dispersion * (e - r) * e / r);
}
