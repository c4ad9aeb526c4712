/* perf's event modifiers: u (user), k (kernel), h (hypervisor), p..ppp (precise), D (pinned:
 * always on a counter, never multiplexed, or not counted at all). */
#include "event/event_internal.h"
#include "util/error.h"

#include <string.h>

bool pms__modifiers_valid(const char *s)
{
    return *s && strspn(s, "ukhpD") == strlen(s);
}

int pms__modifiers_apply(const char *mods, const char *what, struct perf_event_attr *attr)
{
    bool u = false, k = false, h = false;
    unsigned precise = 0;
    bool pinned = false;
    for (const char *p = mods; *p; p++) {
        switch (*p) {
        case 'u': u = true; break;
        case 'k': k = true; break;
        case 'h': h = true; break;
        case 'D': pinned = true; break;
        case 'p':
            if (++precise > 3)
                return pms__fail(PMS_EINVAL, "%s: too many 'p' modifiers (at most :ppp)", what);
            break;
        default:
            return pms__fail(PMS_EINVAL, "%s: unknown modifier '%c' in ':%s' (expected u, k, h, p or D)", what, *p,
                            mods);
        }
    }
    /* As perf: naming any privilege level counts only the levels named. */
    if (u || k || h) {
        attr->exclude_user = !u;
        attr->exclude_kernel = !k;
        attr->exclude_hv = !h;
    }
    if (precise) attr->precise_ip = precise;
    if (pinned) attr->pinned = 1;
    return PMS_OK;
}
