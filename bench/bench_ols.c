/* Fit time of pms_lm_fit on a generated n x p table (for bench-ols-vs-r.sh).
 *
 * usage: bench_ols N P RUNS DATA.bin COEF.csv
 * Writes the table as raw little-endian doubles, row-major, y first then the
 * P regressors (what R's readBin reads back), times RUNS fits, prints
 * "pmuscope_fit_seconds MEDIAN" and writes the coefficients and standard
 * errors ("name,estimate,std_error") so that the script can compare them with R's. */
#include "pmuscope/error.h"
#include "pmuscope/stats.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench_ols N P RUNS DATA.bin COEF.csv\n");
        return 2;
    }
    size_t n = strtoull(argv[1], NULL, 10), p = strtoull(argv[2], NULL, 10);
    int runs = atoi(argv[3]);
    if (n < 2 || p < 1 || runs < 1 || runs > 99) {
        fprintf(stderr, "bench_ols: bad N, P or RUNS\n");
        return 2;
    }
    double *x = malloc(n * p * sizeof *x), *y = malloc(n * sizeof *y);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!x || !y || !rng) return 1;
    gsl_rng_set(rng, 2024);
    FILE *f = fopen(argv[4], "wb");
    if (!f) {
        perror(argv[4]);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        double row[64];
        y[i] = 1.0;
        for (size_t j = 0; j < p; j++) {
            /* miss-rate-like regressors, some correlated, and a noisy response */
            double v = gsl_ran_exponential(rng, 1.0 + (double)j) + (j ? 0.3 * x[i * p + j - 1] : 0);
            x[i * p + j] = v;
            y[i] += 0.1 * (double)(j + 1) * v;
        }
        y[i] += gsl_ran_gaussian(rng, 0.5);
        row[0] = y[i];
        for (size_t j = 0; j < p && j < 63; j++) row[j + 1] = x[i * p + j];
        fwrite(row, sizeof(double), p + 1, f);
    }
    fclose(f);
    double times[99];
    pms_lm *m = NULL;
    for (int r = 0; r < runs; r++) {
        pms_lm_free(m);
        double t0 = now();
        if (pms_lm_fit(x, n, p, y, NULL, NULL, &m) != PMS_OK) {
            fprintf(stderr, "bench_ols: %s\n", pms_strerror());
            return 1;
        }
        times[r] = now() - t0;
    }
    gsl_sort(times, 1, (size_t)runs);
    printf("pmuscope_fit_seconds %.6f\n", times[runs / 2]);
    f = fopen(argv[5], "w");
    if (!f) {
        perror(argv[5]);
        return 1;
    }
    for (size_t k = 0; k < m->ncoef; k++) fprintf(f, "%s,%.17g,%.17g\n", m->names[k], m->coef[k], m->std_error[k]);
    fclose(f);
    pms_lm_free(m);
    gsl_rng_free(rng);
    free(x);
    free(y);
    return 0;
}
