/* pmu_periods SPEC BASE SEED COUNT: the first COUNT periods that the sampler's period
 * generator gives for --randomize=SPEC -c BASE --seed SEED, one a line, through the public
 * API. The hardware suite compares them with the periods a recording shows (tests/pmu). */
#include "pmuscope/error.h"
#include "pmuscope/sampler.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: pmu_periods mask:BITS|exp BASE SEED COUNT\n");
        return 2;
    }
    pms_randomize r;
    if (pms_randomize_parse(argv[1], &r) < 0) {
        fprintf(stderr, "pmu_periods: %s\n", pms_strerror());
        return 2;
    }
    r.seed = strtoull(argv[3], NULL, 10);
    uint64_t base = strtoull(argv[2], NULL, 10);
    unsigned long count = strtoul(argv[4], NULL, 10);
    pms_period_gen *g;
    if (pms_period_gen_create(&g, &r, base) < 0) {
        fprintf(stderr, "pmu_periods: %s\n", pms_strerror());
        return 1;
    }
    for (unsigned long k = 0; k < count; k++) printf("%" PRIu64 "\n", pms_period_gen_next(g));
    pms_period_gen_destroy(g);
    return 0;
}
