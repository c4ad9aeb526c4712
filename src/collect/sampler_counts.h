/* Internal: the final counts of a sampling event's group (its PERF_SAMPLE_READ counters),
 * read from the kernel rather than from a sample: what a sample reads stops at the last
 * sample, so the counts after it (a live monitor's last, partial interval) come from here. */
#ifndef PMS_COLLECT_SAMPLER_COUNTS_H
#define PMS_COLLECT_SAMPLER_COUNTS_H
#include "pmuscope/perfdata.h"
#include "pmuscope/sampler.h"

/* Reads the group of sampling event i (the event, then its read counters in their order)
 * in every unit, summed: values[k] holds the k-th member's count and the id that unit 0's
 * samples give it (so pms_attr_by_id() names it); *n the number of members. After the
 * target exited or sampling was disabled, these are the counts at its end. */
int pms__sampler_read_group(const pms_sampler *s, size_t i, pms_read_value *values, size_t max, size_t *n);

#endif
