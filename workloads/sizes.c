/* sizes N: a kernel whose work grows with N, for cycle estimation (seed 004).
 *
 * For size N it builds an array of N * 262144 integers, sorts it with a plain
 * merge sort, then makes N passes of strided reads over it. The work grows as
 * N log N plus N^2 strided accesses, and the memory footprint grows with N, so
 * the mix of events (instructions, cache misses, branches) shifts with N: the
 * setting in which a model fitted on small sizes is asked about large ones. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void merge_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

__attribute__((noinline)) static uint64_t strided_passes(const uint32_t *a, size_t n, long passes)
{
    uint64_t s = 0;
    for (long p = 0; p < passes; p++)
        for (size_t i = (size_t)p % 16; i < n; i += 16) s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: sizes N   (N >= 1: the problem size)\n");
        return argc == 2 ? 0 : 2;
    }
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (*end || n < 1 || n > 1000) {
        fprintf(stderr, "sizes: N must be an integer from 1 to 1000, not '%s'\n", argv[1]);
        return 2;
    }
    size_t len = (size_t)n * 262144;
    uint32_t *a = malloc(len * sizeof *a), *tmp = malloc(len * sizeof *tmp);
    if (!a || !tmp) {
        fprintf(stderr, "sizes: out of memory\n");
        return 1;
    }
    uint32_t r = 2463534242u;
    for (size_t i = 0; i < len; i++) {
        r ^= r << 13; r ^= r >> 17; r ^= r << 5;
        a[i] = r;
    }
    merge_sort(a, tmp, len);
    sink = strided_passes(a, len, n);
    free(a);
    free(tmp);
    return 0;
}
