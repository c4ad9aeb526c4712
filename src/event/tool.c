/* perf's tool events (tools/perf/util/evsel.c: duration_time, user_time, system_time):
 * names the parser accepts and list shows; the counter set measures them (collect/tool_events.c). */
#include "event/event_internal.h"
#include "util/error.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *name, *description;
} tools[] = {
    [PMS_EVENT_TOOL_DURATION] = {"duration_time", "wall time of the run (of the interval, counting at intervals), ns"},
    [PMS_EVENT_TOOL_USER] = {"user_time", "user CPU time of the command (rusage), ns"},
    [PMS_EVENT_TOOL_SYSTEM] = {"system_time", "system CPU time of the command (rusage), ns"},
};

bool pms__tool_lookup(const char *name, uint64_t *config)
{
    for (size_t k = 0; k < sizeof tools / sizeof tools[0]; k++)
        if (strcasecmp(name, tools[k].name) == 0) {
            *config = k;
            return true;
        }
    return false;
}

int pms__tool_foreach(pms_event_visit_fn fn, void *ctx)
{
    for (size_t k = 0; k < sizeof tools / sizeof tools[0]; k++) {
        int r = fn(tools[k].name, tools[k].description, PMS_EVSRC_TOOL, ctx);
        if (r) return r;
    }
    return 0;
}

int pms_event_is_tool(const pms_event *ev) { return ev->attr.type == PMS_EVENT_TOOL_TYPE; }
