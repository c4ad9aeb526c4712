/* Bootstrap intervals of a CPI model's coefficients. The training intervals are a
 * time series whose errors are correlated (see the Durbin-Watson statistic), so
 * they are resampled in moving blocks of consecutive intervals by default, which
 * keeps the correlation within a block; --bootstrap-block 1 resamples single intervals. */
#include "cpistack/cpistack_internal.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

typedef struct refit_ctx {
    const pms_cpistack *s;
    const pms_cpistack_options *o;
    const double *xtr, *ytr, *wtr;
    double *x, *y, *w; /* the resample */
} refit_ctx;

static int refit(const size_t *rows, size_t n, void *ctx, double *coef)
{
    refit_ctx *c = ctx;
    size_t p = c->s->nevents;
    pms_rows_gather(c->xtr, p, rows, n, c->x);
    pms_rows_gather(c->ytr, 1, rows, n, c->y);
    if (c->wtr) pms_rows_gather(c->wtr, 1, rows, n, c->w);
    pms_lm *m;
    int rc = pms__cpistack_fit(c->x, n, p, c->y, c->wtr ? c->w : NULL, NULL, c->o, &m, NULL);
    if (rc != PMS_OK) return rc;
    memcpy(coef, m->coef, m->ncoef * sizeof *coef);
    pms_lm_free(m);
    return PMS_OK;
}

int pms__cpistack_bootstrap(pms_cpistack *s, const pms_cpistack_options *o, const double *xtr, const double *ytr,
                            const double *wtr)
{
    size_t n = s->ntrain, p = s->nevents;
    pms_bootstrap_options bo = o->bootstrap;
    if (bo.block == 0) bo.block = pms_bootstrap_block_length(n);
    refit_ctx c = {s, o, xtr, ytr, wtr, malloc(n * (p ? p : 1) * sizeof(double)), malloc(n * sizeof(double)),
                   malloc(n * sizeof(double))};
    int rc = c.x && c.y && c.w ? pms_bootstrap_run(n, s->model->ncoef, refit, &c, &bo, &s->boot)
                               : pms__fail(PMS_ENOMEM, "out of memory");
    free(c.x), free(c.y), free(c.w);
    return rc;
}
