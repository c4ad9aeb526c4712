/* MRACM cycle model (Hattori & Takeuchi, B.3 and V.A): pair the counter least
 * correlated with cycles among those MRA selects with each selected counter highly
 * correlated with cycles, reject pairs with a high VIF, keep the pair whose
 * two-counter OLS estimates the selection runs best. Leave-one-run-out error and
 * the partial correlation given instructions are offered as other criteria. */
#include "estimate/model.h"
#include "estimate/mracm_internal.h"
#include "util/error.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_mracm_fit_free(pms_mracm_fit *f)
{
    if (!f) return;
    free(f->correlation);
    free(f->selected);
    free(f->partial);
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
    if (!xy) return pms__fail(PMS_ENOMEM, "MRACM: out of memory");
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
    int rc = (x && y) ? PMS_OK : pms__fail(PMS_ENOMEM, "MRACM: out of memory");
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

/* Mean |error %| of leave-one-run-out predictions by the pair (NaN with fewer
 * than 5 runs: 4 are needed to fit a pair with residual degrees of freedom). */
static int pair_loo(const double *cycles, const double *events, size_t m, size_t n, pms_mracm_pair *p)
{
    p->loo_error_pct = NAN;
    if (m < 5) return PMS_OK;
    size_t *rows = malloc(m * sizeof *rows);
    if (!rows) return pms__fail(PMS_ENOMEM, "MRACM: out of memory");
    pms_mracm_pair q = *p;
    double sum = 0;
    int rc = PMS_OK;
    for (size_t out = 0; out < m && rc == PMS_OK; out++) {
        for (size_t j = 0, k = 0; j < m; j++)
            if (j != out) rows[k++] = j;
        rc = pair_error(cycles, events, n, &q, rows, m - 1, &out, 1);
        sum += q.error_pct;
    }
    free(rows);
    /* a fold that cannot be fitted (a counter constant without its run) leaves it NaN */
    if (rc == PMS_OK) p->loo_error_pct = sum / (double)m;
    return rc == PMS_ENOMEM ? rc : PMS_OK;
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
    if (v >= 1) return pms__fail(PMS_EINVAL, "MRACM: validation fraction %g: expected a value in (0, 1)", v);
    int rc = pms_split(m, 1.0 - v, opt->seed, fit, nfit, eval, neval);
    if (rc < 0) return rc;
    if (*nfit < 4 || *neval < 1)
        return pms__fail(PMS_EINVAL,
                        "MRACM: a %g validation split of %zu runs leaves %zu to fit and %zu to validate: "
                        "need at least 4 and 1",
                        v, m, *nfit, *neval);
    return PMS_OK;
}

static const char *counter_name(const char *const *names, size_t i, char *buf, size_t len)
{
    if (i == PMS_MRACM_NONE) return "none";
    if (names) return names[i];
    snprintf(buf, len, "counter %zu", i + 1);
    return buf;
}

/* The selected counter with the lowest (want_low) or highest |r|, or PMS_MRACM_NONE. */
static size_t extreme_counter(const pms_mracm_fit *f, size_t n, bool want_low)
{
    size_t best = PMS_MRACM_NONE;
    for (size_t i = 0; i < n; i++) {
        if (!f->selected[i] || isnan(f->correlation[i])) continue;
        double a = fabs(f->correlation[i]);
        if (best == PMS_MRACM_NONE || (want_low ? a < fabs(f->correlation[best]) : a > fabs(f->correlation[best])))
            best = i;
    }
    return best;
}

/* Appends to the reason at *used (bounded by its size). */
static void reason_add(pms_mracm_fit *out, size_t *used, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reason_add(pms_mracm_fit *out, size_t *used, const char *fmt, ...)
{
    if (*used >= sizeof out->reason) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out->reason + *used, sizeof out->reason - *used, fmt, ap);
    va_end(ap);
    if (w > 0) *used += (size_t)w;
}

/* Not applicable: no counter of the class missing. Says which |r| were seen (the
 * counters drawn from, most correlated first) and what threshold would pass. */
static void explain_no_pairs(pms_mracm_fit *out, size_t n, const char *const *names, bool no_low, double bound)
{
    size_t near = extreme_counter(out, n, no_low), used = 0;
    char buf[32];
    const char *among = out->procedure == PMS_MRACM_PAPER ? " among the counters MRA selects" : "";
    out->applicable = false;
    reason_add(out, &used, "no %s-correlation counter%s (|r| %s %.2g): |r| seen:", no_low ? "low" : "high", among,
               no_low ? "<" : ">=", bound);
    bool shown[n];
    memset(shown, 0, sizeof shown);
    size_t listed = 0, left = 0;
    for (size_t i = 0; i < n; i++) left += out->selected[i] && !isnan(out->correlation[i]);
    for (size_t k = 0; k < n && listed < 5; k++, listed++) { /* by |r|, highest first, the first five */
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (out->selected[i] && !shown[i] && !isnan(out->correlation[i]) &&
                (best == n || fabs(out->correlation[i]) > fabs(out->correlation[best])))
                best = i;
        if (best == n) break;
        shown[best] = true;
        reason_add(out, &used, "%s %s %.4f", k ? "," : "", counter_name(names, best, buf, sizeof buf),
                   fabs(out->correlation[best]));
    }
    if (left > listed) reason_add(out, &used, " and %zu more", left - listed);
    if (near == PMS_MRACM_NONE) return;
    double r = fabs(out->correlation[near]);
    if (!no_low) /* the highest would pass a cut just below it */
        reason_add(out, &used, "; --high %.3g would make %s a high one", floor(r * 1000) / 1000,
                   counter_name(names, near, buf, sizeof buf));
    else if (out->procedure == PMS_MRACM_THRESHOLDS)
        reason_add(out, &used, "; --low %.3g would make %s a low one", ceil(r * 1000 + 1e-9) / 1000,
                   counter_name(names, near, buf, sizeof buf));
    else /* the paper pairs the least correlated selected counter: it must fall below --high */
        reason_add(out, &used, "; the least correlated, %s (%.4f), is itself a high one: %s",
                   counter_name(names, near, buf, sizeof buf), r,
                   r > 0.999 ? "every one follows cycles (as in runs that sum one program's intervals): no pair "
                               "exists" : "a --high above it would make it a low one");
}

/* The counters the procedure pairs: is_high[i] and is_low[i]. Returns false (with
 * the reason set) when a class is empty. */
static int pair_classes(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                        double high, double low, double alpha, pms_mracm_fit *out, bool *is_high, bool *is_low,
                        bool *found)
{
    *found = false;
    if (out->procedure == PMS_MRACM_PAPER) {
        pms_mra_options mo = {.select = PMS_MRA_STEP_P, .alpha = alpha};
        pms_mra_fit mra;
        if (pms_mra_fit_runs(cycles, events, m, n, names, &mo, &mra) != PMS_OK) {
            out->applicable = false;
            snprintf(out->reason, sizeof out->reason, "MRA selects no counters: %s", pms_strerror());
            return PMS_OK;
        }
        for (size_t i = 0; i < n; i++) out->selected[i] = mra.model.used[i];
        pms_mra_fit_free(&mra);
        out->low = extreme_counter(out, n, true);
        bool any_high = false;
        for (size_t i = 0; i < n; i++) {
            is_high[i] = out->selected[i] && i != out->low && fabs(out->correlation[i]) >= high;
            is_low[i] = i == out->low;
            any_high |= is_high[i];
        }
        if (out->low == PMS_MRACM_NONE || fabs(out->correlation[out->low]) >= high) {
            explain_no_pairs(out, n, names, true, high);
            return PMS_OK;
        }
        if (!any_high) {
            explain_no_pairs(out, n, names, false, high);
            return PMS_OK;
        }
    } else {
        size_t nhigh = 0, nlow = 0;
        for (size_t i = 0; i < n; i++) {
            double a = fabs(out->correlation[i]);
            out->selected[i] = true;
            nhigh += is_high[i] = a >= high;
            nlow += is_low[i] = a < low;
        }
        if (nhigh == 0 || nlow == 0) {
            explain_no_pairs(out, n, names, nhigh > 0, nhigh ? low : high);
            return PMS_OK;
        }
    }
    *found = true;
    return PMS_OK;
}

/* Fills a pair: VIF over all fitting runs, rejection, its fit and errors. */
static int judge_pair(const double *cycles, const double *events, size_t m, size_t n, size_t h, size_t l,
                      double max_vif, const size_t *fit, size_t nfit, const size_t *eval, size_t neval,
                      pms_mracm_pair *p)
{
    size_t cols[2] = {h, l};
    double *x = pms__estimate_columns(events, m, n, cols, 2), vif[2];
    if (!x) return pms__fail(PMS_ENOMEM, "MRACM: out of memory");
    p->high = h, p->low = l;
    /* an exactly collinear pair has no VIF: it counts as infinite */
    p->vif = pms_vif(x, m, 2, NULL, vif) == PMS_OK ? vif[0] : INFINITY;
    free(x);
    p->rejected = p->vif >= max_vif;
    p->error_pct = p->loo_error_pct = p->coef[0] = p->coef[1] = p->coef[2] = NAN;
    if (p->rejected) return PMS_OK;
    int rc = pair_error(cycles, events, n, p, fit, nfit, eval, neval);
    if (rc == PMS_OK) rc = pair_loo(cycles, events, m, n, p);
    return rc;
}

/* The candidate pair with the lowest error (loo: leave-one-run-out), or PMS_MRACM_NONE. */
static size_t lowest_error(const pms_mracm_fit *f, bool loo)
{
    size_t best = PMS_MRACM_NONE;
    for (size_t p = 0; p < f->n_pairs; p++) {
        const pms_mracm_pair *q = &f->pairs[p];
        double e = loo ? q->loo_error_pct : q->error_pct;
        if (!q->candidate || q->rejected || isnan(e)) continue;
        if (best == PMS_MRACM_NONE || e < (loo ? f->pairs[best].loo_error_pct : f->pairs[best].error_pct)) best = p;
    }
    return best;
}

/* The partial-correlation pick: instructions with the counter that adds most to
 * it, found among the pairs or appended (not a candidate). */
static int partial_pick(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                        const pms_mracm_options *opt, double max_vif, const size_t *fit, size_t nfit,
                        const size_t *eval, size_t neval, pms_mracm_fit *out)
{
    out->instructions = pms__mracm_instructions(names, n, opt ? opt->instructions : NULL);
    if (opt && opt->instructions && out->instructions == PMS_MRACM_NONE)
        return pms__fail(PMS_EINVAL, "MRACM: no counter named '%s' (the instructions counter)", opt->instructions);
    if (out->instructions == PMS_MRACM_NONE) return PMS_OK;
    int rc = pms__mracm_partial(cycles, events, m, n, out->instructions, out->partial);
    size_t other = rc == PMS_OK ? pms__mracm_partial_best(out->partial, n) : PMS_MRACM_NONE;
    if (other == PMS_MRACM_NONE) return rc;
    for (size_t p = 0; p < out->n_pairs; p++) {
        const pms_mracm_pair *q = &out->pairs[p];
        if ((q->high == out->instructions && q->low == other) || (q->low == out->instructions && q->high == other)) {
            out->pick[PMS_MRACM_BY_PARTIAL] = q->rejected ? PMS_MRACM_NONE : p;
            return PMS_OK;
        }
    }
    pms_mracm_pair *q = &out->pairs[out->n_pairs];
    rc = judge_pair(cycles, events, m, n, out->instructions, other, max_vif, fit, nfit, eval, neval, q);
    if (rc < 0) return rc;
    out->n_pairs++;
    out->pick[PMS_MRACM_BY_PARTIAL] = q->rejected ? PMS_MRACM_NONE : out->n_pairs - 1;
    return PMS_OK;
}

/* Refits the chosen pair on all fitting runs: the model and its summary. */
static int fit_chosen(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                      double alpha, pms_mracm_fit *out)
{
    size_t cols[2] = {out->pairs[out->best].high, out->pairs[out->best].low};
    double *x = pms__estimate_columns(events, m, n, cols, 2);
    const char **nm = pms__estimate_names(names, cols, 2);
    int rc = (x && nm) ? pms_lm_fit(x, m, 2, cycles, names ? nm : NULL, NULL, &out->lm)
                       : pms__fail(PMS_ENOMEM, "MRACM: out of memory");
    free(x);
    free(nm);
    if (rc == PMS_OK) rc = pms__cycle_model_from_lm(&out->model, n, out->lm, cols, 2);
    for (size_t c = 0; rc == PMS_OK && c < 2 && !out->warning[0]; c++) {
        char buf[32];
        double p = out->lm->p_value[c + 1];
        if (p > alpha)
            snprintf(out->warning, sizeof out->warning,
                     "the pair's %s counter %s is not significant in its fit (p = %.2g > %g): the pair may be one "
                     "counter and noise",
                     c ? "second" : "first", counter_name(names, cols[c], buf, sizeof buf), p, alpha);
    }
    return rc;
}

static const char *const criterion_names[PMS_MRACM_CRITERIA] = {"fit", "leave-one-run-out", "partial correlation"};

int pms_mracm_fit_runs(const double *cycles, const double *events, size_t m, size_t n, const char *const *names,
                       const pms_mracm_options *opt, pms_mracm_fit *out)
{
    memset(out, 0, sizeof *out);
    out->low = out->instructions = PMS_MRACM_NONE;
    for (size_t c = 0; c < PMS_MRACM_CRITERIA; c++) out->pick[c] = PMS_MRACM_NONE;
    int rc = pms__estimate_check(cycles, events, m, n, names, 4);
    if (rc < 0) return pms__fail_context(rc, "MRACM: a pair and an intercept need 4 runs or more");
    double high = opt && opt->high > 0 ? opt->high : PMS_MRACM_HIGH;
    double low = opt && opt->low > 0 ? opt->low : PMS_MRACM_LOW;
    double alpha = opt && opt->alpha > 0 ? opt->alpha : 0.05;
    double max_vif = opt && opt->max_vif > 0 ? opt->max_vif : PMS_MRACM_MAX_VIF;
    out->procedure = opt ? opt->procedure : PMS_MRACM_PAPER;
    out->criterion = opt ? opt->criterion : PMS_MRACM_BY_FIT;
    if (out->procedure != PMS_MRACM_PAPER && out->procedure != PMS_MRACM_THRESHOLDS)
        return pms__fail(PMS_EINVAL, "MRACM: unknown procedure %d", (int)out->procedure);
    if ((unsigned)out->criterion >= PMS_MRACM_CRITERIA)
        return pms__fail(PMS_EINVAL, "MRACM: unknown criterion %d", (int)out->criterion);
    if (out->procedure == PMS_MRACM_THRESHOLDS && low > high)
        return pms__fail(PMS_EINVAL, "MRACM: low threshold %g is above the high threshold %g", low, high);

    size_t *fit = malloc(m * sizeof *fit), *eval = malloc(m * sizeof *eval), nfit = 0, neval = 0;
    bool *is_high = malloc(n * sizeof *is_high), *is_low = malloc(n * sizeof *is_low), found = false;
    out->correlation = malloc(n * sizeof *out->correlation);
    out->partial = malloc(n * sizeof *out->partial);
    out->selected = calloc(n, sizeof *out->selected);
    if (!fit || !eval || !is_high || !is_low || !out->correlation || !out->partial || !out->selected) {
        rc = pms__fail(PMS_ENOMEM, "MRACM: out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) out->partial[i] = NAN;
    if ((rc = selection_rows(m, opt, fit, &nfit, eval, &neval)) < 0) goto done;
    if (opt && opt->validation > 0) out->n_held_out = neval, out->seed = opt->seed;
    bool flat = true;
    for (size_t j = 1; j < m; j++) flat &= cycles[j] == cycles[0];
    if (flat) {
        rc = pms__fail(PMS_EINVAL, "MRACM: cycles are %g in all %zu fitting runs: no correlation with them exists", cycles[0],
                      m);
        goto done;
    }
    if ((rc = correlations(cycles, events, m, n, out->correlation)) < 0) goto done;
    rc = pair_classes(cycles, events, m, n, names, high, low, alpha, out, is_high, is_low, &found);
    size_t nhigh = 0, nlow = 0;
    for (size_t i = 0; found && i < n; i++) nhigh += is_high[i], nlow += is_low[i];
    /* room for every candidate and the partial pick */
    out->pairs = rc == PMS_OK ? calloc(nhigh * nlow + 1, sizeof *out->pairs) : NULL;
    if (rc == PMS_OK && !out->pairs) rc = pms__fail(PMS_ENOMEM, "MRACM: out of memory");
    for (size_t h = 0; found && h < n && rc == PMS_OK; h++)
        for (size_t l = 0; is_high[h] && l < n && rc == PMS_OK; l++) {
            if (!is_low[l]) continue;
            pms_mracm_pair *p = &out->pairs[out->n_pairs++];
            p->candidate = true;
            rc = judge_pair(cycles, events, m, n, h, l, max_vif, fit, nfit, eval, neval, p);
        }
    if (rc == PMS_OK) rc = partial_pick(cycles, events, m, n, names, opt, max_vif, fit, nfit, eval, neval, out);
    if (rc < 0) goto done;
    out->pick[PMS_MRACM_BY_FIT] = lowest_error(out, false);
    out->pick[PMS_MRACM_BY_LOO] = lowest_error(out, true);
    out->best = out->pick[out->criterion];
    if (out->best == PMS_MRACM_NONE) {
        if (found || out->criterion == PMS_MRACM_BY_PARTIAL) {
            out->applicable = false;
            if (out->criterion == PMS_MRACM_BY_PARTIAL)
                snprintf(out->reason, sizeof out->reason, "%s", out->instructions == PMS_MRACM_NONE
                         ? "no instructions counter for the partial correlation criterion"
                         : "the partial correlation pick has VIF >= the limit or cannot be fitted");
            else
                snprintf(out->reason, sizeof out->reason, "every high-low pair (%zu) has VIF >= %g or no %s error",
                         nhigh * nlow, max_vif, criterion_names[out->criterion]);
        }
        goto done;
    }
    out->applicable = true;
    out->reason[0] = '\0';
    rc = fit_chosen(cycles, events, m, n, names, alpha, out);
done:
    free(fit);
    free(eval);
    free(is_high);
    free(is_low);
    if (rc < 0) pms_mracm_fit_free(out);
    return rc;
}
