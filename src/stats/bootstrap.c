/* Bootstrap percentile intervals of a fit's coefficients: case resampling or the
 * moving-block bootstrap, a refit per resample, quantiles of the refits. */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t pms_bootstrap_block_length(size_t n)
{
    size_t l = (size_t)ceil(cbrt((double)n) - 1e-9);
    return l ? l : 1;
}

/* One resample of n rows into rows: single rows (block 1) or blocks of consecutive rows. */
static void resample(gsl_rng *r, size_t n, size_t block, size_t *rows)
{
    for (size_t k = 0; k < n;) {
        size_t start = gsl_rng_uniform_int(r, n - block + 1);
        for (size_t b = 0; b < block && k < n; b++) rows[k++] = start + b;
    }
}

void pms_bootstrap_free(pms_bootstrap *b)
{
    if (!b) return;
    free(b->lower), free(b->upper), free(b->rows), free(b->coef);
    memset(b, 0, sizeof *b);
}

/* The percentile bounds of coefficient c over the successful refits in all (replicates x ncoef). */
static void percentile(pms_bootstrap *b, const double *all, size_t c, double *col)
{
    size_t k = 0;
    for (size_t i = 0; i < b->replicates; i++)
        if (!isnan(all[i * b->ncoef + c])) col[k++] = all[i * b->ncoef + c];
    if (k == 0) {
        b->lower[c] = b->upper[c] = NAN;
        return;
    }
    gsl_sort(col, 1, k);
    double tail = (1 - b->level) / 2;
    b->lower[c] = gsl_stats_quantile_from_sorted_data(col, 1, k, tail);
    b->upper[c] = gsl_stats_quantile_from_sorted_data(col, 1, k, 1 - tail);
}

int pms_bootstrap_run(size_t n, size_t ncoef, pms_bootstrap_refit refit, void *ctx, const pms_bootstrap_options *opt,
                      pms_bootstrap *out)
{
    memset(out, 0, sizeof *out);
    size_t block = opt->block ? opt->block : 1;
    double level = opt->level == 0 ? 0.95 : opt->level;
    if (n < 2) return pms__fail(PMS_EINVAL, "bootstrap: %zu rows: at least 2 needed to resample", n);
    if (block > n) return pms__fail(PMS_EINVAL, "bootstrap: blocks of %zu rows from %zu rows", block, n);
    if (!(level > 0 && level < 1)) return pms__fail(PMS_EINVAL, "bootstrap: level %g: expected (0, 1)", level);
    if (opt->replicates == 0 || ncoef == 0) return pms__fail(PMS_EINVAL, "bootstrap: no resamples or no coefficients");
    *out = (pms_bootstrap){.replicates = opt->replicates, .n = n, .ncoef = ncoef, .block = block,
                           .seed = opt->seed, .level = level};
    size_t *rows = malloc(n * sizeof *rows);
    double *all = malloc(opt->replicates * ncoef * sizeof *all), *col = malloc(opt->replicates * sizeof *col);
    out->lower = malloc(ncoef * sizeof *out->lower), out->upper = malloc(ncoef * sizeof *out->upper);
    if (opt->keep) out->rows = malloc(opt->replicates * n * sizeof *out->rows);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = rows && all && col && out->lower && out->upper && r && (!opt->keep || out->rows)
                 ? PMS_OK : pms__fail(PMS_ENOMEM, "bootstrap: out of memory for %zu resamples", opt->replicates);
    if (rc == PMS_OK) gsl_rng_set(r, (unsigned long)opt->seed);
    for (size_t i = 0; rc == PMS_OK && i < opt->replicates; i++) {
        resample(r, n, block, rows);
        if (out->rows) memcpy(out->rows + i * n, rows, n * sizeof *rows);
        double *c = all + i * ncoef;
        bool ok = refit(rows, n, ctx, c) == PMS_OK;
        for (size_t k = 0; ok && k < ncoef; k++) ok = isfinite(c[k]);
        if (!ok)
            for (size_t k = 0; k < ncoef; k++) c[k] = NAN;
        out->n_ok += ok;
    }
    for (size_t c = 0; rc == PMS_OK && c < ncoef; c++) percentile(out, all, c, col);
    if (rc == PMS_OK && opt->keep) out->coef = all, all = NULL;
    if (r) gsl_rng_free(r);
    free(rows), free(all), free(col);
    if (rc != PMS_OK) pms_bootstrap_free(out);
    return rc;
}
