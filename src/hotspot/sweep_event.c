/* The sampling event of a sweep: the caller's, or cycles:u, or the time event
 * that stands in for it where no PMU counts cycles (a VM). */
#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "pmuscope/hotspot_report.h"

#include <stdio.h>

int pms_hotspot_sweep_choose_event(pms_hotspot_sweep *sw, const char *event, bool fallback, bool *machine_refused)
{
    if (machine_refused) *machine_refused = false;
    pms_event ev;
    const char *want = event ? event : "cycles:u";
    int rc = pms_event_parse(want, &ev);
    if (rc < 0) return rc;
    /* perf_event_paranoid 2: cpu-clock becomes cpu-clock:u, as in perf */
    rc = pms_event_probe_user_fallback(&ev, &sw->user_only);
    if (rc == PMS_ENOTSUP && (!event || fallback)) {
        pms_event fb;
        /* the levels asked for stay in the substitute's name (cycles:u samples user time only:
         * cpu-clock:u), and without kernel samples a recording needs no kernel map */
        if ((rc = pms_event_fallback(&ev, PMS_FALLBACK_SAMPLING, &fb)) < 0) return rc;
        snprintf(sw->event, sizeof sw->event, "%s", fb.name);
        sw->time_based = 1;
        return PMS_OK;
    }
    if (rc < 0) {
        if (machine_refused) *machine_refused = true;
        return rc;
    }
    snprintf(sw->event, sizeof sw->event, "%s", ev.name);
    sw->time_based = pms_event_counts_time(ev.attr.type, ev.attr.config);
    return PMS_OK;
}
