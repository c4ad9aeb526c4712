/* Every event name this machine knows, for `pmuscope list`. */
#include "event/event_internal.h"

int pms_event_foreach(pms_event_visit_fn fn, void *ctx)
{
    int r = pms__generic_foreach(fn, ctx);
    if (!r) r = pms__sysfs_foreach(fn, ctx);
    if (!r) r = pms__pfm_foreach(fn, ctx);
    if (!r) r = pms__tool_foreach(fn, ctx);
    return r;
}
