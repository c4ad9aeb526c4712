/* Choosing x and the counters among the read values of samples, and summing them over
 * the per-CPU groups (see olr_columns.h). */
#include "olr/columns.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

int pms__olr_name_selected(const char *list, const char *name)
{
    if (!list) return 1;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static const char *name_of(const pms_perfdata_attr *a) { return a && a->name ? a->name : "?"; }

int pms__olr_columns_choose(olr_columns *c, const pms_sample *smp, const char *x, const char *counters,
                       olr_attr_lookup lookup, void *ctx, const char *where)
{
    memset(c, 0, sizeof *c);
    c->lookup = lookup;
    c->ctx = ctx;
    if (smp->nvalues == 0)
        return pms__fail(PMS_EFORMAT,
                        "%s: samples carry no counter values (PERF_SAMPLE_READ): record with "
                        "perf record -e '{cpu-clock,page-faults}:S', or with counters read at every sample",
                        where);
    c->leader = smp->attr;
    const char *xname = x ? x : name_of(smp->attr);
    c->x_is_time = strcmp(xname, "time") == 0;
    if (c->x_is_time && !(smp->attr && smp->attr->attr.sample_type & PERF_SAMPLE_TIME))
        return pms__fail(PMS_EFORMAT, "%s: samples carry no time stamps, so x cannot be time", where);
    c->attrs = calloc(smp->nvalues, sizeof *c->attrs);
    c->names = calloc(smp->nvalues, sizeof *c->names);
    c->total = calloc(smp->nvalues + 1, sizeof *c->total);
    c->xname = strdup(xname);
    if (!c->attrs || !c->names || !c->total || !c->xname) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < smp->nvalues; i++) {
        const pms_perfdata_attr *a = lookup(smp->values[i].id, ctx);
        const char *name = name_of(a);
        if (!c->x_is_time && !c->xattr && strcmp(name, xname) == 0) {
            c->xattr = a;
        } else if (a && pms__olr_name_selected(counters, name)) {
            c->attrs[c->k] = a;
            if (!(c->names[c->k++] = strdup(name))) return pms__fail(PMS_ENOMEM, "out of memory");
        }
    }
    if (!c->x_is_time && !c->xattr)
        return pms__fail(PMS_ENOENT, "%s: x event '%s' is not among the read values of the samples", where, xname);
    if (c->k == 0)
        return pms__with_option(pms__fail(PMS_ENOENT, "%s: no counter to fit: the samples read %zu value(s)%s", where,
                                          smp->nvalues, counters ? " and none matches the counters asked for" : ""),
                                counters ? "counters" : NULL);
    return PMS_OK;
}

static olr_group *group_of(olr_columns *c, uint64_t id)
{
    for (size_t i = 0; i < c->ngroups; i++)
        if (c->groups[i].id == id) return &c->groups[i];
    if (pms__grow(&c->groups, &c->groups_cap, c->ngroups + 1, sizeof *c->groups)) return NULL;
    olr_group *g = &c->groups[c->ngroups];
    if (!(g->last = calloc(c->k + 1, sizeof *g->last))) return NULL;
    g->id = id;
    c->ngroups++;
    return g;
}

int pms__olr_columns_extract(const olr_columns *c, const pms_sample *smp, uint64_t *vals)
{
    if (smp->attr != c->leader) return 0;
    size_t seen = 0;
    vals[0] = smp->time;
    for (size_t i = 0; i < smp->nvalues; i++) {
        const pms_perfdata_attr *a = c->lookup(smp->values[i].id, c->ctx);
        if (!a) continue;
        if (a == c->xattr) {
            vals[0] = smp->values[i].value;
            seen++;
        }
        for (size_t j = 0; j < c->k; j++)
            if (a == c->attrs[j]) {
                vals[1 + j] = smp->values[i].value;
                seen++;
            }
    }
    return seen == c->k + (c->x_is_time ? 0 : 1);
}

int pms__olr_columns_accumulate(olr_columns *c, uint64_t group, const uint64_t *vals, uint64_t *x, uint64_t *y)
{
    olr_group *g = group_of(c, group);
    if (!g) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = c->x_is_time ? 1 : 0; i <= c->k; i++) {
        c->total[i] += vals[i] - g->last[i];
        g->last[i] = vals[i];
    }
    *x = c->x_is_time ? vals[0] : c->total[0];
    memcpy(y, c->total + 1, c->k * sizeof *y);
    return PMS_OK;
}

void pms__olr_columns_free(olr_columns *c)
{
    for (size_t j = 0; c->names && j < c->k; j++) free(c->names[j]);
    for (size_t i = 0; i < c->ngroups; i++) free(c->groups[i].last);
    free(c->groups);
    free(c->names);
    free(c->attrs);
    free(c->total);
    free(c->xname);
    memset(c, 0, sizeof *c);
}

void pms__olr_pending_init(olr_pending *p, size_t k)
{
    memset(p, 0, sizeof *p);
    p->stride = 3 + 1 + k;
}

int pms__olr_pending_add(olr_pending *p, uint64_t time, uint64_t group, const uint64_t *vals)
{
    if (pms__grow(&p->rec, &p->cap, p->n + 1, p->stride * sizeof *p->rec)) return pms__fail(PMS_ENOMEM, "out of memory");
    uint64_t *r = p->rec + p->n++ * p->stride;
    r[0] = time;
    r[1] = p->seq++;
    r[2] = group;
    memcpy(r + 3, vals, (p->stride - 3) * sizeof *r);
    return PMS_OK;
}

static int by_time(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

int pms__olr_pending_flush(olr_pending *p, uint64_t limit, olr_pending_fn fn, void *ctx)
{
    if (p->n == 0) return 0;
    /* qsort with a stride known only at run time: sort keys (time, sequence, position) */
    size_t *idx = malloc(p->n * sizeof *idx);
    if (!idx) return pms__fail(PMS_ENOMEM, "out of memory");
    uint64_t *keys = malloc(p->n * 3 * sizeof *keys);
    if (!keys) {
        free(idx);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < p->n; i++) {
        keys[3 * i] = p->rec[i * p->stride];
        keys[3 * i + 1] = p->rec[i * p->stride + 1];
        keys[3 * i + 2] = i;
    }
    qsort(keys, p->n, 3 * sizeof *keys, by_time);
    int rc = 0;
    size_t done = 0;
    while (done < p->n && keys[3 * done] <= limit && rc == 0) {
        const uint64_t *r = p->rec + keys[3 * done + 2] * p->stride;
        rc = fn(r[2], r + 3, ctx);
        done++;
    }
    /* keep the rest, in arrival order */
    size_t kept = 0;
    for (size_t i = done; i < p->n; i++) idx[kept++] = keys[3 * i + 2];
    qsort(idx, kept, sizeof *idx, by_index);
    for (size_t i = 0; i < kept; i++)
        memmove(p->rec + i * p->stride, p->rec + idx[i] * p->stride, p->stride * sizeof *p->rec);
    p->n = kept;
    free(idx);
    free(keys);
    return rc;
}

void pms__olr_pending_free(olr_pending *p)
{
    free(p->rec);
    memset(p, 0, sizeof *p);
}
