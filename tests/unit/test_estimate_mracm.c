/* MRACM on constructed runs whose best pair is known: cycles = 10 + 2 A + 3 L
 * exactly, A grows with the run (high correlation), L does not (low), B follows
 * A with other wiggles and M is unrelated. The pair (A, L) fits with no error,
 * every other pair does not. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/estimate.h"

#include <math.h>
#include <string.h>

enum { M = 12, N = 4, A = 0, B = 1, L = 2, MM = 3 };
static const char *const names[N] = {"INST_RETIRED", "BR_PRED", "L1D_CACHE_REFILL", "L2D_CACHE_WB"};
static double cycles[M], events[M * N];

static int setup(void **state)
{
    (void)state;
    static const double low[M] = {5, 1, 4, 2, 6, 3, 5, 1, 4, 2, 6, 3}, other[M] = {2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5};
    for (int j = 0; j < M; j++) {
        double *e = &events[j * N];
        e[A] = 1000.0 * (j + 1) + 37.0 * ((j * 5) % 7);
        e[B] = 1000.0 * (j + 1) + 53.0 * ((j * 3) % 5);
        e[L] = 100.0 * low[j];
        e[MM] = 90.0 * other[j];
        cycles[j] = 10.0 + 2.0 * e[A] + 3.0 * e[L];
    }
    return 0;
}

/* Pearson r, written out here as the independent check of the module's. */
static double pearson(const double *x, size_t stride_x, const double *y, size_t stride_y)
{
    double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    for (int j = 0; j < M; j++) mx += x[j * stride_x] / M, my += y[j * stride_y] / M;
    for (int j = 0; j < M; j++) {
        double dx = x[j * stride_x] - mx, dy = y[j * stride_y] - my;
        sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
    }
    return sxy / sqrt(sxx * syy);
}

/* Today's thresholds as an option: every |r| >= 0.9 counter with every |r| < 0.4 one. */
static void test_best_pair_found(void **state)
{
    (void)state;
    pms_mracm_fit f;
    pms_mracm_options opt = {.procedure = PMS_MRACM_THRESHOLDS};
    assert_int_equal(pms_mracm_fit_runs(cycles, events, M, N, names, &opt, &f), PMS_OK);
    assert_true(f.applicable);
    for (int i = 0; i < N; i++) assert_close(f.correlation[i], pearson(&events[i], N, cycles, 1), 1e-12);
    assert_true(fabs(f.correlation[A]) >= 0.9 && fabs(f.correlation[B]) >= 0.9);
    assert_true(fabs(f.correlation[L]) < 0.4 && fabs(f.correlation[MM]) < 0.4);
    assert_int_equal(f.n_pairs, 4); /* {A, B} x {L, M}; the partial pick (A, L) is one of them */
    assert_int_equal(f.pick[PMS_MRACM_BY_PARTIAL], f.best);
    assert_int_equal(f.pick[PMS_MRACM_BY_LOO], f.best);
    const pms_mracm_pair *best = &f.pairs[f.best];
    assert_int_equal(best->high, A);
    assert_int_equal(best->low, L);
    assert_true(best->error_pct < 1e-9);
    assert_close(best->coef[0], 10.0, 1e-6);
    assert_close(best->coef[1], 2.0, 1e-9);
    assert_close(best->coef[2], 3.0, 1e-9);
    double r = pearson(&events[A], N, &events[L], N);
    assert_close(best->vif, 1.0 / (1.0 - r * r), 1e-9);
    for (size_t p = 0; p < f.n_pairs; p++)
        if (p != f.best) assert_true(f.pairs[p].error_pct > 1e-3);
    assert_close(f.model.intercept, 10.0, 1e-6);
    assert_close(f.model.coef[A], 2.0, 1e-9);
    assert_close(f.model.coef[L], 3.0, 1e-9);
    assert_int_equal(f.model.n_used, 2);
    assert_true(!f.model.used[B] && !f.model.used[MM]);
    /* a pair estimates a run from its own two counters: 10 + 2 A + 3 L */
    double row[N] = {0};
    row[A] = 100, row[L] = 7, row[B] = 1e9, row[MM] = 1e9;
    assert_close(pms_mracm_pair_predict(best, row), 10 + 200 + 21, 1e-9);
    assert_close(pms_mracm_pair_predict(best, row), pms_cycle_model_predict(&f.model, row), 1e-12);
    pms_mracm_fit_free(&f);
}

static void test_validation_split_agrees(void **state)
{
    (void)state;
    pms_mracm_options opt = {.procedure = PMS_MRACM_THRESHOLDS, .validation = 0.25, .seed = 7};
    pms_mracm_fit f;
    assert_int_equal(pms_mracm_fit_runs(cycles, events, M, N, names, &opt, &f), PMS_OK);
    assert_true(f.applicable);
    assert_int_equal(f.pairs[f.best].high, A);
    assert_int_equal(f.pairs[f.best].low, L);
    pms_mracm_fit_free(&f);
    opt.validation = 0.9; /* leaves 1 run to fit on */
    assert_int_equal(pms_mracm_fit_runs(cycles, events, M, N, names, &opt, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "need at least 4"));
}

/* As the paper's basicmath and dijkstra: only high-correlation counters. */
static void test_not_applicable_without_low_counter(void **state)
{
    (void)state;
    double e2[M * 2];
    for (int j = 0; j < M; j++) e2[j * 2] = events[j * N + A], e2[j * 2 + 1] = events[j * N + B];
    pms_mracm_fit f;
    assert_int_equal(pms_mracm_fit_runs(cycles, e2, M, 2, names, NULL, &f), PMS_OK);
    assert_false(f.applicable);
    assert_non_null(strstr(f.reason, "no low-correlation counter"));
    /* the |r| seen, and why no threshold helps: the least correlated selected counter is itself high */
    assert_non_null(strstr(f.reason, "|r| seen: "));
    assert_non_null(strstr(f.reason, "is itself a high one"));
    pms_mracm_fit_free(&f);
}

static void test_vif_rejects_every_pair(void **state)
{
    (void)state;
    pms_mracm_options opt = {.procedure = PMS_MRACM_THRESHOLDS, .max_vif = 1.0 + 1e-12};
    pms_mracm_fit f;
    assert_int_equal(pms_mracm_fit_runs(cycles, events, M, N, names, &opt, &f), PMS_OK);
    assert_false(f.applicable);
    assert_non_null(strstr(f.reason, "every high-low pair (4) has VIF >="));
    for (size_t p = 0; p < f.n_pairs; p++) assert_true(f.pairs[p].rejected && isnan(f.pairs[p].error_pct));
    pms_mracm_fit_free(&f);
}

static void test_bad_input(void **state)
{
    (void)state;
    pms_mracm_fit f;
    assert_int_equal(pms_mracm_fit_runs(cycles, events, 3, N, names, NULL, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "4 runs or more"));
    double c0[M];
    memcpy(c0, cycles, sizeof c0);
    c0[5] = 0;
    assert_int_equal(pms_mracm_fit_runs(c0, events, M, N, names, NULL, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "run 6: cycles is 0"));
    for (int j = 0; j < M; j++) c0[j] = 500;
    assert_int_equal(pms_mracm_fit_runs(c0, events, M, N, names, NULL, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "cycles are 500 in all 12 fitting runs"));
}

/* The issue's table: cycles = 5000 + 1.3 inst + 38 l2_refill + noise, where
 * l2_refill has r = 0.59 over the fitting runs (make_mracm_runs.R). */
static void load_issue_table(pms_runs **r)
{
    assert_int_equal(pms_runs_read(pms_test_fixture("estimate/mracm_runs.csv"), NULL, NULL, r), PMS_OK);
    assert_int_equal((*r)->n_counters, 4);
}

static size_t counter(const pms_runs *r, const char *name)
{
    for (size_t i = 0; i < r->n_counters; i++)
        if (strcmp(r->counters[i], name) == 0) return i;
    fail_msg("no counter %s", name);
    return 0;
}

/* mean |error %| of the fit's model on rows [from, to) */
static double mean_abs_error(const pms_runs *r, const pms_mracm_fit *f, size_t from, size_t to)
{
    double sum = 0;
    for (size_t j = from; j < to; j++)
        sum += fabs(pms_estimate_error_pct(pms_cycle_model_predict(&f->model, &r->events[j * r->n_counters]), r->cycles[j]));
    return sum / (double)(to - from);
}

static void test_paper_procedure_on_issue_table(void **state)
{
    (void)state;
    pms_runs *r;
    load_issue_table(&r);
    pms_mracm_fit f;
    const char *const *nm = (const char *const *)r->counters;
    assert_int_equal(pms_mracm_fit_runs(r->cycles, r->events, 30, 4, nm, NULL, &f), PMS_OK);
    size_t inst = counter(r, "inst"), l2 = counter(r, "l2_refill");
    assert_true(f.applicable);
    assert_int_equal(f.procedure, PMS_MRACM_PAPER);
    /* MRA by p value keeps exactly inst and l2_refill; l2_refill is the lowest (r ~ 0.5) */
    for (size_t i = 0; i < 4; i++) assert_int_equal(f.selected[i], i == inst || i == l2);
    assert_int_equal(f.low, l2);
    assert_true(fabs(f.correlation[l2]) > 0.4 && fabs(f.correlation[l2]) < 0.9);
    for (size_t c = 0; c < PMS_MRACM_CRITERIA; c++) {
        assert_true(f.pick[c] != PMS_MRACM_NONE);
        assert_int_equal(f.pairs[f.pick[c]].high, inst);
        assert_int_equal(f.pairs[f.pick[c]].low, l2);
    }
    assert_close(f.model.coef[inst], 1.3, 1e-3);
    assert_close(f.model.coef[l2], 38, 1e-3);
    assert_true(mean_abs_error(r, &f, 0, 30) < 0.05);
    assert_true(mean_abs_error(r, &f, 30, 40) < 0.05);
    pms_mracm_fit_free(&f);

    /* the thresholds pair a high counter with exc_taken, which is noise: errors of percents */
    pms_mracm_options opt = {.procedure = PMS_MRACM_THRESHOLDS};
    assert_int_equal(pms_mracm_fit_runs(r->cycles, r->events, 30, 4, nm, &opt, &f), PMS_OK);
    assert_true(f.applicable);
    assert_int_equal(f.pairs[f.best].low, counter(r, "exc_taken"));
    assert_true(mean_abs_error(r, &f, 30, 40) > 1);
    /* while the partial correlation criterion still finds inst + l2_refill */
    const pms_mracm_pair *q = &f.pairs[f.pick[PMS_MRACM_BY_PARTIAL]];
    assert_true(q->high == inst && q->low == l2 && !q->candidate);
    pms_mracm_fit_free(&f);
    opt.criterion = PMS_MRACM_BY_PARTIAL;
    assert_int_equal(pms_mracm_fit_runs(r->cycles, r->events, 30, 4, nm, &opt, &f), PMS_OK);
    assert_true(f.applicable && f.model.used[inst] && f.model.used[l2]);
    pms_mracm_fit_free(&f);
    opt.instructions = "no_such";
    assert_int_equal(pms_mracm_fit_runs(r->cycles, r->events, 30, 4, nm, &opt, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "no counter named 'no_such'"));
    pms_runs_destroy(r);
}

/* Leave-one-run-out error of a pair, recomputed here from closed-form two-regressor OLS. */
static void test_loo_error_recomputed(void **state)
{
    (void)state;
    pms_mracm_options opt = {.procedure = PMS_MRACM_THRESHOLDS};
    pms_mracm_fit f;
    assert_int_equal(pms_mracm_fit_runs(cycles, events, M, N, names, &opt, &f), PMS_OK);
    for (size_t p = 0; p < f.n_pairs; p++) {
        const pms_mracm_pair *q = &f.pairs[p];
        double sum = 0;
        for (int out = 0; out < M; out++) {
            /* normal equations of y ~ 1 + a + b on the other runs, centred */
            double ma = 0, mb = 0, my = 0, saa = 0, sbb = 0, sab = 0, say = 0, sby = 0;
            for (int j = 0; j < M; j++)
                if (j != out) ma += events[j * N + q->high], mb += events[j * N + q->low], my += cycles[j];
            ma /= M - 1, mb /= M - 1, my /= M - 1;
            for (int j = 0; j < M; j++) {
                if (j == out) continue;
                double a = events[j * N + q->high] - ma, b = events[j * N + q->low] - mb, y = cycles[j] - my;
                saa += a * a, sbb += b * b, sab += a * b, say += a * y, sby += b * y;
            }
            double det = saa * sbb - sab * sab, ba = (sbb * say - sab * sby) / det, bb = (saa * sby - sab * say) / det;
            double est = my + ba * (events[out * N + q->high] - ma) + bb * (events[out * N + q->low] - mb);
            sum += fabs((est - cycles[out]) / cycles[out] * 100);
        }
        if (sum / M < 1e-9) assert_true(q->loo_error_pct < 1e-9); /* the exact pair: rounding only */
        else assert_close(q->loo_error_pct, sum / M, 1e-6);
    }
    pms_mracm_fit_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_best_pair_found),
        cmocka_unit_test(test_validation_split_agrees),
        cmocka_unit_test(test_not_applicable_without_low_counter),
        cmocka_unit_test(test_vif_rejects_every_pair),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_paper_procedure_on_issue_table),
        cmocka_unit_test(test_loo_error_recomputed),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
