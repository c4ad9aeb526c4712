/* Lasso cycle model: the stats module's glmnet-equivalent lasso (pms_lasso_cv) of cycles
 * on the counters, at cv.glmnet's lambda.min or lambda.1se, or a lambda given. */
#include "estimate/model.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

void pms_lasso_fit_free(pms_lasso_fit *f)
{
    if (!f) return;
    pms_cycle_model_free(&f->model);
    pms_lasso_free(f->path);
    memset(f, 0, sizeof *f);
}

int pms_lasso_fit_runs(const double *cycles, const double *events, size_t m, size_t n,
                       const pms_lasso_fit_options *opt, pms_lasso_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms__estimate_check(cycles, events, m, n, NULL, 3);
    if (rc < 0) return pms__fail_context(rc, "lasso: cross-validation needs 3 runs or more");
    pms_lasso_fit_options o = opt ? *opt : (pms_lasso_fit_options){0};
    pms_lasso *one = NULL;
    const double *coef = NULL;
    if (o.lambda > 0) { /* the lambda given, alone */
        pms_lasso_options lo = {.nlambda = 1, .lambda = &o.lambda};
        rc = pms_lasso_path(events, m, n, cycles, &lo, &one);
        if (rc == PMS_OK) coef = one->coef, out->lambda = o.lambda;
    } else {
        pms_lasso_options lo = {.nfolds = o.nfolds, .seed = o.seed};
        rc = pms_lasso_cv(events, m, n, cycles, &lo, &out->path);
        if (rc == PMS_OK) {
            size_t at = o.choice == PMS_LASSO_1SE ? out->path->index_1se : out->path->index_min;
            coef = out->path->coef + at * (n + 1), out->lambda = out->path->lambda[at];
        }
    }
    if (rc == PMS_OK) rc = pms__cycle_model_alloc(&out->model, n);
    if (rc == PMS_OK) {
        out->model.intercept = coef[0];
        for (size_t i = 0; i < n; i++) {
            out->model.coef[i] = coef[1 + i];
            out->model.used[i] = coef[1 + i] != 0;
            out->model.n_used += coef[1 + i] != 0;
        }
    }
    pms_lasso_free(one);
    if (rc < 0) pms_lasso_fit_free(out);
    return rc;
}
