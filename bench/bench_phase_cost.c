/* Cost of phase classification and prediction per interval (Sembrant's thesis): signature
 * hashing, the classifier and all four predictors, on synthetic intervals of 4 phases
 * with S samples each. Prints the median of 7 runs and its ratio to the peer, the
 * default interval it runs once per (10 ms of task-clock without a PMU): the share of
 * one CPU that the engine itself costs.
 * usage: bench_phase_cost [SAMPLES_PER_INTERVAL] [INTERVALS] */
#include "pmuscope/phase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nanoseconds per interval of one pass over the stream. */
static double run(const pms_phase_config *cfg, const uint64_t *ips, size_t samples, size_t intervals)
{
    pms_phase_engine *e;
    if (pms_phase_engine_create(&e, cfg, 1)) {
        fprintf(stderr, "bench_phase_cost: %s\n", pms_strerror());
        exit(1);
    }
    double t0 = now();
    for (size_t i = 0; i < intervals; i++) {
        pms_phase_interval iv = {.addresses = ips + i * samples, .n = samples, .metric = 1};
        pms_phase_event ev;
        pms_phase_engine_push(e, &iv, &ev);
    }
    double t = now() - t0;
    pms_phase_engine_destroy(e);
    return t / (double)intervals * 1e9;
}

int main(int argc, char **argv)
{
    size_t samples = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000, intervals = argc > 2 ? strtoul(argv[2], NULL, 10) : 20000;
    if (!samples || !intervals) {
        fprintf(stderr, "usage: bench_phase_cost [SAMPLES_PER_INTERVAL] [INTERVALS]\n");
        return 2;
    }
    uint64_t *ips = malloc(samples * intervals * sizeof *ips), x = 88172645463325252ull;
    if (!ips) return 1;
    for (size_t i = 0; i < intervals; i++) {
        unsigned phase = (unsigned)(i / 13 + i / 7) % 4; /* a mix of run lengths */
        for (size_t j = 0; j < samples; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            ips[i * samples + j] = 0x401000 + phase * 0x400 + (x % 16) * 4;
        }
    }
    const struct {
        const char *name;
        pms_classifier_kind kind;
    } variants[] = {{"distance", PMS_CLASSIFIER_DISTANCE}, {"kmeans", PMS_CLASSIFIER_KMEANS}};
    const double peer_ns = 10e6; /* one default interval: 10 ms of task-clock */
    printf("phase engine, %zu samples per interval, %zu intervals, median of 7 runs\n", samples, intervals);
    for (size_t v = 0; v < 2; v++) {
        pms_phase_config cfg;
        pms_phase_config_default(&cfg);
        cfg.classifier.kind = variants[v].kind;
        double t[7];
        for (int r = 0; r < 7; r++) t[r] = run(&cfg, ips, samples, intervals);
        qsort(t, 7, sizeof t[0], cmp);
        printf("  %-9s %8.0f ns per interval (all 4 predictors); ratio to a 10 ms interval: %.5f%%\n",
               variants[v].name, t[3], 100 * t[3] / peer_ns);
    }
    free(ips);
    return 0;
}
