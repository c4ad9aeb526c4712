/* Column normalisation: min-max (as Choudhary and Singh) and z-score. */
#include "pmuscope/stats.h"
#include "stats/design.h"
#include "util/error.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

/* Computes offset/scale per column with fn, checks none is degenerate, then applies. */
static int normalize(double *x, size_t n, size_t p, const char *const *names, const char *what,
                     void (*params)(const double *col, size_t stride, size_t n, double *offset, double *scale),
                     double *off_out, double *scale_out)
{
    if (n == 0) return pms__fail(PMS_EINVAL, "%s normalisation of an empty table", what);
    int rc = pms__stats_check_finite(x, n, p, NULL, names);
    if (rc < 0) return rc;
    double *off = malloc((p ? p : 1) * sizeof *off), *scale = malloc((p ? p : 1) * sizeof *scale);
    if (!off || !scale) {
        free(off);
        free(scale);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    char buf[32];
    for (size_t j = 0; j < p && rc == PMS_OK; j++) {
        params(x + j, p, n, &off[j], &scale[j]);
        if (!(scale[j] > 0))
            rc = pms__fail(PMS_ENUMERIC, "%s normalisation: column '%s' is constant (%g in every row)", what,
                          pms__stats_colname(names, j, buf, sizeof buf), x[j]);
    }
    if (rc == PMS_OK) {
        pms_normalize_apply(x, n, p, off, scale);
        for (size_t j = 0; j < p; j++) {
            if (off_out) off_out[j] = off[j];
            if (scale_out) scale_out[j] = scale[j];
        }
    }
    free(off);
    free(scale);
    return rc;
}

static void minmax_params(const double *col, size_t stride, size_t n, double *offset, double *scale)
{
    double lo, hi;
    gsl_stats_minmax(&lo, &hi, col, stride, n);
    *offset = lo;
    *scale = hi - lo;
}

static void zscore_params(const double *col, size_t stride, size_t n, double *offset, double *scale)
{
    *offset = gsl_stats_mean(col, stride, n);
    *scale = n > 1 ? gsl_stats_sd_m(col, stride, n, *offset) : 0;
}

int pms_normalize_minmax(double *x, size_t n, size_t p, const char *const *names, double *min, double *max)
{
    double *lo = malloc((p ? p : 1) * sizeof *lo), *range = malloc((p ? p : 1) * sizeof *range);
    if (!lo || !range) {
        free(lo);
        free(range);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    int rc = normalize(x, n, p, names, "min-max", minmax_params, lo, range);
    for (size_t j = 0; rc == PMS_OK && j < p; j++) {
        if (min) min[j] = lo[j];
        if (max) max[j] = lo[j] + range[j];
    }
    free(lo);
    free(range);
    return rc;
}

int pms_normalize_zscore(double *x, size_t n, size_t p, const char *const *names, double *mean, double *sd)
{
    return normalize(x, n, p, names, "z-score", zscore_params, mean, sd);
}

void pms_normalize_apply(double *x, size_t n, size_t p, const double *offset, const double *scale)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < p; j++) x[i * p + j] = (x[i * p + j] - offset[j]) / scale[j];
}
