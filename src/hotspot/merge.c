/* Merging recordings: each file's hotspot tables (pms_profile for a perf.data, pms_pprof
 * for a profile) folded into rows keyed by (event, binary, function), where a binary is
 * its build-id when known. Only the merged rows stay between files. */
#include "pmuscope/merge.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "pmuscope/symbols.h"

#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/strtab.h"

#include <stdlib.h>
#include <string.h>

struct row {
    int64_t event, binary, function; /* indices into strings */
    uint64_t samples, period;
};

struct pms_merge {
    pms_strtab strings;   /* event names, binaries (path or name), functions */
    pms_keymap row_index; /* (event << 32 | binary key, function) -> row */
    pms_keymap binary_of; /* (binary key) -> string shown for it (the first path seen) */
    struct row *rows;
    size_t nrows, cap;
    int64_t *events; /* string index per merged event */
    uint64_t *totals;
    size_t nevents, events_cap, totals_cap, nfiles;
};

int pms_merge_create(pms_merge **out)
{
    pms_merge *m = calloc(1, sizeof *m);
    if (!m) return pms__fail(PMS_ENOMEM, "out of memory for the merge");
    pms__strtab_init(&m->strings);
    pms__keymap_init(&m->row_index);
    pms__keymap_init(&m->binary_of);
    *out = m;
    return PMS_OK;
}

void pms_merge_destroy(pms_merge *m)
{
    if (!m) return;
    pms__strtab_free(&m->strings);
    pms__keymap_free(&m->row_index);
    pms__keymap_free(&m->binary_of);
    free(m->rows);
    free(m->events);
    free(m->totals);
    free(m);
}

static int event_index(pms_merge *m, const char *name, size_t *out)
{
    int64_t s = pms__strtab_intern(&m->strings, name);
    if (s < 0) return PMS_ENOMEM;
    for (size_t i = 0; i < m->nevents; i++)
        if (m->events[i] == s) return *out = i, PMS_OK;
    if (pms__grow(&m->events, &m->events_cap, m->nevents + 1, sizeof *m->events) ||
        pms__grow(&m->totals, &m->totals_cap, m->nevents + 1, sizeof *m->totals))
        return pms__fail(PMS_ENOMEM, "out of memory for the merge");
    m->events[m->nevents] = s;
    m->totals[m->nevents] = 0;
    *out = m->nevents++;
    return PMS_OK;
}

/* Adds samples and period to (event, binary, function); the binary is keyed by its
 * build-id where there is one, shown by the first path seen for it. */
static int add_row(pms_merge *m, size_t event, const char *binary, const char *build_id, const char *function,
                   uint64_t samples, uint64_t period)
{
    int64_t key = pms__strtab_intern(&m->strings, build_id && build_id[0] ? build_id : binary);
    int64_t fn = pms__strtab_intern(&m->strings, function ? function : PMS_BINARY_UNKNOWN);
    int64_t shown = pms__strtab_intern(&m->strings, binary);
    if (key < 0 || fn < 0 || shown < 0) return PMS_ENOMEM;
    uint64_t *b = pms__keymap_upsert(&m->binary_of, (uint64_t)key, 0, (uint64_t)shown);
    uint64_t *slot = pms__keymap_upsert(&m->row_index, (uint64_t)event << 32 | (uint64_t)key, (uint64_t)fn, UINT64_MAX);
    if (!b || !slot) return pms__fail(PMS_ENOMEM, "out of memory for the merge");
    if (*slot == UINT64_MAX) {
        if (pms__grow(&m->rows, &m->cap, m->nrows + 1, sizeof *m->rows))
            return pms__fail(PMS_ENOMEM, "out of memory for the merge");
        m->rows[m->nrows] = (struct row){(int64_t)event, (int64_t)*b, fn, 0, 0};
        *slot = m->nrows++;
    }
    m->rows[*slot].samples += samples;
    m->rows[*slot].period += period;
    m->totals[event] += samples;
    return PMS_OK;
}

static int add_perfdata(pms_merge *m, const char *path)
{
    pms_perfdata_reader *r = NULL;
    pms_symbols *syms = NULL;
    pms_profile *p = NULL;
    int rc = pms_perfdata_open(&r, path);
    if (!rc) rc = pms_symbols_create(&syms);
    if (!rc) rc = pms_profile_create(&p, syms);
    if (!rc) rc = pms_profile_read(p, r, NULL, NULL);
    for (size_t e = 0; !rc && e < pms_perfdata_nattrs(r); e++) {
        if (!pms_profile_samples(p, e)) continue;
        size_t event, n = 0;
        pms_profile_row *rows = NULL;
        rc = event_index(m, pms_perfdata_get_attr(r, e)->name, &event);
        if (!rc) rc = pms_profile_table(p, e, PMS_PROFILE_BY_SYMBOL, 0.95, &rows, &n);
        for (size_t i = 0; i < n && !rc; i++)
            rc = add_row(m, event, rows[i].binary, pms_symbols_build_id(syms, rows[i].binary), rows[i].symbol,
                         rows[i].samples, rows[i].period);
        free(rows);
    }
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    return rc;
}

/* A pprof sample type as an event: pmuscope's "<event>_samples" is the event's samples. */
static int pprof_event(pms_merge *m, const char *type, size_t *event)
{
    size_t len = strlen(type);
    const char *suffix = "_samples";
    if (len <= strlen(suffix) || strcmp(type + len - strlen(suffix), suffix) != 0) return event_index(m, type, event);
    char *name = strndup(type, len - strlen(suffix));
    if (!name) return pms__fail(PMS_ENOMEM, "out of memory for the merge");
    int rc = event_index(m, name, event);
    free(name);
    return rc;
}

static int add_pprof(pms_merge *m, const char *path)
{
    pms_pprof *p = NULL;
    pms_pprof_row *rows = NULL;
    size_t n = 0, event, type;
    const char *name, *unit;
    int rc = pms_pprof_open(&p, path);
    if (!rc && pms_pprof_ntypes(p) == 0) rc = pms__fail(PMS_EFORMAT, "%s: the profile has no sample types", path);
    if (!rc) {
        type = pms_pprof_default_type(p);
        pms_pprof_type(p, type, &name, &unit);
        rc = pprof_event(m, name, &event);
    }
    if (!rc) rc = pms_pprof_table(p, type, 0.95, &rows, &n);
    for (size_t i = 0; i < n && !rc; i++) {
        if (!rows[i].leaf) continue; /* only in stacks: no flat value */
        uint64_t value = rows[i].value > 0 ? (uint64_t)rows[i].value : 0;
        rc = add_row(m, event, rows[i].binary[0] ? rows[i].binary : PMS_BINARY_UNKNOWN, rows[i].build_id,
                     rows[i].function, rows[i].samples ? rows[i].samples : value, value);
    }
    free(rows);
    pms_pprof_close(p);
    return rc;
}

int pms_merge_add_file(pms_merge *m, const char *path)
{
    pms_profile_kind kind;
    int rc = pms_profile_sniff(&kind, path);
    if (!rc) rc = kind == PMS_PROFILE_PERFDATA ? add_perfdata(m, path) : add_pprof(m, path);
    if (!rc) m->nfiles++;
    return rc;
}

size_t pms_merge_nfiles(const pms_merge *m) { return m->nfiles; }
size_t pms_merge_nevents(const pms_merge *m) { return m->nevents; }
const char *pms_merge_event(const pms_merge *m, size_t e) { return e < m->nevents ? m->strings.strings[m->events[e]] : ""; }
uint64_t pms_merge_samples(const pms_merge *m, size_t e) { return e < m->nevents ? m->totals[e] : 0; }

static int by_share(const void *x, const void *y)
{
    const pms_profile_row *a = x, *b = y;
    if (a->samples != b->samples) return a->samples < b->samples ? 1 : -1;
    int c = strcmp(a->binary, b->binary);
    return c ? c : strcmp(a->symbol, b->symbol);
}

int pms_merge_table(const pms_merge *m, size_t event, double confidence, pms_profile_row **rows, size_t *nrows)
{
    *rows = NULL;
    *nrows = 0;
    if (event >= m->nevents) return pms__fail(PMS_EINVAL, "merge: no event %zu (of %zu)", event, m->nevents);
    if (!(confidence > 0 && confidence < 1))
        return pms__fail(PMS_EINVAL, "confidence level %g is not between 0 and 1", confidence);
    size_t n = 0;
    for (size_t i = 0; i < m->nrows; i++) n += m->rows[i].event == (int64_t)event;
    pms_profile_row *out = calloc(n ? n : 1, sizeof *out);
    if (!out) return pms__fail(PMS_ENOMEM, "out of memory for the merged table");
    uint64_t total = m->totals[event];
    n = 0;
    for (size_t i = 0; i < m->nrows; i++) {
        const struct row *r = &m->rows[i];
        if (r->event != (int64_t)event) continue;
        pms_profile_row *o = &out[n++];
        o->binary = m->strings.strings[r->binary];
        o->symbol = m->strings.strings[r->function];
        o->samples = r->samples;
        o->period = r->period;
        o->share = total ? (double)r->samples / (double)total : 0;
        pms_wilson_interval(r->samples, total, confidence, &o->ci_low, &o->ci_high);
    }
    if (n) qsort(out, n, sizeof *out, by_share);
    *rows = out;
    *nrows = n;
    return PMS_OK;
}
