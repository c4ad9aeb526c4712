/* `pmuscope olr` input from perf.data: samples with read values (PERF_SAMPLE_READ), as
 * `perf record -e '{cpu-clock,page-faults}:S'` or `pmuscope record` write them.
 * x is the sampling event's own count (or the time stamp, or another read event),
 * the counters are the other read values. */
#include "cli/olr_input.h"
#include "pmuscope/perfdata.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

typedef struct loader {
    olr_series *s;
    const olr_input_options *opt;
    const char *path;
    pms_perfdata_reader *r;
    const pms_perfdata_attr *leader;
    int x_is_time;
    uint64_t x_id;
    uint64_t *ids;         /* k: the sample id of each counter */
    uint64_t skipped;
} loader;

static const pms_perfdata_attr *attr_of_id(pms_perfdata_reader *r, uint64_t id)
{
    for (size_t i = 0; i < pms_perfdata_nattrs(r); i++) {
        const pms_perfdata_attr *a = pms_perfdata_get_attr(r, i);
        for (size_t k = 0; k < a->nids; k++)
            if (a->ids[k] == id) return a;
    }
    return NULL;
}

static const char *name_of(const pms_perfdata_attr *a) { return a && a->name ? a->name : "?"; }

/* The first sample fixes the columns: x and the selected counters, by sample id. */
static int choose_columns(loader *L, const pms_sample *smp)
{
    L->leader = smp->attr;
    const char *xname = L->opt->x ? L->opt->x : name_of(smp->attr);
    L->x_is_time = strcmp(xname, "time") == 0;
    if (L->x_is_time && !(smp->attr && smp->attr->attr.sample_type & PERF_SAMPLE_TIME))
        return pms_fail(PMS_EFORMAT, "%s: samples carry no time stamps, so x cannot be time", L->path);
    int have_x = L->x_is_time;
    L->ids = calloc(smp->nvalues, sizeof *L->ids);
    L->s->names = calloc(smp->nvalues, sizeof *L->s->names);
    if (!L->ids || !L->s->names) return pms_fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < smp->nvalues; i++) {
        const char *name = name_of(attr_of_id(L->r, smp->values[i].id));
        if (!have_x && strcmp(name, xname) == 0) {
            L->x_id = smp->values[i].id;
            have_x = 1;
        } else if (olr_name_selected(L->opt->counters, name)) {
            L->ids[L->s->k] = smp->values[i].id;
            L->s->names[L->s->k++] = strdup(name);
        }
    }
    if (!have_x)
        return pms_fail(PMS_ENOENT, "%s: x event '%s' is not among the read values of the samples", L->path, xname);
    if (L->s->k == 0)
        return pms_fail(PMS_ENOENT, "%s: no counter to fit: the samples read %zu value(s)%s", L->path,
                        smp->nvalues, L->opt->counters ? " and none matches --counters" : "");
    L->s->xname = strdup(L->x_is_time ? "time" : xname);
    return L->s->xname ? PMS_OK : pms_fail(PMS_ENOMEM, "out of memory");
}

static int value_of(const pms_sample *smp, uint64_t id, uint64_t *out)
{
    for (size_t i = 0; i < smp->nvalues; i++)
        if (smp->values[i].id == id) {
            *out = smp->values[i].value;
            return 1;
        }
    return 0;
}

static int on_sample(const pms_sample *smp, void *ctx)
{
    loader *L = ctx;
    if (L->opt->tid >= 0 && smp->tid != (uint32_t)L->opt->tid) return 0;
    if (smp->nvalues == 0)
        return pms_fail(PMS_EFORMAT,
                        "%s: samples carry no counter values (PERF_SAMPLE_READ): record with "
                        "perf record -e '{cpu-clock,page-faults}:S' or pmuscope record",
                        L->path);
    if (!L->leader) {
        int rc = choose_columns(L, smp);
        if (rc) return rc;
    }
    if (smp->attr != L->leader) {
        L->skipped++;
        return 0;
    }
    uint64_t x = smp->time;
    if (!L->x_is_time && !value_of(smp, L->x_id, &x)) {
        L->skipped++;
        return 0;
    }
    uint64_t *row = olr_series_append(L->s, x);
    if (!row) return pms_fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; j < L->s->k; j++)
        if (!value_of(smp, L->ids[j], &row[j]))
            return pms_fail(PMS_EFORMAT, "%s: sample %zu lacks the value of %s", L->path, L->s->n - 1,
                            L->s->names[j]);
    return 0;
}

int olr_series_load_perfdata(olr_series *s, const char *path, const olr_input_options *opt)
{
    loader L = {.s = s, .opt = opt, .path = path};
    int rc = pms_perfdata_open(&L.r, path);
    if (rc) return rc;
    pms_perfdata_handlers h = {.sample = on_sample, .ctx = &L};
    rc = pms_perfdata_read(L.r, &h);
    if (rc == 0 && !L.leader) rc = pms_fail(PMS_EFORMAT, "%s: no samples%s", path, opt->tid >= 0 ? " of that thread" : "");
    free(L.ids);
    pms_perfdata_close(L.r);
    return rc;
}
