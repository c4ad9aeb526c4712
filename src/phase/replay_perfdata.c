/* Offline replay of perf.data samples (perf's or pmuscope's) through the engines: into one
 * engine, or each thread's into its own (pms_phase_threads). */
#include "phase/assembler.h"
#include "phase/maps.h"
#include "phase/threads_internal.h"
#include "pmuscope/event.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_ctx {
    pms_phase_threads *threads;
    pms_maps *maps;
} replay_ctx;

static int on_sample(const pms_sample *s, void *ctx) { return pms__phase_threads_sample(((replay_ctx *)ctx)->threads, s); }

static int on_mmap(const pms_mmap_event *m, void *ctx) { return pms__maps_add(((replay_ctx *)ctx)->maps, m); }

static int on_task(const pms_task_event *t, void *ctx)
{
    return t->type == PERF_RECORD_FORK ? pms__maps_fork(((replay_ctx *)ctx)->maps, t->ppid, t->pid) : PMS_OK;
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

/* Without an interval event: as many samples as live makes an interval of, where they
 * count CPU time at a fixed period (28 ms of cpu-clock); else 100. */
static uint64_t default_samples(const pms_perfdata_attr *attrs, size_t nattrs)
{
    uint64_t period = common_sample_period(attrs, nattrs, NULL);
    for (size_t i = 0; period && i < nattrs; i++)
        if (attrs[i].attr.sample_period && !pms_event_counts_time(attrs[i].attr.type, attrs[i].attr.config)) period = 0;
    if (!period) return 100;
    uint64_t want = PMS_PHASE_SAMPLES_PER_INTERVAL * PMS_PHASE_SOFTWARE_PERIOD;
    return want / period ? (want + period / 2) / period : 1;
}

/* The file's event names, for a message. */
static void list_names(const pms_perfdata_attr *attrs, size_t nattrs, char *names, size_t size)
{
    names[0] = '\0';
    for (size_t i = 0; i < nattrs; i++) {
        size_t used = strlen(names);
        snprintf(names + used, size - used, "%s%s", i ? ", " : "", attrs[i].name ? attrs[i].name : "?");
    }
}

/* Sets how the file's samples are cut: by the interval event's overflows where its counts
 * are one thread's own (a single count, not inherited), else by the samples. */
static int set_cutting(pms_phase_threads *t, pms_perfdata_reader *r, const pms_perfdata_attr *attrs, size_t nattrs,
                       const char *path, const pms_phase_source *src, pms_phase_event_fn fn, void *ctx,
                       const pms_maps *maps)
{
    pms_cutting cut = {.attrs = attrs, .nattrs = nattrs, .fn = fn, .ctx = ctx,
                       .samples_per_interval = src && src->samples_per_interval ? src->samples_per_interval
                                                                                 : default_samples(attrs, nattrs)};
    if (src && src->interval_event) {
        const pms_perfdata_attr *found = pms__assembler_find_event(attrs, nattrs, src->interval_event);
        if (!found) {
            char names[512];
            list_names(attrs, nattrs, names, sizeof names);
            return pms__fail(PMS_ENOENT, "%s: no event named '%s' to end the intervals (the file has: %s)", path,
                             src->interval_event, names);
        }
        /* samples point at the reader's own attributes: the interval event is compared with those */
        cut.interval = pms_perfdata_get_attr(r, (size_t)(found - attrs));
        cut.sample_period = common_sample_period(attrs, nattrs, found);
        cut.per_thread_counts = found->nids == 1 && !found->attr.inherit;
    }
    pms__phase_threads_cut(t, &cut, maps);
    return PMS_OK;
}

int pms_phase_replay_perfdata_threads(pms_phase_threads *t, const char *path, const pms_phase_source *src,
                                      pms_phase_event_fn fn, void *ctx)
{
    pms_perfdata_reader *r;
    int rc = pms_perfdata_open(&r, path);
    if (rc) return rc;
    size_t nattrs = pms_perfdata_nattrs(r);
    /* A copy of the attributes as one array, to look read values up by id. */
    pms_perfdata_attr *attrs = calloc(nattrs ? nattrs : 1, sizeof *attrs);
    replay_ctx rctx = {.threads = t};
    if (!attrs) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < nattrs; i++) attrs[i] = *pms_perfdata_get_attr(r, i);
    if (!rc) rc = pms__maps_create(&rctx.maps);
    if (!rc) rc = set_cutting(t, r, attrs, nattrs, path, src, fn, ctx, rctx.maps);
    if (!rc) {
        pms_perfdata_handlers h = {.sample = on_sample, .mmap = on_mmap, .task = on_task, .ctx = &rctx};
        rc = pms_perfdata_read(r, &h);
        if (!rc) rc = pms__phase_threads_finish(t);
    }
    pms__phase_threads_uncut(t); /* the events and maps go with the reader */
    pms__maps_free(rctx.maps);
    free(attrs);
    pms_perfdata_close(r);
    return rc;
}

int pms_phase_replay_perfdata(pms_phase_engine *e, const char *path, const pms_phase_source *src,
                              pms_phase_event_fn fn, void *ctx)
{
    pms_phase_threads *t;
    int rc = pms_phase_threads_create(&t, pms_phase_engine_config(e), 0, 0);
    if (rc) return rc;
    rc = pms__phase_threads_adopt(t, e);
    if (!rc) rc = pms_phase_replay_perfdata_threads(t, path, src, fn, ctx);
    pms_phase_threads_destroy(t);
    return rc;
}
