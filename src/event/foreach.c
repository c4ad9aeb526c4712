/* Every event name this machine knows, for `pmuscope list`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strcasestr */
#endif
#include "event/event_internal.h"
#include "pmuscope/error.h"

#include <stdio.h>
#include <string.h>

int pms_event_foreach(pms_event_visit_fn fn, void *ctx)
{
    int r = pms__generic_foreach(fn, ctx);
    if (!r) r = pms__sysfs_foreach(fn, ctx);
    if (!r) r = pms__pfm_foreach(fn, ctx);
    if (!r) r = pms__tool_foreach(fn, ctx);
    return r;
}

static const char *kind_of(const pms_event *ev, pms_event_source src)
{
    switch (src) {
    case PMS_EVSRC_GENERIC:
        return ev->attr.type == PERF_TYPE_SOFTWARE ? "software" : ev->attr.type == PERF_TYPE_HW_CACHE ? "cache"
                                                                                                  : "hardware";
    case PMS_EVSRC_RAW: return "raw";
    case PMS_EVSRC_SYSFS: return "sysfs";
    case PMS_EVSRC_PFM: return "libpfm4";
    case PMS_EVSRC_TOOL: return "tool";
    }
    return "?";
}

struct probing {
    const char *pattern;
    pms_event_listing_fn fn;
    void *ctx;
};

static int probe_one(const char *name, const char *description, pms_event_source src, void *ctx)
{
    const struct probing *p = ctx;
    if (p->pattern && !strcasestr(name, p->pattern)) return 0;
    pms_event ev = {0};
    int user_only = 0;
    int r = pms_event_parse(name, &ev);
    /* as stat and record count it: in user space only where perf_event_paranoid allows no more */
    if (r == PMS_OK) r = pms_event_probe_user_fallback(&ev, &user_only);
    char reason[512] = "";
    if (r != PMS_OK) { /* the message without the leading "name: " (or "name:u: ") */
        const char *msg = pms_strerror();
        const char *probed = user_only ? ev.name : name;
        size_t n = strlen(probed);
        if (strncmp(msg, probed, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ') msg += n + 2;
        snprintf(reason, sizeof reason, "%s", msg);
    }
    pms_event_listing e = {.name = name, .description = description, .kind = kind_of(&ev, src),
                           .available = r == PMS_OK, .reason = reason,
                           .user_only = user_only && r == PMS_OK ? pms_event_paranoid() : 0,
                           .counted_as = user_only && r == PMS_OK ? ev.name : name};
    return p->fn(&e, p->ctx);
}

int pms_event_foreach_probed(const char *pattern, pms_event_listing_fn fn, void *ctx)
{
    struct probing p = {pattern, fn, ctx};
    return pms_event_foreach(probe_one, &p);
}
