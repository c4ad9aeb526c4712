/* CPI stacks by regression (Choudhary and Singh): choose the intervals and regressors,
 * split, fit, test, and read the stack off the coefficients. */
#include "cpistack/cpistack_internal.h"
#include "pmuscope/perfstat.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_cpistack_free(pms_cpistack *s)
{
    if (!s) return;
    for (size_t j = 0; s->events && j < s->nevents; j++) free(s->events[j]);
    free(s->events);
    free(s->rows);
    free(s->cpi);
    free(s->instructions);
    free(s->x);
    free(s->train);
    free(s->test);
    pms_lm_free(s->model);
    pms_bootstrap_free(&s->boot);
    free(s->hac_se);
    free(s->cor);
    free(s->vif);
    free(s->component);
    free(s->stack);
    free(s->cycles_name);
    free(s->instructions_name);
    free(s->running_pct);
    free(s);
}

/* The regressor columns: given by hand, or every miss-like numeric column. */
static int choose_events(const pms_table *t, const pms_cpistack_options *o, size_t *cols, size_t *n)
{
    *n = 0;
    if (o->events) {
        for (size_t k = 0; k < o->nevents; k++) {
            int rc = pms_table_find_event(t, PMS_EVENT_MISS, o->events[k], &cols[k]);
            if (rc < 0) return rc;
        }
        *n = o->nevents;
        return PMS_OK;
    }
    for (size_t j = 0; j < pms_table_cols(t); j++) {
        if (pms_event_role_of(pms_table_col_name(t, j)) != PMS_EVENT_MISS) continue;
        if (pms_table_col_type(t, j) != PMS_COLUMN_NUMERIC) {
            /* a miss event with a cell that is not a number (<not counted>): never dropped silently */
            const double *v;
            int rc = pms_table_numeric(t, j, true, &v);
            rc = pms__fail_context(rc < 0 ? rc : PMS_EFORMAT,
                                   "miss event '%s' would be a regressor but holds a cell that is not a count "
                                   "(leave it out by naming the regressors)",
                                   pms_table_col_name(t, j));
            return pms__with_option(rc, "events");
        }
        cols[(*n)++] = j;
    }
    if (*n == 0)
        return pms__with_option(pms__fail(PMS_ENOENT,
                                          "%s: no miss events found by name (*-misses, *_REFILL, BRANCH_MISPRED, "
                                          "...); name the regressors",
                                          pms_table_name(t)),
                                "events");
    return PMS_OK;
}

/* A cell used by the model must be a count (a number of events, 0 or more): name the
 * line and column when it is not. */
static int check_cell(const pms_table *t, size_t row, size_t col, double v)
{
    if (isfinite(v) && v >= 0) return PMS_OK;
    size_t line = pms_table_row_line(t, row);
    const char *found = isnan(v) ? "an empty or NaN cell" : isinf(v) ? (v > 0 ? "inf" : "-inf") : NULL;
    char negative[64];
    if (!found) {
        snprintf(negative, sizeof negative, "%.17g, a negative count", v);
        found = negative;
    }
    /* a missing count can be dropped with its interval (the drop_missing option) */
    int rc = line ? pms__fail(PMS_EFORMAT, "%s:%zu: column '%s': expected a count (0 or more), found %s%s",
                              pms_table_name(t), line, pms_table_col_name(t, col), found,
                              isnan(v) ? "; such intervals can be dropped" : "")
                  : pms__fail(PMS_EFORMAT, "%s: interval %zu: event '%s': expected a count (0 or more), found %s%s",
                              pms_table_name(t), row + 1, pms_table_col_name(t, col),
                              isnan(v) ? "no count (<not counted> or missing)" : found,
                              isnan(v) ? "; such intervals can be dropped" : "");
    return pms__with_option(rc, isnan(v) ? "drop_missing" : NULL);
}

/* The positions kept after --where, --skip and --range. */
static int select_rows(const pms_table *t, const pms_cpistack_options *o, size_t **rows, size_t *n)
{
    int rc = pms_table_filter(t, o->where, o->nwhere, rows, n);
    if (rc < 0) return rc;
    size_t first = o->skip, last = *n; /* [first, last) */
    if (o->range_first > 0 && o->range_first - 1 > first) first = o->range_first - 1;
    if (o->range_last > 0 && o->range_last < last) last = o->range_last;
    if (first >= last) {
        free(*rows);
        return pms__fail(PMS_EINVAL, "%s: no intervals left: %zu selected, skip %zu, range %zu:%zu", pms_table_name(t), *n,
                        o->skip, o->range_first, o->range_last);
    }
    memmove(*rows, *rows + first, (last - first) * sizeof **rows);
    *n = last - first;
    return PMS_OK;
}

/* A column's name without the "@N" a merge gives the copy of an event from run N. */
static void base_name(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s", name);
    char *at = strrchr(out, '@');
    if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1)) *at = '\0';
}

/* The cycles column of the instructions' own run in a merged table: dividing one run's
 * cycles by another's instructions gives a CPI of neither (R^2 0.98 became 0.15 on the ARM
 * event lists). In a table of one run, the one cycles column. */
static int find_cycles(const pms_table *t, size_t ins, size_t *cyc)
{
    size_t src = pms_table_col_source(t, ins), found = 0;
    if (src == 0) return pms_table_find_event(t, PMS_EVENT_CYCLES, NULL, cyc);
    char name[300];
    for (size_t j = 0; j < pms_table_cols(t); j++) {
        base_name(pms_table_col_name(t, j), name, sizeof name);
        if (pms_table_col_source(t, j) != src || pms_table_col_type(t, j) != PMS_COLUMN_NUMERIC ||
            pms_event_role_of(name) != PMS_EVENT_CYCLES)
            continue;
        if (found++) return pms__fail(PMS_EINVAL, "%s: run %zu has two cycles columns, '%s' and '%s': name the one",
                                      pms_table_name(t), src, pms_table_col_name(t, *cyc), pms_table_col_name(t, j));
        *cyc = j;
    }
    if (!found)
        return pms__with_option(pms__fail(PMS_ENOENT, "%s: no cycles column in run %zu, the run of the instructions ('%s'): "
                                                     "CPI must divide the cycles and instructions of one run",
                                          pms_table_name(t), src, pms_table_col_name(t, ins)),
                                "cycles");
    return PMS_OK;
}

/* The running share perf printed for column col (running_pct(NAME) of the same run), or NULL. */
static const double *running_of(const pms_table *t, size_t col)
{
    char want[320], name[300], base[300];
    base_name(pms_table_col_name(t, col), base, sizeof base);
    snprintf(want, sizeof want, "running_pct(%s)", base);
    for (size_t j = 0; j < pms_table_cols(t); j++) {
        base_name(pms_table_col_name(t, j), name, sizeof name);
        const double *v;
        if (strcmp(name, want) == 0 && pms_table_col_source(t, j) == pms_table_col_source(t, col) &&
            pms_table_numeric(t, j, true, &v) == PMS_OK)
            return v;
    }
    return NULL;
}

/* The smallest running share of row r over the used columns (100 when none was multiplexed). */
static double row_running(const double *const *run, size_t ncols, size_t r, size_t *which)
{
    double least = 100;
    for (size_t k = 0; k < ncols; k++)
        if (run[k] && run[k][r] < least) least = run[k][r], *which = k;
    return least;
}

static int build_data(const pms_table *t, const pms_cpistack_options *o, pms_cpistack *s, const size_t *ev)
{
    size_t cyc = 0, ins = 0;
    int rc = pms_table_find_event(t, PMS_EVENT_INSTRUCTIONS, o->instructions, &ins);
    if (rc == PMS_OK) rc = o->cycles ? pms_table_find_event(t, PMS_EVENT_CYCLES, o->cycles, &cyc) : find_cycles(t, ins, &cyc);
    if (rc < 0) return rc;
    s->cpi_source = pms_table_col_source(t, ins);
    if (pms_table_col_source(t, cyc) != s->cpi_source)
        snprintf(s->cpi_note, sizeof s->cpi_note, "cycles '%s' (run %zu) and instructions '%s' (run %zu) come from two runs",
                 pms_table_col_name(t, cyc), pms_table_col_source(t, cyc), pms_table_col_name(t, ins), s->cpi_source);
    s->cycles_name = strdup(pms_table_col_name(t, cyc));
    s->instructions_name = strdup(pms_table_col_name(t, ins));
    size_t p = s->nevents;
    const double *c, *in, **col = malloc((p ? p : 1) * sizeof *col), **run = calloc(p + 2, sizeof *run);
    if (!col || !run || !s->cycles_name || !s->instructions_name) {
        free(col), free(run);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    run[0] = running_of(t, cyc), run[1] = running_of(t, ins);
    for (size_t j = 0; j < p; j++) run[2 + j] = running_of(t, ev[j]);
    /* pms_table_find_event has checked that these columns are numeric; the fit is in double
     * precision: a count of 2^53 or more would be rounded, so it is refused, naming the cell */
    rc = pms_table_exact_numeric(t, cyc, true, &c);
    if (rc == PMS_OK) rc = pms_table_exact_numeric(t, ins, true, &in);
    for (size_t j = 0; rc == PMS_OK && j < p; j++) rc = pms_table_exact_numeric(t, ev[j], true, &col[j]);
    size_t *sel, nsel;
    if (rc < 0 || (rc = select_rows(t, o, &sel, &nsel)) < 0) {
        free(col), free(run);
        return rc;
    }
    s->rows = malloc(nsel * sizeof *s->rows);
    s->cpi = malloc(nsel * sizeof *s->cpi);
    s->instructions = malloc(nsel * sizeof *s->instructions);
    s->x = malloc(nsel * (p ? p : 1) * sizeof *s->x);
    s->running_pct = malloc(nsel * sizeof *s->running_pct);
    if (!s->rows || !s->cpi || !s->instructions || !s->x || !s->running_pct) rc = pms__fail(PMS_ENOMEM, "out of memory");
    size_t n = 0;
    s->min_running_pct = 100;
    for (size_t k = 0; k < nsel && rc == PMS_OK; k++) {
        size_t r = sel[k];
        bool missing = !isfinite(c[r]) || !isfinite(in[r]);
        for (size_t j = 0; j < p && !missing; j++) missing = !isfinite(col[j][r]);
        if (missing && o->drop_missing) {
            s->nmissing++;
            continue;
        }
        size_t which = 0;
        double share = row_running(run, p + 2, r, &which);
        if (share < 100 && o->multiplexed == PMS_MUX_DROP) {
            s->nmux_dropped++;
            continue;
        }
        if (share < 100 && o->multiplexed == PMS_MUX_REFUSE) {
            size_t line = pms_table_row_line(t, r);
            const char *name = pms_table_col_name(t, which == 0 ? cyc : which == 1 ? ins : ev[which - 2]);
            char place[300];
            if (line) snprintf(place, sizeof place, "%s:%zu", pms_table_name(t), line);
            else snprintf(place, sizeof place, "%s: interval %zu", pms_table_name(t), r + 1);
            rc = pms__with_option(pms__fail(PMS_EFORMAT, "%s: '%s' was counted %.2f%% of the time (multiplexed: perf "
                                                        "scaled the count); such intervals can be kept, weighted by "
                                                        "that share or left out",
                                            place, name, share),
                                  "multiplexed");
            break;
        }
        if ((rc = check_cell(t, r, cyc, c[r])) < 0 || (rc = check_cell(t, r, ins, in[r])) < 0) break;
        if (in[r] <= 0) {
            s->ndropped++; /* an idle interval has no CPI */
            continue;
        }
        s->rows[n] = r;
        s->cpi[n] = c[r] / in[r];
        s->instructions[n] = in[r];
        s->running_pct[n] = share;
        if (share < 100) s->nmultiplexed++, s->min_running_pct = fmin(s->min_running_pct, share);
        for (size_t j = 0; j < p && rc == PMS_OK; j++) {
            rc = check_cell(t, r, ev[j], col[j][r]);
            s->x[n * p + j] = o->per_interval ? col[j][r] : col[j][r] / in[r];
        }
        n++;
    }
    free(sel);
    free(col);
    free(run);
    s->nrows = n;
    if (rc == PMS_OK && n == 0 && s->nmux_dropped)
        rc = pms__fail(PMS_EINVAL,
                      "%s: no intervals left to fit: of %zu selected, %zu have no instructions, %zu a missing count and "
                      "%zu multiplexed counts (left out)",
                      pms_table_name(t), nsel, s->ndropped, s->nmissing, s->nmux_dropped);
    else if (rc == PMS_OK && n == 0)
        rc = pms__fail(PMS_EINVAL,
                      "%s: no intervals left to fit: of %zu selected, %zu have no instructions and %zu a missing count",
                      pms_table_name(t), nsel, s->ndropped, s->nmissing);
    return rc;
}

/* The intervals of run a and b (rows of t) are the same run. */
static bool same_run(const pms_table *t, size_t col, const double *num, size_t a, size_t b)
{
    if (num) return num[a] == num[b];
    const char *x = pms_table_string(t, a, col), *y = pms_table_string(t, b, col);
    return x && y && strcmp(x, y) == 0;
}

/* Training and test intervals, each in time order. A fraction of 1 puts every
 * interval in train and none in test (random and blocked). */
static int split(const pms_table *t, const pms_cpistack_options *o, pms_cpistack *s)
{
    size_t n = s->nrows;
    if (o->validation == PMS_CPISTACK_RANDOM)
        return pms_split(n, o->train_fraction, o->seed, s->train, &s->ntrain, s->test, &s->ntest);
    s->ntrain = s->ntest = 0;
    if (o->validation == PMS_CPISTACK_BLOCKED) {
        size_t cut = (size_t)ceil(o->train_fraction * (double)n);
        for (size_t i = 0; i < n; i++) {
            if (i < cut) s->train[s->ntrain++] = i;
            else s->test[s->ntest++] = i;
        }
        return PMS_OK;
    }
    if (o->validation != PMS_CPISTACK_RUNS) return pms__fail(PMS_EINVAL, "unknown validation %d", (int)o->validation);
    if (!o->run_column) return pms__fail(PMS_EINVAL, "run-wise validation needs the column that names the run");
    size_t col;
    const double *num = NULL;
    int rc = pms_table_require(t, o->run_column, &col);
    if (rc < 0) return rc;
    if (pms_table_col_type(t, col) != PMS_COLUMN_STRING && (rc = pms_table_numeric(t, col, false, &num)) < 0) return rc;
    for (size_t i = 0; i < n; i++) {
        if (same_run(t, col, num, s->rows[0], s->rows[i])) s->train[s->ntrain++] = i;
        else s->test[s->ntest++] = i;
    }
    if (s->ntest == 0)
        return pms__fail(PMS_EINVAL, "%s: every interval is of one run (%s): run-wise validation needs two or more",
                        pms_table_name(t), o->run_column);
    return PMS_OK;
}

/* Min-max normalisation with the minimum and range of the training intervals,
 * applied to every interval: the test intervals do not shape the model. */
static int normalize_on_train(pms_cpistack *s)
{
    size_t p = s->nevents;
    double *xtr = malloc(s->ntrain * (p ? p : 1) * sizeof *xtr), *min = malloc((p ? p : 1) * sizeof *min);
    double *max = malloc((p ? p : 1) * sizeof *max);
    int rc = xtr && min && max ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        pms_rows_gather(s->x, p, s->train, s->ntrain, xtr);
        rc = pms_normalize_minmax(xtr, s->ntrain, p, (const char *const *)s->events, min, max);
    }
    if (rc == PMS_OK) {
        for (size_t j = 0; j < p; j++) max[j] -= min[j]; /* the range, the scale of pms_normalize_apply */
        pms_normalize_apply(s->x, s->nrows, p, min, max);
    }
    if (rc < 0) pms__fail_context(rc, "normalising over the %zu training intervals", s->ntrain);
    free(xtr);
    free(min);
    free(max);
    return rc;
}

/* VIF_j from a least-squares fit with intercept on the same columns: the
 * regressor block of (X'X)^-1 is (Xc'Xc)^-1 of the centred columns, so VIF_j =
 * [(X'X)^-1]_jj times the centred sum of squares of column j. Through the QR of
 * the fit this holds where the correlation matrix is too ill-conditioned to
 * invert (VIF 1e12 to 1e14, still fitted at R's tolerance 1e-7). */
static int vif_from_qr(const double *x, size_t n, size_t p, const double *y, double *vif)
{
    pms_lm *m;
    int rc = pms_lm_fit(x, n, p, y, NULL, NULL, &m);
    if (rc < 0) return rc;
    for (size_t j = 0; j < p; j++) {
        double mean = 0, ss = 0;
        for (size_t i = 0; i < n; i++) mean += x[i * p + j] / (double)n;
        for (size_t i = 0; i < n; i++) ss += (x[i * p + j] - mean) * (x[i * p + j] - mean);
        vif[j] = m->cov_unscaled[(j + 1) * m->ncoef + j + 1] * ss;
    }
    pms_lm_free(m);
    return PMS_OK;
}

static void correlation_and_vif(pms_cpistack *s, const double *xtrain, const double *ytrain)
{
    size_t p = s->nevents, n = s->ntrain;
    for (size_t j = 0; j < p; j++) s->vif[j] = NAN;
    for (size_t j = 0; j < p * p; j++) s->cor[j] = NAN;
    /* both are diagnostics: a failure is reported in vif_note, not fatal (the fit has its own checks);
     * a design the fit accepts always gets its VIFs, never NaN beside a fit */
    if (pms_correlation(xtrain, n, p, (const char *const *)s->events, s->cor) < 0 ||
        (pms_vif(xtrain, n, p, (const char *const *)s->events, s->vif) < 0 &&
         vif_from_qr(xtrain, n, p, ytrain, s->vif) < 0)) {
        for (size_t j = 0; j < p; j++) s->vif[j] = NAN;
        snprintf(s->vif_note, sizeof s->vif_note, "%s", pms_strerror());
    }
}

static int fit_and_stack(pms_cpistack *s, const pms_cpistack_options *o)
{
    size_t p = s->nevents, n = s->nrows;
    double *xtr = malloc(s->ntrain * (p ? p : 1) * sizeof *xtr), *ytr = malloc(s->ntrain * sizeof *ytr);
    double *xte = malloc((s->ntest ? s->ntest : 1) * (p ? p : 1) * sizeof *xte);
    double *yte = malloc((s->ntest ? s->ntest : 1) * sizeof *yte), *pred = malloc((s->ntest ? s->ntest : 1) * sizeof *pred);
    double *wtr = malloc(s->ntrain * sizeof *wtr), *fitw = malloc(s->ntrain * sizeof *fitw);
    int rc = xtr && ytr && xte && yte && pred && wtr && fitw ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    /* the fit's weights: instructions with the weighted option, times the running share of a
     * multiplexed interval when asked; none otherwise */
    bool by_share = o->multiplexed == PMS_MUX_WEIGHT && s->nmultiplexed > 0, weighted = o->weighted || by_share;
    s->mux_weighted = by_share;
    if (rc == PMS_OK) {
        pms_rows_gather(s->x, p, s->train, s->ntrain, xtr);
        pms_rows_gather(s->cpi, 1, s->train, s->ntrain, ytr);
        pms_rows_gather(s->x, p, s->test, s->ntest, xte);
        pms_rows_gather(s->cpi, 1, s->test, s->ntest, yte);
        pms_rows_gather(s->instructions, 1, s->train, s->ntrain, wtr);
        for (size_t i = 0; i < s->ntrain; i++)
            fitw[i] = (o->weighted ? wtr[i] : 1.0) * (by_share ? s->running_pct[s->train[i]] / 100 : 1.0);
        size_t nonzero = 0;
        for (size_t i = 0; i < s->ntrain; i++) nonzero += ytr[i] != 0;
        if (!nonzero)
            rc = pms__fail(PMS_EINVAL, "nothing to analyse: the cycles are 0 in all %zu training intervals, so CPI is 0 "
                                       "throughout (was the cycles event counted?)", s->ntrain);
    }
    if (rc == PMS_OK) {
        pms__cpistack_ridge ridge = {NAN, NAN, NAN};
        rc = pms__cpistack_fit(xtr, s->ntrain, p, ytr, weighted ? fitw : NULL, (const char *const *)s->events, o,
                               &s->model, &ridge);
        s->ridge_lambda = ridge.lambda, s->ridge_df = ridge.df, s->ridge_gcv = ridge.gcv;
        if (rc < 0) rc = pms__fail_context(rc, "fitting CPI on %zu training intervals", s->ntrain);
    }
    if (rc == PMS_OK) {
        /* the training rows are in time order (every split keeps it): residuals as a series */
        s->durbin_watson = pms_durbin_watson(s->model->residuals, s->ntrain);
        if (o->newey_west) {
            if (weighted || o->method != PMS_LM_OLS)
                rc = pms__fail(PMS_EINVAL, "Newey-West standard errors are for an unweighted least-squares fit");
            s->hac_lag = pms_newey_west_lag(s->ntrain);
            s->hac_se = rc == PMS_OK ? malloc(s->model->ncoef * sizeof *s->hac_se) : NULL;
            if (rc == PMS_OK && !s->hac_se) rc = pms__fail(PMS_ENOMEM, "out of memory");
            if (rc == PMS_OK) rc = pms_lm_newey_west(s->model, xtr, s->hac_lag, s->hac_se);
        }
        if (rc == PMS_OK && o->bootstrap.replicates && (rc = pms__cpistack_bootstrap(s, o, xtr, ytr, weighted ? fitw : NULL)) < 0)
            rc = pms__fail_context(rc, "bootstrap over the %zu training intervals", s->ntrain);
    }
    if (rc == PMS_OK) {
        correlation_and_vif(s, xtr, ytr);
        s->test_rmse = s->test_mae = NAN;
        if (s->ntest && (rc = pms_lm_predict(s->model, xte, s->ntest, pred)) == PMS_OK) {
            s->test_rmse = pms_rmse(yte, pred, s->ntest);
            s->test_mae = pms_mae(yte, pred, s->ntest);
        }
    }
    if (rc == PMS_OK) {
        s->base = s->model->coef[0];
        s->model_cpi = s->base;
        s->observed_cpi = 0;
        double cycles = 0, instructions = 0;
        for (size_t i = 0; i < s->ntrain; i++) {
            s->observed_cpi += ytr[i] / (double)s->ntrain;
            cycles += ytr[i] * wtr[i], instructions += wtr[i];
        }
        s->true_cpi = cycles / instructions;
        for (size_t j = 0; j < p; j++) {
            /* the mean the fit reproduces: weighted by instructions for a weighted fit */
            double mean = 0;
            for (size_t i = 0; i < s->ntrain; i++)
                mean += o->weighted ? xtr[i * p + j] * wtr[i] / instructions : xtr[i * p + j] / (double)s->ntrain;
            s->component[j] = s->model->coef[j + 1] * mean;
            s->model_cpi += s->component[j];
        }
        for (size_t i = 0; i < n; i++) {
            s->stack[i * (p + 1)] = s->base;
            for (size_t j = 0; j < p; j++) s->stack[i * (p + 1) + 1 + j] = s->model->coef[j + 1] * s->x[i * p + j];
        }
    }
    free(xtr);
    free(ytr);
    free(xte);
    free(yte);
    free(pred);
    free(wtr);
    free(fitw);
    return rc;
}

int pms_cpistack_compute(const pms_table *t, const pms_cpistack_options *opt, pms_cpistack **out)
{
    pms_cpistack_options o = *opt;
    if (o.train_fraction == 0) o.train_fraction = 0.8;
    if ((unsigned)o.multiplexed > PMS_MUX_REFUSE) return pms__fail(PMS_EINVAL, "unknown multiplexed choice %d", (int)o.multiplexed);
    pms_cpistack *s = calloc(1, sizeof *s);
    size_t *ev = malloc((pms_table_cols(t) + o.nevents + 1) * sizeof *ev);
    int rc = s && ev ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) rc = choose_events(t, &o, ev, &s->nevents);
    if (rc == PMS_OK) {
        s->events = calloc(s->nevents, sizeof *s->events);
        for (size_t j = 0; s->events && j < s->nevents; j++) s->events[j] = strdup(pms_table_col_name(t, ev[j]));
        rc = build_data(t, &o, s, ev);
    }
    if (rc == PMS_OK) {
        size_t p = s->nevents, n = s->nrows;
        s->train = malloc(n * sizeof *s->train);
        s->test = malloc(n * sizeof *s->test);
        s->cor = malloc(p * p * sizeof *s->cor);
        s->vif = malloc(p * sizeof *s->vif);
        s->component = malloc(p * sizeof *s->component);
        s->stack = malloc(n * (p + 1) * sizeof *s->stack);
        if (!s->train || !s->test || !s->cor || !s->vif || !s->component || !s->stack)
            rc = pms__fail(PMS_ENOMEM, "out of memory");
    }
    if (rc == PMS_OK) rc = split(t, &o, s);
    s->seeded = rc == PMS_OK && o.validation == PMS_CPISTACK_RANDOM && s->ntest > 0;
    s->seed = o.seed;
    if (rc == PMS_OK && o.normalize) rc = normalize_on_train(s);
    if (rc == PMS_OK) {
        double cycles = 0, instructions = 0;
        for (size_t i = 0; i < s->nrows; i++) cycles += s->cpi[i] * s->instructions[i], instructions += s->instructions[i];
        s->program_cpi = cycles / instructions;
        rc = fit_and_stack(s, &o);
    }
    free(ev);
    if (rc < 0) {
        pms_cpistack_free(s);
        return rc;
    }
    *out = s;
    return PMS_OK;
}
