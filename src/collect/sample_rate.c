/* The kernel's limit on sampling frequencies: perf_event_open refuses a higher -F with
 * EINVAL, which reads as a bad config; perf record lowers the rate to it instead. */
#include "pmuscope/sampler.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>

#define MAX_SAMPLE_RATE_PATH "/proc/sys/kernel/perf_event_max_sample_rate"

int pms_sampler_max_sample_rate(uint64_t *max)
{
    *max = 0;
    FILE *f = fopen(MAX_SAMPLE_RATE_PATH, "r");
    if (!f) return pms__fail_errno(PMS_EIO, errno, "%s", MAX_SAMPLE_RATE_PATH);
    unsigned long long v;
    int got = fscanf(f, "%llu", &v);
    fclose(f);
    if (got != 1) return pms__fail(PMS_EFORMAT, "%s: expected a number of samples per second", MAX_SAMPLE_RATE_PATH);
    *max = v;
    return PMS_OK;
}
