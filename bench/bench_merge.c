/* Merges the perf.data and pprof files named on the command line with pms_merge (as
 * `pmuscope report FILE...` does, without printing) and prints how many profiles a
 * second that is, with the merged rows: bench-merge.sh runs it beside go tool pprof. */
#include "pmuscope/error.h"
#include "pmuscope/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_merge FILE...\n");
        return 2;
    }
    double t0 = now();
    pms_merge *m = NULL;
    if (pms_merge_create(&m)) return fprintf(stderr, "bench_merge: %s\n", pms_strerror()), 1;
    for (int i = 1; i < argc; i++)
        if (pms_merge_add_file(m, argv[i])) {
            fprintf(stderr, "bench_merge: %s\n", pms_strerror());
            pms_merge_destroy(m);
            return 1;
        }
    size_t rows = 0;
    for (size_t e = 0; e < pms_merge_nevents(m); e++) {
        pms_profile_row *r = NULL;
        size_t n = 0;
        if (pms_merge_table(m, e, 0.95, &r, &n) == 0) rows += n;
        free(r);
    }
    double s = now() - t0;
    printf("%d profiles in %.3f s: %.0f profiles/s, %zu merged rows\n", argc - 1, s, (argc - 1) / s, rows);
    pms_merge_destroy(m);
    return 0;
}
