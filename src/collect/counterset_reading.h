/* Internal: a counter set's raw readings, for the region markers (src/region), which keep
 * their own differences and need none of a pms_count's scaling on the way. */
#ifndef PMS_COLLECT_COUNTERSET_READING_H
#define PMS_COLLECT_COUNTERSET_READING_H
#include "pmuscope/counterset.h"

#include <stdint.h>

typedef struct counter_reading {
    uint64_t raw, enabled, running; /* cumulative since the set was opened */
} counter_reading;

/* Reads every event of s (started or not) into now[n]: user space where it can, else read(2).
 * An event that is not supported reads 0. */
int pms__counterset_snapshot(pms_counterset *s, counter_reading *now);

#endif
