/* Finding how many events the PMU counts at once: a group that does not fit on the
 * counters is never scheduled (its running time stays 0). */
#include "pmuscope/schedule.h"

#include "util/error.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int busy_work(void)
{
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < 2000000; i++) x += i;
    return (int)(x & 1);
}

/* Opens anchors + the first k events as one group on this thread; *fits tells if it ran. */
static int try_group(const pms_event *anchors, size_t na, const pms_event *events, size_t k, bool *fits)
{
    size_t n = na + k;
    pms_event *g = malloc(n * sizeof *g);
    if (!g) return pms__fail(PMS_ENOMEM, "out of memory");
    memcpy(g, anchors, na * sizeof *g);
    memcpy(g + na, events, k * sizeof *g);
    for (size_t i = 0; i < n; i++) g[i].group = 0;
    pms_counter *c;
    int r = pms_counter_create(g, n, 0, &c);
    free(g);
    if (r) return r;
    pms_count *counts = calloc(n, sizeof *counts);
    if (!counts) {
        pms_counter_destroy(c);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    r = pms_counter_attach(c, getpid());
    if (r == PMS_OK) {
        busy_work();
        r = pms_counter_read(c, counts);
        *fits = r == PMS_OK && counts[0].running > 0;
    } else if (r == PMS_EINVAL || r == PMS_ENOTSUP) {
        *fits = false; /* the kernel refuses a group larger than the PMU */
        r = PMS_OK;
    }
    free(counts);
    pms_counter_destroy(c);
    return r;
}

int pms_schedule_probe_capacity(const pms_event *anchors, size_t na, const pms_event *events, size_t ne,
                                unsigned *capacity)
{
    bool all_software = true;
    for (size_t i = 0; i < ne; i++) /* tool events are measured, not counted either */
        all_software = all_software && (pms_event_is_software(&events[i]) || pms_event_is_tool(&events[i]));
    if (all_software) {
        *capacity = (unsigned)ne;
        return PMS_OK;
    }
    for (size_t k = 1; k <= ne; k++) {
        bool fits = false;
        int r = try_group(anchors, na, events, k, &fits);
        if (r) return r;
        if (!fits) {
            *capacity = (unsigned)(k - 1);
            if (k == 1)
                return pms__fail(PMS_ENOTSUP, "%s does not fit on the counters beside the %zu anchor events",
                                events[0].name, na);
            return PMS_OK;
        }
    }
    *capacity = (unsigned)ne;
    return PMS_OK;
}
