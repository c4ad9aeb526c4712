/* MRA against R: lm() on every counter, step() by AIC and elimination by p value
 * (tests/fixtures/estimate/mra_reference.R), from the golden files and, when
 * Rscript is installed, from R run now. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/estimate.h"
#include "pmuscope/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct r_model {
    char names[16][64];
    double est[16], se[16], t[16], p[16];
    size_t ncoef;
    char aliased[8][64];
    size_t naliased;
    double sigma, r2, adjr2, aic;
} r_model;

/* Reads the block "model <label>" ... "end" of a reference file. */
static void read_reference(const char *path, const char *label, r_model *m)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char line[1024], word[64], name[64];
    bool in = false, found = false;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "model %63s", word) == 1) in = strcmp(word, label) == 0, found |= in;
        if (!in) continue;
        size_t k = m->ncoef;
        if (sscanf(line, "coef %63s %lf %lf %lf %lf", name, &m->est[k], &m->se[k], &m->t[k], &m->p[k]) == 5)
            strcpy(m->names[m->ncoef++], name);
        else if (sscanf(line, "aliased %63s", name) == 1)
            strcpy(m->aliased[m->naliased++], name);
        else if (strncmp(line, "end", 3) == 0)
            break;
        sscanf(line, "sigma %lf", &m->sigma);
        sscanf(line, "r2 %lf", &m->r2);
        sscanf(line, "adjr2 %lf", &m->adjr2);
        sscanf(line, "aic %lf", &m->aic);
    }
    fclose(f);
    if (!found) fail_msg("%s has no model %s", path, label);
}

static void compare(const pms_mra_fit *f, const pms_runs *r, const r_model *ref)
{
    const struct pms_lm *lm = f->lm;
    assert_int_equal(lm->ncoef, ref->ncoef);
    for (size_t c = 0; c < ref->ncoef; c++) {
        if (c > 0) assert_string_equal(lm->names[c], ref->names[c]);
        assert_close(lm->coef[c], ref->est[c], 1e-8);
        assert_close(lm->std_error[c], ref->se[c], 1e-8);
        assert_close(lm->t_value[c], ref->t[c], 1e-8);
        assert_true(fabs(lm->p_value[c] - ref->p[c]) <= 1e-6 * fmax(ref->p[c], 1e-3));
    }
    assert_close(lm->sigma, ref->sigma, 1e-6);
    assert_close(lm->r_squared, ref->r2, 1e-6);
    assert_close(lm->adj_r_squared, ref->adjr2, 1e-6);
    assert_close(f->aic, ref->aic, 1e-9);
    assert_int_equal(f->n_aliased, ref->naliased);
    for (size_t a = 0; a < ref->naliased; a++) assert_string_equal(r->counters[f->dropped[a]], ref->aliased[a]);
    /* the cycle model is the lm: intercept first, then the used counters */
    assert_close(f->model.intercept, lm->coef[0], 1e-15);
    assert_int_equal(f->model.n_used, lm->ncoef - 1);
}

static void check_table(const char *table, const char *cycles, size_t rows, const char *reference)
{
    pms_runs *r = NULL;
    assert_int_equal(pms_runs_read(pms_test_fixture(table), NULL, NULL, &r), PMS_OK);
    assert_string_equal(r->cycles_name, cycles);
    assert_true(rows <= r->n_runs);
    static const char *const labels[] = {"all", "aic", "p"};
    static const pms_mra_select select[] = {PMS_MRA_ALL, PMS_MRA_STEP_AIC, PMS_MRA_STEP_P};
    for (size_t k = 0; k < 3; k++) {
        r_model ref;
        read_reference(reference, labels[k], &ref);
        pms_mra_options opt = {.select = select[k]};
        pms_mra_fit f;
        assert_int_equal(pms_mra_fit_runs(r->cycles, r->events, rows, r->n_counters,
                                          (const char *const *)r->counters, &opt, &f), PMS_OK);
        compare(&f, r, &ref);
        pms_mra_fit_free(&f);
    }
    pms_runs_destroy(r);
}

static void check_against_r(const char *table, const char *cycles, size_t rows, const char *golden)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", pms_test_fixture(golden));
    check_table(table, cycles, rows, path);
    if (pms_test_system("command -v Rscript >/dev/null 2>&1") != 0) {
        print_message("Rscript not installed: compared with the golden file only\n");
        return;
    }
    const char *live = pms_test_write_temp(".r.txt", "", 0);
    char script[1024];
    snprintf(script, sizeof script, "%s", pms_test_fixture("estimate/mra_reference.R"));
    assert_int_equal(pms_test_system("Rscript %s %s %s %zu > %s", script, pms_test_fixture(table), cycles, rows, live),
                     0);
    check_table(table, cycles, rows, live);
    remove(live);
}

/* TEST1..TEST10 of a made-up program (as the paper fits on TEST1-TEST10). */
static void test_sizes_runs_against_r(void **state)
{
    (void)state;
    check_against_r("estimate/sizes_runs.csv", "cycles", 10, "estimate/sizes_runs_train10.golden");
}

/* Real data: per-program totals of 30 cBench programs on a Cortex-A15, where
 * SW_INCR is always 0 (aliased with the intercept, as R reports). */
static void test_armpm_runs_against_r(void **state)
{
    (void)state;
    check_against_r("estimate/armpm_runs_2000mhz_run1.csv", "CPU_CYCLES", 30, "estimate/armpm_runs_2000mhz_run1.golden");
}

static void test_too_few_runs_and_collinear(void **state)
{
    (void)state;
    enum { M = 6, N = 3 };
    double c[M], e[M * N];
    const char *names[N] = {"a", "b", "c"};
    for (int j = 0; j < M; j++) {
        e[j * N] = j + 1, e[j * N + 1] = 2 * (j + 1), e[j * N + 2] = 3 * (j + 1) + 1;
        c[j] = 100 + 5 * (j + 1) + (j % 2);
    }
    pms_mra_fit f;
    assert_int_equal(pms_mra_fit_runs(c, e, 1, N, names, NULL, &f), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "MRA: a slope and an intercept need 2 runs or more"));
    /* every counter a multiple of the first: b and c are left out as R's lm would alias them */
    assert_int_equal(pms_mra_fit_runs(c, e, M, N, names, NULL, &f), PMS_OK);
    assert_int_equal(f.model.n_used, 1);
    assert_true(f.model.used[0]);
    assert_int_equal(f.n_aliased, 2);
    assert_int_equal(f.alias_reason[0], PMS_ALIAS_COMBINATION);
    assert_int_equal(f.alias_reason[1], PMS_ALIAS_COMBINATION);
    pms_mra_fit_free(&f);
    /* every counter constant: nothing to regress on */
    for (int j = 0; j < M * N; j++) e[j] = 7;
    assert_int_equal(pms_mra_fit_runs(c, e, M, N, names, NULL, &f), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "every counter is constant"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_runs_against_r),
        cmocka_unit_test(test_armpm_runs_against_r),
        cmocka_unit_test(test_too_few_runs_and_collinear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
