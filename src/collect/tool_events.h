/* Internal: the tool events of a counter set (pmuscope/event.h), measured rather than opened. */
#ifndef PMS_COLLECT_TOOL_EVENTS_H
#define PMS_COLLECT_TOOL_EVENTS_H
#include "pmuscope/counter.h"

#include <sys/resource.h>

/* Sets the tool events' counts (cumulative, in ns, as counter reads are): duration_time to
 * elapsed_ns; user_time and system_time from ru, or <not counted> without one (intervals,
 * attached processes), as perf shows them. A zero time is <not counted>, as perf's. */
void pms__tool_counts_fill(const pms_counter *c, pms_count *counts, uint64_t elapsed_ns, const struct rusage *ru);
#endif
