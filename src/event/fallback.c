/* Time-based software events that stand in for hardware events (--fallback). */
#include "event/event_internal.h"
#include "util/error.h"

#include <string.h>

int pms_event_is_software(const pms_event *ev)
{
    return ev->attr.type == PERF_TYPE_SOFTWARE;
}

int pms_event_counts_time(uint32_t type, uint64_t config)
{
    return type == PERF_TYPE_SOFTWARE && (config == PERF_COUNT_SW_CPU_CLOCK || config == PERF_COUNT_SW_TASK_CLOCK);
}

int pms_event_fallback(const pms_event *ev, pms_fallback_use use, pms_event *out)
{
    if (pms_event_is_software(ev)) {
        *out = *ev;
        return PMS_OK;
    }
    pms_event sub;
    int r = pms_event_parse(use == PMS_FALLBACK_SAMPLING ? "cpu-clock" : "task-clock", &sub);
    if (r) return r;
    /* Keep the privilege levels the user asked for; precise levels mean nothing here. */
    sub.attr.exclude_user = ev->attr.exclude_user;
    sub.attr.exclude_kernel = ev->attr.exclude_kernel;
    sub.attr.exclude_hv = ev->attr.exclude_hv;
    sub.group = ev->group;
    *out = sub;
    return PMS_OK;
}
