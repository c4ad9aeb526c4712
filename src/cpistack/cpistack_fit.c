/* The fit of CPI on the regressors, as the options ask: OLS or NNLS (weighted or not)
 * by the stats module, or ridge regression with lambda by GCV by the cycle-estimation
 * module's ridge (the same code as estimate --method ridge). Shared by the model and
 * its bootstrap refits. */
#include "cpistack/cpistack_internal.h"
#include "pmuscope/estimate.h"
#include "util/error.h"

#include <stdlib.h>

static int fit_ridge(const double *x, size_t n, size_t p, const double *y, const char *const *names, pms_lm **out,
                     pms__cpistack_ridge *info)
{
    pms_ridge_fit f;
    int rc = pms_ridge_fit_runs(y, x, n, p, names, &f);
    if (rc != PMS_OK) return rc;
    double *coef = malloc((p + 1) * sizeof *coef);
    if (!coef) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        coef[0] = f.model.intercept;
        for (size_t j = 0; j < p; j++) coef[1 + j] = f.model.used[j] ? f.model.coef[j] : 0.0;
        rc = pms_lm_from_coef(x, n, p, y, names, PMS_LM_RIDGE, coef, out);
    }
    if (rc == PMS_OK && info) *info = (pms__cpistack_ridge){f.lambda, f.df, f.gcv};
    free(coef);
    pms_ridge_fit_free(&f);
    return rc;
}

int pms__cpistack_fit(const double *x, size_t n, size_t p, const double *y, const double *w, const char *const *names,
                      const pms_cpistack_options *o, pms_lm **out, pms__cpistack_ridge *ridge)
{
    if (o->method != PMS_LM_RIDGE) {
        pms_lm_options lo = {.method = o->method, .weights = w};
        return pms_lm_fit(x, n, p, y, names, &lo, out);
    }
    if (w)
        return pms__with_option(pms__fail(PMS_EINVAL, "ridge regression is not weighted: leave out the weights"),
                                o->weighted ? "weighted" : "multiplexed");
    return fit_ridge(x, n, p, y, names, out, ridge);
}
