/* OLS fit time of pms_lm_fit (for bench-ols-vs-r.sh).
 *
 * usage: bench_ols gen N P DATA.bin
 *          writes a generated N x P table as raw little-endian doubles, row-major,
 *          y first then the P regressors (what R's readBin reads back)
 *        bench_ols fit DATA.bin N P RUNS COEF.csv
 *          reads it back in a fresh process, fits it RUNS times and prints
 *          "first_fit_seconds T" (the first fit of the process) and
 *          "warm_fit_seconds MEDIAN" (median of the fits after the first), in
 *          elapsed time, then the same as "first_fit_cpu" and "warm_fit_cpu" in
 *          the CPU time of the process (user + system, what load distorts less),
 *          and writes "name,estimate,std_error" for the comparison with R. */
#include "pmuscope/error.h"
#include "pmuscope/stats.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "NAME_seconds FIRST", then the median of the others as "warm_..." */
static void print_times(const char *what, double *times, int runs)
{
    printf("first_fit_%s %.6f\n", what, times[0]);
    if (runs > 1) {
        gsl_sort(times + 1, 1, (size_t)runs - 1);
        printf("warm_fit_%s %.6f\n", what, times[1 + (runs - 1) / 2]);
    }
}

static int generate(size_t n, size_t p, const char *path)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    FILE *f = fopen(path, "wb");
    if (!rng || !f) {
        perror(path);
        return 1;
    }
    gsl_rng_set(rng, 2024);
    for (size_t i = 0; i < n; i++) {
        double row[65], prev = 0;
        row[0] = 1.0;
        for (size_t j = 0; j < p; j++) {
            /* miss-rate-like regressors, some correlated, and a noisy response */
            double v = gsl_ran_exponential(rng, 1.0 + (double)j) + (j ? 0.3 * prev : 0);
            row[j + 1] = prev = v;
            row[0] += 0.1 * (double)(j + 1) * v;
        }
        row[0] += gsl_ran_gaussian(rng, 0.5);
        fwrite(row, sizeof(double), p + 1, f);
    }
    fclose(f);
    gsl_rng_free(rng);
    return 0;
}

static int fit(const char *path, size_t n, size_t p, int runs, const char *coef_path)
{
    double *row = malloc((p + 1) * sizeof *row), *x = malloc(n * p * sizeof *x), *y = malloc(n * sizeof *y);
    FILE *f = fopen(path, "rb");
    if (!row || !x || !y || !f) {
        perror(path);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (fread(row, sizeof(double), p + 1, f) != p + 1) {
            fprintf(stderr, "bench_ols: %s: short read at row %zu\n", path, i + 1);
            return 1;
        }
        y[i] = row[0];
        memcpy(x + i * p, row + 1, p * sizeof *x);
    }
    fclose(f);
    double times[99], cpu[99];
    pms_lm *m = NULL;
    for (int r = 0; r < runs; r++) {
        pms_lm_free(m);
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        if (pms_lm_fit(x, n, p, y, NULL, NULL, &m) != PMS_OK) {
            fprintf(stderr, "bench_ols: %s\n", pms_strerror());
            return 1;
        }
        times[r] = now(CLOCK_MONOTONIC) - t0;
        cpu[r] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    print_times("seconds", times, runs);
    print_times("cpu", cpu, runs);
    f = fopen(coef_path, "w");
    if (!f) {
        perror(coef_path);
        return 1;
    }
    for (size_t k = 0; k < m->ncoef; k++) fprintf(f, "%s,%.17g,%.17g\n", m->names[k], m->coef[k], m->std_error[k]);
    fclose(f);
    pms_lm_free(m);
    free(row), free(x), free(y);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "gen") == 0) {
        size_t n = strtoull(argv[2], NULL, 10), p = strtoull(argv[3], NULL, 10);
        if (n < 2 || p < 1 || p > 64) return fprintf(stderr, "bench_ols: bad N or P\n"), 2;
        return generate(n, p, argv[4]);
    }
    if (argc == 7 && strcmp(argv[1], "fit") == 0) {
        size_t n = strtoull(argv[3], NULL, 10), p = strtoull(argv[4], NULL, 10);
        int runs = atoi(argv[5]);
        if (n < 2 || p < 1 || runs < 1 || runs > 99) return fprintf(stderr, "bench_ols: bad N, P or RUNS\n"), 2;
        return fit(argv[2], n, p, runs, argv[6]);
    }
    fprintf(stderr, "usage: bench_ols gen N P DATA.bin | bench_ols fit DATA.bin N P RUNS COEF.csv\n");
    return 2;
}
