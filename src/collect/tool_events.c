/* perf's tool events in a counter set: the clock and the command's rusage, in ns. */
#include "collect/tool_events.h"

static uint64_t timeval_ns(struct timeval tv) { return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u; }

void pms__tool_counts_fill(const pms_counter *c, pms_count *counts, uint64_t elapsed_ns, const struct rusage *ru)
{
    for (size_t i = 0; i < pms_counter_count(c); i++) {
        const pms_event *ev = pms_counter_event(c, i);
        if (!pms_event_is_tool(ev)) continue;
        uint64_t ns = 0;
        switch (ev->attr.config) {
        case PMS_EVENT_TOOL_DURATION: ns = elapsed_ns; break;
        case PMS_EVENT_TOOL_USER: ns = ru ? timeval_ns(ru->ru_utime) : 0; break;
        case PMS_EVENT_TOOL_SYSTEM: ns = ru ? timeval_ns(ru->ru_stime) : 0; break;
        }
        /* Its own run time is its value: perf's CSV shows the ns again in the run-time column. */
        counts[i] = (pms_count){.raw = ns, .enabled = ns, .running = ns, .state = PMS_COUNT_COUNTED};
        pms_count_scale(&counts[i]);
    }
}
