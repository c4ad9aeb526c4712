/* Offline replay of perf.data samples (perf's or pmuscope's) through the engine. */
#include "phase/assembler.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_ctx {
    pms_assembler a;
} replay_ctx;

static int on_sample(const pms_sample *s, void *ctx)
{
    return pms__assembler_sample(&((replay_ctx *)ctx)->a, s);
}

/* The fixed period that every sampling event but the interval event shares, or 0 (none,
 * frequency mode, or several periods): what an interval of per-CPU counts is cut by. */
static uint64_t common_sample_period(const pms_perfdata_attr *attrs, size_t nattrs, const pms_perfdata_attr *interval)
{
    uint64_t period = 0;
    for (size_t i = 0; i < nattrs; i++) {
        const struct perf_event_attr *at = &attrs[i].attr;
        if (&attrs[i] == interval || (!at->freq && !at->sample_period)) continue; /* read-only members */
        if (at->freq || (period && at->sample_period != period)) return 0;
        period = at->sample_period;
    }
    return period;
}

int pms_phase_replay_perfdata(pms_phase_engine *e, const char *path, const pms_phase_source *src,
                              pms_phase_event_fn fn, void *ctx)
{
    pms_perfdata_reader *r;
    int rc = pms_perfdata_open(&r, path);
    if (rc) return rc;
    size_t nattrs = pms_perfdata_nattrs(r);
    pms_perfdata_attr *attrs = calloc(nattrs ? nattrs : 1, sizeof *attrs);
    if (!attrs) {
        pms_perfdata_close(r);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nattrs; i++) attrs[i] = *pms_perfdata_get_attr(r, i);
    replay_ctx rc_ctx;
    /* A copy of the attributes as one array, to look read values up by id; samples point
     * at the reader's own, which is what the interval event is compared with. */
    pms__assembler_init(&rc_ctx.a, e, src, attrs, nattrs, fn, ctx);
    if (src && src->interval_event) {
        const pms_perfdata_attr *found = pms__assembler_find_event(attrs, nattrs, src->interval_event);
        if (found)
            pms__assembler_set_interval_event(&rc_ctx.a, pms_perfdata_get_attr(r, (size_t)(found - attrs)),
                                              common_sample_period(attrs, nattrs, found));
        else {
            char names[512] = "";
            for (size_t i = 0; i < nattrs; i++) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         attrs[i].name ? attrs[i].name : "?");
            }
            rc = pms__fail(PMS_ENOENT, "%s: no event named '%s' to end the intervals (the file has: %s)", path,
                          src->interval_event, names);
        }
    }
    if (!rc) {
        pms_perfdata_handlers h = {.sample = on_sample, .ctx = &rc_ctx};
        rc = pms_perfdata_read(r, &h);
        if (!rc) rc = pms__assembler_finish(&rc_ctx.a);
    }
    pms__assembler_free(&rc_ctx.a);
    free(attrs);
    pms_perfdata_close(r);
    return rc;
}
