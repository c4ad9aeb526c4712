/* Pearson correlation matrix and variance inflation factors. */
#include "pmuscope/stats.h"
#include "stats/design.h"
#include "util/error.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

/* Column j centred by its mean, and its sum of squares. */
static double centre(const double *x, size_t n, size_t p, size_t j, double *out)
{
    double mean = gsl_stats_mean(x + j, p, n), ss = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = x[i * p + j] - mean;
        ss += out[i] * out[i];
    }
    return ss;
}

int pms_correlation(const double *x, size_t n, size_t p, const char *const *names, double *r)
{
    if (n < 2) return pms__fail(PMS_EINVAL, "correlation needs at least 2 rows, got %zu", n);
    int rc = pms__stats_check_finite(x, n, p, NULL, names);
    if (rc < 0) return rc;
    double *c = malloc(n * p * sizeof *c), *ss = malloc(p * sizeof *ss);
    if (!c || !ss) {
        free(c);
        free(ss);
        return pms__fail(PMS_ENOMEM, "out of memory for a %zu x %zu correlation", p, p);
    }
    char buf[32];
    for (size_t j = 0; j < p && rc == PMS_OK; j++) {
        ss[j] = centre(x, n, p, j, c + j * n);
        if (ss[j] == 0)
            rc = pms__fail(PMS_ENUMERIC, "column '%s' is constant: its correlation is undefined",
                          pms__stats_colname(names, j, buf, sizeof buf));
    }
    for (size_t a = 0; a < p && rc == PMS_OK; a++)
        for (size_t b = a; b < p; b++) {
            double s = 0;
            for (size_t i = 0; i < n; i++) s += c[a * n + i] * c[b * n + i];
            double v = a == b ? 1.0 : s / sqrt(ss[a] * ss[b]);
            r[a * p + b] = r[b * p + a] = fmax(-1.0, fmin(1.0, v));
        }
    free(c);
    free(ss);
    return rc;
}

int pms_vif(const double *x, size_t n, size_t p, const char *const *names, double *vif)
{
    if (p == 0) return PMS_OK;
    double *r = malloc(p * p * sizeof *r);
    if (!r) return pms__fail(PMS_ENOMEM, "out of memory for VIFs");
    int rc = pms_correlation(x, n, p, names, r);
    if (rc < 0) {
        free(r);
        return rc;
    }
    /* VIF_j = [R^-1]_jj; a correlation matrix that is not positive definite
     * means exact collinearity, which the rank check names. */
    gsl_matrix_view rv = gsl_matrix_view_array(r, p, p);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int g = gsl_linalg_cholesky_decomp1(&rv.matrix);
    if (g == 0) g = gsl_linalg_cholesky_invert(&rv.matrix);
    gsl_set_error_handler(old);
    bool singular = g != 0;
    for (size_t j = 0; j < p && !singular; j++) {
        vif[j] = r[j * p + j];
        singular = !isfinite(vif[j]) || vif[j] > 1e12;
    }
    free(r);
    if (singular) return pms__fail_context(pms__fail_aliased(x, n, p, true, 0, names), "VIF");
    return PMS_OK;
}
