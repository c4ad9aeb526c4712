/* Preparing an event list for a command: parse, check every event on this machine and
 * handle the ones it cannot count by policy (see include/pmuscope/event.h). */
#include "pmuscope/event.h"

#include "util/error.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_event_set_free(pms_event_set *s)
{
    free(s->events);
    free(s->notes);
    *s = (pms_event_set){0};
}

/* Keeps why ev cannot be counted (reason) and what stands in for it ("" if nothing), or
 * (user_only) that it is counted in user space only, as substitute. */
static int note(pms_event_set *s, size_t *cap, const char *event, const char *substitute, const char *reason,
                int user_only)
{
    if (pms__grow(&s->notes, cap, s->nnotes + 1, sizeof *s->notes)) return pms__fail(PMS_ENOMEM, "out of memory");
    pms_event_note *n = &s->notes[s->nnotes++];
    snprintf(n->event, sizeof n->event, "%s", event);
    snprintf(n->substitute, sizeof n->substitute, "%s", substitute);
    snprintf(n->reason, sizeof n->reason, "%s", reason);
    n->user_only = user_only;
    return PMS_OK;
}

/* The time event that stands in for ev; for counting it is named "task-clock(for EVENT)", so
 * that the column says what was measured and for what. */
static int substitute(pms_event *ev, pms_fallback_use use)
{
    pms_event sub;
    int r = pms_event_fallback(ev, use, &sub);
    if (r) return r;
    if (use == PMS_FALLBACK_COUNTING) {
        char name[2 * PMS_EVENT_NAME_MAX + 16];
        snprintf(name, sizeof name, "%s(for %s)", sub.name, ev->name);
        if (strlen(name) >= sizeof sub.name)
            return pms__fail(PMS_EINVAL, "%s: the event name is too long to name its substitute", ev->name);
        memcpy(sub.name, name, sizeof sub.name);
    }
    *ev = sub;
    return PMS_OK;
}

static int check(pms_event_set *s, size_t *cap, pms_event *ev, pms_fallback_use use, pms_unsupported_policy policy)
{
    if (use == PMS_FALLBACK_SAMPLING && pms_event_is_tool(ev))
        return pms__fail(PMS_EINVAL, "%s: a tool event (a time pmuscope stat measures) cannot be sampled", ev->name);
    char asked[PMS_EVENT_NAME_MAX];
    memcpy(asked, ev->name, sizeof asked);
    int user_only;
    int r = pms_event_probe_user_fallback(ev, &user_only);
    if (user_only) {
        char reason[sizeof s->notes->reason];
        snprintf(reason, sizeof reason,
                 "perf_event_paranoid is %d: this user may count user space only, so %s counts %s (as perf does); "
                 "run as root or set kernel.perf_event_paranoid=1 to count the kernel too",
                 pms_event_paranoid(), asked, ev->name);
        int n = note(s, cap, asked, ev->name, reason, 1);
        if (n) return n;
    }
    if (r == PMS_OK || r != PMS_ENOTSUP || policy == PMS_UNSUPPORTED_FAIL) return r;
    char reason[sizeof s->notes->reason];
    snprintf(reason, sizeof reason, "%s", pms_strerror());
    if (policy == PMS_UNSUPPORTED_KEEP) return note(s, cap, ev->name, "", reason, 0);
    memcpy(asked, ev->name, sizeof asked);
    if ((r = substitute(ev, use)) != PMS_OK) return r;
    return note(s, cap, asked, ev->name, reason, 0);
}

int pms_event_set_prepare(pms_event_set *out, const char *spec, pms_fallback_use use, pms_unsupported_policy policy)
{
    *out = (pms_event_set){0};
    int r = pms_event_list_parse(spec, &out->events, &out->n);
    size_t cap = 0;
    for (size_t i = 0; r == PMS_OK && i < out->n; i++) r = check(out, &cap, &out->events[i], use, policy);
    if (r) pms_event_set_free(out);
    return r;
}
