/* The loop the workloads spin in: a 64-bit LCG step and a xorshift per iteration, so that
 * every iteration costs the same and the compiler can fold none of it away. A macro, not a
 * function: the workloads are built with -fno-inline and each spinning function must keep
 * its own loop (its samples are its own). */
#ifndef PMS_WORKLOADS_LCG_LOOP_H
#define PMS_WORKLOADS_LCG_LOOP_H
#include <stdint.h>

#define LCG_LOOP(x, n)                                                      \
    for (uint64_t lcg_i_ = 0; lcg_i_ < (n); lcg_i_++) {                     \
        (x) = (x) * 6364136223846793005ull + 1442695040888963407ull;        \
        (x) ^= (x) >> 31;                                                   \
    }
#endif
