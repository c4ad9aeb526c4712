/* NNLS cycle model: least squares with every coefficient (the intercept too) >= 0, as
 * R's nnls(cbind(1, E), c), by the stats module's Lawson-Hanson. A remedy beside LP for
 * fewer runs than counters: no coefficient can be negative, so the aliased counters that
 * OLS would weigh against each other stay at 0 or share the cycles. */
#include "estimate/model.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

void pms_nnls_fit_free(pms_nnls_fit *f)
{
    if (!f) return;
    pms_cycle_model_free(&f->model);
    memset(f, 0, sizeof *f);
}

int pms_nnls_fit_runs(const double *cycles, const double *events, size_t m, size_t n, pms_nnls_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms__estimate_check(cycles, events, m, n, NULL, 1);
    if (rc < 0) return rc;
    double *a = malloc(m * (n + 1) * sizeof *a), *x = malloc((n + 1) * sizeof *x);
    if (!a || !x) rc = pms__fail(PMS_ENOMEM, "NNLS: out of memory for %zu runs", m);
    for (size_t j = 0; rc == PMS_OK && j < m; j++) {
        a[j * (n + 1)] = 1.0;
        memcpy(a + j * (n + 1) + 1, events + j * n, n * sizeof *a);
    }
    double rnorm = 0;
    if (rc == PMS_OK) rc = pms_nnls(a, m, n + 1, cycles, 0, x, &rnorm);
    if (rc == PMS_OK) rc = pms__cycle_model_alloc(&out->model, n);
    if (rc == PMS_OK) {
        out->model.intercept = x[0];
        for (size_t i = 0; i < n; i++) {
            out->model.coef[i] = x[1 + i];
            out->model.used[i] = x[1 + i] > 0;
            out->model.n_used += x[1 + i] > 0;
        }
        out->rss = rnorm * rnorm;
    }
    free(a), free(x);
    if (rc < 0) {
        pms_nnls_fit_free(out);
        return pms__fail_context(rc, "NNLS");
    }
    return PMS_OK;
}
