/* loop N: N iterations of a loop of exactly LOOP_INSNS machine instructions, written in
 * assembly so that no compiler changes it. Two runs then differ in their user-space instruction
 * count by exactly LOOP_INSNS x the difference of their N: the known count the hardware suite
 * (tests/pmu) checks the PMU paths against. `loop --insns` prints LOOP_INSNS (0 where this
 * architecture has no such loop and a plain C loop runs instead): workloads/known_loop.h. */
#include "known_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

KNOWN_LOOP_FUNCTION(run)

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--insns") == 0) {
        printf("%d\n", KNOWN_LOOP_INSNS);
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
