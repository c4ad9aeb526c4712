/* Seeded, reproducible train/test splits (GSL's MT19937 and shuffle). */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(size_t) == sizeof(unsigned long), "GSL sorts the indices as unsigned long");

int pms_split(size_t n, double train_fraction, uint64_t seed, size_t *train, size_t *ntrain, size_t *test,
              size_t *ntest)
{
    if (n == 0) return pms__fail(PMS_EINVAL, "cannot split an empty table");
    if (!(train_fraction > 0 && train_fraction <= 1))
        return pms__fail(PMS_EINVAL, "train fraction %g: expected a value in (0, 1]", train_fraction);
    size_t nt = (size_t)llround((double)n * train_fraction);
    if (nt < 1) nt = 1;
    if (nt > n) nt = n;
    size_t *idx = malloc(n * sizeof *idx);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!idx || !rng) {
        free(idx);
        if (rng) gsl_rng_free(rng);
        return pms__fail(PMS_ENOMEM, "out of memory splitting %zu rows", n);
    }
    gsl_rng_set(rng, (unsigned long)seed);
    for (size_t i = 0; i < n; i++) idx[i] = i;
    gsl_ran_shuffle(rng, idx, n, sizeof *idx);
    gsl_sort_ulong((unsigned long *)idx, 1, nt);
    gsl_sort_ulong((unsigned long *)idx + nt, 1, n - nt);
    memcpy(train, idx, nt * sizeof *idx);
    memcpy(test, idx + nt, (n - nt) * sizeof *idx);
    *ntrain = nt;
    *ntest = n - nt;
    gsl_rng_free(rng);
    free(idx);
    return PMS_OK;
}

int pms_folds(size_t n, size_t nfolds, uint64_t seed, size_t *foldid)
{
    if (nfolds < 1 || nfolds > n) return pms__fail(PMS_EINVAL, "%zu rows in %zu folds: expected 1 to %zu folds", n, nfolds, n);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) return pms__fail(PMS_ENOMEM, "out of memory for the folds of %zu rows", n);
    gsl_rng_set(rng, (unsigned long)seed);
    for (size_t i = 0; i < n; i++) foldid[i] = i % nfolds + 1;
    gsl_ran_shuffle(rng, foldid, n, sizeof *foldid);
    gsl_rng_free(rng);
    return PMS_OK;
}

void pms_rows_gather(const double *src, size_t p, const size_t *rows, size_t count, double *dst)
{
    for (size_t r = 0; r < count; r++) memcpy(dst + r * p, src + rows[r] * p, p * sizeof *dst);
}
