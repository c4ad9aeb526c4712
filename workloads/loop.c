/* loop N: N iterations of a loop of exactly LOOP_INSNS machine instructions, written in
 * assembly so that no compiler changes it. Two runs then differ in their user-space instruction
 * count by exactly LOOP_INSNS x the difference of their N: the known count the hardware suite
 * (tests/pmu) checks the PMU paths against. `loop --insns` prints LOOP_INSNS (0 where this
 * architecture has no such loop and a plain C loop runs instead). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Five instructions an iteration: two adds, an exclusive or, the decrement and the branch. */
#if defined(__aarch64__)
#define LOOP_BODY "1: add %1, %1, #1\n\teor %2, %2, %1\n\tadd %2, %2, #3\n\tsubs %0, %0, #1\n\tb.ne 1b"
#elif defined(__x86_64__)
#define LOOP_BODY "1: add $1, %1\n\txor %1, %2\n\tadd $3, %2\n\tsub $1, %0\n\tjnz 1b"
#endif

#ifdef LOOP_BODY
#define LOOP_INSNS 5
static unsigned long run(unsigned long n)
{
    unsigned long a = 0, b = 0;
    if (n == 0) return 0;
    __asm__ volatile(LOOP_BODY : "+r"(n), "+r"(a), "+r"(b) : : "cc");
    return b;
}
#else
#define LOOP_INSNS 0
static unsigned long run(unsigned long n)
{
    volatile unsigned long b = 0;
    for (unsigned long i = 0; i < n; i++) b += i;
    return b;
}
#endif

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--insns") == 0) {
        printf("%d\n", LOOP_INSNS);
        return 0;
    }
    char *end;
    unsigned long n = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || argv[1][0] == '-') {
        fprintf(stderr, "usage: loop N | loop --insns\n");
        return 2;
    }
    return run(n) == 1 ? 3 : 0; /* the result is used, so the loop stays */
}
