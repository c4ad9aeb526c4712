/* Residual diagnostics for observations in time order: the Durbin-Watson
 * statistic and Newey-West (HAC) standard errors, as lmtest::dwtest and
 * sandwich::NeweyWest(lag = L, prewhite = FALSE, adjust = FALSE) compute them. */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>

double pms_durbin_watson(const double *resid, size_t n)
{
    double num = 0, den = 0;
    for (size_t t = 0; t < n; t++) {
        den += resid[t] * resid[t];
        if (t) num += (resid[t] - resid[t - 1]) * (resid[t] - resid[t - 1]);
    }
    return n > 1 && den > 0 ? num / den : NAN;
}

size_t pms_newey_west_lag(size_t n) { return (size_t)floor(4.0 * pow((double)n / 100.0, 2.0 / 9.0)); }

/* row t of the design [1 x] (with or without the intercept) into d */
static void design_row(const pms_lm *m, const double *x, size_t t, double *d)
{
    size_t k0 = m->has_intercept ? 1 : 0, p = m->ncoef - k0;
    if (k0) d[0] = 1.0;
    for (size_t j = 0; j < p; j++) d[k0 + j] = x[t * p + j];
}

int pms_lm_newey_west(const pms_lm *m, const double *x, size_t lag, double *se)
{
    if (m->method != PMS_LM_OLS || !m->cov_unscaled)
        return pms__fail(PMS_EINVAL, "Newey-West standard errors need a least-squares fit");
    size_t n = m->n, k = m->ncoef;
    if (lag >= n) return pms__fail(PMS_EINVAL, "Newey-West lag %zu: expected fewer than the %zu observations", lag, n);
    double *meat = calloc(k * k, sizeof *meat), *dt = malloc(k * sizeof *dt), *ds = malloc(k * sizeof *ds);
    double *tmp = malloc(k * k * sizeof *tmp);
    if (!meat || !dt || !ds || !tmp) {
        free(meat), free(dt), free(ds), free(tmp);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    /* S = sum_t u_t^2 d_t d_t' + sum_l w_l sum_t u_t u_{t-l} (d_t d_{t-l}' + d_{t-l} d_t'), w_l = 1 - l / (L + 1) */
    for (size_t l = 0; l <= lag; l++) {
        double w = 1.0 - (double)l / (double)(lag + 1);
        for (size_t t = l; t < n; t++) {
            design_row(m, x, t, dt);
            design_row(m, x, t - l, ds);
            double uu = w * m->residuals[t] * m->residuals[t - l];
            for (size_t a = 0; a < k; a++)
                for (size_t b = 0; b < k; b++)
                    meat[a * k + b] += l ? uu * (dt[a] * ds[b] + ds[a] * dt[b]) : uu * dt[a] * dt[b];
        }
    }
    /* V = (X'X)^-1 S (X'X)^-1 */
    const double *bread = m->cov_unscaled;
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) {
            double s = 0;
            for (size_t c = 0; c < k; c++) s += bread[a * k + c] * meat[c * k + b];
            tmp[a * k + b] = s;
        }
    for (size_t a = 0; a < k; a++) {
        double v = 0;
        for (size_t c = 0; c < k; c++) v += tmp[a * k + c] * bread[c * k + a];
        se[a] = sqrt(v);
    }
    free(meat), free(dt), free(ds), free(tmp);
    return PMS_OK;
}
