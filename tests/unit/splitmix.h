/* A small seeded random generator for tests (splitmix64): the same series on every run. */
#ifndef PMS_TEST_SPLITMIX_H
#define PMS_TEST_SPLITMIX_H
#include <stdint.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
/* uniform enough in [0, n) for tests; 0 for n = 0 */
static inline uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

#endif
