/* MRACM cycle model (seed 004, B.3): pair each counter highly correlated with
 * cycles with one barely correlated, reject pairs with a high VIF, keep the pair
 * whose two-counter OLS estimates the selection runs best. */
#include "estimate/model.h"
#include "util/error.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_mracm_fit_free(pms_mracm_fit *f)
{
    if (!f) return;
    free(f->correlation);
    free(f->pairs);
    pms_cycle_model_free(&f->model);
    pms_lm_free(f->lm);
    memset(f, 0, sizeof *f);
}

static bool column_constant(const double *events, size_t m, size_t n, size_t i)
{
    for (size_t j = 1; j < m; j++)
        if (events[j * n + i] != events[i]) return false;
    return true;
}

/* r of each counter with cycles; NaN for a constant counter. */
static int correlations(const double *cycles, const double *events, size_t m, size_t n, double *r)
{
    double *xy = malloc(m * 2 * sizeof *xy), rr[4];
    if (!xy) return pms_fail(PMS_ENOMEM, "MRACM: out of memory");
    int rc = PMS_OK;
    for (size_t i = 0; i < n && rc == PMS_OK; i++) {
        r[i] = NAN;
        if (column_constant(events, m, n, i)) continue;
        for (size_t j = 0; j < m; j++) xy[2 * j] = cycles[j], xy[2 * j + 1] = events[j * n + i];
        rc = pms_correlation(xy, m, 2, NULL, rr);
        if (rc == PMS_OK) r[i] = rr[1];
    }
    free(xy);
    return rc;
}

double pms_mracm_pair_predict(const pms_mracm_pair *p, const double *events_row)
{
    return p->coef[0] + p->coef[1] * events_row[p->high] + p->coef[2] * events_row[p->low];
}

/* Fits cycles on the pair over the given runs (rows) into p->coef, then the mean
 * |error %| on the eval rows into p->error_pct. */
static int pair_error(const double *cycles, const double *events, size_t n, pms_mracm_pair *p,
                      const size_t *fit_rows, size_t nfit, const size_t *eval_rows, size_t neval)
{
    const size_t cols[2] = {p->high, p->low};
    double *x = malloc(nfit * 2 * sizeof *x), *y = malloc(nfit * sizeof *y);
    pms_lm *lm = NULL;
    int rc = (x && y) ? PMS_OK : pms_fail(PMS_ENOMEM, "MRACM: out of memory");
    for (size_t r = 0; rc == PMS_OK && r < nfit; r++) {
        y[r] = cycles[fit_rows[r]];
        x[2 * r] = events[fit_rows[r] * n + cols[0]];
        x[2 * r + 1] = events[fit_rows[r] * n + cols[1]];
    }
    if (rc == PMS_OK) rc = pms_lm_fit(x, nfit, 2, y, NULL, NULL, &lm);
    if (rc == PMS_OK) {
        for (int k = 0; k < 3; k++) p->coef[k] = lm->coef[k];
        double sum = 0;
        for (size_t r = 0; r < neval; r++)
            sum += fabs(pms_estimate_error_pct(pms_mracm_pair_predict(p, &events[eval_rows[r] * n]),
                                               cycles[eval_rows[r]]));
        p->error_pct = sum / (double)neval;
    }
    pms_lm_free(lm);
    free(x);
    free(y);
    return rc;
}

/* Which runs fit each pair and which judge it: all runs both ways, or a seeded
 * split of the runs into fit and held-out parts. */
static int selection_rows(size_t m, const pms_mracm_options *opt, size_t *fit, size_t *nfit, size_t *eval,
                          size_t *neval)
{
    double v = opt ? opt->validation : 0;
    if (v <= 0) {
        for (size_t j = 0; j < m; j++) fit[j] = eval[j] = j;
        *nfit = *neval = m;
        return PMS_OK;
    }
    if (v >= 1) return pms_fail(PMS_EINVAL, "MRACM: validation fraction %g: expected a value in (0, 1)", v);
    int rc = pms_split(m, 1.0 - v, opt->seed, fit, nfit, eval, neval);
    if (rc < 0) return rc;
    if (*nfit < 4 || *neval < 1)
        return pms_fail(PMS_EINVAL,
                        "MRACM: a %g validation split of %zu runs leaves %zu to fit and %zu to validate: "
                        "need at least 4 and 1",
                        v, m, *nfit, *neval);
    return PMS_OK;
}

/* Describes why no pair exists: the counter nearest the missing class. */
static void explain_no_pairs(pms_mracm_fit *out, size_t n, const char *const *names, size_t nhigh, double high,
                             double low)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (isnan(out->correlation[i])) continue;
        double a = fabs(out->correlation[i]);
        if (best == SIZE_MAX || (nhigh ? a < fabs(out->correlation[best]) : a > fabs(out->correlation[best])))
            best = i;
    }
    char fallback[32];
    snprintf(fallback, sizeof fallback, "counter %zu", best + 1);
    const char *name = best == SIZE_MAX ? "none" : names ? names[best] : fallback;
    double r = best == SIZE_MAX ? NAN : out->correlation[best];
    out->applicable = false;
    snprintf(out->reason, sizeof out->reason, "no %s-correlation counter (|r| %s %.2g): the %s is %s, r = %.3f",
             nhigh ? "low" : "high", nhigh ? "<" : ">=", nhigh ? low : high, nhigh ? "lowest" : "highest", name, r);
}

int pms_mracm_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       const pms_mracm_options *opt, pms_mracm_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms_estimate_check(cycles, events, m, n, names, 4);
    if (rc < 0) return pms_fail_context(rc, "MRACM: a pair and an intercept need 4 runs or more");
    double high = opt && opt->high > 0 ? opt->high : PMS_MRACM_HIGH;
    double low = opt && opt->low > 0 ? opt->low : PMS_MRACM_LOW;
    double max_vif = opt && opt->max_vif > 0 ? opt->max_vif : PMS_MRACM_MAX_VIF;
    if (low > high) return pms_fail(PMS_EINVAL, "MRACM: low threshold %g is above the high threshold %g", low, high);

    size_t *fit = malloc(m * sizeof *fit), *eval = malloc(m * sizeof *eval), nfit = 0, neval = 0;
    out->correlation = malloc(n * sizeof *out->correlation);
    if (!fit || !eval || !out->correlation) {
        rc = pms_fail(PMS_ENOMEM, "MRACM: out of memory");
        goto done;
    }
    if ((rc = selection_rows(m, opt, fit, &nfit, eval, &neval)) < 0) goto done;
    bool flat = true;
    for (size_t j = 1; j < m; j++) flat &= cycles[j] == cycles[0];
    if (flat) {
        rc = pms_fail(PMS_EINVAL, "MRACM: cycles are %g in all %zu fitting runs: no correlation with them exists", cycles[0],
                      m);
        goto done;
    }
    if ((rc = correlations(cycles, events, m, n, out->correlation)) < 0) goto done;

    size_t nhigh = 0, nlow = 0;
    for (size_t i = 0; i < n; i++) {
        double a = fabs(out->correlation[i]);
        nhigh += a >= high;
        nlow += a < low;
    }
    if (nhigh == 0 || nlow == 0) {
        explain_no_pairs(out, n, names, nhigh, high, low);
        goto done;
    }
    out->pairs = calloc(nhigh * nlow, sizeof *out->pairs);
    if (!out->pairs) {
        rc = pms_fail(PMS_ENOMEM, "MRACM: out of memory");
        goto done;
    }
    double best_err = INFINITY;
    for (size_t h = 0; h < n && rc == PMS_OK; h++) {
        if (!(fabs(out->correlation[h]) >= high)) continue;
        for (size_t l = 0; l < n && rc == PMS_OK; l++) {
            if (!(fabs(out->correlation[l]) < low)) continue;
            pms_mracm_pair *p = &out->pairs[out->n_pairs++];
            size_t cols[2] = {h, l};
            double *x = pms_estimate_columns(events, m, n, cols, 2), vif[2];
            if (!x) {
                rc = pms_fail(PMS_ENOMEM, "MRACM: out of memory");
                break;
            }
            p->high = h, p->low = l;
            /* an exactly collinear pair has no VIF: it counts as infinite */
            p->vif = pms_vif(x, m, 2, NULL, vif) == PMS_OK ? vif[0] : INFINITY;
            free(x);
            p->rejected = p->vif >= max_vif;
            p->error_pct = p->coef[0] = p->coef[1] = p->coef[2] = NAN;
            if (p->rejected) continue;
            rc = pair_error(cycles, events, n, p, fit, nfit, eval, neval);
            if (rc == PMS_OK && p->error_pct < best_err) best_err = p->error_pct, out->best = out->n_pairs - 1;
        }
    }
    if (rc < 0) goto done;
    if (!isfinite(best_err)) {
        out->applicable = false;
        snprintf(out->reason, sizeof out->reason, "every high-low pair (%zu) has VIF >= %g", out->n_pairs, max_vif);
        goto done;
    }
    out->applicable = true;
    size_t cols[2] = {out->pairs[out->best].high, out->pairs[out->best].low};
    double *x = pms_estimate_columns(events, m, n, cols, 2);
    const char **nm = pms_estimate_names(names, cols, 2);
    rc = (x && nm) ? pms_lm_fit(x, m, 2, cycles, names ? nm : NULL, NULL, &out->lm)
                   : pms_fail(PMS_ENOMEM, "MRACM: out of memory");
    free(x);
    free(nm);
    if (rc == PMS_OK) rc = pms_cycle_model_from_lm(&out->model, n, out->lm, cols, 2);
done:
    free(fit);
    free(eval);
    if (rc < 0) pms_mracm_fit_free(out);
    return rc;
}
