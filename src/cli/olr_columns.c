/* Choosing x and the counters among the read values of samples (see olr_columns.h). */
#include "cli/olr_columns.h"
#include "cli/olr_input.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

static const char *name_of(const pms_perfdata_attr *a) { return a && a->name ? a->name : "?"; }

int olr_columns_choose(olr_columns *c, const pms_sample *smp, const char *x, const char *counters,
                       olr_attr_lookup lookup, void *ctx, const char *where)
{
    memset(c, 0, sizeof *c);
    if (smp->nvalues == 0)
        return pms_fail(PMS_EFORMAT,
                        "%s: samples carry no counter values (PERF_SAMPLE_READ): record with "
                        "perf record -e '{cpu-clock,page-faults}:S' or pmuscope record",
                        where);
    c->leader = smp->attr;
    const char *xname = x ? x : name_of(smp->attr);
    c->x_is_time = strcmp(xname, "time") == 0;
    if (c->x_is_time && !(smp->attr && smp->attr->attr.sample_type & PERF_SAMPLE_TIME))
        return pms_fail(PMS_EFORMAT, "%s: samples carry no time stamps, so x cannot be time", where);
    int have_x = c->x_is_time;
    c->ids = calloc(smp->nvalues, sizeof *c->ids);
    c->names = calloc(smp->nvalues, sizeof *c->names);
    c->xname = strdup(xname);
    if (!c->ids || !c->names || !c->xname) return pms_fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < smp->nvalues; i++) {
        const char *name = name_of(lookup(smp->values[i].id, ctx));
        if (!have_x && strcmp(name, xname) == 0) {
            c->x_id = smp->values[i].id;
            have_x = 1;
        } else if (olr_name_selected(counters, name)) {
            c->ids[c->k] = smp->values[i].id;
            if (!(c->names[c->k++] = strdup(name))) return pms_fail(PMS_ENOMEM, "out of memory");
        }
    }
    if (!have_x)
        return pms_fail(PMS_ENOENT, "%s: x event '%s' is not among the read values of the samples", where, xname);
    if (c->k == 0)
        return pms_fail(PMS_ENOENT, "%s: no counter to fit: the samples read %zu value(s)%s", where, smp->nvalues,
                        counters ? " and none matches --counters" : "");
    return PMS_OK;
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

int olr_columns_row(const olr_columns *c, const pms_sample *smp, uint64_t *x, uint64_t *y)
{
    if (smp->attr != c->leader) return 0;
    *x = smp->time;
    if (!c->x_is_time && !value_of(smp, c->x_id, x)) return 0;
    for (size_t j = 0; j < c->k; j++)
        if (!value_of(smp, c->ids[j], &y[j])) return 0;
    return 1;
}

void olr_columns_free(olr_columns *c)
{
    for (size_t j = 0; c->names && j < c->k; j++) free(c->names[j]);
    free(c->names);
    free(c->ids);
    free(c->xname);
    memset(c, 0, sizeof *c);
}
