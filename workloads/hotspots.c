/* hotspots: functions with known relative execution counts.
 *
 * Five functions share one loop body shape, so their instruction counts are
 * proportional to their iteration counts: hot_a 40%, hot_b 25%, hot_c 20%,
 * hot_d 10%, hot_e 5% of the loop iterations. --expect prints that table.
 * --scale N multiplies all the work (default 1: about a third of a second).
 * --shift N moves N points of the iterations from hot_b to hot_a (hot_a 40+N%, hot_b 25-N%,
 * 0 <= N <= 25; the others keep theirs): the same program with one hot function's share
 * moved by a known amount, for `pmuscope diff`.
 * --rounds N: the calls are interleaved in N rounds (default 100; --spread too); with
 * --rounds 1 each function's loop runs once, as one stretch of instructions (the hardware
 * suite's exact sampling then hits each of its instructions count/period times, within one).
 *
 * --spread runs 16 other functions instead, spread_01..spread_16, with 16, 15, ..., 1
 * parts of 136 of the iterations: many basic blocks whose counts differ by little,
 * so that the sampled order of the blocks goes wrong as samples get fewer. Their
 * loop waits on a 64-bit division, so that the samples of a function fall on few
 * instructions (the one after the division) and not over the whole loop body. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcg_loop.h"

static volatile uint64_t sink;

#define HOT_FUNCTION(name)                                   \
    __attribute__((noinline)) static void name(uint64_t n)   \
    {                                                        \
        uint64_t x = n;                                      \
        LCG_LOOP(x, n)                                       \
        sink += x;                                           \
    }

HOT_FUNCTION(hot_a)
HOT_FUNCTION(hot_b)
HOT_FUNCTION(hot_c)
HOT_FUNCTION(hot_d)
HOT_FUNCTION(hot_e)

static volatile uint64_t divisor = 3;

#define SPREAD_FUNCTION(name)                                \
    __attribute__((noinline)) static void name(uint64_t n)   \
    {                                                        \
        uint64_t x = n | 1, d = divisor;                     \
        for (uint64_t i = 0; i < n; i++)                     \
            x = x / d + 0x9e3779b97f4a7c15ull;               \
        sink += x;                                           \
    }

SPREAD_FUNCTION(spread_01)
SPREAD_FUNCTION(spread_02)
SPREAD_FUNCTION(spread_03)
SPREAD_FUNCTION(spread_04)
SPREAD_FUNCTION(spread_05)
SPREAD_FUNCTION(spread_06)
SPREAD_FUNCTION(spread_07)
SPREAD_FUNCTION(spread_08)
SPREAD_FUNCTION(spread_09)
SPREAD_FUNCTION(spread_10)
SPREAD_FUNCTION(spread_11)
SPREAD_FUNCTION(spread_12)
SPREAD_FUNCTION(spread_13)
SPREAD_FUNCTION(spread_14)
SPREAD_FUNCTION(spread_15)
SPREAD_FUNCTION(spread_16)

static void (*const spread[16])(uint64_t) = {spread_01, spread_02, spread_03, spread_04, spread_05, spread_06,
                                              spread_07, spread_08, spread_09, spread_10, spread_11, spread_12,
                                              spread_13, spread_14, spread_15, spread_16};

static struct {
    const char *name;
    void (*fn)(uint64_t);
    unsigned percent;
} table[] = {{"hot_a", hot_a, 40}, {"hot_b", hot_b, 25}, {"hot_c", hot_c, 20}, {"hot_d", hot_d, 10}, {"hot_e", hot_e, 5}};

int main(int argc, char **argv)
{
    long scale = 1, rounds = 100, shift = 0;
    int spreading = 0, expect = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect") == 0) {
            expect = 1;
        } else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            scale = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--shift") == 0 && i + 1 < argc) {
            shift = strtol(argv[++i], NULL, 10);
            if (shift < 0 || shift > 25) {
                fprintf(stderr, "hotspots: --shift must be between 0 and 25\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--spread") == 0) {
            spreading = 1;
        } else {
            fprintf(stderr, "usage: hotspots [--scale N] [--rounds N] [--shift N] [--spread] [--expect]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (scale < 1 || rounds < 1) {
        fprintf(stderr, "hotspots: --scale and --rounds must be at least 1\n");
        return 2;
    }
    table[0].percent += (unsigned)shift, table[1].percent -= (unsigned)shift;
    if (expect) {
        for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) printf("%s %u\n", table[k].name, table[k].percent);
        return 0;
    }
    if (spreading) { /* spread_k gets 17 - k parts of 136 */
        const uint64_t per_round = 544000ull * (uint64_t)scale;
        for (long round = 0; round < rounds; round++)
            for (uint64_t k = 0; k < 16; k++)
                spread[k](per_round * (16 - k) / 136);
        return 0;
    }
    /* Interleave the calls in rounds so that every function runs throughout the run. */
    const uint64_t per_round = 1000000ull * (uint64_t)scale; /* iterations per round, all functions */
    for (long round = 0; round < rounds; round++)
        for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
            table[k].fn(per_round * table[k].percent / 100);
    return 0;
}
