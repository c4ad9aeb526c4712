/* MRA cycle model (Hattori's paper, B.2): ordinary least squares through the stats
 * module, as R's lm on every counter (aliased ones left out), after backward
 * elimination by p value or AIC, or by forward selection by AIC as R's step(). */
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
    free(f->alias_reason);
    free(f->added);
    memset(f, 0, sizeof *f);
}

/* Fits cycles on the k counters in cols (k may be 0: the intercept alone); as many
 * coefficients as runs interpolate them, as R's lm does. */
static int fit_columns(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       const size_t *cols, size_t k, pms_lm **lm)
{
    double *x = pms__estimate_columns(events, m, n, cols, k);
    const char **nm = pms__estimate_names(names, cols, k);
    pms_lm_options lo = {.allow_saturated = true};
    int rc = (x && nm) ? pms_lm_fit(x, m, k, cycles, names ? nm : NULL, &lo, lm)
                       : pms__fail(PMS_ENOMEM, "MRA: out of memory");
    free(x);
    free(nm);
    return rc;
}

/* R's extractAIC for lm: n log(RSS / n) + 2 edf, edf = coefficients with the intercept;
 * -Inf for a fit that interpolates the runs (RSS exactly 0, as R's). */
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

/* One backward step by p value: the counter with the largest p above alpha, or -1
 * (none: also when the fit has no residual degrees of freedom, its p values NaN). */
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

/* Whether counter c is aliased with the intercept and the k counters in cols (R's add1
 * gives such an addition 0 degrees of freedom, and step() never makes it). */
static int aliased_after(const double *events, size_t m, size_t n, const size_t *cols, size_t k, size_t c,
                         bool *aliased)
{
    *aliased = false;
    size_t *with = malloc((k + 1) * sizeof *with), *al = malloc((k + 1) * sizeof *al), nal = 0;
    double *x = NULL;
    if (with) {
        memcpy(with, cols, k * sizeof *cols);
        with[k] = c;
        x = pms__estimate_columns(events, m, n, with, k + 1);
    }
    int rc = x && al ? pms_lm_aliased(x, m, k + 1, true, 0, al, &nal) : pms__fail(PMS_ENOMEM, "MRA: out of memory");
    for (size_t a = 0; rc == PMS_OK && a < nal; a++) *aliased |= al[a] == k;
    free(with);
    free(al);
    free(x);
    return rc;
}

/* Forward selection by AIC as R's step(direction = "forward") over every counter:
 * cols (k of them) grows from the intercept alone, in the order the counters enter. */
static int forward_aic(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       size_t *cols, size_t *k, pms_mra_fit *out)
{
    bool *in = calloc(n, sizeof *in);
    pms_lm *lm = NULL;
    int rc = in ? fit_columns(cycles, events, m, n, names, cols, 0, &lm) : pms__fail(PMS_ENOMEM, "MRA: out of memory");
    double aic_now = rc == PMS_OK ? lm_aic(lm) : NAN;
    pms_lm_free(lm);
    *k = 0;
    while (rc == PMS_OK) {
        size_t best = n;
        double best_aic = aic_now; /* a candidate must beat the model as it is (R's "<none>" row comes first) */
        for (size_t c = 0; rc == PMS_OK && c < n; c++) {
            bool aliased = true;
            if (in[c] || (rc = aliased_after(events, m, n, cols, *k, c, &aliased)) < 0 || aliased) continue;
            cols[*k] = c;
            if ((rc = fit_columns(cycles, events, m, n, names, cols, *k + 1, &lm)) < 0) break;
            double aic = lm_aic(lm);
            pms_lm_free(lm);
            if (aic < best_aic) best_aic = aic, best = c;
        }
        if (rc < 0 || best == n) break;
        cols[(*k)++] = best;
        in[best] = true;
        out->added[out->n_added++] = best;
        aic_now = best_aic;
    }
    for (size_t c = 0; rc == PMS_OK && c < n; c++)
        if (!in[c]) out->dropped[out->n_dropped++] = c;
    free(in);
    return rc;
}

/* The counters R's lm would alias, with why, into out->dropped; the others into cols. */
static int leave_out_aliased(const double *events, size_t m, size_t n, size_t *cols, size_t *k, pms_mra_fit *out)
{
    size_t *aliased = malloc(n * sizeof *aliased), na = 0;
    int rc = aliased ? pms_lm_aliased(events, m, n, true, 0, aliased, &na) : pms__fail(PMS_ENOMEM, "MRA: out of memory");
    *k = 0;
    for (size_t i = 0, a = 0; rc == PMS_OK && i < n; i++) {
        if (a < na && aliased[a] == i) {
            bool constant = true;
            for (size_t j = 1; j < m; j++) constant &= events[j * n + i] == events[i];
            /* R's pivoting: once the kept counters and the intercept number the runs, every later one is aliased */
            out->alias_reason[out->n_dropped] = constant ? PMS_ALIAS_CONSTANT
                                              : *k + 1 >= m ? PMS_ALIAS_NO_RUNS_LEFT : PMS_ALIAS_COMBINATION;
            out->dropped[out->n_dropped++] = i;
            a++;
        } else {
            cols[(*k)++] = i;
        }
    }
    out->n_aliased = out->n_dropped;
    free(aliased);
    return rc;
}

int pms_mra_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                     const pms_mra_options *opt, pms_mra_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms__estimate_check(cycles, events, m, n, names, 2);
    if (rc < 0) return pms__fail_context(rc, "MRA: a slope and an intercept need 2 runs or more");
    pms_mra_select select = opt ? opt->select : PMS_MRA_ALL;
    double alpha = opt && opt->alpha > 0 ? opt->alpha : 0.05;
    if ((unsigned)select > PMS_MRA_FORWARD_AIC) return pms__fail(PMS_EINVAL, "MRA: unknown selection %d", (int)select);

    size_t *cols = malloc(n * sizeof *cols), k = 0;
    out->dropped = malloc(n * sizeof *out->dropped);
    out->alias_reason = malloc(n * sizeof *out->alias_reason);
    out->added = malloc(n * sizeof *out->added);
    if (!cols || !out->dropped || !out->alias_reason || !out->added) {
        rc = pms__fail(PMS_ENOMEM, "MRA: out of memory");
        goto done;
    }
    rc = select == PMS_MRA_FORWARD_AIC ? forward_aic(cycles, events, m, n, names, cols, &k, out)
                                       : leave_out_aliased(events, m, n, cols, &k, out);
    if (rc < 0) goto done;
    if (k == 0) {
        rc = select == PMS_MRA_FORWARD_AIC
                 ? pms__fail(PMS_ENUMERIC, "MRA: forward selection adds no counter: none lowers the AIC of the "
                                           "intercept alone over the %zu runs", m)
                 : pms__fail(PMS_ENUMERIC, "MRA: every counter is constant over the %zu runs: nothing to regress "
                                           "cycles on", m);
        goto done;
    }
    rc = fit_columns(cycles, events, m, n, names, cols, k, &out->lm);
    while (rc == PMS_OK && (select == PMS_MRA_STEP_P || select == PMS_MRA_STEP_AIC) && k > 1 && out->lm->rss > 0) {
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
    if (rc < 0) pms_mra_fit_free(out);
    return rc;
}
