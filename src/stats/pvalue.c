/* p values of t and F statistics from the regularised incomplete beta.
 * gsl_cdf_tdist_Q and gsl_cdf_fdist_Q switch to approximations for large degrees
 * of freedom (a relative error of 1e-8 at p = 1e-12 with df > 30, up to 1e-6
 * below 1e-20); the incomplete beta is what R's pt and pf evaluate. */
#include "pmuscope/stats.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

/* I_x(a, b); 0 when it underflows the double range. */
static double beta_inc(double a, double b, double x)
{
    if (!(x >= 0) || !(a > 0) || !(b > 0)) return NAN;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    gsl_sf_result r;
    int st = gsl_sf_beta_inc_e(a, b, x > 1 ? 1 : x, &r);
    gsl_set_error_handler(old);
    return st == GSL_SUCCESS ? r.val : st == GSL_EUNDRFLW ? 0.0 : NAN;
}

double pms_t_p_value(double t, double df)
{
    if (isnan(t)) return NAN;
    if (isinf(t)) return 0.0;
    return beta_inc(df / 2, 0.5, df / (df + t * t));
}

double pms_f_p_value(double f, double d1, double d2)
{
    if (isnan(f)) return NAN;
    if (isinf(f)) return 0.0;
    if (f <= 0) return 1.0;
    return beta_inc(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}
