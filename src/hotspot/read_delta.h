/* Internal: what a counter read at a sample (PERF_SAMPLE_READ) counted since the previous
 * sample read it, per sample id: perf's deliver_sample_value (tools/perf/util/session.c)
 * weighs such a value by this increment, the first read by its whole value. */
#ifndef PMS_HOTSPOT_READ_DELTA_H
#define PMS_HOTSPOT_READ_DELTA_H
#include "util/keymap.h"

#include <stdint.h>

/* *delta: value minus the id's last value (0 when the counter went back); the id's last
 * value becomes value. -1 when out of memory. */
static inline int pms__read_delta(pms_keymap *last, uint64_t id, uint64_t value, uint64_t *delta)
{
    uint64_t *slot = pms__keymap_upsert(last, id, 0, 0);
    if (!slot) return -1;
    *delta = value >= *slot ? value - *slot : 0;
    *slot = value;
    return 0;
}

#endif
