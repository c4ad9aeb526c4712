/* Time-based software events that stand in for hardware events (--fallback). */
#include "event/event_internal.h"
#include "util/error.h"

#include <stdio.h>
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
    /* Keep the privilege levels the user asked for, in the name too ("cycles:u" samples
     * cpu-clock:u); precise levels mean nothing here. */
    sub.attr.exclude_user = ev->attr.exclude_user;
    sub.attr.exclude_kernel = ev->attr.exclude_kernel;
    sub.attr.exclude_hv = ev->attr.exclude_hv;
    const struct perf_event_attr *a = &ev->attr;
    char levels[4] = "";
    if (!a->exclude_user) strcat(levels, "u");
    if (!a->exclude_kernel) strcat(levels, "k");
    if (!a->exclude_hv) strcat(levels, "h");
    if (levels[0] && strlen(levels) < 3) /* some level excluded */
        snprintf(sub.name + strlen(sub.name), sizeof sub.name - strlen(sub.name), ":%s", levels);
    sub.group = ev->group;
    *out = sub;
    return PMS_OK;
}
