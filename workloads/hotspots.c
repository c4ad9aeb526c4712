/* hotspots: functions with known relative execution counts.
 *
 * Five functions share one loop body shape, so their instruction counts are
 * proportional to their iteration counts: hot_a 40%, hot_b 25%, hot_c 20%,
 * hot_d 10%, hot_e 5% of the loop iterations. --expect prints that table.
 * --scale N multiplies all the work (default 1: about a third of a second). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

#define HOT_FUNCTION(name)                                   \
    __attribute__((noinline)) static void name(uint64_t n)   \
    {                                                        \
        uint64_t x = n;                                      \
        for (uint64_t i = 0; i < n; i++) {                   \
            x = x * 6364136223846793005ull + 1442695040888963407ull; \
            x ^= x >> 31;                                    \
        }                                                    \
        sink += x;                                           \
    }

HOT_FUNCTION(hot_a)
HOT_FUNCTION(hot_b)
HOT_FUNCTION(hot_c)
HOT_FUNCTION(hot_d)
HOT_FUNCTION(hot_e)

static const struct {
    const char *name;
    void (*fn)(uint64_t);
    unsigned percent;
} table[] = {{"hot_a", hot_a, 40}, {"hot_b", hot_b, 25}, {"hot_c", hot_c, 20}, {"hot_d", hot_d, 10}, {"hot_e", hot_e, 5}};

int main(int argc, char **argv)
{
    long scale = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect") == 0) {
            for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
                printf("%s %u\n", table[k].name, table[k].percent);
            return 0;
        } else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            scale = strtol(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: hotspots [--scale N] [--expect]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (scale < 1) {
        fprintf(stderr, "hotspots: --scale must be at least 1\n");
        return 2;
    }
    /* Interleave the calls in 100 rounds so that every function runs throughout the run. */
    const uint64_t per_round = 1000000ull * (uint64_t)scale; /* iterations per round, all functions */
    for (int round = 0; round < 100; round++)
        for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
            table[k].fn(per_round * table[k].percent / 100);
    return 0;
}
