/* LP cycle model: hand-solved cases, and GLPK's own glpsol on the model file
 * pms_lp_write produces for the same data. */
#include "test_support.h"
#include "pmuscope/estimate.h"
#include "pmuscope/error.h"
#include "estimate/model.h"
#include "splitmix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c = (10, 20, 31), E = (1, 2, 3): maximise 3 x_I + 6 x under x_I + k x <= c_k;
 * the optimum is x = 10, x_I = 0, eps = (0, 0, 1), objective 1, runs 1-2 tight. */
static void test_hand_solved_one_counter(void **state)
{
    (void)state;
    const double c[] = {10, 20, 31}, e[] = {1, 2, 3};
    pms_lp_fit f;
    assert_int_equal(pms_lp_fit_runs(c, e, 3, 1, &f), PMS_OK);
    assert_close(f.objective, 1.0, 1e-12);
    assert_close(f.model.coef[0], 10.0, 1e-12);
    assert_true(fabs(f.model.intercept) < 1e-12);
    assert_true(f.tight[0] && f.tight[1] && !f.tight[2]);
    assert_int_equal(f.n_tight, 2);
    assert_close(f.eps[2], 1.0, 1e-12);
    assert_int_equal(f.model.n_used, 1);
    assert_close(pms_cycle_model_predict(&f.model, &e[2]), 30.0, 1e-12);
    assert_close(pms_estimate_error_pct(30.0, 31.0), -100.0 / 31.0, 1e-12);
    pms_lp_fit_free(&f);
}

/* Exactly linear data with positive coefficients is reproduced with zero
 * residuals; a counter that only adds noise gets coefficient 0. */
static void test_exact_model_recovered(void **state)
{
    (void)state;
    enum { M = 8, N = 2 };
    double c[M], e[M * N];
    for (int j = 0; j < M; j++) {
        e[j * N] = 1000.0 * (j + 1);
        e[j * N + 1] = (double)((j * 7) % 5); /* unrelated to cycles */
        c[j] = 500.0 + 3.0 * e[j * N];
    }
    pms_lp_fit f;
    assert_int_equal(pms_lp_fit_runs(c, e, M, N, &f), PMS_OK);
    assert_true(f.objective < 1e-6);
    assert_close(f.model.coef[0], 3.0, 1e-9);
    assert_close(f.model.intercept, 500.0, 1e-9);
    assert_true(f.model.coef[1] == 0.0 && !f.model.used[1]);
    assert_int_equal(f.n_tight, M);
    pms_lp_fit_free(&f);
}

/* Reads glpsol's solution: names from --wglp ("n j IDX NAME"), values from -w ("j IDX ST PRIM DUAL"),
 * the objective from the "s bas ROWS COLS PST DST OBJ" line. */
static double glpsol_value(const char *glp, const char *sol, const char *name, double *objective)
{
    char line[512], nm[256];
    int want = -1, idx;
    FILE *f = fopen(glp, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "n j %d %255s", &idx, nm) == 2 && strcmp(nm, name) == 0) want = idx;
    fclose(f);
    if (want < 0) fail_msg("column %s not in %s", name, glp);
    double v = NAN;
    f = fopen(sol, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        char st;
        double prim, obj;
        int rows, cols;
        char pst, dst;
        if (sscanf(line, "j %d %c %lf", &idx, &st, &prim) == 3 && idx == want) v = prim;
        if (sscanf(line, "s bas %d %d %c %c %lf", &rows, &cols, &pst, &dst, &obj) == 5) {
            assert_int_equal(pst, 'f');
            *objective = obj;
        }
    }
    fclose(f);
    return v;
}

/* Runs shaped like a program at growing sizes: cycles follow instructions and
 * misses, with a non-negative disturbance the LP must stay under. */
static void test_against_glpsol(void **state)
{
    (void)state;
    enum { M = 12, N = 3 };
    const char *names[N] = {"INST_RETIRED", "L1D_CACHE_REFILL", "cpu-migrations"};
    double c[M], e[M * N];
    unsigned seed = 12345;
    for (int j = 0; j < M; j++) {
        seed = seed * 1103515245u + 12345u;
        double noise = (double)(seed >> 16 & 0x7fff) * 300.0;
        e[j * N] = 2.0e8 * (j + 1) + (double)(seed >> 8 & 0xffff);
        e[j * N + 1] = 1.0e5 * (j + 1) * (j + 1) + 17.0 * (j % 4);
        e[j * N + 2] = (double)(j % 3);
        c[j] = 1.0e6 + 1.3 * e[j * N] + 25.0 * e[j * N + 1] + noise;
    }
    pms_lp_fit f;
    assert_int_equal(pms_lp_fit_runs(c, e, M, N, &f), PMS_OK);
    double sum = 0;
    for (int j = 0; j < M; j++) {
        double est = pms_cycle_model_predict(&f.model, &e[j * N]);
        if (est > c[j] * (1 + 1e-9)) fail_msg("run %d: %.17g > %.17g eps %.17g", j, est, c[j], f.eps[j]); /* one-sided */
        assert_true(fabs(c[j] - est - f.eps[j]) <= 1e-9 * c[j]);
        sum += f.eps[j];
    }
    assert_close(sum, f.objective, 1e-9);
    assert_true(f.n_tight >= 1);

    const char *lp = pms_test_write_temp(".lp", "", 0);
    FILE *lpf = fopen(lp, "w");
    assert_non_null(lpf);
    assert_int_equal(pms_lp_write(c, e, M, N, names, lpf), PMS_OK);
    assert_int_equal(fclose(lpf), 0);
    const char *glp = pms_test_write_temp(".glp", "", 0), *sol = pms_test_write_temp(".sol", "", 0);
    assert_int_equal(pms_test_system("glpsol --lp %s --wglp %s -w %s >/dev/null", lp, glp, sol), 0);
    double obj = NAN;
    assert_close(glpsol_value(glp, sol, "x_I", &obj), f.model.intercept, 1e-6);
    assert_close(glpsol_value(glp, sol, "x_INST_RETIRED", &obj), f.model.coef[0], 1e-9);
    assert_close(glpsol_value(glp, sol, "x_L1D_CACHE_REFILL", &obj), f.model.coef[1], 1e-9);
    double mig = glpsol_value(glp, sol, "x_cpu_migrations", &obj);
    assert_true(fabs(mig - f.model.coef[2]) < 1e-6 * (1 + fabs(mig)));
    assert_close(obj, f.objective, 1e-9);
    char name[32];
    for (int j = 0; j < M; j++) {
        snprintf(name, sizeof name, "eps_%d", j + 1);
        double g = glpsol_value(glp, sol, name, &obj);
        assert_true(fabs(g - f.eps[j]) <= 1e-9 * c[j]);
    }
    remove(lp), remove(glp), remove(sol);
    pms_lp_fit_free(&f);
}

static void test_bad_input_named(void **state)
{
    (void)state;
    const double e[] = {1, 2, 3};
    pms_lp_fit f;
    const double zero[] = {10, 0, 30};
    assert_int_equal(pms_lp_fit_runs(zero, e, 3, 1, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "run 2: cycles is 0"));
    const double miss[] = {10, NAN, 30};
    assert_int_equal(pms_lp_fit_runs(miss, e, 3, 1, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "run 2: cycles is missing"));
    const double c[] = {10, 20, 30}, ebad[] = {1, INFINITY, 3};
    const char *names[] = {"L1D_CACHE_REFILL"};
    assert_int_equal(pms_lp_write(c, ebad, 3, 1, names, stdout), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "run 2: counter L1D_CACHE_REFILL is missing"));
    FILE *full = fopen("/dev/full", "w"); /* GLPK alone would not notice this write failing */
    assert_non_null(full);
    assert_int_equal(pms_lp_write(c, e, 3, 1, names, full), PMS_EIO);
    assert_non_null(strstr(pms_strerror(), "No space left on device"));
    fclose(full);
}

/* The bound on GLPK's simplex iterations (issue: a fuzz input once kept it busy for 20
 * minutes): lowered to 3, an LP of 40 runs and 4 counters, which needs more, ends with an
 * error naming the limit (no model, no hang); at the default bound the same LP solves. */
static void test_iteration_limit(void **state)
{
    (void)state;
    enum { M = 40, N = 4 };
    double c[M], e[M * N];
    for (int j = 0; j < M; j++) {
        c[j] = 1e6;
        for (int i = 0; i < N; i++) {
            e[j * N + i] = (double)below(100000);
            c[j] += (i + 1) * e[j * N + i] + (double)below(5000);
        }
    }
    pms_lp_fit f;
    pms__lp_set_iteration_limit(3);
    assert_int_equal(pms_lp_fit_runs(c, e, M, N, &f), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "reached its limit of 3 iterations without an optimum for 40 runs and 4 counters"));
    assert_null(f.eps);
    assert_null(f.model.coef);
    pms__lp_set_iteration_limit(0);
    assert_int_equal(pms_lp_fit_runs(c, e, M, N, &f), PMS_OK);
    assert_true(f.objective > 0);
    pms_lp_fit_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_solved_one_counter),
        cmocka_unit_test(test_exact_model_recovered),
        cmocka_unit_test(test_against_glpsol),
        cmocka_unit_test(test_bad_input_named),
        cmocka_unit_test(test_iteration_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
