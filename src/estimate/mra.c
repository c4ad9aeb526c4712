/* MRA cycle model (Hattori's paper, B.2): ordinary least squares through the stats
 * module, on every counter or after backward elimination by p value or AIC. */
#include "estimate/model.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pms_mra_fit_free(pms_mra_fit *f)
{
    if (!f) return;
    pms_cycle_model_free(&f->model);
    pms_lm_free(f->lm);
    free(f->dropped);
    memset(f, 0, sizeof *f);
}

/* Fits cycles on the k counters in cols. */
static int fit_columns(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       const size_t *cols, size_t k, pms_lm **lm)
{
    double *x = pms__estimate_columns(events, m, n, cols, k);
    const char **nm = pms__estimate_names(names, cols, k);
    int rc = (x && nm) ? pms_lm_fit(x, m, k, cycles, names ? nm : NULL, NULL, lm)
                       : pms__fail(PMS_ENOMEM, "MRA: out of memory");
    free(x);
    free(nm);
    return rc;
}

/* R's extractAIC for lm: n log(RSS / n) + 2 edf, edf = coefficients with the intercept. */
static double lm_aic(const pms_lm *lm)
{
    return (double)lm->n * log(lm->rss / (double)lm->n) + 2.0 * (double)lm->ncoef;
}

/* Removes cols[at] (keeping order) and records it as dropped. */
static void drop_column(size_t *cols, size_t *k, size_t at, pms_mra_fit *out)
{
    out->dropped[out->n_dropped++] = cols[at];
    memmove(cols + at, cols + at + 1, (*k - at - 1) * sizeof *cols);
    (*k)--;
}

/* One backward step by p value: the counter with the largest p above alpha, or -1. */
static long step_p(const pms_lm *lm, double alpha)
{
    long worst = -1;
    double pmax = alpha;
    for (size_t c = 1; c < lm->ncoef; c++)
        if (lm->p_value[c] > pmax) pmax = lm->p_value[c], worst = (long)c - 1;
    return worst;
}

/* One backward step by AIC: the counter whose removal gives the lowest AIC when
 * that is lower than the current one (R's step(): by more than 1e-7), or -1. */
static int step_aic(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                    const size_t *cols, size_t k, double aic_now, long *worst)
{
    *worst = -1;
    double best = aic_now - 1e-7;
    size_t *sub = malloc(k * sizeof *sub);
    if (!sub) return pms__fail(PMS_ENOMEM, "MRA: out of memory");
    for (size_t at = 0; at < k; at++) {
        size_t s = 0;
        for (size_t c = 0; c < k; c++)
            if (c != at) sub[s++] = cols[c];
        pms_lm *lm = NULL;
        int rc = fit_columns(cycles, events, m, n, names, sub, s, &lm);
        if (rc < 0) {
            free(sub);
            return rc;
        }
        double aic = lm_aic(lm);
        if (aic < best) best = aic, *worst = (long)at;
        pms_lm_free(lm);
    }
    free(sub);
    return PMS_OK;
}

int pms_mra_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                     const pms_mra_options *opt, pms_mra_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms__estimate_check(cycles, events, m, n, names, 1);
    if (rc < 0) return rc;
    if (m < n + 2)
        return pms__fail(PMS_EINVAL,
                        "MRA: %zu runs for %zu counters: least squares with an intercept needs at least %zu runs "
                        "(counters + 2); choose fewer counters or use LP",
                        m, n, n + 2);
    pms_mra_select select = opt ? opt->select : PMS_MRA_ALL;
    double alpha = opt && opt->alpha > 0 ? opt->alpha : 0.05;

    size_t *cols = malloc(n * sizeof *cols), *aliased = malloc(n * sizeof *aliased);
    out->dropped = malloc(n * sizeof *out->dropped);
    if (!cols || !aliased || !out->dropped) {
        rc = pms__fail(PMS_ENOMEM, "MRA: out of memory");
        goto done;
    }
    size_t na = 0, k = 0;
    rc = pms_lm_aliased(events, m, n, true, 0, aliased, &na);
    if (rc < 0) goto done;
    for (size_t i = 0; i < n; i++) {
        bool is_aliased = false;
        for (size_t a = 0; a < na; a++) is_aliased |= aliased[a] == i;
        if (is_aliased)
            out->dropped[out->n_dropped++] = i;
        else
            cols[k++] = i;
    }
    out->n_aliased = out->n_dropped;
    if (k == 0) {
        rc = pms__fail(PMS_ENUMERIC, "MRA: every counter is constant over the %zu runs: nothing to regress cycles on", m);
        goto done;
    }
    rc = fit_columns(cycles, events, m, n, names, cols, k, &out->lm);
    while (rc == PMS_OK && select != PMS_MRA_ALL && k > 1 && out->lm->rss > 0) {
        long worst = -1;
        if (select == PMS_MRA_STEP_P)
            worst = step_p(out->lm, alpha);
        else
            rc = step_aic(cycles, events, m, n, names, cols, k, lm_aic(out->lm), &worst);
        if (rc < 0 || worst < 0) break;
        drop_column(cols, &k, (size_t)worst, out);
        pms_lm_free(out->lm);
        out->lm = NULL;
        rc = fit_columns(cycles, events, m, n, names, cols, k, &out->lm);
    }
    if (rc == PMS_OK) {
        out->aic = lm_aic(out->lm);
        rc = pms__cycle_model_from_lm(&out->model, n, out->lm, cols, k);
    }
done:
    free(cols);
    free(aliased);
    if (rc < 0) pms_mra_fit_free(out);
    return rc;
}
