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

static void test_best_pair_found(void **state)
{
    (void)state;
    pms_mracm_fit f;
    assert_int_equal(pms_mracm_fit_runs(cycles, events, M, N, names, NULL, &f), PMS_OK);
    assert_true(f.applicable);
    for (int i = 0; i < N; i++) assert_close(f.correlation[i], pearson(&events[i], N, cycles, 1), 1e-12);
    assert_true(fabs(f.correlation[A]) >= 0.9 && fabs(f.correlation[B]) >= 0.9);
    assert_true(fabs(f.correlation[L]) < 0.4 && fabs(f.correlation[MM]) < 0.4);
    assert_int_equal(f.n_pairs, 4); /* {A, B} x {L, M} */
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
    pms_mracm_options opt = {.validation = 0.25, .seed = 7};
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
    assert_non_null(strstr(f.reason, "the lowest is"));
    pms_mracm_fit_free(&f);
}

static void test_vif_rejects_every_pair(void **state)
{
    (void)state;
    pms_mracm_options opt = {.max_vif = 1.0 + 1e-12};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_best_pair_found),
        cmocka_unit_test(test_validation_split_agrees),
        cmocka_unit_test(test_not_applicable_without_low_counter),
        cmocka_unit_test(test_vif_rejects_every_pair),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
