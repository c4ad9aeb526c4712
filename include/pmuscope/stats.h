/* pmuscope: the statistics the methods share, on GSL (OLS on LAPACK's QR).
 *
 * Ordinary least squares with everything R's summary(lm()) prints, prediction,
 * error measures, Pearson correlation, variance inflation factors, min-max and
 * z-score normalisation, a seeded train/test split, and non-negative least
 * squares (Lawson-Hanson).
 *
 * Matrices are plain row-major arrays: x[i * p + j] is row i, column j. The
 * intercept is never a column of x: it is added by the fit (pms_lm_options).
 * Every function returns PMS_OK or a negative pms_status with a message
 * (pms_strerror()) that names the offending column (by the names given, or
 * "x1".."xp") and row. */
#ifndef PMUSCOPE_STATS_H
#define PMUSCOPE_STATS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* ---- Linear models ---------------------------------------------------- */

typedef enum pms_lm_method {
    PMS_LM_OLS = 0,  /* least squares by Householder QR (as R's lm) */
    PMS_LM_NNLS = 1, /* least squares with every coefficient >= 0 (Lawson-Hanson),
                        the intercept included when there is one */
    PMS_LM_RIDGE = 2, /* ridge regression with lambda by GCV: fitted by pms_ridge_fit_runs
                         (pmuscope/estimate.h), summarised by pms_lm_from_coef; pms_lm_fit
                         does not fit it */
} pms_lm_method;

typedef struct pms_lm_options {
    bool no_intercept;   /* fit y ~ 0 + x (R's "- 1") instead of y ~ 1 + x */
    pms_lm_method method;
    double tol;          /* rank tolerance as R's lm (qr tol); 0 means 1e-7 */
    /* NULL, or n positive weights: weighted least squares, minimising sum w_i r_i^2,
     * summarised as R's summary.lm of lm(weights = w) (rss, sigma, R^2 and the
     * residual quantiles from the weighted residuals sqrt(w_i) r_i). */
    const double *weights;
    /* Accept n == ncoef (OLS only): the fit interpolates the rows, as R's lm does with no
     * residual degrees of freedom: residuals exactly 0, rss 0, and sigma, the standard
     * errors, t and p values, adjusted R^2 and F NaN. */
    bool allow_saturated;
} pms_lm_options;

/* A fitted model. Read-only; made by pms_lm_fit, freed by pms_lm_free.
 * Coefficient k is the intercept when has_intercept (k = 0, named
 * "(Intercept)"), then the columns of x in order. */
typedef struct pms_lm {
    pms_lm_method method;
    bool has_intercept;
    size_t n;            /* observations */
    size_t ncoef;        /* coefficients, intercept included */
    char **names;        /* ncoef names */
    double *coef;        /* estimates */
    double *std_error;   /* standard errors (NaN for NNLS: not defined under constraints) */
    double *t_value;     /* coef / std_error (NaN for NNLS) */
    double *p_value;     /* two-sided, Pr(>|t|) with df_residual degrees of freedom (NaN for NNLS) */
    double *cov_unscaled;/* ncoef x ncoef (X'X)^-1, row-major (NULL for NNLS) */
    double *fitted;      /* n fitted values */
    double *residuals;   /* n residuals y - fitted */
    double *weights;     /* the n weights of a weighted fit (a copy), NULL when unweighted */
    size_t df_residual;  /* n - ncoef */
    double rss;          /* residual sum of squares */
    double sigma;        /* residual standard error sqrt(rss / df_residual) */
    double r_squared;    /* multiple R-squared (centred when there is an intercept, as R) */
    double adj_r_squared;
    double f_statistic;  /* on f_df1 and f_df2 degrees of freedom (NaN when ncoef - intercept = 0) */
    double f_df1, f_df2;
    double f_p_value;
    /* R's summary.lm warning "essentially perfect fit: summary may be unreliable":
     * residual variance below 1e-30 (mean(fitted)^2 + var(fitted)) */
    bool perfect_fit;
    /* NNLS: which coefficients the solution holds at zero (ncoef flags, NULL for OLS). */
    bool *at_bound;
} pms_lm;

/* Two-sided P(|T| > |t|) for Student's t with df degrees of freedom, and the
 * upper tail P(F > f) of F(d1, d2), from the regularised incomplete beta
 * (I_{df/(df+t^2)}(df/2, 1/2) and I_{d2/(d2+d1 f)}(d2/2, d1/2)) as R's pt and pf
 * compute them: about 1e-13 relative down to 1e-300 (0 below the double range). */
double pms_t_p_value(double t, double df);
double pms_f_p_value(double f, double d1, double d2);

/* Fits y ~ x over n rows and p columns. names (may be NULL) name the p columns.
 * Fails with PMS_EINVAL when n <= ncoef (no residual degrees of freedom; n == ncoef
 * is accepted with allow_saturated), with
 * PMS_ENUMERIC when a value is not finite (naming row and column) or when the
 * design is rank deficient: the message names every column that is constant
 * (collinear with the intercept) or a linear combination of earlier columns,
 * as R would report NA for them, and nothing is dropped silently. */
int pms_lm_fit(const double *x, size_t n, size_t p, const double *y, const char *const *names,
               const pms_lm_options *opt, pms_lm **out);
void pms_lm_free(pms_lm *m);

/* Min, 1st quartile, median, 3rd quartile and max of the residuals (of the weighted
 * residuals sqrt(w_i) r_i of a weighted fit), as R's summary.lm prints them (quantile
 * type 7), into q[5]. Computed on each call (O(n), a copy of the residuals), not by
 * the fit: a fit whose summary is not printed does not pay for them. */
int pms_lm_resid_quantiles(const pms_lm *m, double q[5]);

/* The summary of coefficients fitted elsewhere (method PMS_LM_RIDGE, or PMS_LM_NNLS) on
 * the same rows: coef holds the intercept then the p coefficients; fitted values,
 * residuals and their quantiles, sigma on n - p - 1 degrees of freedom and R^2 against
 * the centred total sum of squares, as for NNLS; no standard errors, t or p values (NaN). */
int pms_lm_from_coef(const double *x, size_t n, size_t p, const double *y, const char *const *names,
                     pms_lm_method method, const double *coef, pms_lm **out);

/* The columns of x (0-based, in the order R's pivoting would alias them) that
 * are linear combinations of the intercept (when intercept) and the columns
 * before them, by the same tolerance as pms_lm_fit; *naliased is 0 for a design
 * of full rank. aliased must hold p entries. */
int pms_lm_aliased(const double *x, size_t n, size_t p, bool intercept, double tol, size_t *aliased,
                   size_t *naliased);

/* Durbin-Watson statistic of residuals in time order: sum (e_t - e_{t-1})^2 /
 * sum e_t^2 (about 2 for independent errors; below 2, positive autocorrelation:
 * the standard errors of lm are then too small). NaN for n < 2 or zero residuals. */
double pms_durbin_watson(const double *resid, size_t n);
/* Newey-West standard errors (heteroskedasticity and autocorrelation consistent,
 * Bartlett weights 1 - l/(lag+1), no prewhitening, no small-sample adjustment, as
 * sandwich::NeweyWest(fit, lag, prewhite = FALSE, adjust = FALSE)) of an OLS fit
 * of the n rows of x in time order, into se[ncoef]. */
int pms_lm_newey_west(const pms_lm *m, const double *x, size_t lag, double *se);
/* The usual lag floor(4 (n / 100)^(2/9)). */
size_t pms_newey_west_lag(size_t n);

/* Predicts n rows of x (p = ncoef minus the intercept columns) into yhat. */
int pms_lm_predict(const pms_lm *m, const double *x, size_t n, double *yhat);
/* Prediction intervals of an OLS fit for n new rows of x, as R's predict.lm(interval =
 * "prediction", level): yhat -/+ qt((1 + level) / 2, df_residual) sqrt(sigma^2 + se_fit^2),
 * se_fit^2 = sigma^2 x0' (X'X)^-1 x0 (x0 with the intercept's 1); lower and upper NaN when
 * df_residual is 0 (R's NaN). yhat, lower, upper (n each; lower and upper may be NULL). */
int pms_lm_predict_interval(const pms_lm *m, const double *x, size_t n, double level, double *yhat, double *lower,
                            double *upper);

/* Writes the model as R's print(summary(lm(...))) does: call, residual
 * quantiles, coefficient table with significance stars, residual standard
 * error, R-squared, F statistic (4 significant digits, as R's default). For
 * NNLS the estimates are shown with the coefficients held at zero marked.
 * response names y in the formula line. */
int pms_lm_write_summary(const pms_lm *m, const char *response, FILE *out);

/* ---- Non-negative least squares -------------------------------------- */

/* Solves min ||A x - b|| subject to x >= 0 (Lawson and Hanson, 1974, NNLS),
 * A is m x n row-major. x receives n values; *rnorm (may be NULL) the residual
 * 2-norm. max_iter 0 means 3n as in Lawson-Hanson and R's nnls. Fails with
 * PMS_ENUMERIC when the iteration limit is reached or a value is not finite. */
int pms_nnls(const double *a, size_t m, size_t n, const double *b, size_t max_iter, double *x,
             double *rnorm);

/* ---- Lasso ------------------------------------------------------------ */

/* The lasso as R's glmnet fits it with family "gaussian", alpha = 1 and its defaults
 * standardize = TRUE, intercept = TRUE and unit weights: at each lambda,
 *     minimise (1 / 2n) sum_i (y_i - b0 - sum_j x_ij b_j)^2 + lambda sum_j s_j |b_j|,
 * s_j the standard deviation of column j with divisor n (glmnet's, not R's sd()); that
 * is, with z_j = (x_j - mean(x_j)) / s_j, the coefficients g of
 *     (1 / 2n) ||y - mean(y) - Z g||^2 + lambda ||g||_1
 * carried back to x's units (b_j = g_j / s_j, b0 = mean(y) - sum_j b_j mean(x_j)):
 * lambda is in y's units, and the intercept is not penalised. Columns constant over
 * the rows get 0. Solved by cyclic coordinate descent (Friedman, Hastie and Tibshirani
 * 2010, as glmnet) with warm starts down the path, each solution then made exact by
 * solving its active set's equations Z_A'Z_A g_A = Z_A'y - n lambda sign(g_A) (kept
 * when the signs and the inactive columns' conditions |z_j'r| / n <= lambda hold), so
 * that it equals glmnet's at a tight threshold rather than at glmnet's default 1e-7.
 * The default path is glmnet's: nlambda values from lambda_max = max_j |z_j'(y -
 * mean(y))| / n (the smallest lambda with every coefficient 0) down to min_ratio x
 * lambda_max, evenly spaced on the log scale. */
typedef struct pms_lasso_options {
    size_t nlambda;        /* 0 means 100 */
    double min_ratio;      /* 0 means glmnet's: 0.01 when n < p, else 1e-4 */
    const double *lambda;  /* NULL, or nlambda decreasing values used instead of the path */
    /* cross-validation (pms_lasso_cv) as cv.glmnet with type.measure "mse": nfolds 0
     * means min(10, n), at least 3; the rows go to folds as cv.glmnet's
     * sample(rep(1:nfolds, length = n)) sends them, a shuffle drawn here with GSL's
     * MT19937 from seed (R's own draw cannot be repeated: give cv.glmnet these folds
     * as foldid to compare), unless foldid (n values in 1..nfolds) gives them */
    size_t nfolds;
    uint64_t seed;
    const size_t *foldid;
} pms_lasso_options;

typedef struct pms_lasso {
    size_t n, p, nlambda;
    double *lambda;        /* nlambda, decreasing */
    double *coef;          /* nlambda x (p + 1), row-major: the intercept, then x's p coefficients */
    size_t *nonzero;       /* nlambda: coefficients other than the intercept that are not 0 */
    /* pms_lasso_cv: cv.glmnet's cvm and cvsd (per-fold mean squared errors weighted by
     * fold size, or per row when fewer than 3 rows per fold: cv.glmnet's grouped =
     * FALSE), lambda.min (the largest lambda of the smallest cvm) and lambda.1se (the
     * largest lambda whose cvm is within one cvsd of it) as indices into lambda */
    size_t nfolds;
    size_t *foldid;        /* n, 1-based (NULL without cross-validation) */
    bool grouped;
    double *cvm, *cvsd;    /* nlambda */
    size_t index_min, index_1se;
} pms_lasso;

/* The path of the n x p rows x against y. Fails (PMS_EINVAL) with fewer than 2 rows, on
 * a lambda list that is not decreasing and positive, and (PMS_ENUMERIC) on a value that
 * is not finite or when every column is constant. */
int pms_lasso_path(const double *x, size_t n, size_t p, const double *y, const pms_lasso_options *opt,
                  pms_lasso **out);
/* The path and its cross-validation (fails with fewer than 3 rows: cv.glmnet's 3 folds). */
int pms_lasso_cv(const double *x, size_t n, size_t p, const double *y, const pms_lasso_options *opt,
                 pms_lasso **out);
void pms_lasso_free(pms_lasso *l);

/* ---- Bootstrap -------------------------------------------------------- */

/* Percentile confidence intervals of a fit's coefficients by resampling its rows
 * with replacement and refitting (Efron and Tibshirani, An Introduction to the
 * Bootstrap, ch. 13). Case resampling draws n rows one by one, for rows that are
 * independent (runs); the moving-block bootstrap (Kuensch 1989) draws blocks of
 * `block` consecutive rows, starting anywhere in 0..n-block, until n rows are
 * drawn (the last block cut short), for rows in time order whose errors are
 * correlated (intervals). The bounds are the (1 - level) / 2 and (1 + level) / 2
 * quantiles (R's type 7) of the refits that succeeded; a refit that fails (a
 * resample with a singular design) is left out and counted. */
typedef struct pms_bootstrap_options {
    size_t replicates;  /* resamples; 0: no bootstrap */
    uint64_t seed;      /* GSL's MT19937: the same seed gives the same resamples on every machine */
    size_t block;       /* 0 or 1: case resampling; L > 1: moving blocks of L rows */
    double level;       /* of the intervals, in (0, 1); 0 means 0.95 */
    bool keep;          /* keep every resample's rows and refit (pms_bootstrap_write_replicates) */
} pms_bootstrap_options;

typedef struct pms_bootstrap {
    size_t replicates, n, ncoef; /* resamples of n rows, ncoef coefficients each */
    size_t block;                /* 1: case resampling */
    uint64_t seed;
    double level;
    size_t n_ok;                 /* refits that succeeded: the intervals are over these */
    double *lower, *upper;       /* ncoef bounds (NaN when no refit succeeded) */
    size_t *rows;                /* keep: replicates x n resampled rows (0-based), else NULL */
    double *coef;                /* keep: replicates x ncoef refits (NaN for a failed one), else NULL */
} pms_bootstrap;

/* Refits on the rows rows[0..n-1] (with repeats) into coef[ncoef]; PMS_OK or a
 * failure (the replicate is then left out). */
typedef int (*pms_bootstrap_refit)(const size_t *rows, size_t n, void *ctx, double *coef);

/* Fails (PMS_EINVAL) on n < 2, a block longer than n or a level outside (0, 1). */
int pms_bootstrap_run(size_t n, size_t ncoef, pms_bootstrap_refit refit, void *ctx, const pms_bootstrap_options *opt,
                      pms_bootstrap *out);
void pms_bootstrap_free(pms_bootstrap *b);
/* The usual block length of the moving-block bootstrap, n^(1/3) rounded up (Hall,
 * Horowitz and Jing 1995: the order that minimises the error of a variance). */
size_t pms_bootstrap_block_length(size_t n);
/* "name estimate lower upper" lines under a heading saying the scheme, the
 * resamples and how many refits failed; names and estimate have ncoef entries. */
int pms_bootstrap_write_text(const pms_bootstrap *b, const char *what, const char *const *names,
                             const double *estimate, FILE *out);
/* The replicates kept (opt.keep) as CSV lines what,replicate,ok,rows,<coef...>:
 * rows are the 1-based resampled rows separated by spaces, coef empty for a failed
 * refit; with header first the line what,replicate,ok,rows,<names...>. */
struct pms_json; /* pmuscope/json.h */
/* {"scheme", "block", "replicates", "ok", "seed", "level", "intervals": {name: [lower, upper]}}
 * as the value of the key the caller has written. */
void pms_bootstrap_write_json(const pms_bootstrap *b, const char *const *names, struct pms_json *j);
int pms_bootstrap_write_replicates(const pms_bootstrap *b, const char *what, const char *const *names, bool header,
                                   FILE *out);

/* ---- Tests of a difference between two samples ------------------------ */

/* A two-sided test of x against y: its statistic, p-value, the estimate of the difference
 * x - y and its confidence interval, each as R computes them. */
typedef struct pms_test_result {
    double statistic;        /* prop.test's X-squared, t.test's t, wilcox.test's W */
    double df;               /* degrees of freedom (1, or Welch's); NaN for W */
    double p_value;          /* two-sided */
    double estimate;         /* x - y: of the proportions, the means, or the Hodges-Lehmann shift */
    double ci_low, ci_high;  /* the interval of the estimate at the level asked */
    double std_error;        /* of the estimate (the interval's, unpooled for proportions); NaN for W */
    bool exact;              /* W: the exact distribution gave p and the interval */
} pms_test_result;

/* Two proportions, x1 of n1 against x2 of n2, as R's prop.test(c(x1, x2), c(n1, n2),
 * correct = correct, conf.level = level): the chi-square test of the 2 x 2 table (with
 * Yates' continuity correction when correct) and the Wald interval of the difference
 * (widened by the correction, clipped to [-1, 1]). PMS_EINVAL when n1 or n2 is 0, xi > ni
 * or level is outside (0, 1); p is NaN (as R's) when x1 + x2 is 0 or n1 + n2. */
int pms_prop_test2(pms_test_result *out, uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2, double level,
                   bool correct);
/* Welch's two-sample t test, as R's t.test(x, y, conf.level = level): needs nx, ny >= 2
 * (PMS_EINVAL); PMS_ENUMERIC when the data are essentially constant (R's error). */
int pms_welch_test(pms_test_result *out, const double *x, size_t nx, const double *y, size_t ny, double level);
/* The same with each mean's variance at least floor_x (floor_y), a variance known not to be
 * smaller (the sampling variance of shares): where a floor is above var/n of its sample it
 * stands as known exactly, so it takes no degrees of freedom in Satterthwaite's formula (both
 * floored: df is infinite, the normal distribution). Floors of 0 give pms_welch_test. */
int pms_welch_test_floored(pms_test_result *out, const double *x, size_t nx, const double *y, size_t ny, double level,
                           double floor_x, double floor_y);
/* The Wilcoxon rank sum (Mann-Whitney) test of a shift of x against y with the Hodges-
 * Lehmann estimate (the median of the pairwise differences x_i - y_j) and its interval,
 * as R's wilcox.test(x, y, conf.int = TRUE, conf.level = level): exact when both have
 * fewer than 50 values and there are no ties, else the normal approximation with the
 * continuity and ties corrections, the interval's ends being where the statistic crosses
 * the normal quantiles (R's uniroot finds the same points, to its tol.root). Needs
 * nx, ny >= 1 and finite values (PMS_EINVAL). */
int pms_rank_sum_test(pms_test_result *out, const double *x, size_t nx, const double *y, size_t ny, double level);
/* P(U <= u) of the Mann-Whitney statistic U (the W of wilcox.test) of m and n values
 * without ties, exactly (R's pwilcox); NaN when m or n is 0 or above 1000. */
double pms_wilcoxon_cdf(double u, size_t m, size_t n);
/* Benjamini-Hochberg q-values of n p-values, as R's p.adjust(p, method = "BH"): NaN
 * entries stay NaN and are not counted in n (as R's NA). q and p may be the same array. */
int pms_p_adjust_bh(double *q, const double *p, size_t n);

/* ---- Errors ----------------------------------------------------------- */

double pms_rmse(const double *y, const double *yhat, size_t n);
double pms_mae(const double *y, const double *yhat, size_t n);
/* Mean absolute percentage error, in percent; fails (PMS_ENUMERIC, naming the
 * row) when an observed value is zero. */
int pms_mape(const double *y, const double *yhat, size_t n, double *out);

/* ---- Correlation and multicollinearity -------------------------------- */

/* Pearson correlation matrix of the p columns of x (n rows) into r (p x p).
 * Fails (PMS_ENUMERIC) on a constant column or a non-finite value, naming it. */
int pms_correlation(const double *x, size_t n, size_t p, const char *const *names, double *r);

/* Variance inflation factor of each column: 1 / (1 - R_j^2), R_j^2 of column j
 * regressed on the others with an intercept (the diagonal of the inverse
 * correlation matrix). vif receives p values; fails (PMS_ENUMERIC) naming the
 * columns when they are exactly collinear. p = 1 gives 1. */
int pms_vif(const double *x, size_t n, size_t p, const char *const *names, double *vif);

/* ---- Normalisation ---------------------------------------------------- */

/* Min-max normalisation in place, each column to [0, 1]: (x - min) / (max - min).
 * min and max (may be NULL) receive the p column minima and maxima. Fails on a
 * constant column (naming it) and leaves x unchanged then. */
int pms_normalize_minmax(double *x, size_t n, size_t p, const char *const *names, double *min,
                         double *max);
/* z-score normalisation in place: (x - mean) / sd, sd with n - 1 as R's sd().
 * mean and sd (may be NULL) receive the column parameters. */
int pms_normalize_zscore(double *x, size_t n, size_t p, const char *const *names, double *mean,
                         double *sd);
/* Applies saved parameters to other rows: x = (x - offset[j]) / scale[j]
 * (for min-max offset = min, scale = max - min). */
void pms_normalize_apply(double *x, size_t n, size_t p, const double *offset, const double *scale);

/* ---- Train/test split ------------------------------------------------- */

/* A reproducible random split of rows 0..n-1: round(n * train_fraction) rows
 * (at least 1, at most n) go to train, the rest to test, each list in
 * ascending row order. The same seed gives the same split on every machine
 * (GSL's MT19937). train and test must hold n entries each. */
int pms_split(size_t n, double train_fraction, uint64_t seed, size_t *train, size_t *ntrain,
              size_t *test, size_t *ntest);

/* Cross-validation folds of rows 0..n-1: foldid[i] in 1..nfolds, as cv.glmnet's
 * sample(rep(1:nfolds, length = n)): every fold the same size within one, the rows
 * shuffled with GSL's MT19937 from seed (the same on every machine). */
int pms_folds(size_t n, size_t nfolds, uint64_t seed, size_t *foldid);

/* Copies the chosen rows of a row-major n x p array into dst (count x p). */
void pms_rows_gather(const double *src, size_t p, const size_t *rows, size_t count, double *dst);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
