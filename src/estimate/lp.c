/* LP cycle model (Hattori's paper, B.1): minimise the sum of one-sided residuals with
 * non-negative coefficients, built and solved with GLPK. */
#include "estimate/model.h"
#include "util/error.h"

#include <errno.h>
#include <glpk.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GLPK aborts the process on a name it does not accept, so names are reduced to
 * [A-Za-z0-9_] and kept short. */
#define LP_NAME_MAX 64

static void lp_name(char *buf, const char *prefix, const char *name)
{
    size_t n = (size_t)snprintf(buf, LP_NAME_MAX, "%s%s", prefix, name);
    if (n >= LP_NAME_MAX) n = LP_NAME_MAX - 1;
    for (size_t i = strlen(prefix); i < n; i++) {
        char c = buf[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            buf[i] = '_';
    }
}

/* Columns: 1 = x_I, 2..n+1 = x_i, n+2..n+m+1 = eps_j. Rows j: eps_j + x_I + sum x_i E_ij = c_j. */
static glp_prob *lp_build(const double *cycles, const double *events, size_t m, size_t n,
                          const char *const *names)
{
    glp_prob *P = glp_create_prob();
    glp_set_prob_name(P, "pmuscope_lp_cycles");
    glp_set_obj_name(P, "sum_eps");
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, (int)m);
    glp_add_cols(P, (int)(n + m + 1));
    glp_create_index(P);
    char name[LP_NAME_MAX];

    glp_set_col_name(P, 1, "x_I");
    glp_set_col_bnds(P, 1, GLP_LO, 0.0, 0.0);
    for (size_t i = 0; i < n; i++) {
        int col = (int)i + 2;
        lp_name(name, "x_", names ? names[i] : "");
        if (!names || glp_find_col(P, name) != 0) snprintf(name, sizeof name, "x%zu", i + 1);
        glp_set_col_name(P, col, name);
        glp_set_col_bnds(P, col, GLP_LO, 0.0, 0.0);
    }
    for (size_t j = 0; j < m; j++) {
        int col = (int)(n + j) + 2;
        snprintf(name, sizeof name, "eps_%zu", j + 1);
        glp_set_col_name(P, col, name);
        glp_set_col_bnds(P, col, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(P, col, 1.0);
    }

    int *ind = malloc((n + 3) * sizeof *ind);
    double *val = malloc((n + 3) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        glp_delete_prob(P);
        return NULL;
    }
    for (size_t j = 0; j < m; j++) {
        snprintf(name, sizeof name, "run_%zu", j + 1);
        glp_set_row_name(P, (int)j + 1, name);
        glp_set_row_bnds(P, (int)j + 1, GLP_FX, cycles[j], cycles[j]);
        int len = 0;
        ind[++len] = (int)(n + j) + 2, val[len] = 1.0;
        ind[++len] = 1, val[len] = 1.0;
        for (size_t i = 0; i < n; i++)
            if (events[j * n + i] != 0.0) ind[++len] = (int)i + 2, val[len] = events[j * n + i];
        glp_set_mat_row(P, (int)j + 1, len, ind, val);
    }
    free(ind);
    free(val);
    return P;
}

/* The counters that vary over the runs: a constant counter is a second intercept (with
 * x_I it makes the optimum's split between them arbitrary), so the LP leaves it out. */
typedef struct varying {
    size_t k, *cols;      /* the varying counters */
    size_t *dropped, n_dropped;
    double *events;       /* m x k */
    const char **names;   /* k (NULL entries without names) */
} varying;

static void varying_free(varying *v)
{
    free(v->cols), free(v->dropped), free(v->events), free(v->names);
    memset(v, 0, sizeof *v);
}

static int varying_make(const double *events, size_t m, size_t n, const char *const *names, varying *v)
{
    memset(v, 0, sizeof *v);
    v->cols = malloc((n ? n : 1) * sizeof *v->cols), v->dropped = malloc((n ? n : 1) * sizeof *v->dropped);
    if (!v->cols || !v->dropped) {
        varying_free(v);
        return pms__fail(PMS_ENOMEM, "LP: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        bool constant = true;
        for (size_t j = 1; j < m && constant; j++) constant = events[j * n + i] == events[i];
        if (constant && m > 1) v->dropped[v->n_dropped++] = i;
        else v->cols[v->k++] = i;
    }
    v->events = pms__estimate_columns(events, m, n, v->cols, v->k);
    v->names = pms__estimate_names(names, v->cols, v->k);
    if (!v->events || !v->names) {
        varying_free(v);
        return pms__fail(PMS_ENOMEM, "LP: out of memory");
    }
    return PMS_OK;
}

int pms_lp_write(const double *cycles, const double *events, size_t m, size_t n,
                 const char *const *names, FILE *out)
{
    int rc = pms__estimate_check(cycles, events, m, n, names, 1);
    if (rc < 0) return rc;
    varying v;
    if ((rc = varying_make(events, m, n, names, &v)) < 0) return rc;
    int term = glp_term_out(GLP_OFF); /* GLPK prints progress unless told not to */
    glp_prob *P = lp_build(cycles, v.events, m, v.k, names ? v.names : NULL);
    varying_free(&v);
    if (!P) {
        glp_term_out(term);
        return pms__fail(PMS_ENOMEM, "LP: out of memory building the model");
    }
    /* GLPK writes only to a named file and does not notice a write that failed (a full
     * disk): the model goes to a private temporary file and is copied into out, whose
     * writes the caller can check. */
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/pmuscope-lp-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    int wr = fd < 0 ? -1 : glp_write_lp(P, NULL, tmp);
    glp_delete_prob(P);
    glp_term_out(term);
    FILE *model = fd < 0 ? NULL : fdopen(fd, "r");
    if (fd >= 0) unlink(tmp); /* the open descriptor keeps it readable */
    if (!model) {
        if (fd >= 0) close(fd);
        return pms__fail_errno(PMS_EIO, errno, "cannot make a temporary file for the LP model");
    }
    if (wr != 0) {
        fclose(model);
        return pms__fail(PMS_EIO, "GLPK could not write the LP model");
    }
    char buf[8192];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, model)) > 0 && fwrite(buf, 1, got, out) == got) {}
    int read_failed = ferror(model);
    fclose(model);
    if (read_failed) return pms__fail(PMS_EIO, "cannot read back the LP model");
    errno = 0;
    if (fflush(out) != 0 || ferror(out))
        return errno ? pms__fail_errno(PMS_EIO, errno, "cannot write the LP model") : pms__fail(PMS_EIO, "cannot write the LP model");
    return PMS_OK;
}

void pms_lp_fit_free(pms_lp_fit *f)
{
    if (!f) return;
    pms_cycle_model_free(&f->model);
    free(f->dropped);
    free(f->eps);
    free(f->tight);
    memset(f, 0, sizeof *f);
}

/* A bound on the simplex iterations of each attempt, far above what these LPs need
 * (a few per run): the 600 s fuzz run once found a table on which GLPK's simplex ran
 * for over 20 minutes. Settable for the tests of the bound. */
static int lp_iteration_limit = PMS__LP_ITERATION_LIMIT;

void pms__lp_set_iteration_limit(int limit)
{
    lp_iteration_limit = limit > 0 ? limit : PMS__LP_ITERATION_LIMIT;
}

/* PMS_OK at an optimum. The dual simplex from the standard basis first: the primal
 * simplex stalls on degenerate vertices of these LPs (counts spanning ten orders of
 * magnitude: tests/fixtures/estimate/lp_stall_runs.csv, a resample of the ARM runs
 * table, keeps glpsol's primal simplex busy for more than 10 minutes under every
 * pricing and basis option, while the dual simplex solves it in 26 iterations); where
 * the dual reaches the iteration limit, the primal from an advanced basis, under the
 * same limit. */
static int lp_solve(glp_prob *P, size_t m, size_t n)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.it_lim = lp_iteration_limit;
    glp_scale_prob(P, GLP_SF_AUTO);
    glp_std_basis(P);
    parm.meth = GLP_DUALP;
    /* glp_exact is not used to polish: GLPK's rational conversion of large
     * counts (1e9 and up) is not exact, and its answer violated rows by 1e-10. */
    int r = glp_simplex(P, &parm);
    if (r == GLP_EITLIM) {
        glp_adv_basis(P, 0);
        parm.meth = GLP_PRIMAL;
        r = glp_simplex(P, &parm);
    }
    if (r == GLP_EITLIM)
        return pms__fail(PMS_ENUMERIC, "LP: GLPK's simplex (dual, then primal) reached its limit of %d iterations "
                                       "without an optimum for %zu runs and %zu counters", lp_iteration_limit, m, n);
    if (r != 0 || glp_get_status(P) != GLP_OPT)
        return pms__fail(PMS_ENUMERIC, "LP: GLPK found no optimal solution for %zu runs and %zu counters", m, n);
    return PMS_OK;
}

int pms_lp_fit_runs(const double *cycles, const double *events, size_t m, size_t n, pms_lp_fit *out)
{
    memset(out, 0, sizeof *out);
    int rc = pms__estimate_check(cycles, events, m, n, NULL, 1);
    if (rc < 0) return rc;
    varying v;
    if ((rc = varying_make(events, m, n, NULL, &v)) < 0) return rc;
    int term = glp_term_out(GLP_OFF);
    glp_prob *P = lp_build(cycles, v.events, m, v.k, NULL);
    if (!P) {
        glp_term_out(term);
        varying_free(&v);
        return pms__fail(PMS_ENOMEM, "LP: out of memory building the model");
    }
    if ((rc = lp_solve(P, m, v.k)) != PMS_OK) {
        glp_delete_prob(P);
        glp_term_out(term);
        varying_free(&v);
        return rc;
    }
    rc = pms__cycle_model_alloc(&out->model, n);
    out->eps = calloc(m ? m : 1, sizeof *out->eps);
    out->tight = calloc(m ? m : 1, sizeof *out->tight);
    if (rc < 0 || !out->eps || !out->tight) {
        glp_delete_prob(P);
        glp_term_out(term);
        varying_free(&v);
        pms_lp_fit_free(out);
        return pms__fail(PMS_ENOMEM, "LP: out of memory");
    }
    out->dropped = v.dropped, out->n_dropped = v.n_dropped, v.dropped = NULL;
    out->n_runs = m;
    /* the simplex answers within its feasibility tolerance (1e-7, relative after
     * scaling): a coefficient whose largest contribution is below that share of
     * the largest cycles is 0 (never a -1e-17 or a 1e-4 that moves no run by a
     * cycle), and the errors and their sum are those of the model as reported,
     * a rounding below 0 being 0 */
    double cmax = 0;
    for (size_t j = 0; j < m; j++) cmax = fmax(cmax, cycles[j]);
    double tol = 1e-7 * cmax;
    out->model.intercept = glp_get_col_prim(P, 1);
    if (out->model.intercept <= tol) out->model.intercept = 0.0;
    for (size_t a = 0; a < v.k; a++) {
        size_t i = v.cols[a];
        double x = glp_get_col_prim(P, (int)a + 2), emax = 0;
        for (size_t j = 0; j < m; j++) emax = fmax(emax, fabs(events[j * n + i]));
        if (x * emax <= tol) x = 0.0;
        out->model.coef[i] = x > 0 ? x : 0.0;
        out->model.used[i] = x > 0;
        out->model.n_used += x > 0;
    }
    out->objective = 0;
    for (size_t j = 0; j < m; j++) {
        int col = (int)(v.k + j) + 2;
        double e = cycles[j] - pms_cycle_model_predict(&out->model, events + j * n);
        out->eps[j] = e > 0 ? e : 0.0;
        out->objective += out->eps[j];
        out->tight[j] = glp_get_col_stat(P, col) != GLP_BS || out->eps[j] <= 1e-9 * cycles[j];
        out->n_tight += out->tight[j];
    }
    glp_delete_prob(P);
    glp_term_out(term);
    varying_free(&v);
    return PMS_OK;
}
