/* Internal: the design matrix of a linear model and the checks made on it. */
#ifndef PMS_STATS_DESIGN_H
#define PMS_STATS_DESIGN_H
#include <gsl/gsl_matrix.h>
#include <stdbool.h>
#include <stddef.h>

/* Name of regressor j: names[j], or "x<j+1>" written into buf. */
const char *pms__stats_colname(const char *const *names, size_t j, char *buf, size_t size);

/* Fails (PMS_ENUMERIC) naming the first row and column of x, or the row of y
 * (when y is not NULL), that holds a value that is not finite. */
int pms__stats_check_finite(const double *x, size_t n, size_t p, const double *y, const char *const *names);

/* n x (intercept + p) design matrix: a column of ones first when intercept. */
gsl_matrix *pms__design_matrix(const double *x, size_t n, size_t p, bool intercept);

/* Householder QR of a copy of the design; on success *qr and *t hold
 * GSL's recursive QR (gsl_linalg_QR_decomp_r). */
int pms__design_qr(const gsl_matrix *design, gsl_matrix **qr, gsl_matrix **t);

/* Fails with PMS_ENUMERIC and a message naming every aliased column of x
 * (constant, zero, or a combination of the columns before it). */
int pms__fail_aliased(const double *x, size_t n, size_t p, bool intercept, double tol, const char *const *names);

#endif
