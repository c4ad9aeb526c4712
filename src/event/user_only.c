/* perf's fallback for perf_event_paranoid (evsel__fallback in tools/perf/util/evsel.c): where
 * the kernel refuses an event because it would count the kernel, and the paranoid level lets
 * this user count user space, the event is counted in user space only and its name says so
 * ("task-clock:u"), as `perf stat` and `perf record` do at Debian's default paranoid level 2. */
#include "event/event_internal.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

/* perf's new name: ":u" appended, or "u" where the name already ends in modifiers or a
 * sysfs term list ("cycles:p" -> "cycles:pu", "cpu/cycles/" -> "cpu/cycles/u"). A libpfm4
 * name has colons of its own (INST_RETIRED:ANY_P), so it always gets ":u". */
static int user_only_name(const pms_event *ev, char *out, size_t size)
{
    const char *colon = strrchr(ev->name, ':');
    bool has_mods = ev->source != PMS_EVSRC_PFM && colon && pms__modifiers_valid(colon + 1);
    bool sysfs = ev->name[0] && ev->name[strlen(ev->name) - 1] == '/';
    int n = snprintf(out, size, "%s%su", ev->name, has_mods || sysfs ? "" : ":");
    return n > 0 && (size_t)n < size ? PMS_OK : pms__fail(PMS_EINVAL, "%s: the event name is too long", ev->name);
}

int pms__event_user_only(const pms_event *ev, pms_event *user)
{
    *user = *ev;
    user->attr.exclude_kernel = 1;
    user->attr.exclude_hv = 1;
    return user_only_name(ev, user->name, sizeof user->name);
}

int pms_event_probe_user_fallback(pms_event *ev, int *user_only)
{
    *user_only = 0;
    int r = pms_event_probe(ev);
    /* As perf: only for a refusal at paranoid 2 or more of an event that counts the kernel
     * and user space both (an event asked for as kernel-only stays refused). */
    if (r != PMS_EPERM || ev->attr.exclude_kernel || ev->attr.exclude_user || pms_event_paranoid() < 2) return r;
    pms_event user;
    int n = pms__event_user_only(ev, &user);
    if (n) return n;
    r = pms_event_probe(&user);
    if (r == PMS_EPERM) return r; /* paranoid 3 and above, or a security module: its own advice */
    *ev = user;
    *user_only = 1;
    return r;
}
