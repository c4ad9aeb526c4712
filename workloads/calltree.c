/* calltree: a known call tree, for call graphs (record -g, report --children).
 *
 * main calls branch_a, branch_b and recurse in 100 rounds. branch_a calls spin_x (30 parts
 * of 100 of the work) and spin_y (20), branch_b calls spin_y (20), recurse calls itself
 * 5 deep and then spin_z (30). So spin_y has 40% of the samples, branch_a 50% with its
 * callees (perf report --children), branch_b 20%, each level of recurse 30%: a sample is
 * counted once in a function however often its stack holds it. Built with frame pointers
 * and without inlining, so that perf record -g sees every frame.
 * --scale N multiplies the work (default 1: about a third of a second). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcg_loop.h"

static volatile uint64_t sink;

/* Called by the spinning functions after their loop: a function that calls none gets no
 * frame from gcc 12 even with -fno-omit-frame-pointer, and a frame-pointer callchain of
 * a sample in it would skip its caller. */
__attribute__((noinline)) static void keep(uint64_t x) { sink += x; }

#define SPIN_FUNCTION(name)                                  \
    __attribute__((noinline)) static uint64_t name(uint64_t n) \
    {                                                        \
        uint64_t x = n;                                      \
        LCG_LOOP(x, n)                                       \
        keep(x);                                             \
        return x;                                            \
    }

SPIN_FUNCTION(spin_x)
SPIN_FUNCTION(spin_y)
SPIN_FUNCTION(spin_z)

/* Each caller uses its callee's result after the call, so that no call becomes a jump. */
__attribute__((noinline)) static uint64_t branch_a(uint64_t n) { return spin_x(n * 30 / 100) + spin_y(n * 20 / 100) + 1; }
__attribute__((noinline)) static uint64_t branch_b(uint64_t n) { return spin_y(n * 20 / 100) + 1; }
__attribute__((noinline)) static uint64_t recurse(int depth, uint64_t n)
{
    return (depth ? recurse(depth - 1, n) : spin_z(n * 30 / 100)) + 1;
}

int main(int argc, char **argv)
{
    long scale = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            scale = strtol(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: calltree [--scale N]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (scale < 1) {
        fprintf(stderr, "calltree: --scale must be at least 1\n");
        return 2;
    }
    const uint64_t per_round = 1000000ull * (uint64_t)scale;
    for (int round = 0; round < 100; round++) sink += branch_a(per_round) + branch_b(per_round) + recurse(5, per_round);
    return 0;
}
