/* CPI stacks on the ARM cBench excerpt, one per program, against R (golden
 * file tests/fixtures/cpistack/armpm.golden, and live when Rscript exists),
 * plus the split, the test error, and the errors on bad tables. */
#include "test_support.h"
#include "ref_values.h"
#include "pmuscope/cpistack.h"
#include "pmuscope/error.h"
#include "pmuscope/perfstat.h"

#include <math.h>
#include <string.h>

static const char *programs[] = {"automotive_bitcount", "automotive_qsort1", "network_dijkstra", "security_sha"};
static const char *events[] = {"L1I_CACHE_REFILL", "L1I_TLB_REFILL", "L1D_CACHE_REFILL", "L1D_TLB_REFILL",
                               "BRANCH_MISPRED"};

static pms_table *arm_table(void)
{
    pms_table *t = NULL;
    assert_int_equal(pms_interval_table_read(pms_test_fixture("armpm/cbench-excerpt.tsv"), &t), PMS_OK);
    return t;
}

static pms_cpistack *stack_of_opt(const pms_table *t, const char *prog, pms_lm_method method, bool normalize,
                                  bool weighted, bool newey_west)
{
    char cond[128];
    snprintf(cond, sizeof cond, "Benchmark=%s", prog);
    const char *where[] = {cond};
    pms_cpistack_options o = {.where = where, .nwhere = 1, .skip = 2, .train_fraction = 1, .method = method,
                              .normalize = normalize, .weighted = weighted, .newey_west = newey_west};
    pms_cpistack *s = NULL;
    if (pms_cpistack_compute(t, &o, &s) != PMS_OK) fail_msg("%s: %s", prog, pms_strerror());
    return s;
}

static pms_cpistack *stack_of_w(const pms_table *t, const char *prog, pms_lm_method method, bool normalize,
                                bool weighted)
{
    return stack_of_opt(t, prog, method, normalize, weighted, false);
}

static pms_cpistack *stack_of(const pms_table *t, const char *prog, pms_lm_method method, bool normalize)
{
    return stack_of_w(t, prog, method, normalize, false);
}

/* Weighted least squares by instructions against R's lm(weights =): the stack
 * adds up to the true CPI, total cycles / total instructions. */
static void check_wls_against(const pms_table *t, const struct ref *r, const char *prog)
{
    char key[256];
    pms_cpistack *s = stack_of_w(t, prog, PMS_LM_OLS, false, true);
    snprintf(key, sizeof key, "%s:wls:base", prog);
    assert_close(s->base, ref_get(r, key), 1e-9);
    for (size_t j = 0; j < 5; j++) {
        snprintf(key, sizeof key, "%s:wls:estimate:%s", prog, events[j]);
        assert_close(s->model->coef[j + 1], ref_get(r, key), 1e-9);
        snprintf(key, sizeof key, "%s:wls:std_error:%s", prog, events[j]);
        assert_close(s->model->std_error[j + 1], ref_get(r, key), 1e-9);
        snprintf(key, sizeof key, "%s:wls:component:%s", prog, events[j]);
        assert_close(s->component[j], ref_get(r, key), 1e-9);
    }
    snprintf(key, sizeof key, "%s:wls:r_squared", prog);
    assert_close(s->model->r_squared, ref_get(r, key), 1e-9);
    snprintf(key, sizeof key, "%s:wls:sigma", prog);
    assert_close(s->model->sigma, ref_get(r, key), 1e-9);
    snprintf(key, sizeof key, "%s:wls:f_statistic", prog);
    assert_close(s->model->f_statistic, ref_get(r, key), 1e-9);
    snprintf(key, sizeof key, "%s:wls:resid_median", prog);
    double rq[5];
    assert_int_equal(pms_lm_resid_quantiles(s->model, rq), PMS_OK);
    assert_true(fabs(rq[2] - ref_get(r, key)) <= 1e-8 * s->model->sigma);
    snprintf(key, sizeof key, "%s:true_cpi", prog);
    assert_close(s->true_cpi, ref_get(r, key), 1e-12);
    assert_close(s->program_cpi, ref_get(r, key), 1e-12);
    assert_close(s->model_cpi, s->true_cpi, 1e-12); /* the weighted stack adds up to the true CPI */
    pms_cpistack_free(s);
}

static void check_against(const pms_table *t, const struct ref *r)
{
    char key[256];
    for (size_t g = 0; g < 4; g++) {
        const char *prog = programs[g];
        pms_cpistack *s = stack_of_opt(t, prog, PMS_LM_OLS, false, false, true);
        assert_int_equal(s->nevents, 5);
        /* Durbin-Watson as lmtest::dwtest, Newey-West as sandwich::NeweyWest */
        snprintf(key, sizeof key, "%s:ols:dw", prog);
        assert_close(s->durbin_watson, ref_get(r, key), 1e-9);
        snprintf(key, sizeof key, "%s:ols:nw_lag", prog);
        assert_int_equal(s->hac_lag, (size_t)ref_get(r, key));
        for (size_t c = 0; c < 6; c++) {
            snprintf(key, sizeof key, "%s:ols:nw_se:%zu", prog, c + 1);
            assert_close(s->hac_se[c], ref_get(r, key), 1e-9);
        }
        snprintf(key, sizeof key, "%s:ols:base", prog);
        assert_close(s->base, ref_get(r, key), 1e-9);
        for (size_t j = 0; j < 5; j++) {
            assert_string_equal(s->events[j], events[j]);
            snprintf(key, sizeof key, "%s:ols:estimate:%s", prog, events[j]);
            assert_close(s->model->coef[j + 1], ref_get(r, key), 1e-9);
            snprintf(key, sizeof key, "%s:ols:std_error:%s", prog, events[j]);
            assert_close(s->model->std_error[j + 1], ref_get(r, key), 1e-9);
            snprintf(key, sizeof key, "%s:ols:component:%s", prog, events[j]);
            assert_close(s->component[j], ref_get(r, key), 1e-9);
        }
        snprintf(key, sizeof key, "%s:ols:r_squared", prog);
        assert_close(s->model->r_squared, ref_get(r, key), 1e-9);
        snprintf(key, sizeof key, "%s:ols:model_cpi", prog);
        assert_close(s->model_cpi, ref_get(r, key), 1e-12);
        assert_close(s->model_cpi, s->observed_cpi, 1e-12); /* OLS with intercept: mean fitted = mean observed */
        snprintf(key, sizeof key, "%s:true_cpi", prog);
        assert_close(s->true_cpi, ref_get(r, key), 1e-12);
        pms_cpistack_free(s);
        check_wls_against(t, r, prog);

        s = stack_of(t, prog, PMS_LM_NNLS, true);
        snprintf(key, sizeof key, "%s:nnls:base", prog);
        assert_close(s->base, ref_get(r, key), 1e-8);
        for (size_t j = 0; j < 5; j++) {
            snprintf(key, sizeof key, "%s:nnls:component:%s", prog, events[j]);
            double want = ref_get(r, key);
            if (want == 0)
                assert_true(s->component[j] == 0);
            else
                assert_close(s->component[j], want, 1e-8);
        }
        pms_cpistack_free(s);
    }
}

static void test_stacks_match_r(void **st)
{
    (void)st;
    pms_table *t = arm_table();
    struct ref *r = calloc(1, sizeof *r);
    ref_load(r, pms_test_fixture("cpistack/armpm.golden"));
    check_against(t, r);
    if (have_rscript()) {
        const char *out = pms_test_write_temp(".ref", "", 0);
        char script[1024];
        snprintf(script, sizeof script, "%s", pms_test_fixture("cpistack/cpistack_reference.R"));
        assert_int_equal(pms_test_system("Rscript '%s' '%s' '%s'", script, pms_test_fixture("armpm/cbench-excerpt.tsv"), out), 0);
        ref_load(r, out);
        check_against(t, r);
        remove(out);
    } else {
        print_message("note: Rscript not installed, checked against the golden file only\n");
    }
    free(r);
    pms_table_free(t);
}

static void test_split_and_test_error(void **st)
{
    (void)st;
    pms_table *t = arm_table();
    const char *where[] = {"Benchmark=security_sha"};
    pms_cpistack_options o = {.where = where, .nwhere = 1, .skip = 1, .seed = 5};
    pms_cpistack *s, *s2;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    assert_int_equal(s->nrows, 70);
    assert_int_equal(s->ntrain, 56);
    assert_int_equal(s->ntest, 14);
    double yhat[14], x[14 * 5], y[14];
    for (size_t i = 0; i < 14; i++) {
        memcpy(x + i * 5, s->x + s->test[i] * 5, 5 * sizeof *x);
        y[i] = s->cpi[s->test[i]];
    }
    assert_int_equal(pms_lm_predict(s->model, x, 14, yhat), PMS_OK);
    assert_close(s->test_rmse, pms_rmse(y, yhat, 14), 1e-15);
    /* the stack per interval adds up to the fitted CPI of the interval */
    size_t i0 = s->train[0];
    double sum = 0;
    for (size_t c = 0; c <= 5; c++) sum += s->stack[i0 * 6 + c];
    assert_close(sum, s->model->fitted[0], 1e-12);
    assert_int_equal(pms_cpistack_compute(t, &o, &s2), PMS_OK);
    assert_memory_equal(s->train, s2->train, s->ntrain * sizeof *s->train);
    pms_cpistack_free(s2);
    pms_cpistack_free(s);
    pms_table_free(t);
}

/* --range and --skip count positions after the filter; per-interval regressors
 * are the raw counts; normalised ones span [0, 1]. */
static void test_range_per_interval_normalize(void **st)
{
    (void)st;
    pms_table *t = arm_table();
    const char *where[] = {"Benchmark=automotive_qsort1"};
    pms_cpistack_options o = {.where = where, .nwhere = 1, .skip = 4, .range_first = 3, .range_last = 30,
                              .train_fraction = 1, .per_interval = true};
    pms_cpistack *s;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    assert_int_equal(s->nrows, 26); /* positions 5..30 */
    assert_int_equal(s->rows[0], 58 + 4); /* qsort1 starts after bitcount's 58 rows */
    size_t c;
    const double *v;
    assert_int_equal(pms_table_require(t, "BRANCH_MISPRED", &c), PMS_OK);
    assert_int_equal(pms_table_numeric(t, c, false, &v), PMS_OK);
    assert_close(s->x[0 * 5 + 4], v[62], 0);
    pms_cpistack_free(s);
    o.per_interval = false;
    o.normalize = true;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    for (size_t j = 0; j < 5; j++) {
        double lo = 1, hi = 0;
        for (size_t i = 0; i < s->nrows; i++) {
            lo = fmin(lo, s->x[i * 5 + j]);
            hi = fmax(hi, s->x[i * 5 + j]);
        }
        assert_close(lo, 0, 0);
        assert_close(hi, 1, 1e-15);
    }
    pms_cpistack_free(s);
    o.range_first = 40;
    o.range_last = 0;
    o.skip = 60;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "no intervals left"));
    pms_table_free(t);
}

/* Min-max normalisation is fitted on the training intervals only: their
 * regressors span [0, 1], and changing a test interval changes nothing fitted. */
static void test_normalize_on_training_rows(void **st)
{
    (void)st;
    pms_table *t = arm_table();
    const char *where[] = {"Benchmark=security_sha"};
    pms_cpistack_options o = {.where = where, .nwhere = 1, .skip = 1, .seed = 5, .normalize = true};
    pms_cpistack *s, *s2;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    assert_true(s->ntest > 0);
    bool outside = false;
    for (size_t j = 0; j < 5; j++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < s->ntrain; i++) {
            lo = fmin(lo, s->x[s->train[i] * 5 + j]);
            hi = fmax(hi, s->x[s->train[i] * 5 + j]);
        }
        assert_true(fabs(lo) < 1e-15 && fabs(hi - 1) < 1e-12);
        for (size_t i = 0; i < s->ntest; i++) outside |= s->x[s->test[i] * 5 + j] < 0 || s->x[s->test[i] * 5 + j] > 1;
    }
    assert_true(outside); /* some test interval lies beyond the training range */
    /* an extreme count in a test interval leaves the model as it was */
    size_t row = s->rows[s->test[0]], col;
    assert_int_equal(pms_table_require(t, "L1D_CACHE_REFILL", &col), PMS_OK);
    const double *v;
    assert_int_equal(pms_table_numeric(t, col, false, &v), PMS_OK);
    ((double *)v)[row] *= 1000;
    assert_int_equal(pms_cpistack_compute(t, &o, &s2), PMS_OK);
    for (size_t c = 0; c < 6; c++) assert_close(s2->model->coef[c], s->model->coef[c], 1e-12);
    assert_true(s2->test_rmse > s->test_rmse);
    pms_cpistack_free(s2);
    pms_cpistack_free(s);
    pms_table_free(t);
}

/* Blocked validation tests on the last intervals in time order; run-wise on the
 * runs after the first, named by a column. */
static void test_blocked_and_runwise_validation(void **st)
{
    (void)st;
    pms_table *t = arm_table();
    const char *where[] = {"Benchmark=security_sha"};
    pms_cpistack_options o = {.where = where, .nwhere = 1, .skip = 1, .validation = PMS_CPISTACK_BLOCKED};
    pms_cpistack *s;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    assert_int_equal(s->ntrain, 56);
    assert_int_equal(s->ntest, 14);
    for (size_t i = 0; i < 56; i++) assert_int_equal(s->train[i], i);
    for (size_t i = 0; i < 14; i++) assert_int_equal(s->test[i], 56 + i);
    pms_cpistack_free(s);
    o.validation = PMS_CPISTACK_RUNS, o.run_column = "Run(#)";
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_EINVAL); /* the excerpt has run 1 only */
    assert_non_null(strstr(pms_strerror(), "every interval is of one run"));
    pms_table_free(t);

    /* two runs of the same loop: fit on run a, test on run b */
    char text[4096] = "run,cycles,instructions,cache-misses,branch-misses\n";
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 20; i++) {
            double ins = 1000 + 37 * ((i * 7) % 11), cm = 3 + (i * 5) % 7, bm = 2 + (i * 3) % 5;
            char line[128];
            snprintf(line, sizeof line, "%s,%.0f,%.0f,%.0f,%.0f\n", r ? "b" : "a", 0.5 * ins + 20 * cm + 9 * bm + r * 3 + (i % 3),
                     ins, cm, bm);
            strcat(text, line);
        }
    assert_int_equal(pms_table_parse(text, strlen(text), "runs.csv", NULL, &t), PMS_OK);
    o = (pms_cpistack_options){.validation = PMS_CPISTACK_RUNS, .run_column = "run"};
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    assert_int_equal(s->ntrain, 20);
    assert_int_equal(s->ntest, 20);
    for (size_t i = 0; i < 20; i++) assert_string_equal(pms_table_string(t, s->rows[s->train[i]], 0), "a");
    for (size_t i = 0; i < 20; i++) assert_string_equal(pms_table_string(t, s->rows[s->test[i]], 0), "b");
    assert_true(s->test_rmse > 0);
    pms_cpistack_free(s);
    pms_table_free(t);
}

/* A <not counted> cell in a miss-event column that cpistack would choose by
 * itself is an error naming the cell, not a column silently left out. */
static void test_not_counted_in_chosen_column(void **st)
{
    (void)st;
    const char *text = "cycles,instructions,branch-misses,cache-misses\n"
                       "100,50,1,2\n120,60,2,1\n130,60,<not counted>,3\n140,70,3,4\n150,80,2,2\n160,90,5,1\n";
    pms_table *t;
    pms_cpistack *s = NULL;
    assert_int_equal(pms_table_parse(text, strlen(text), "nc.csv", NULL, &t), PMS_OK);
    pms_cpistack_options o = {.train_fraction = 1};
    assert_true(pms_cpistack_compute(t, &o, &s) < 0);
    assert_null(s);
    assert_non_null(strstr(pms_strerror(), "branch-misses"));
    assert_non_null(strstr(pms_strerror(), "nc.csv:4"));
    assert_non_null(strstr(pms_strerror(), "<not counted>"));
    /* named regressors leave it out */
    const char *ev[] = {"cache-misses"};
    o.events = ev, o.nevents = 1;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    pms_cpistack_free(s);
    pms_table_free(t);
}

/* A near-singular design that the fit accepts (VIF 2.6e12) gets every VIF, from
 * the fit's QR, as R's 1 / (1 - R^2) of each regressor on the others (R's two ways
 * of computing them differ by 2e-4 at this conditioning), never NaN beside a fit. */
static void test_near_singular_vifs(void **st)
{
    (void)st;
    pms_table *t;
    assert_int_equal(pms_table_read(pms_test_fixture("cpistack/near_singular.csv"), NULL, &t), PMS_OK);
    pms_cpistack_options o = {.train_fraction = 1};
    pms_cpistack *s;
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_OK);
    struct ref *r = calloc(1, sizeof *r);
    ref_load(r, pms_test_fixture("cpistack/near_singular.golden"));
    char key[128];
    for (size_t j = 0; j < s->nevents; j++) {
        snprintf(key, sizeof key, "vif:%s", s->events[j]);
        assert_close(s->vif[j], ref_get(r, key), 1e-3);
    }
    assert_string_equal(s->vif_note, "");
    free(r);
    pms_cpistack_free(s);
    pms_table_free(t);
}

static void test_bad_tables(void **st)
{
    (void)st;
    pms_table *t = arm_table(), *bad = NULL;
    pms_cpistack *s = NULL;
    pms_cpistack_options o = {.cycles = "cycles"};
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "no column named 'cycles'"));
    const char *ev[] = {"L1I_CACHE_REFILL", "Benchmark"};
    o = (pms_cpistack_options){.events = ev, .nevents = 2};
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "column 'Benchmark' holds text"));
    /* a constant regressor (SW_INCR is 0 everywhere) */
    const char *ev2[] = {"L1I_CACHE_REFILL", "SW_INCR"};
    o = (pms_cpistack_options){.events = ev2, .nevents = 2};
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_ENUMERIC);
    assert_non_null(strstr(pms_strerror(), "'SW_INCR' is constant"));
    /* fewer intervals than coefficients */
    o = (pms_cpistack_options){.range_first = 1, .range_last = 5, .train_fraction = 1};
    assert_int_equal(pms_cpistack_compute(t, &o, &s), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "5 rows for 6 coefficients"));
    assert_null(s);
    pms_table_free(t);

    const char *text = "cycles,instructions,branch-misses,cache-misses\n"
                       "100,50,1,2\n120,60,2,1\n130,60,,3\n140,70,3,4\n150,80,2,2\n160,90,5,1\n";
    assert_int_equal(pms_table_parse(text, strlen(text), "w.csv", NULL, &bad), PMS_OK);
    o = (pms_cpistack_options){.train_fraction = 1};
    assert_int_equal(pms_cpistack_compute(bad, &o, &s), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "w.csv:4: column 'branch-misses': expected a count (0 or more), found an "
                                        "empty or NaN cell; such intervals can be dropped");
    assert_string_equal(pms_error_option(), "drop_missing");
    /* A negative count and an infinite one are refused, each by its name. */
    static const struct {
        const char *text, *message;
    } hostile[] = {
        {"cycles,instructions,branch-misses\n100,50,1\n-5,60,2\n130,60,3\n140,70,3\n",
         "h.csv:3: column 'cycles': expected a count (0 or more), found -5, a negative count"},
        {"cycles,instructions,branch-misses\n100,50,1\n120,60,2\n130,60,inf\n140,70,3\n",
         "h.csv:4: column 'branch-misses': expected a count (0 or more), found inf"},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
        pms_table *h;
        assert_int_equal(pms_table_parse(hostile[i].text, strlen(hostile[i].text), "h.csv", NULL, &h), PMS_OK);
        pms_cpistack_options ho = {.train_fraction = 1};
        assert_int_equal(pms_cpistack_compute(h, &ho, &s), PMS_EFORMAT);
        assert_string_equal(pms_strerror(), hostile[i].message);
        assert_null(pms_error_option()); /* dropping would not help: no option to name */
        pms_table_free(h);
    }
    o.drop_missing = true;
    assert_int_equal(pms_cpistack_compute(bad, &o, &s), PMS_OK);
    assert_int_equal(s->nmissing, 1);
    assert_int_equal(s->nrows, 5);
    assert_int_equal(s->ntrain, 5); /* a fraction of 1: every interval fits, in order, none tests */
    assert_int_equal(s->ntest, 0);
    for (size_t i = 0; i < 5; i++) assert_int_equal(s->train[i], i);
    assert_true(isnan(s->test_rmse));
    pms_cpistack_free(s);
    pms_table_free(bad);

    /* every interval dropped (no instructions): named, not a bare "empty table" */
    const char *idle = "cycles,instructions,branch-misses\n100,0,1\n120,0,2\n";
    assert_int_equal(pms_table_parse(idle, strlen(idle), "idle.csv", NULL, &bad), PMS_OK);
    assert_int_equal(pms_cpistack_compute(bad, &o, &s), PMS_EINVAL);
    assert_string_equal(pms_strerror(), "idle.csv: no intervals left to fit: of 2 selected, 2 have no instructions "
                                        "and 0 a missing count");
    pms_table_free(bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stacks_match_r),
        cmocka_unit_test(test_split_and_test_error),
        cmocka_unit_test(test_range_per_interval_normalize),
        cmocka_unit_test(test_bad_tables),
        cmocka_unit_test(test_normalize_on_training_rows),
        cmocka_unit_test(test_blocked_and_runwise_validation),
        cmocka_unit_test(test_not_counted_in_chosen_column),
        cmocka_unit_test(test_near_singular_vifs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
