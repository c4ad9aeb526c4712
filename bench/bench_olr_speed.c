/* bench_olr_speed: ns per sample per counter of olr's fitters, wm and opt, with error
 * statistics on (the CLI's default) and off, on a generated series and on recorded ones
 * (perf.data with read values or CSV tables, as `pmuscope olr` reads them), beside two
 * peers on the same samples: a plain pass that only reads them (the floor), and zstd
 * (levels 1 and 3) compressing the same bytes (x and the counter, 16 bytes a sample).
 * CPU time of this thread, median of 7 runs of at least 2 million samples each (the
 * series repeated). opt's eps is the CLI's default, 0.1% of the counter's range.
 *
 * usage: bench_olr_speed [--generate N] [SERIES...] */
#include "pmuscope/olr.h"
#include "pmuscope/olr_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

enum { RUNS = 7, MIN_SAMPLES = 2000000 };

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One counter of a series as separate x and y arrays. */
typedef struct column {
    size_t n;
    uint64_t *x, *y;
    double eps;
} column;

typedef enum what { READ, ZSTD1, ZSTD3, WM, WM_STATS, OPT, OPT_STATS, NWHAT } what;
static const char *const names[NWHAT] = {"read", "zstd -1", "zstd -3", "wm", "wm+stats", "opt", "opt+stats"};

static volatile uint64_t sink;

/* Seconds of one pass of `w` over the column; -1 on error. */
static double pass(const column *c, what w, uint64_t *buf, void *zbuf, size_t zcap)
{
    double t0 = cpu_now();
    if (w == READ) {
        uint64_t s = 0;
        for (size_t i = 0; i < c->n; i++) s += c->x[i] ^ c->y[i];
        sink = s;
    } else if (w == ZSTD1 || w == ZSTD3) {
        for (size_t i = 0; i < c->n; i++) buf[2 * i] = c->x[i], buf[2 * i + 1] = c->y[i];
        size_t z = ZSTD_compress(zbuf, zcap, buf, 16 * c->n, w == ZSTD1 ? 1 : 3);
        if (ZSTD_isError(z)) return -1;
        sink = z;
    } else {
        pms_olr_options opt;
        pms_olr_options_init(&opt);
        opt.method = w >= OPT ? PMS_OLR_OPT : PMS_OLR_WM;
        opt.stats = w == WM_STATS || w == OPT_STATS;
        pms_olr_counter_options cop;
        pms_olr_counter_options_init(&cop);
        cop.eps = c->eps;
        cop.monotone = 0;
        opt.counters = &cop;
        pms_olr *o;
        if (pms_olr_create(&o, &opt, NULL, NULL)) return -1;
        int rc = 0;
        for (size_t i = 0; i < c->n && !rc; i++) rc = pms_olr_push(o, c->x[i], &c->y[i]);
        if (!rc) rc = pms_olr_finish(o);
        pms_olr_destroy(o);
        if (rc) return -1;
    }
    return cpu_now() - t0;
}

/* ns per sample: the median over RUNS of the CPU time of enough passes for MIN_SAMPLES. */
static double ns_per_sample(const column *c, what w, uint64_t *buf, void *zbuf, size_t zcap)
{
    size_t reps = (MIN_SAMPLES + c->n - 1) / c->n;
    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        t[r] = 0;
        for (size_t k = 0; k < reps; k++) {
            double s = pass(c, w, buf, zbuf, zcap);
            if (s < 0) return NAN;
            t[r] += s;
        }
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    return 1e9 * t[RUNS / 2] / (double)(c->n * reps);
}

static void bench_column(const char *series, const char *counter, column *c)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (c->y[i] < lo) lo = c->y[i];
        if (c->y[i] > hi) hi = c->y[i];
    }
    c->eps = floor(0.001 * (double)(hi - lo));
    size_t zcap = ZSTD_compressBound(16 * c->n);
    uint64_t *buf = malloc(16 * c->n);
    void *zbuf = malloc(zcap);
    if (!buf || !zbuf) {
        fprintf(stderr, "bench_olr_speed: out of memory\n");
        exit(1);
    }
    printf("%-28s %-18s %9zu", series, counter, c->n);
    for (int w = 0; w < NWHAT; w++) printf(" %9.2f", ns_per_sample(c, (what)w, buf, zbuf, zcap));
    printf("\n");
    fflush(stdout);
    free(buf);
    free(zbuf);
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void) { return (rng = rng * 6364136223846793005ULL + 1442695040888963407ULL) >> 17; }

/* A generated counter: a jittered sampling period, phase-wise rates and noise. */
static void generated(size_t n)
{
    column c = {n, malloc(n * sizeof(uint64_t)), malloc(n * sizeof(uint64_t)), 0};
    if (!c.x || !c.y) exit(1);
    uint64_t x = 0, y = 0, rate = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 5000 == 0) rate = rnd() % 200;
        x += 100000 + rnd() % 1000;
        y += rate + rnd() % (rate / 4 + 1);
        c.x[i] = x;
        c.y[i] = y;
    }
    bench_column("generated", "gen", &c);
    free(c.x);
    free(c.y);
}

static int recorded(const char *path)
{
    pms_olr_series s;
    pms_olr_input_options in;
    pms_olr_input_options_init(&in);
    if (pms_olr_series_load(&s, path, &in)) {
        fprintf(stderr, "bench_olr_speed: %s\n", pms_strerror());
        return 1;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    column c = {s.n, s.x, malloc(s.n * sizeof(uint64_t)), 0};
    for (size_t j = 0; c.y && j < s.k; j++) {
        for (size_t i = 0; i < s.n; i++) c.y[i] = s.y[i * s.k + j];
        bench_column(base, s.names[j], &c);
    }
    free(c.y);
    pms_olr_series_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    size_t gen = 0;
    int first = 1;
    printf("ns per sample per counter (CPU time, median of %d runs of >= %d samples)\n", RUNS, MIN_SAMPLES);
    printf("%-28s %-18s %9s", "series", "counter", "samples");
    for (int w = 0; w < NWHAT; w++) printf(" %9s", names[w]);
    printf("\n");
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--generate") && first + 1 < argc) gen = strtoul(argv[++first], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_olr_speed [--generate N] [SERIES...]\n");
            return 2;
        }
    }
    if (gen) generated(gen);
    int rc = 0;
    for (int i = first; i < argc; i++) rc |= recorded(argv[i]);
    return rc;
}
