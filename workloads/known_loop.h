/* A loop of exactly KNOWN_LOOP_INSNS machine instructions an iteration, in assembly so that no
 * compiler changes it (x86-64 and arm64; elsewhere a C loop, and KNOWN_LOOP_INSNS is 0): two
 * runs differ in their user-space instruction count by exactly KNOWN_LOOP_INSNS x the difference
 * of their iterations, the known count the hardware suite (tests/pmu) checks counters against.
 * (docs/examples/regions.c has its own copy: an example builds alone.) */
#ifndef PMS_WORKLOADS_KNOWN_LOOP_H
#define PMS_WORKLOADS_KNOWN_LOOP_H

/* Five instructions an iteration: two adds, an exclusive or, the decrement and the branch. */
#if defined(__aarch64__)
#define KNOWN_LOOP_BODY "1: add %1, %1, #1\n\teor %2, %2, %1\n\tadd %2, %2, #3\n\tsubs %0, %0, #1\n\tb.ne 1b"
#elif defined(__x86_64__)
#define KNOWN_LOOP_BODY "1: add $1, %1\n\txor %1, %2\n\tadd $3, %2\n\tsub $1, %0\n\tjnz 1b"
#endif

/* Defines static unsigned long NAME(unsigned long n): the loop, n times (a function of the
 * caller's naming, so that its samples carry the caller's name: loop's is run()). */
#ifdef KNOWN_LOOP_BODY
#define KNOWN_LOOP_INSNS 5
#define KNOWN_LOOP_FUNCTION(name)                                                        \
    static unsigned long name(unsigned long n)                                           \
    {                                                                                    \
        unsigned long a = 0, b = 0;                                                      \
        if (n == 0) return 0;                                                            \
        __asm__ volatile(KNOWN_LOOP_BODY : "+r"(n), "+r"(a), "+r"(b) : : "cc");           \
        return b;                                                                        \
    }
#else
#define KNOWN_LOOP_INSNS 0
#define KNOWN_LOOP_FUNCTION(name)                                                        \
    static unsigned long name(unsigned long n)                                           \
    {                                                                                    \
        volatile unsigned long b = 0;                                                    \
        for (unsigned long i = 0; i < n; i++) b += i;                                    \
        return b;                                                                        \
    }
#endif
#endif
