/* Two-sample tests of a difference, each as R computes it: prop.test for two proportions
 * and t.test's Welch test for two means (pmuscope/stats.h). */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>

static bool level_ok(double level) { return level > 0 && level < 1; }

int pms_prop_test2(pms_test_result *out, uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2, double level,
                   bool correct)
{
    if (!n1 || !n2 || x1 > n1 || x2 > n2 || !level_ok(level))
        return pms__fail(PMS_EINVAL, "prop.test: expected 0 <= x <= n, n > 0 and a level in (0, 1), got %llu/%llu, "
                         "%llu/%llu at %g", (unsigned long long)x1, (unsigned long long)n1,
                         (unsigned long long)x2, (unsigned long long)n2, level);
    double dn1 = (double)n1, dn2 = (double)n2, p1 = (double)x1 / dn1, p2 = (double)x2 / dn2;
    double delta = p1 - p2, inv_sum = 1 / dn1 + 1 / dn2;
    double yates = correct ? fmin(0.5, fabs(delta) / inv_sum) : 0;
    double se = sqrt(p1 * (1 - p1) / dn1 + p2 * (1 - p2) / dn2);
    double width = gsl_cdf_ugaussian_Pinv((1 + level) / 2) * se + yates * inv_sum;
    /* the chi-square statistic of the 2 x 2 table against its expectation under one pooled p */
    double p = ((double)x1 + (double)x2) / (dn1 + dn2), stat = 0;
    const double observed[4] = {(double)x1, dn1 - (double)x1, (double)x2, dn2 - (double)x2};
    const double expected[4] = {dn1 * p, dn1 * (1 - p), dn2 * p, dn2 * (1 - p)};
    for (int k = 0; k < 4; k++) {
        double d = fabs(observed[k] - expected[k]) - yates;
        stat += d * d / expected[k]; /* 0/0 when p is 0 or 1: NaN, as R */
    }
    /* pchisq(stat, 1, lower.tail = FALSE) = erfc(sqrt(stat / 2)), to the last bits in the far tail */
    *out = (pms_test_result){.statistic = stat, .df = 1, .p_value = erfc(sqrt(stat / 2)), .estimate = delta,
                             .ci_low = fmax(delta - width, -1), .ci_high = fmin(delta + width, 1), .std_error = se};
    return PMS_OK;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    double m = s / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++) ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *var = ss / (double)(n - 1);
}

int pms_welch_test_floored(pms_test_result *out, const double *x, size_t nx, const double *y, size_t ny, double level,
                           double floor_x, double floor_y)
{
    if (nx < 2 || ny < 2 || !level_ok(level) || !(floor_x >= 0) || !(floor_y >= 0))
        return pms__fail(PMS_EINVAL, "t.test: expected 2 or more values on each side, a level in (0, 1) and floors "
                         ">= 0, got %zu and %zu values at %g", nx, ny, level);
    double mx, vx, my, vy;
    mean_var(x, nx, &mx, &vx);
    mean_var(y, ny, &my, &vy);
    /* each mean's variance, and its share of Satterthwaite's denominator (none when floored:
     * a known variance has no error of its own) */
    double sx2 = vx / (double)nx, sy2 = vy / (double)ny, dx = 0, dy = 0;
    if (sx2 < floor_x) sx2 = floor_x;
    else dx = sx2 * sx2 / (double)(nx - 1);
    if (sy2 < floor_y) sy2 = floor_y;
    else dy = sy2 * sy2 / (double)(ny - 1);
    double stderr_ = sqrt(sx2 + sy2);
    if (!(stderr_ >= 10 * DBL_EPSILON * fmax(fabs(mx), fabs(my))))
        return pms__fail(PMS_ENUMERIC, "t.test: the data are essentially constant (means %g and %g)", mx, my);
    double df = dx + dy > 0 ? (sx2 + sy2) * (sx2 + sy2) / (dx + dy) : INFINITY, t = (mx - my) / stderr_;
    double q = isinf(df) ? gsl_cdf_ugaussian_Pinv(1 - (1 - level) / 2) : gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, df);
    double p = isinf(df) ? erfc(fabs(t) / sqrt(2)) : pms_t_p_value(t, df);
    *out = (pms_test_result){.statistic = t, .df = df, .p_value = p, .estimate = mx - my,
                             .ci_low = (t - q) * stderr_, .ci_high = (t + q) * stderr_, .std_error = stderr_};
    return PMS_OK;
}

int pms_welch_test(pms_test_result *out, const double *x, size_t nx, const double *y, size_t ny, double level)
{
    return pms_welch_test_floored(out, x, nx, y, ny, level, 0, 0);
}
