/* bench_olr: olr on a recorded sample stream (a CSV of x and counter columns, as
 * `pmuscope olr --samples` writes it) or, with --generate, on a synthetic one.
 *  - speed: samples per second per counter of wm and opt (median of 5 runs);
 *  - fit: wm's reduction and max error, then opt at wm's own max error;
 *  - size: bytes of the segments; --raw FILE writes the raw stream (little-endian
 *    u64 records: x, counters) for bench-olr.sh to give to zstd -19 and xz -9. */
#include "pmuscope/olr.h"
#include "pmuscope/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct stream {
    size_t n, k;
    uint64_t *x, *y; /* y: n x k */
    char **names;
} stream;

/* CPU time of this thread: the machine is shared, and wall time would count the
 * other processes' turns. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Synthetic stream: a fixed sampling period with jitter; counters with phase-wise rates
 * and noise (used only when no recorded stream is given, and said so). */
static int generate(stream *s, size_t n, size_t k)
{
    s->n = n;
    s->k = k;
    s->x = malloc(n * sizeof *s->x);
    s->y = malloc(n * k * sizeof *s->y);
    s->names = calloc(k, sizeof *s->names);
    if (!s->x || !s->y || !s->names) return -1;
    uint64_t x = 0, *v = calloc(k, sizeof *v), *rate = calloc(k, sizeof *rate);
    if (!v || !rate) return -1;
    for (size_t j = 0; j < k; j++) {
        char name[32];
        snprintf(name, sizeof name, "gen%zu", j);
        s->names[j] = strdup(name);
    }
    for (size_t i = 0; i < n; i++) {
        x += 100000 + rnd() % 1000;
        s->x[i] = x;
        for (size_t j = 0; j < k; j++) {
            if (i % 5000 == 0) rate[j] = rnd() % (200 * (j + 1));
            v[j] += rate[j] + rnd() % (rate[j] / 4 + 1);
            s->y[i * k + j] = v[j];
        }
    }
    free(v);
    free(rate);
    return 0;
}

static int load_csv(stream *s, const char *path)
{
    pms_table *t;
    if (pms_table_read(path, NULL, &t)) {
        fprintf(stderr, "bench_olr: %s\n", pms_strerror());
        return -1;
    }
    size_t rows = pms_table_rows(t), cols = pms_table_cols(t);
    int rc = cols < 2 ? -1 : 0;
    if (rc) fprintf(stderr, "bench_olr: %s: expected x and at least one counter column\n", path);
    s->n = rows;
    s->k = cols - 1;
    s->x = malloc(rows * sizeof *s->x);
    s->y = malloc(rows * cols * sizeof *s->y);
    s->names = calloc(cols, sizeof *s->names);
    if (!s->x || !s->y || !s->names) rc = -1;
    for (size_t c = 0; rc == 0 && c < cols; c++) {
        const double *v;
        if (pms_table_numeric(t, c, false, &v)) {
            fprintf(stderr, "bench_olr: %s\n", pms_strerror());
            rc = -1;
            break;
        }
        if (c > 0) s->names[c - 1] = strdup(pms_table_col_name(t, c));
        for (size_t i = 0; i < rows; i++) {
            if (c == 0) s->x[i] = (uint64_t)v[i];
            else s->y[i * s->k + c - 1] = (uint64_t)v[i];
        }
    }
    pms_table_free(t);
    return rc;
}

typedef struct result {
    double seconds;
    pms_olr_summary sum[64];
} result;

/* Runs one counter (or all, per_counter) through a method and returns the time. */
static int run_prefix(const stream *s, size_t n, size_t j, pms_olr_method m, double eps, int stats, result *r)
{
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = m;
    opt.stats = stats;
    pms_olr_counter_options c;
    pms_olr_counter_options_init(&c);
    c.eps = eps;
    opt.counters = &c;
    pms_olr *o;
    if (pms_olr_create(&o, &opt, NULL, NULL)) return -1;
    double t0 = now();
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) rc = pms_olr_push(o, s->x[i], &s->y[i * s->k + j]);
    if (!rc) rc = pms_olr_finish(o);
    r->seconds = now() - t0;
    if (!rc) rc = pms_olr_get_summary(o, 0, &r->sum[0]);
    if (rc) fprintf(stderr, "bench_olr: %s\n", pms_strerror());
    pms_olr_destroy(o);
    return rc;
}

static int run(const stream *s, size_t j, pms_olr_method m, double eps, int stats, result *r)
{
    return run_prefix(s, s->n, j, m, eps, stats, r);
}

/* wm's max error as the stream grows (its lines lengthen and sigma with them: the drift
 * of the paper's figures 4, 6, 7), against opt's at a fixed eps: wm's error on the first
 * eighth. */
static int drift(const stream *s, size_t j)
{
    result r;
    double wm_err[4], opt_err[4], eps = 0;
    for (int q = 0; q < 4; q++) {
        size_t n = s->n >> (3 - q);
        if (n < 2 || run_prefix(s, n, j, PMS_OLR_WM, 0, 1, &r)) return -1;
        wm_err[q] = r.sum[0].max_abs_error;
        if (q == 0) eps = floor(wm_err[0]);
        if (run_prefix(s, n, j, PMS_OLR_OPT, eps, 1, &r)) return -1;
        opt_err[q] = r.sum[0].max_abs_error;
    }
    printf("  max error on the first 1/8, 1/4, 1/2, all: wm %.1f %.1f %.1f %.1f; opt (eps %.0f) %.0f %.0f %.0f %.0f\n",
           wm_err[0], wm_err[1], wm_err[2], wm_err[3], eps, opt_err[0], opt_err[1], opt_err[2], opt_err[3]);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of 5 runs of at least 2 million samples each (the stream repeated), in samples
 * per second of CPU time. */
static double speed(const stream *s, size_t j, pms_olr_method m, double eps, int stats)
{
    double t[5];
    size_t reps = (2000000 + s->n - 1) / s->n;
    result r;
    for (int i = 0; i < 5; i++) {
        t[i] = 0;
        for (size_t k = 0; k < reps; k++) {
            if (run(s, j, m, eps, stats, &r)) return NAN;
            t[i] += r.seconds;
        }
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return (double)(s->n * reps) / t[2];
}

static int write_raw(const stream *s, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    for (size_t i = 0; i < s->n; i++) {
        fwrite(&s->x[i], sizeof s->x[i], 1, f);
        fwrite(&s->y[i * s->k], sizeof s->y[0], s->k, f);
    }
    return fclose(f);
}

int main(int argc, char **argv)
{
    stream s = {0};
    const char *raw = NULL, *csv = NULL;
    size_t gen_n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--raw") && i + 1 < argc) raw = argv[++i];
        else if (!strcmp(argv[i], "--generate") && i + 1 < argc) gen_n = strtoul(argv[++i], NULL, 10);
        else csv = argv[i];
    }
    if (csv ? load_csv(&s, csv) : gen_n ? generate(&s, gen_n, 2) : -1) {
        fprintf(stderr, "usage: bench_olr [--raw OUT.bin] (STREAM.csv | --generate N)\n");
        return 2;
    }
    printf("stream: %s, %zu samples, %zu counters\n", csv ? csv : "SYNTHETIC (generator, no recording)", s.n, s.k);
    if (raw && write_raw(&s, raw)) {
        perror(raw);
        return 1;
    }
    double seg_bytes_wm = 0, seg_bytes_opt = 0;
    for (size_t j = 0; j < s.k && j < 64; j++) {
        result wm, opt;
        if (run(&s, j, PMS_OLR_WM, 0, 1, &wm)) return 1;
        /* opt at wm's own max error (whole counts: floor, so never looser) */
        double eps = floor(wm.sum[0].max_abs_error);
        if (run(&s, j, PMS_OLR_OPT, eps, 1, &opt)) return 1;
        printf("counter %s: range %llu\n", s.names[j], (unsigned long long)(wm.sum[0].y_max - wm.sum[0].y_min));
        printf("  wm : %8llu segments, reduction %9.2f, max error %12.1f, RMSE %10.2f, MNESD %.3g\n",
               (unsigned long long)wm.sum[0].segments, wm.sum[0].reduction, wm.sum[0].max_abs_error,
               wm.sum[0].rmse, wm.sum[0].mnesd);
        printf("  opt: %8llu segments, reduction %9.2f, max error %12.1f, RMSE %10.2f (eps %.0f)\n",
               (unsigned long long)opt.sum[0].segments, opt.sum[0].reduction, opt.sum[0].max_abs_error,
               opt.sum[0].rmse, eps);
        printf("  opt/wm reduction: %.2fx\n", opt.sum[0].reduction / wm.sum[0].reduction);
        drift(&s, j);
        double v_wm = speed(&s, j, PMS_OLR_WM, 0, 0), v_opt = speed(&s, j, PMS_OLR_OPT, eps, 0);
        double v_opt_stats = speed(&s, j, PMS_OLR_OPT, eps, 1);
        printf("  speed (CPU time): wm %.1f M samples/s, opt %.1f M samples/s (%.1f M with error measurement)\n",
               v_wm / 1e6, v_opt / 1e6, v_opt_stats / 1e6);
        /* a line is 3 numbers of 8 bytes (start x, slope, intercept) */
        seg_bytes_wm += 24.0 * (double)wm.sum[0].segments;
        seg_bytes_opt += 24.0 * (double)opt.sum[0].segments;
    }
    printf("raw bytes: %zu\n", s.n * (1 + s.k) * 8);
    printf("segment bytes: wm %.0f opt %.0f\n", seg_bytes_wm, seg_bytes_opt);
    return 0;
}
