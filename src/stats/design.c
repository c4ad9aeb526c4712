/* Design matrices, their QR, and the detection of aliased (collinear) columns. */
#include "stats/design.h"
#include "pmuscope/stats.h"
#include "util/error.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pms__stats_colname(const char *const *names, size_t j, char *buf, size_t size)
{
    if (names && names[j]) return names[j];
    snprintf(buf, size, "x%zu", j + 1);
    return buf;
}

int pms__stats_check_finite(const double *x, size_t n, size_t p, const double *y, const char *const *names)
{
    char buf[32];
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < p; j++)
            if (!isfinite(x[i * p + j]))
                return pms__fail(PMS_ENUMERIC, "row %zu, column '%s': expected a finite number, found %g", i + 1,
                                pms__stats_colname(names, j, buf, sizeof buf), x[i * p + j]);
        if (y && !isfinite(y[i]))
            return pms__fail(PMS_ENUMERIC, "row %zu of the response: expected a finite number, found %g", i + 1, y[i]);
    }
    return PMS_OK;
}

gsl_matrix *pms__design_matrix(const double *x, size_t n, size_t p, bool intercept)
{
    size_t k = p + (intercept ? 1 : 0);
    gsl_matrix *d = gsl_matrix_alloc(n, k);
    if (!d) return NULL;
    for (size_t i = 0; i < n; i++) {
        double *row = gsl_matrix_ptr(d, i, 0);
        if (intercept) *row++ = 1.0;
        memcpy(row, x + i * p, p * sizeof(double));
    }
    return d;
}

int pms__design_qr(const gsl_matrix *design, gsl_matrix **qr, gsl_matrix **t)
{
    *qr = gsl_matrix_alloc(design->size1, design->size2);
    *t = gsl_matrix_alloc(design->size2, design->size2);
    if (!*qr || !*t) {
        gsl_matrix_free(*qr);
        gsl_matrix_free(*t);
        *qr = *t = NULL;
        return pms__fail(PMS_ENOMEM, "out of memory for a %zu x %zu QR", design->size1, design->size2);
    }
    gsl_matrix_memcpy(*qr, design);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_linalg_QR_decomp_r(*qr, *t);
    gsl_set_error_handler(old);
    if (rc) {
        gsl_matrix_free(*qr);
        gsl_matrix_free(*t);
        *qr = *t = NULL;
        return pms__fail(PMS_ENUMERIC, "QR decomposition failed: %s", gsl_strerror(rc));
    }
    return PMS_OK;
}

static bool column_constant(const double *x, size_t n, size_t p, size_t j)
{
    for (size_t i = 1; i < n; i++)
        if (x[i * p + j] != x[j]) return false;
    return true;
}

int pms_lm_aliased(const double *x, size_t n, size_t p, bool intercept, double tol, size_t *aliased,
                   size_t *naliased)
{
    if (tol <= 0) tol = 1e-7;
    *naliased = 0;
    size_t k0 = intercept ? 1 : 0;
    /* Grow the kept set column by column: column j is aliased when its part
     * orthogonal to the kept columns is at most tol times its norm, as in R's
     * dqrdc2 which moves such columns to the end. Each step is a small QR. */
    size_t *kept = malloc((p + 1) * sizeof *kept), nkept = 0;
    double *sub = malloc(n * (p + 1) * sizeof *sub);
    if (!kept || !sub) {
        free(kept);
        free(sub);
        return pms__fail(PMS_ENOMEM, "out of memory checking the rank");
    }
    int rc = PMS_OK;
    for (size_t j = 0; j < p; j++) {
        size_t m = nkept + 1;
        for (size_t i = 0; i < n; i++) {
            for (size_t a = 0; a < nkept; a++) sub[i * m + a] = x[i * p + kept[a]];
            sub[i * m + nkept] = x[i * p + j];
        }
        bool is_aliased;
        if (n < m + k0) {
            is_aliased = true; /* more columns than rows: every further column is a combination */
        } else {
            gsl_matrix *d = pms__design_matrix(sub, n, m, intercept), *qr = NULL, *t = NULL;
            if (!d) {
                rc = pms__fail(PMS_ENOMEM, "out of memory checking the rank");
                break;
            }
            if ((rc = pms__design_qr(d, &qr, &t)) < 0) {
                gsl_matrix_free(d);
                break;
            }
            size_t last = k0 + nkept;
            gsl_vector_const_view col = gsl_matrix_const_column(d, last);
            is_aliased = fabs(gsl_matrix_get(qr, last, last)) <= tol * gsl_blas_dnrm2(&col.vector);
            gsl_matrix_free(d);
            gsl_matrix_free(qr);
            gsl_matrix_free(t);
        }
        if (is_aliased)
            aliased[(*naliased)++] = j;
        else
            kept[nkept++] = j;
    }
    free(kept);
    free(sub);
    return rc;
}

int pms__fail_aliased(const double *x, size_t n, size_t p, bool intercept, double tol, const char *const *names)
{
    size_t *al = malloc((p ? p : 1) * sizeof *al), nal = 0;
    if (!al) return pms__fail(PMS_ENOMEM, "out of memory checking the rank");
    int rc = pms_lm_aliased(x, n, p, intercept, tol, al, &nal);
    if (rc < 0) {
        free(al);
        return rc;
    }
    char msg[900] = "";
    size_t used = 0;
    char buf[32];
    for (size_t a = 0; a < nal && used < sizeof msg - 1; a++) {
        size_t j = al[a];
        const char *why = column_constant(x, n, p, j)
                              ? (intercept ? "is constant (collinear with the intercept)" : "is constant")
                              : "is a linear combination of the columns before it";
        int w = snprintf(msg + used, sizeof msg - used, "%s'%s' %s", a ? "; " : "",
                         pms__stats_colname(names, j, buf, sizeof buf), why);
        if (w < 0) break;
        used += (size_t)w;
    }
    free(al);
    if (nal == 0)
        return pms__fail(PMS_ENUMERIC, "the design matrix is numerically singular (tolerance %g)", tol > 0 ? tol : 1e-7);
    return pms__fail(PMS_ENUMERIC, "the design matrix is rank deficient (%zu of %zu columns aliased): %s; "
                                  "remove or combine these columns",
                    nal, p, msg);
}
