/* The tables of a report (pmuscope/profile_report.h): sort keys, and one table per event
 * from a perf.data's profile, a pprof profile or merged files. */
#include "pmuscope/profile_report.h"
#include "pmuscope/error.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

int pms_profile_report_sort(pms_profile_report *rep, const char *keys)
{
    int base = PMS_PROFILE_BY_NONE, flags = 0;
    size_t nsort_keys = 0;
    const char *p = keys;
    do {
        size_t len = strcspn(p, ",");
        pms_profile_sort_key sort_key;
#define IS(word) (len == strlen(word) && strncmp(p, word, len) == 0)
        if (IS("ip") || IS("symoff")) {
            base = PMS_PROFILE_BY_IP, sort_key = IS("ip") ? PMS_SORT_IP : PMS_SORT_SYMOFF;
        } else if (IS("sym") || IS("symbol")) {
            base = base == PMS_PROFILE_BY_IP ? base : PMS_PROFILE_BY_SYMBOL, sort_key = PMS_SORT_SYM;
        } else if (IS("dso")) {
            base = base == PMS_PROFILE_BY_NONE ? PMS_PROFILE_BY_DSO : base, sort_key = PMS_SORT_DSO;
        } else if (IS("comm")) {
            flags |= PMS_PROFILE_WITH_COMM, sort_key = PMS_SORT_COMM;
        } else if (IS("pid")) {
            flags |= PMS_PROFILE_WITH_PID, sort_key = PMS_SORT_PID;
        } else {
            return pms__fail(PMS_EINVAL, "expected sort keys among sym, symoff, ip, dso, comm and pid separated by "
                             "commas, got '%s'", keys);
        }
#undef IS
        if (nsort_keys == PMS_PROFILE_MAX_SORT_KEYS)
            return pms__fail(PMS_EINVAL, "expected at most %d sort keys, got '%s'", PMS_PROFILE_MAX_SORT_KEYS, keys);
        rep->sort_keys[nsort_keys++] = sort_key;
        p += len;
    } while (*p++ == ',');
    rep->key = (pms_profile_key)(base | flags);
    rep->nsort_keys = nsort_keys;
    rep->sort = keys;
    return PMS_OK;
}

/* Takes t's rows (freed here on failure). */
static int add_table(pms_profile_report *rep, pms_profile_event_table t)
{
    pms_profile_event_table *grown = realloc(rep->tables, (rep->ntables + 1) * sizeof *rep->tables);
    if (!grown) {
        free(t.rows);
        pms_profile_paths_free(t.paths, t.npaths);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    rep->tables = grown;
    rep->tables[rep->ntables++] = t;
    return PMS_OK;
}

int pms_profile_report_add_perfdata(pms_profile_report *rep, pms_profile *p, const pms_perfdata_reader *r,
                                    const char *event)
{
    rep->lost = pms_profile_lost(p);
    bool found = false;
    for (size_t e = 0; e < pms_perfdata_nattrs(r); e++) {
        const char *name = pms_perfdata_get_attr(r, e)->name;
        if (event ? strcmp(event, name) != 0 : pms_profile_samples(p, e) == 0) continue;
        found = true;
        int children = rep->children == PMS_CHILDREN_ON ||
                       (rep->children == PMS_CHILDREN_AUTO && pms_profile_has_callchains(p, e));
        pms_profile_event_table t = {name, pms_profile_samples(p, e), NULL, 0, children, NULL, 0};
        pms_profile_key key = (pms_profile_key)(rep->key | (children ? PMS_PROFILE_CHILDREN : 0));
        int rc = pms_profile_table_paths(p, e, key, rep->weight, rep->confidence, &t.rows, &t.nrows,
                                         rep->call_paths ? &t.paths : NULL, rep->call_paths ? &t.npaths : NULL);
        if (rc || (rc = add_table(rep, t))) return rc;
    }
    if (event && !found) return pms__fail(PMS_ENOENT, "%s: no event named '%s' in the file", rep->input, event);
    return PMS_OK;
}

/* Rows by children share, largest first (the perf.data tables' order with children). */
static int by_children(const void *x, const void *y)
{
    const pms_profile_row *a = x, *b = y;
    if (a->children_period != b->children_period) return a->children_period < b->children_period ? 1 : -1;
    if (a->period != b->period) return a->period < b->period ? 1 : -1;
    int c = strcmp(a->symbol, b->symbol);
    return c ? c : strcmp(a->binary, b->binary);
}

int pms_profile_report_add_pprof(pms_profile_report *rep, pms_pprof *p, const char *type_name)
{
    size_t type = pms_pprof_default_type(p);
    const char *name, *unit;
    if (type_name) {
        for (type = 0; type < pms_pprof_ntypes(p); type++) {
            pms_pprof_type(p, type, &name, &unit);
            if (strcmp(name, type_name) == 0) break;
        }
    }
    if (type >= pms_pprof_ntypes(p))
        return type_name ? pms__fail(PMS_ENOENT, "%s: no sample type named '%s' in the profile", rep->input, type_name)
                         : pms__fail(PMS_ENOENT, "%s: the profile has no sample types", rep->input);
    pms_pprof_row *rows = NULL;
    size_t n = 0;
    int rc = pms_pprof_table(p, type, rep->confidence, &rows, &n);
    if (rc) {
        free(rows);
        return rc;
    }
    pms_pprof_type(p, type, &name, &unit);
    /* --children gives pprof's cum values (pprof -top -cum); the default is flat, as
     * pprof's -top, so rows seen only in stacks are left out */
    int children = rep->children == PMS_CHILDREN_ON;
    pms_profile_event_table t = {name, 0, calloc(n ? n : 1, sizeof *t.rows), 0, children, NULL, 0};
    if (!t.rows) {
        free(rows);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) { /* the strings belong to p */
        const pms_pprof_row *r = &rows[i];
        uint64_t value = r->value > 0 ? (uint64_t)r->value : 0, cum = r->cum_value > 0 ? (uint64_t)r->cum_value : 0;
        t.samples += r->samples ? r->samples : value;
        if (!r->leaf && !children) continue;
        t.rows[t.nrows++] = (pms_profile_row){
            .binary = r->binary[0] ? r->binary : r->file, .symbol = r->function,
            .samples = r->samples ? r->samples : value, .period = value, .share = r->share, .ci_low = r->ci_low,
            .ci_high = r->ci_high, .children_samples = children ? (r->cum_samples ? r->cum_samples : cum) : 0,
            .children_period = children ? cum : 0, .children_share = children ? r->cum_share : 0,
            .children_ci_low = children ? r->cum_ci_low : 0, .children_ci_high = children ? r->cum_ci_high : 0};
    }
    free(rows);
    if (children) qsort(t.rows, t.nrows, sizeof *t.rows, by_children);
    return add_table(rep, t);
}

int pms_profile_report_add_merge(pms_profile_report *rep, const pms_merge *m, const char *event)
{
    bool found = false;
    for (size_t e = 0; e < pms_merge_nevents(m); e++) {
        if (event && strcmp(event, pms_merge_event(m, e)) != 0) continue;
        found = true;
        pms_profile_event_table t = {pms_merge_event(m, e), pms_merge_samples(m, e), NULL, 0};
        int rc = pms_merge_table(m, e, rep->confidence, &t.rows, &t.nrows);
        if (rc || (rc = add_table(rep, t))) return rc;
    }
    if (event && !found) return pms__fail(PMS_ENOENT, "no event named '%s' in the files", event);
    return PMS_OK;
}

void pms_profile_report_free(pms_profile_report *rep)
{
    for (size_t i = 0; i < rep->ntables; i++) {
        free(rep->tables[i].rows);
        pms_profile_paths_free(rep->tables[i].paths, rep->tables[i].npaths);
    }
    free(rep->tables);
    rep->tables = NULL;
    rep->ntables = 0;
}

size_t pms_profile_report_shown(const pms_profile_report *rep, const pms_profile_event_table *t)
{
    return rep->limit && rep->limit < t->nrows ? (size_t)rep->limit : t->nrows;
}
