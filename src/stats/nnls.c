/* Non-negative least squares, the active-set method of Lawson and Hanson
 * ("Solving Least Squares Problems", 1974, ch. 23; also what R's nnls package
 * runs). No library we depend on has it. The unconstrained subproblems are
 * solved with GSL's QR. */
#include "pmuscope/stats.h"
#include "stats/design.h"
#include "util/error.h"

#include <float.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct nnls_work {
    const double *a, *b;
    size_t m, n;
    gsl_matrix *sub;   /* m x n, its first |P| columns used */
    gsl_vector *rhs;   /* m */
    size_t *pidx;      /* indices of the passive set, in order */
};

/* Least squares on the passive columns: z[pidx[c]] for c < np, zero elsewhere.
 * Returns false when the passive columns are numerically dependent. */
static bool solve_passive(struct nnls_work *w, size_t np, double *z)
{
    gsl_matrix_view s = gsl_matrix_submatrix(w->sub, 0, 0, w->m, np);
    for (size_t i = 0; i < w->m; i++)
        for (size_t c = 0; c < np; c++) gsl_matrix_set(&s.matrix, i, c, w->a[i * w->n + w->pidx[c]]);
    gsl_matrix *t = gsl_matrix_alloc(np, np);
    gsl_vector *work = gsl_vector_alloc(np);
    bool ok = t && work;
    if (ok) {
        double norms[np];
        for (size_t c = 0; c < np; c++) {
            gsl_vector_view col = gsl_matrix_column(&s.matrix, c);
            norms[c] = gsl_blas_dnrm2(&col.vector);
        }
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        ok = gsl_linalg_QR_decomp_r(&s.matrix, t) == 0;
        gsl_set_error_handler(old);
        for (size_t c = 0; ok && c < np; c++)
            ok = fabs(gsl_matrix_get(&s.matrix, c, c)) > 1e3 * DBL_EPSILON * norms[c] * sqrt((double)w->m);
        if (ok) {
            memcpy(w->rhs->data, w->b, w->m * sizeof(double));
            gsl_linalg_QR_QTvec_r(&s.matrix, t, w->rhs, work);
            gsl_vector_view head = gsl_vector_subvector(w->rhs, 0, np);
            gsl_matrix_const_view r = gsl_matrix_const_submatrix(&s.matrix, 0, 0, np, np);
            gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &r.matrix, &head.vector);
            memset(z, 0, w->n * sizeof *z);
            for (size_t c = 0; c < np; c++) z[w->pidx[c]] = gsl_vector_get(&head.vector, c);
        }
    }
    gsl_matrix_free(t);
    gsl_vector_free(work);
    return ok;
}

/* w = A'(b - A x); returns the residual norm. */
static double gradient(const struct nnls_work *w, const double *x, double *grad)
{
    memset(grad, 0, w->n * sizeof *grad);
    double rr = 0;
    for (size_t i = 0; i < w->m; i++) {
        const double *row = w->a + i * w->n;
        double r = w->b[i];
        for (size_t j = 0; j < w->n; j++) r -= row[j] * x[j];
        rr += r * r;
        for (size_t j = 0; j < w->n; j++) grad[j] += row[j] * r;
    }
    return sqrt(rr);
}

int pms_nnls(const double *a, size_t m, size_t n, const double *b, size_t max_iter, double *x, double *rnorm)
{
    if (m == 0 || n == 0) return pms__fail(PMS_EINVAL, "nnls: empty problem (%zu x %zu)", m, n);
    int rc = pms__stats_check_finite(a, m, n, b, NULL);
    if (rc < 0) return pms__fail_context(rc, "nnls");
    if (max_iter == 0) max_iter = 3 * n;
    struct nnls_work w = {.a = a, .b = b, .m = m, .n = n};
    w.sub = gsl_matrix_alloc(m, n);
    w.rhs = gsl_vector_alloc(m);
    w.pidx = malloc(n * sizeof *w.pidx);
    double *grad = malloc(n * sizeof *grad), *z = malloc(n * sizeof *z), *tol = malloc(n * sizeof *tol);
    bool *passive = calloc(n, sizeof *passive), *skip = calloc(n, sizeof *skip);
    if (!w.sub || !w.rhs || !w.pidx || !grad || !z || !tol || !passive || !skip) {
        rc = pms__fail(PMS_ENOMEM, "nnls: out of memory (%zu x %zu)", m, n);
        goto done;
    }
    memset(x, 0, n * sizeof *x);
    double bnorm = 0;
    for (size_t i = 0; i < m; i++) bnorm = fmax(bnorm, fabs(b[i]));
    /* the optimality test of column j is scaled by that column's own 1-norm: counters of
     * 1e10 beside an intercept column of ones would otherwise hide the intercept's gradient
     * (1e5 on the ARM runs) below a threshold made of the largest column (4e6) */
    for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++) s += fabs(a[i * n + j]);
        tol[j] = 10 * DBL_EPSILON * (double)(m > n ? m : n) * s * fmax(bnorm, 1.0);
    }
    size_t np = 0, iter = 0, outer = 0;
    double res = gradient(&w, x, grad);
    for (;;) {
        /* the most promising variable held at zero */
        size_t t = n;
        for (size_t j = 0; j < n; j++)
            if (!passive[j] && !skip[j] && grad[j] > tol[j] && (t == n || grad[j] > grad[t])) t = j;
        if (t == n) break;
        w.pidx[np] = t;
        if (!solve_passive(&w, np + 1, z) || z[t] <= 0) {
            skip[t] = true; /* dependent on the passive set, or no descent: as L-H, set w_t = 0 */
            continue;
        }
        passive[t] = true;
        np++;
        /* inner loop: step back until every passive coefficient is positive */
        for (;;) {
            bool feasible = true;
            for (size_t c = 0; c < np; c++) feasible &= z[w.pidx[c]] > 0;
            if (feasible) break;
            if (++iter > max_iter) {
                rc = pms__fail(PMS_ENUMERIC, "nnls: no convergence after %zu iterations", max_iter);
                goto done;
            }
            double alpha = 1.0;
            size_t hit = n;
            for (size_t c = 0; c < np; c++) {
                size_t j = w.pidx[c];
                if (z[j] <= 0) {
                    double s = x[j] / (x[j] - z[j]);
                    if (s < alpha || hit == n) alpha = s, hit = j;
                }
            }
            for (size_t c = 0; c < np; c++) {
                size_t j = w.pidx[c];
                x[j] += alpha * (z[j] - x[j]);
            }
            x[hit] = 0;
            size_t keep = 0;
            for (size_t c = 0; c < np; c++) {
                size_t j = w.pidx[c];
                if (x[j] <= 0) {
                    x[j] = 0;
                    passive[j] = false;
                } else {
                    w.pidx[keep++] = j;
                }
            }
            np = keep;
            if (np == 0 || !solve_passive(&w, np, z)) {
                memset(z, 0, n * sizeof *z);
                break;
            }
        }
        memcpy(x, z, n * sizeof *x);
        memset(skip, 0, n * sizeof *skip);
        res = gradient(&w, x, grad);
        if (++outer > 10 * max_iter + 10) { /* a guard against cycling through round-off */
            rc = pms__fail(PMS_ENUMERIC, "nnls: no convergence after %zu steps", outer);
            goto done;
        }
    }
    if (rnorm) *rnorm = res;
done:
    free(tol);
    gsl_matrix_free(w.sub);
    gsl_vector_free(w.rhs);
    free(w.pidx);
    free(grad);
    free(z);
    free(passive);
    free(skip);
    return rc;
}
