/* The honest error of a cycle model: each fitting run estimated by the method refitted
 * without it (leave-one-out, or without its fold), selection and all, and the prediction
 * interval of each test run: R's t interval for a least-squares fit with residual degrees
 * of freedom, otherwise jackknife+ on the held-out error % (pmuscope/estimate_report.h). */
#include "estimate/model.h"
#include "pmuscope/estimate_report.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LOO_MAX_RUNS = 100, DEFAULT_FOLDS = 10 };

/* Which fold each fitting run is in (1-based). */
static int make_folds(const pms_estimate_data *d, const pms_estimate_options *o, size_t *fold, size_t *nfolds)
{
    size_t m = d->n_train;
    *nfolds = o->folds ? o->folds : m <= LOO_MAX_RUNS ? m : DEFAULT_FOLDS;
    if (*nfolds < 2 || *nfolds > m)
        return pms__fail(PMS_EINVAL, "held-out error: %zu folds of %zu fitting runs: expected 2 to %zu", *nfolds, m, m);
    if (*nfolds == m) {
        for (size_t a = 0; a < m; a++) fold[a] = a + 1;
        return PMS_OK;
    }
    return pms_folds(m, *nfolds, o->seed, fold);
}

/* Refits method k without fold f: the held-out estimate of each of its runs, and each
 * test run's estimate by that refit (per_test, n_train x n_test, row a for run a of f). */
static void refit_without(const pms_estimate_data *d, const pms_estimate_options *o, size_t k, const size_t *fold,
                          size_t f, double *cyc, double *ev, pms_estimate_result *r, double *per_test)
{
    size_t m = 0, n = d->n_counters;
    for (size_t a = 0; a < d->n_train; a++)
        if (fold[a] != f) cyc[m] = d->cycles[a], memcpy(ev + m * n, d->events + a * n, n * sizeof *ev), m++;
    pms_estimate_result one = {0};
    pms__estimate_fit(k, cyc, ev, m, n, d->names, o, &one);
    double row[n ? n : 1];
    for (size_t a = 0; a < d->n_train; a++) {
        if (fold[a] != f) continue;
        if (!one.ok) {
            r->heldout_failed++;
            if (!r->heldout_reason[0]) snprintf(r->heldout_reason, sizeof r->heldout_reason, "%s", one.reason);
            continue;
        }
        pms__estimate_counters_of(d, d->train[a], row);
        r->heldout[a] = pms_cycle_model_predict(one.model, row);
        for (size_t t = 0; t < d->n_test; t++) {
            pms__estimate_counters_of(d, d->test[t], row);
            per_test[a * d->n_test + t] = pms_cycle_model_predict(one.model, row);
        }
    }
    pms__estimate_result_clear(&one);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The jackknife+ interval of test run t from the held-out errors and the refits' estimates. */
static void jackknife_plus(const pms_estimate_data *d, const pms_estimate_result *r, const double *per_test, size_t t,
                           double level, double *lower, double *upper)
{
    size_t m = 0;
    double lo[d->n_train ? d->n_train : 1], hi[d->n_train ? d->n_train : 1];
    for (size_t a = 0; a < d->n_train; a++) {
        if (isnan(r->heldout[a])) continue;
        double c = d->cycles[a], rel = fabs(r->heldout[a] - c) / c, e = per_test[a * d->n_test + t];
        /* |e - c| <= rel c: c in [e / (1 + rel), e / (1 - rel)] (none when e <= 0 < 1 - rel) */
        bool empty = e <= 0 && rel < 1;
        lo[m] = empty ? INFINITY : e / (1 + rel);
        hi[m] = empty ? -INFINITY : rel < 1 ? e / (1 - rel) : INFINITY;
        m++;
    }
    *lower = *upper = NAN;
    if (m == 0) return;
    qsort(lo, m, sizeof *lo, by_value);
    qsort(hi, m, sizeof *hi, by_value);
    double alpha = 1 - level;
    size_t klo = (size_t)floor(alpha * (double)(m + 1)), khi = (size_t)ceil((1 - alpha) * (double)(m + 1));
    *lower = klo >= 1 ? lo[klo - 1] : -INFINITY;
    *upper = khi <= m ? hi[khi - 1] : INFINITY;
}

/* The least-squares fit behind method k and the counter of each of its columns, or NULL. */
static const pms_lm *final_lm(const pms_estimate_result *r, size_t k, size_t *cols, size_t n)
{
    const pms_mra_fit *f = k == PMS_EST_MRA ? &r->mra : k == PMS_EST_FORWARD ? &r->forward : NULL;
    if (f) { /* MRA's columns are its counters in order; forward's in the order they entered */
        size_t c = 0;
        for (size_t i = 0; i < n && k == PMS_EST_MRA; i++)
            if (f->model.used[i]) cols[c++] = i;
        for (size_t a = 0; a < f->n_added && k == PMS_EST_FORWARD; a++) cols[c++] = f->added[a];
        return f->lm;
    }
    if (k != PMS_EST_MRACM) return NULL;
    cols[0] = r->mracm.pairs[r->mracm.best].high, cols[1] = r->mracm.pairs[r->mracm.best].low;
    return r->mracm.lm;
}

/* R's predict.lm intervals of the test runs; false when the fit has no residual degrees of freedom. */
static int t_intervals(const pms_estimate_data *d, size_t k, pms_estimate_result *r, bool *made)
{
    size_t n = d->n_counters, cols[n ? n : 1];
    const pms_lm *lm = final_lm(r, k, cols, n);
    *made = lm && lm->df_residual > 0;
    if (!*made) return PMS_OK;
    size_t p = lm->ncoef - 1;
    double row[n ? n : 1], *x = malloc((d->n_test * p > 0 ? d->n_test * p : 1) * sizeof *x);
    double *fit = malloc((d->n_test ? d->n_test : 1) * sizeof *fit);
    int rc = x && fit ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t t = 0; rc == PMS_OK && t < d->n_test; t++) {
        pms__estimate_counters_of(d, d->test[t], row);
        for (size_t c = 0; c < p; c++) x[t * p + c] = row[cols[c]];
    }
    if (rc == PMS_OK) rc = pms_lm_predict_interval(lm, x, d->n_test, r->level, fit, r->lower, r->upper);
    free(x), free(fit);
    return rc;
}

int pms__estimate_heldout(const pms_estimate_data *d, const pms_estimate_options *o, size_t k, pms_estimate_result *r)
{
    size_t m = d->n_train, n = d->n_counters, nt = d->n_test, nfolds = 0;
    r->level = o->level > 0 ? o->level : 0.9;
    r->heldout_error_pct = NAN;
    r->heldout = malloc((m ? m : 1) * sizeof *r->heldout);
    r->lower = malloc((nt ? nt : 1) * sizeof *r->lower), r->upper = malloc((nt ? nt : 1) * sizeof *r->upper);
    size_t *fold = malloc((m ? m : 1) * sizeof *fold);
    double *cyc = malloc((m ? m : 1) * sizeof *cyc), *ev = malloc((m * n > 0 ? m * n : 1) * sizeof *ev);
    double *per_test = malloc((m * nt > 0 ? m * nt : 1) * sizeof *per_test);
    int rc = r->heldout && r->lower && r->upper && fold && cyc && ev && per_test ? PMS_OK
                                                                                 : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t a = 0; rc == PMS_OK && a < m; a++) r->heldout[a] = NAN;
    for (size_t t = 0; rc == PMS_OK && t < nt; t++) r->lower[t] = r->upper[t] = NAN;
    if (rc == PMS_OK) rc = make_folds(d, o, fold, &nfolds);
    r->folds = rc == PMS_OK ? nfolds : 0;
    for (size_t f = 1; rc == PMS_OK && f <= nfolds; f++) refit_without(d, o, k, fold, f, cyc, ev, r, per_test);
    double sum = 0;
    size_t got = 0;
    for (size_t a = 0; rc == PMS_OK && a < m; a++)
        if (!isnan(r->heldout[a])) sum += fabs(pms_estimate_error_pct(r->heldout[a], d->cycles[a])), got++;
    if (got) r->heldout_error_pct = sum / (double)got;
    bool t_made = false;
    if (rc == PMS_OK) rc = t_intervals(d, k, r, &t_made);
    r->interval = t_made ? PMS_INTERVAL_T : PMS_INTERVAL_JACKKNIFE;
    for (size_t t = 0; rc == PMS_OK && !t_made && t < nt; t++)
        jackknife_plus(d, r, per_test, t, r->level, &r->lower[t], &r->upper[t]);
    free(fold), free(cyc), free(ev), free(per_test);
    return rc;
}
