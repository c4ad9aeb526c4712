/* The lasso as R's glmnet fits it (pmuscope/stats.h): glmnet's standardisation and lambda
 * path, each solution by the active-set method from the previous one, and cv.glmnet's
 * cross-validation. No library we depend on has the lasso. */
#include "pmuscope/stats.h"
#include "stats/design.h"
#include "util/error.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LASSO_NLAMBDA = 100, LASSO_FOLDS = 10 };

/* The standardised problem: the k varying columns of x centred and divided by their
 * standard deviation with divisor n (column-major, for the coordinate updates), y centred. */
typedef struct lasso_design {
    size_t n, p, k;
    size_t *cols;     /* k: the column of x of each column of z */
    double *mean, *sd; /* p */
    double *z;        /* k columns of n */
    double ymean, *yc; /* n */
} lasso_design;

static void design_free(lasso_design *d)
{
    free(d->cols), free(d->mean), free(d->sd), free(d->z), free(d->yc);
    memset(d, 0, sizeof *d);
}

static int design_make(const double *x, size_t n, size_t p, const double *y, lasso_design *d)
{
    memset(d, 0, sizeof *d);
    d->n = n, d->p = p;
    d->cols = malloc((p ? p : 1) * sizeof *d->cols);
    d->mean = calloc(p ? p : 1, sizeof *d->mean), d->sd = calloc(p ? p : 1, sizeof *d->sd);
    d->z = malloc((n * p > 0 ? n * p : 1) * sizeof *d->z);
    d->yc = malloc(n * sizeof *d->yc);
    if (!d->cols || !d->mean || !d->sd || !d->z || !d->yc) return pms__fail(PMS_ENOMEM, "lasso: out of memory");
    for (size_t i = 0; i < n; i++) d->ymean += y[i] / (double)n;
    for (size_t i = 0; i < n; i++) d->yc[i] = y[i] - d->ymean;
    for (size_t j = 0; j < p; j++) {
        double m = 0, ss = 0;
        for (size_t i = 0; i < n; i++) m += x[i * p + j] / (double)n;
        for (size_t i = 0; i < n; i++) ss += (x[i * p + j] - m) * (x[i * p + j] - m);
        d->mean[j] = m, d->sd[j] = sqrt(ss / (double)n);
        bool constant = true; /* by its values: the rounding of the mean leaves a constant column an sd of 1e-16 */
        for (size_t i = 1; i < n && constant; i++) constant = x[i * p + j] == x[j];
        if (constant) continue; /* glmnet leaves it out (coefficient 0) */
        double *zc = d->z + d->k * n;
        for (size_t i = 0; i < n; i++) zc[i] = (x[i * p + j] - m) / d->sd[j];
        d->cols[d->k++] = j;
    }
    if (d->k == 0) return pms__fail(PMS_ENUMERIC, "lasso: every one of the %zu columns is constant over the %zu rows", p, n);
    return PMS_OK;
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* The minimiser over the columns act[0..na) with the signs sgn of (1 / 2n)||yc - Z_A g||^2 +
 * lambda sgn'g: Z_A'Z_A g = Z_A'yc - n lambda sgn, by the QR of Z_A (the Gram matrix of
 * nearly collinear counters loses twice the digits). False when Z_A is numerically
 * rank deficient. */
static bool solve_active(const lasso_design *d, double lambda, const size_t *act, const double *sgn, size_t na,
                         double *sol)
{
    size_t n = d->n;
    if (na == 0) return true;
    if (na > n) return false;
    gsl_matrix *qr = gsl_matrix_alloc(n, na), *t = gsl_matrix_alloc(na, na);
    gsl_vector *rhs = gsl_vector_alloc(na);
    bool ok = qr && t && rhs;
    for (size_t a = 0; ok && a < na; a++) {
        const double *zj = d->z + act[a] * n;
        for (size_t i = 0; i < n; i++) gsl_matrix_set(qr, i, a, zj[i]);
        gsl_vector_set(rhs, a, dot(zj, d->yc, n) - (double)n * lambda * sgn[a]);
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (ok) ok = gsl_linalg_QR_decomp_r(qr, t) == GSL_SUCCESS;
    /* a column whose part orthogonal to the others is below 1e-10 of its norm (sqrt(n)):
     * nothing can be solved for it */
    for (size_t a = 0; ok && a < na; a++) ok = fabs(gsl_matrix_get(qr, a, a)) > 1e-10 * sqrt((double)n);
    if (ok) { /* R'R g = rhs: R'w = rhs, then R g = w */
        gsl_matrix_const_view rr = gsl_matrix_const_submatrix(qr, 0, 0, na, na);
        ok = gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &rr.matrix, rhs) == GSL_SUCCESS &&
             gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &rr.matrix, rhs) == GSL_SUCCESS;
    }
    gsl_set_error_handler(old);
    for (size_t a = 0; ok && a < na; a++) ok = isfinite(sol[a] = gsl_vector_get(rhs, a));
    if (qr) gsl_matrix_free(qr);
    if (t) gsl_matrix_free(t);
    if (rhs) gsl_vector_free(rhs);
    return ok;
}

/* r = yc - Z g */
static void residual(const lasso_design *d, const double *g, double *r)
{
    memcpy(r, d->yc, d->n * sizeof *r);
    for (size_t j = 0; j < d->k; j++)
        for (size_t i = 0; g[j] != 0 && i < d->n; i++) r[i] -= d->z[j * d->n + i] * g[j];
}

/* The solution at lambda from the warm start g (the previous lambda's) by the active-set
 * method for the lasso at a fixed lambda (Osborne, Presnell and Turlach, "On the LASSO and
 * its dual", 2000): on the active set with its signs, the exact minimiser; where a sign
 * would flip, only as far as the first coefficient reaching 0, which leaves; then the
 * inactive column that most violates |z_j'r| / n <= lambda enters with the sign of z_j'r;
 * until none does. Exact up to rounding, where coordinate descent crawls along the valley
 * of counters correlated at 0.9999999 (the ARM runs) for millions of sweeps. */
static int solve_at(const lasso_design *d, double lambda, double *g, double *r)
{
    size_t k = d->k, n = d->n, act[k], na = 0;
    double sgn[k], sol[k];
    for (size_t j = 0; j < k; j++)
        if (g[j] != 0) sgn[na] = g[j] > 0 ? 1 : -1, act[na++] = j;
    for (size_t iter = 0; iter < 100 + 20 * k; iter++) {
        if (!solve_active(d, lambda, act, sgn, na, sol))
            return pms__fail(PMS_ENUMERIC, "lasso: at lambda %g the %zu active columns are collinear", lambda, na);
        /* the first coefficient to reach 0 on the way from g to sol, if one does */
        double step = 1;
        size_t leaves = na;
        for (size_t a = 0; a < na; a++) {
            double now = g[act[a]];
            if (sol[a] * sgn[a] > 0) continue;
            double t = now / (now - sol[a]);
            if (t < step) step = t, leaves = a;
        }
        for (size_t a = 0; a < na; a++) g[act[a]] += step * (sol[a] - g[act[a]]);
        if (leaves < na) {
            g[act[leaves]] = 0;
            memmove(act + leaves, act + leaves + 1, (na - leaves - 1) * sizeof *act);
            memmove(sgn + leaves, sgn + leaves + 1, (na - leaves - 1) * sizeof *sgn);
            na--;
            continue;
        }
        residual(d, g, r);
        size_t enters = k;
        double worst = lambda * (1 + 1e-10);
        for (size_t j = 0; j < k; j++) {
            double c = fabs(dot(d->z + j * n, r, n)) / (double)n;
            if (g[j] == 0 && c > worst) worst = c, enters = j;
        }
        if (enters == k) return PMS_OK;
        sgn[na] = dot(d->z + enters * n, r, n) > 0 ? 1 : -1;
        act[na++] = enters;
    }
    return pms__fail(PMS_ENUMERIC, "lasso: the active set did not settle at lambda %g", lambda);
}

void pms_lasso_free(pms_lasso *l)
{
    if (!l) return;
    free(l->lambda), free(l->coef), free(l->nonzero), free(l->foldid), free(l->cvm), free(l->cvsd);
    free(l);
}

/* The path of lambdas: given, or glmnet's from lambda_max down to min_ratio lambda_max. */
static int make_path(const lasso_design *d, const pms_lasso_options *o, pms_lasso *l)
{
    l->nlambda = o && o->nlambda ? o->nlambda : LASSO_NLAMBDA;
    if (!(l->lambda = malloc(l->nlambda * sizeof *l->lambda))) return pms__fail(PMS_ENOMEM, "lasso: out of memory");
    if (o && o->lambda) {
        for (size_t m = 0; m < l->nlambda; m++) {
            l->lambda[m] = o->lambda[m];
            if (!(l->lambda[m] > 0) || !isfinite(l->lambda[m]) || (m && !(l->lambda[m] < l->lambda[m - 1])))
                return pms__fail(PMS_EINVAL, "lasso: lambda %zu is %g: expected decreasing positive values", m + 1,
                                l->lambda[m]);
        }
        return PMS_OK;
    }
    double lmax = 0;
    for (size_t j = 0; j < d->k; j++) lmax = fmax(lmax, fabs(dot(d->z + j * d->n, d->yc, d->n)) / (double)d->n);
    if (!(lmax > 0)) return pms__fail(PMS_ENUMERIC, "lasso: y is constant over the %zu rows: no path to fit", d->n);
    double ratio = o && o->min_ratio > 0 ? o->min_ratio : d->n < d->p ? 0.01 : 1e-4;
    for (size_t m = 0; m < l->nlambda; m++)
        l->lambda[m] = l->nlambda == 1 ? lmax : lmax * exp(log(ratio) * (double)m / (double)(l->nlambda - 1));
    return PMS_OK;
}

int pms_lasso_path(const double *x, size_t n, size_t p, const double *y, const pms_lasso_options *opt, pms_lasso **out)
{
    *out = NULL;
    if (n < 2) return pms__fail(PMS_EINVAL, "lasso: %zu row%s: at least 2 needed", n, n == 1 ? "" : "s");
    int rc = pms__stats_check_finite(x, n, p, y, NULL);
    if (rc < 0) return rc;
    lasso_design d;
    pms_lasso *l = calloc(1, sizeof *l);
    rc = l ? design_make(x, n, p, y, &d) : pms__fail(PMS_ENOMEM, "lasso: out of memory");
    if (rc == PMS_OK) rc = make_path(&d, opt, l);
    double *g = rc == PMS_OK ? calloc(d.k, sizeof *g) : NULL, *r = rc == PMS_OK ? malloc(n * sizeof *r) : NULL;
    if (rc == PMS_OK) {
        l->n = n, l->p = p;
        l->coef = calloc(l->nlambda * (p + 1), sizeof *l->coef);
        l->nonzero = calloc(l->nlambda, sizeof *l->nonzero);
        if (!g || !r || !l->coef || !l->nonzero) rc = pms__fail(PMS_ENOMEM, "lasso: out of memory");
    }
    if (rc == PMS_OK) memcpy(r, d.yc, n * sizeof *r);
    for (size_t m = 0; rc == PMS_OK && m < l->nlambda; m++) {
        rc = solve_at(&d, l->lambda[m], g, r); /* warm start: the previous lambda's solution */
        double *c = l->coef + m * (p + 1);
        c[0] = d.ymean;
        for (size_t a = 0; rc == PMS_OK && a < d.k; a++) {
            size_t j = d.cols[a];
            c[1 + j] = g[a] / d.sd[j];
            c[0] -= c[1 + j] * d.mean[j];
            l->nonzero[m] += g[a] != 0;
        }
    }
    free(g), free(r);
    if (l) design_free(&d);
    if (rc < 0) {
        pms_lasso_free(l);
        return rc;
    }
    *out = l;
    return PMS_OK;
}

/* Squared errors cvraw (n x nlambda) of each row predicted by the path fitted without its fold. */
static int fold_errors(const double *x, size_t n, size_t p, const double *y, const pms_lasso *l, double *cvraw)
{
    double *xs = malloc((n * p > 0 ? n * p : 1) * sizeof *xs), *ys = malloc(n * sizeof *ys);
    int rc = xs && ys ? PMS_OK : pms__fail(PMS_ENOMEM, "lasso: out of memory");
    for (size_t f = 1; rc == PMS_OK && f <= l->nfolds; f++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (l->foldid[i] != f) memcpy(xs + m * p, x + i * p, p * sizeof *xs), ys[m++] = y[i];
        pms_lasso_options fo = {.nlambda = l->nlambda, .lambda = l->lambda};
        pms_lasso *fl = NULL;
        if ((rc = pms_lasso_path(xs, m, p, ys, &fo, &fl)) < 0) {
            rc = pms__fail_context(rc, "lasso: cross-validation fold %zu of %zu", f, l->nfolds);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (l->foldid[i] != f) continue;
            for (size_t a = 0; a < l->nlambda; a++) {
                const double *c = fl->coef + a * (p + 1);
                double e = y[i] - c[0] - dot(c + 1, x + i * p, p);
                cvraw[i * l->nlambda + a] = e * e;
            }
        }
        pms_lasso_free(fl);
    }
    free(xs), free(ys);
    return rc;
}

/* cv.glmnet's cvstats and getOptcv.glmnet for type.measure "mse". */
static void cv_stats(pms_lasso *l, const double *cvraw)
{
    size_t n = l->n, nl = l->nlambda, k = l->nfolds;
    l->grouped = (double)n / (double)k >= 3;
    for (size_t a = 0; a < nl; a++) {
        double m = 0, v = 0;
        if (l->grouped) { /* the mean of each fold, weighted by the fold's size */
            double fm[k], fw[k];
            for (size_t f = 0; f < k; f++) fm[f] = fw[f] = 0;
            for (size_t i = 0; i < n; i++) fm[l->foldid[i] - 1] += cvraw[i * nl + a], fw[l->foldid[i] - 1] += 1;
            for (size_t f = 0; f < k; f++) fm[f] /= fw[f], m += fm[f] * fw[f] / (double)n;
            for (size_t f = 0; f < k; f++) v += fw[f] * (fm[f] - m) * (fm[f] - m) / (double)n;
            l->cvsd[a] = sqrt(v / (double)(k - 1));
        } else {
            for (size_t i = 0; i < n; i++) m += cvraw[i * nl + a] / (double)n;
            for (size_t i = 0; i < n; i++) v += (cvraw[i * nl + a] - m) * (cvraw[i * nl + a] - m) / (double)n;
            l->cvsd[a] = sqrt(v / (double)(n - 1));
        }
        l->cvm[a] = m;
    }
    /* lambda.min: the largest lambda of the smallest cvm; lambda.1se: the largest whose cvm is
     * within one cvsd of that (lambda decreases along the path: the first index) */
    size_t imin = 0;
    for (size_t a = 1; a < nl; a++)
        if (l->cvm[a] < l->cvm[imin]) imin = a;
    double limit = l->cvm[imin] + l->cvsd[imin];
    size_t i1se = 0;
    while (i1se < imin && !(l->cvm[i1se] <= limit)) i1se++;
    l->index_min = imin, l->index_1se = i1se;
}

int pms_lasso_cv(const double *x, size_t n, size_t p, const double *y, const pms_lasso_options *opt, pms_lasso **out)
{
    *out = NULL;
    size_t nfolds = opt && opt->nfolds ? opt->nfolds : n < LASSO_FOLDS ? n : LASSO_FOLDS;
    if (n < 3 || nfolds < 3 || nfolds > n)
        return pms__fail(PMS_EINVAL, "lasso: cross-validation of %zu rows in %zu folds: needs 3 folds or more, "
                                    "at most one per row", n, nfolds);
    pms_lasso *l = NULL;
    int rc = pms_lasso_path(x, n, p, y, opt, &l);
    if (rc < 0) return rc;
    l->nfolds = nfolds;
    l->foldid = malloc(n * sizeof *l->foldid);
    l->cvm = malloc(l->nlambda * sizeof *l->cvm), l->cvsd = malloc(l->nlambda * sizeof *l->cvsd);
    double *cvraw = malloc(n * l->nlambda * sizeof *cvraw);
    rc = l->foldid && l->cvm && l->cvsd && cvraw ? PMS_OK : pms__fail(PMS_ENOMEM, "lasso: out of memory");
    if (rc == PMS_OK && opt && opt->foldid) {
        memcpy(l->foldid, opt->foldid, n * sizeof *l->foldid);
        bool seen[nfolds];
        memset(seen, 0, sizeof seen);
        for (size_t i = 0; rc == PMS_OK && i < n; i++)
            if (l->foldid[i] < 1 || l->foldid[i] > nfolds)
                rc = pms__fail(PMS_EINVAL, "lasso: row %zu is in fold %zu: expected 1 to %zu", i + 1, l->foldid[i], nfolds);
            else
                seen[l->foldid[i] - 1] = true;
        for (size_t f = 0; rc == PMS_OK && f < nfolds; f++)
            if (!seen[f]) rc = pms__fail(PMS_EINVAL, "lasso: fold %zu holds no row", f + 1);
    } else if (rc == PMS_OK) {
        rc = pms_folds(n, nfolds, opt ? opt->seed : 0, l->foldid);
    }
    if (rc == PMS_OK) rc = fold_errors(x, n, p, y, l, cvraw);
    if (rc == PMS_OK) cv_stats(l, cvraw);
    free(cvraw);
    if (rc < 0) {
        pms_lasso_free(l);
        return rc;
    }
    *out = l;
    return PMS_OK;
}
