/* The stats module against R: lm/summary.lm, cor, VIF and nnls on fixtures.
 * Each fixture is checked against the golden file R wrote (tests/fixtures/stats/
 * *.golden, made by r_reference.R) and, when Rscript is installed, against R's
 * numbers computed live by the same script. */
#include "test_support.h"
#include "ref_values.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"
#include "pmuscope/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loads a fixture: response in column 0, regressors after. */
struct data {
    pms_table *t;
    double *x, *y;
    size_t n, p;
    const char *names[16];
};

static void data_load(struct data *d, const char *fixture)
{
    assert_int_equal(pms_table_read(pms_test_fixture(fixture), NULL, &d->t), PMS_OK);
    d->n = pms_table_rows(d->t);
    d->p = pms_table_cols(d->t) - 1;
    d->x = malloc(d->n * d->p * sizeof *d->x);
    d->y = malloc(d->n * sizeof *d->y);
    const double *col;
    assert_int_equal(pms_table_numeric(d->t, 0, false, &col), PMS_OK);
    memcpy(d->y, col, d->n * sizeof *d->y);
    for (size_t j = 0; j < d->p; j++) {
        assert_int_equal(pms_table_numeric(d->t, j + 1, false, &col), PMS_OK);
        for (size_t i = 0; i < d->n; i++) d->x[i * d->p + j] = col[i];
        d->names[j] = pms_table_col_name(d->t, j + 1);
    }
}

static void data_free(struct data *d)
{
    pms_table_free(d->t);
    free(d->x);
    free(d->y);
}

/* p values: 1e-10 relative down to 1e-300; below that both must be below 1e-300. */
static void check_p(double got, double want)
{
    if (want < 1e-300) {
        if (!(got < 1e-300)) fail_msg("p value %.17g where R has %.17g", got, want);
        return;
    }
    assert_close(got, want, 1e-10);
}

/* A p value of the fit against R's: the distribution function on R's statistic
 * must give R's p to 1e-10; the fit's own p may differ from R's by no more than
 * that plus what the difference of the statistics (~1e-12) explains, which
 * grows with df for small p. p_of(stat) is the distribution function. */
static void check_fit_p(double got, double stat, double r_stat, double r_p, double (*p_of)(double, const double *),
                        const double *df)
{
    check_p(p_of(r_stat, df), r_p);
    if (r_p < 1e-300) return check_p(got, r_p);
    double moved = fabs(p_of(stat, df) / p_of(r_stat, df) - 1);
    assert_close(got, r_p, 1e-10 + 1.01 * moved);
}

static double t_p(double t, const double *df) { return pms_t_p_value(t, df[0]); }
static double f_p(double f, const double *df) { return pms_f_p_value(f, df[0], df[1]); }

static void check_lm_against(const struct data *d, const struct ref *r)
{
    pms_lm *m;
    assert_int_equal(pms_lm_fit(d->x, d->n, d->p, d->y, d->names, NULL, &m), PMS_OK);
    char key[160];
    for (size_t k = 0; k < m->ncoef; k++) {
        snprintf(key, sizeof key, "estimate:%s", m->names[k]);
        assert_close(m->coef[k], ref_get(r, key), 1e-9);
        snprintf(key, sizeof key, "std_error:%s", m->names[k]);
        assert_close(m->std_error[k], ref_get(r, key), 1e-9);
        snprintf(key, sizeof key, "t_value:%s", m->names[k]);
        assert_close(m->t_value[k], ref_get(r, key), 1e-9);
        double rdf = (double)m->df_residual;
        snprintf(key, sizeof key, "t_value:%s", m->names[k]);
        double r_t = ref_get(r, key);
        snprintf(key, sizeof key, "p_value:%s", m->names[k]);
        check_fit_p(m->p_value[k], m->t_value[k], r_t, ref_get(r, key), t_p, &rdf);
    }
    double rq[5];
    assert_int_equal(pms_lm_resid_quantiles(m, rq), PMS_OK);
    for (int q = 0; q < 5; q++) {
        snprintf(key, sizeof key, "resid_quantile:%d", q + 1);
        /* a residual near 0 (the median) is known only to the precision of the
         * fit, so relative to the residual standard error */
        double want = ref_get(r, key), scale = fmax(fabs(want), ref_get(r, "sigma"));
        if (fabs(rq[q] - want) > 1e-8 * scale) fail_msg("residual quantile %d: %.17g, R %.17g", q + 1, rq[q], want);
    }
    assert_close(m->sigma, ref_get(r, "sigma"), 1e-9);
    assert_int_equal(m->df_residual, (size_t)ref_get(r, "df_residual"));
    assert_close(m->r_squared, ref_get(r, "r_squared"), 1e-9);
    assert_close(m->adj_r_squared, ref_get(r, "adj_r_squared"), 1e-9);
    assert_close(m->f_statistic, ref_get(r, "f_statistic"), 1e-9);
    assert_close(m->f_df1, ref_get(r, "f_df1"), 0);
    assert_close(m->f_df2, ref_get(r, "f_df2"), 0);
    double fdf[2] = {m->f_df1, m->f_df2};
    check_fit_p(m->f_p_value, m->f_statistic, ref_get(r, "f_statistic"), ref_get(r, "f_p_value"), f_p, fdf);
    pms_lm_free(m);

    double cor[256], vif[16];
    assert_int_equal(pms_correlation(d->x, d->n, d->p, d->names, cor), PMS_OK);
    for (size_t a = 0; a < d->p; a++)
        for (size_t b = 0; b < d->p; b++) {
            snprintf(key, sizeof key, "cor:%zu:%zu", a + 1, b + 1);
            assert_close(cor[a * d->p + b], ref_get(r, key), 1e-12);
        }
    assert_int_equal(pms_vif(d->x, d->n, d->p, d->names, vif), PMS_OK);
    for (size_t a = 0; a < d->p; a++) {
        snprintf(key, sizeof key, "vif:%s", d->names[a]);
        assert_close(vif[a], ref_get(r, key), 1e-9);
    }
}

static void check_nnls_against(const struct data *d, const struct ref *r)
{
    pms_lm *m;
    pms_lm_options o = {.method = PMS_LM_NNLS};
    assert_int_equal(pms_lm_fit(d->x, d->n, d->p, d->y, d->names, &o, &m), PMS_OK);
    char key[160];
    for (size_t k = 0; k < m->ncoef; k++) {
        snprintf(key, sizeof key, "estimate:%s", m->names[k]);
        double want = ref_get(r, key);
        if (want == 0)
            assert_true(m->coef[k] == 0 && m->at_bound[k]);
        else
            assert_close(m->coef[k], want, 1e-9);
        assert_true(m->coef[k] >= 0);
    }
    assert_close(sqrt(m->rss), ref_get(r, "rnorm"), 1e-9);
    pms_lm_free(m);
}

/* what: "lm" or "nnls". Golden always; live R too when installed. */
static void check_fixture(const char *fixture, const char *what)
{
    struct data d = {0};
    char name[256];
    snprintf(name, sizeof name, "stats/%s.csv", fixture);
    data_load(&d, name);
    struct ref *r = calloc(1, sizeof *r);
    char golden[300];
    snprintf(golden, sizeof golden, "stats/%s.%s.golden", fixture, what);
    ref_load(r, pms_test_fixture(golden));
    if (strcmp(what, "lm") == 0)
        check_lm_against(&d, r);
    else
        check_nnls_against(&d, r);
    if (have_rscript()) {
        const char *out = pms_test_write_temp(".ref", "", 0);
        char script[1024];
        snprintf(script, sizeof script, "%s", pms_test_fixture("stats/r_reference.R"));
        assert_int_equal(pms_test_system("Rscript '%s' %s '%s' '%s'", script, what, pms_test_fixture(name), out), 0);
        ref_load(r, out);
        if (strcmp(what, "lm") == 0)
            check_lm_against(&d, r);
        else
            check_nnls_against(&d, r);
        remove(out);
    } else {
        print_message("note: Rscript not installed, checked against the golden files only\n");
    }
    free(r);
    data_free(&d);
}

static void test_lm_mtcars(void **s) { (void)s; check_fixture("mtcars", "lm"); }
static void test_lm_synth(void **s) { (void)s; check_fixture("synth", "lm"); }
static void test_lm_collinear(void **s) { (void)s; check_fixture("nnls", "lm"); }
static void test_nnls_clamps(void **s) { (void)s; check_fixture("nnls", "nnls"); }
static void test_nnls_synth(void **s) { (void)s; check_fixture("synth", "nnls"); }
/* t and F p values where gsl_cdf_tdist_Q's large-df approximation was off by up to 1e-6 */
static void test_pvalues_df50(void **s) { (void)s; check_fixture("pvalues_df50", "lm"); }
static void test_pvalues_df137(void **s) { (void)s; check_fixture("pvalues_df137", "lm"); }
static void test_pvalues_df400(void **s) { (void)s; check_fixture("pvalues_df400", "lm"); }
static void test_pvalues_df5000(void **s) { (void)s; check_fixture("pvalues_df5000", "lm"); }

/* An exact linear relation: R's summary.lm warns "essentially perfect fit", and
 * so must the fit and its printed summary, with t values that keep their column. */
static void test_perfect_fit_warns_as_r(void **s)
{
    (void)s;
    enum { N = 30 };
    double x[N * 2], y[N];
    char csv[4096] = "y,a,b\n";
    for (int i = 0; i < N; i++) {
        x[2 * i] = i * 1.5 + (i % 4), x[2 * i + 1] = (i * 7) % 11;
        y[i] = 3 + 2 * x[2 * i] - 0.5 * x[2 * i + 1];
        char line[96];
        snprintf(line, sizeof line, "%.17g,%.17g,%.17g\n", y[i], x[2 * i], x[2 * i + 1]);
        strcat(csv, line);
    }
    pms_lm *m;
    const char *names[] = {"a", "b"};
    assert_int_equal(pms_lm_fit(x, N, 2, y, names, NULL, &m), PMS_OK);
    assert_true(m->perfect_fit);
    const char *out = pms_test_write_temp(".txt", "", 0);
    FILE *f = fopen(out, "w");
    assert_int_equal(pms_lm_write_summary(m, "y", f), PMS_OK);
    fclose(f);
    char text[4096] = {0};
    f = fopen(out, "r");
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    assert_non_null(strstr(text, "essentially perfect fit: summary may be unreliable"));
    for (const char *line = strstr(text, "(Intercept)"); line && *line != '-'; line = strchr(line, '\n') + 1)
        assert_true(strcspn(line, "\n") < 80); /* no 2881851800008359.500 pushing the columns */
    remove(out);
    pms_lm_free(m);
    if (have_rscript()) {
        const char *data = pms_test_write_temp(".csv", csv, strlen(csv));
        assert_int_equal(pms_test_system("Rscript -e 'd <- read.csv(\"%s\"); withCallingHandlers(summary(lm(y ~ a + b, d)), "
                                         "warning = function(w) if (grepl(\"essentially perfect\", conditionMessage(w))) quit(status = 3))'",
                                         data), 3);
        remove(data);
    }
    /* a fit with noise is not flagged (R does not warn on synth.csv either) */
    struct data d = {0};
    data_load(&d, "stats/synth.csv");
    assert_int_equal(pms_lm_fit(d.x, d.n, d.p, d.y, d.names, NULL, &m), PMS_OK);
    assert_false(m->perfect_fit);
    pms_lm_free(m);
    data_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lm_mtcars),   cmocka_unit_test(test_lm_synth),  cmocka_unit_test(test_lm_collinear),
        cmocka_unit_test(test_nnls_clamps), cmocka_unit_test(test_nnls_synth),
        cmocka_unit_test(test_pvalues_df50), cmocka_unit_test(test_pvalues_df137),
        cmocka_unit_test(test_pvalues_df400), cmocka_unit_test(test_pvalues_df5000),
        cmocka_unit_test(test_perfect_fit_warns_as_r),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
