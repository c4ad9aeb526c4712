/* Multi-run schedules: split, record, merge (see include/pmuscope/schedule.h). */
#include "pmuscope/schedule.h"

#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pms_schedule {
    pms_event *anchors, *events;
    size_t na, ne, per_run, nruns;
    pms_event *run_events;  /* scratch: the events of the run last asked for */
    pms_stat_value *values; /* nruns x (na + per_run), as recorded */
    bool *recorded;
};

/* Copies the events that are not anchors (those are measured in every run anyway). */
static size_t drop_anchors(pms_event *kept, const pms_event *events, size_t n, const pms_event *anchors, size_t na)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool dup = false;
        for (size_t a = 0; a < na; a++) dup = dup || strcmp(events[i].name, anchors[a].name) == 0;
        if (!dup) kept[k++] = events[i];
    }
    return k;
}

int pms_schedule_create(const pms_event *anchors, size_t na, const pms_event *events, size_t ne, unsigned per_run,
                        pms_schedule **out)
{
    *out = NULL;
    if (ne == 0) return pms__fail(PMS_EINVAL, "no events to schedule");
    pms_schedule *s = calloc(1, sizeof *s);
    if (!s) return pms__fail(PMS_ENOMEM, "out of memory");
    s->na = na;
    s->anchors = malloc((na ? na : 1) * sizeof *s->anchors);
    s->events = malloc(ne * sizeof *s->events);
    if (!s->anchors || !s->events) {
        pms_schedule_destroy(s);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    memcpy(s->anchors, anchors, na * sizeof *anchors);
    s->ne = drop_anchors(s->events, events, ne, anchors, na);
    int r = s->ne == 0 ? pms__fail(PMS_EINVAL, "every event is an anchor; nothing to schedule")
            : per_run == 0 ? pms_schedule_probe_capacity(anchors, na, s->events, s->ne, &per_run)
            : PMS_OK;
    if (r) {
        pms_schedule_destroy(s);
        return r;
    }
    s->per_run = per_run < s->ne ? per_run : s->ne;
    s->nruns = (s->ne + s->per_run - 1) / s->per_run;
    s->run_events = malloc((na + s->per_run) * sizeof *s->run_events);
    s->values = calloc(s->nruns * (na + s->per_run), sizeof *s->values);
    s->recorded = calloc(s->nruns, sizeof *s->recorded);
    if (!s->run_events || !s->values || !s->recorded) {
        pms_schedule_destroy(s);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    *out = s;
    return PMS_OK;
}

size_t pms_schedule_anchor_count(const pms_schedule *s) { return s->na; }
size_t pms_schedule_event_count(const pms_schedule *s) { return s->ne; }
unsigned pms_schedule_per_run(const pms_schedule *s) { return (unsigned)s->per_run; }

void pms_schedule_destroy(pms_schedule *s)
{
    if (!s) return;
    free(s->anchors);
    free(s->events);
    free(s->run_events);
    free(s->values);
    free(s->recorded);
    free(s);
}

size_t pms_schedule_runs(const pms_schedule *s) { return s->nruns; }

static size_t run_size(const pms_schedule *s, size_t r)
{
    size_t first = r * s->per_run;
    return s->ne - first < s->per_run ? s->ne - first : s->per_run;
}

const pms_event *pms_schedule_run_events(const pms_schedule *s, size_t r, size_t *n)
{
    if (r >= s->nruns) return NULL;
    size_t m = run_size(s, r);
    memcpy(s->run_events, s->anchors, s->na * sizeof *s->anchors);
    memcpy(s->run_events + s->na, s->events + r * s->per_run, m * sizeof *s->events);
    for (size_t i = 0; i < s->na + m; i++) s->run_events[i].group = 0; /* counted together */
    *n = s->na + m;
    return s->run_events;
}

int pms_schedule_record(pms_schedule *s, size_t r, const pms_count *totals)
{
    if (r >= s->nruns) return pms__fail(PMS_EINVAL, "run %zu of a schedule of %zu runs", r + 1, s->nruns);
    size_t n, stride = s->na + s->per_run;
    const pms_event *evs = pms_schedule_run_events(s, r, &n);
    for (size_t i = 0; i < n; i++) pms_stat_value_set(&s->values[r * stride + i], &evs[i], &totals[i]);
    s->recorded[r] = true;
    return PMS_OK;
}

int pms_schedule_merge(const pms_schedule *s, pms_stat_value *out, double *anchor_cv)
{
    size_t stride = s->na + s->per_run;
    for (size_t r = 0; r < s->nruns; r++)
        if (!s->recorded[r]) return pms__fail(PMS_EINVAL, "run %zu of %zu was not measured", r + 1, s->nruns);
    if (s->na) {
        /* The anchors occupy the first na slots of every run: average them as repeated runs. */
        pms_stat_value *avg = malloc(stride * sizeof *avg);
        if (!avg) return pms__fail(PMS_ENOMEM, "out of memory");
        if (pms_stat_average_runs(s->values, s->nruns, stride, avg)) {
            free(avg);
            return PMS_ENOMEM;
        }
        for (size_t a = 0; a < s->na; a++) {
            out[a] = avg[a];
            anchor_cv[a] = pms_stat_cv(s->values, s->nruns, stride, a);
        }
        free(avg);
    }
    for (size_t e = 0; e < s->ne; e++) out[s->na + e] = s->values[(e / s->per_run) * stride + s->na + e % s->per_run];
    return PMS_OK;
}

void pms_schedule_reset(pms_schedule *s) { memset(s->recorded, 0, s->nruns * sizeof *s->recorded); }
