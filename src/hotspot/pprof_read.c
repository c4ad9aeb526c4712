/* A pprof profile from anyone, as a hotspot table: flat values by function (the leaf
 * location's innermost line, as pprof's -top counts flat), cum values (every function of
 * the stack, as -top -cum), shares and Wilson intervals. */
#include "pmuscope/pprof.h"
#include "pmuscope/profile.h"

#include "hotspot/pprof_sites.h"
#include "io/pprof_file.h"
#include "io/pprof_head.h"
#include "io/perfdata_head.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/strtab.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SNIFF_BYTES 4096 /* fields enough to tell a profile from text or noise */

struct pms_pprof {
    Pms__Profile *msg;
    pms_keymap location_index, function_index, mapping_index; /* id -> index */
    char **addresses; /* per location: its "0x..." name where it has no function, made when needed */
};

static int index_ids(pms_pprof *p)
{
    for (size_t i = 0; i < p->msg->n_location; i++) {
        uint64_t *v = pms__keymap_upsert(&p->location_index, p->msg->location[i]->id, 0, i);
        if (!v) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    }
    for (size_t i = 0; i < p->msg->n_function; i++) {
        uint64_t *v = pms__keymap_upsert(&p->function_index, p->msg->function[i]->id, 0, i);
        if (!v) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    }
    for (size_t i = 0; i < p->msg->n_mapping; i++) {
        uint64_t *v = pms__keymap_upsert(&p->mapping_index, p->msg->mapping[i]->id, 0, i);
        if (!v) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    }
    return PMS_OK;
}

static int adopt(pms_pprof **out, Pms__Profile *msg)
{
    pms_pprof *p = calloc(1, sizeof *p);
    if (!p) {
        pms__pprof_free(msg);
        return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    }
    p->msg = msg;
    p->addresses = calloc(msg->n_location ? msg->n_location : 1, sizeof *p->addresses);
    pms__keymap_init(&p->location_index);
    pms__keymap_init(&p->function_index);
    pms__keymap_init(&p->mapping_index);
    int rc = p->addresses ? index_ids(p) : pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    if (rc) {
        pms_pprof_close(p);
        return rc;
    }
    *out = p;
    return PMS_OK;
}

int pms_pprof_open(pms_pprof **out, const char *path)
{
    *out = NULL;
    Pms__Profile *msg = NULL;
    int rc = pms__pprof_load(&msg, path);
    return rc ? rc : adopt(out, msg);
}

int pms_pprof_open_mem(pms_pprof **out, const void *data, size_t len, const char *name)
{
    *out = NULL;
    Pms__Profile *msg = NULL;
    int rc = pms__pprof_decode(&msg, data, len, name);
    return rc ? rc : adopt(out, msg);
}

void pms_pprof_close(pms_pprof *p)
{
    if (!p) return;
    for (size_t i = 0; p->addresses && i < p->msg->n_location; i++) free(p->addresses[i]);
    free(p->addresses);
    pms__pprof_free(p->msg);
    pms__keymap_free(&p->location_index);
    pms__keymap_free(&p->function_index);
    pms__keymap_free(&p->mapping_index);
    free(p);
}

int pms_pprof_sniff(bool *out, const char *path)
{
    *out = false;
    FILE *f = fopen(path, "rb");
    if (!f) return pms__fail_errno(PMS_ENOENT, errno, "%s: cannot open", path);
    unsigned char head[SNIFF_BYTES];
    size_t n = fread(head, 1, sizeof head, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) return pms__fail(PMS_EIO, "%s: cannot read", path);
    *out = pms__pprof_check_start(head, n, n < sizeof head, path) == PMS_OK;
    return PMS_OK;
}

int pms_profile_sniff(pms_profile_kind *out, const char *path)
{
    *out = PMS_PROFILE_PERFDATA;
    FILE *f = fopen(path, "rb");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return PMS_OK;
    }
    unsigned char head[SNIFF_BYTES];
    size_t n = fread(head, 1, sizeof head, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) return pms__fail_errno(PMS_EIO, errno, "cannot read %s", path);
    static const char magic[] = "PERFILE2";
    if (pms__perfdata_magic(head, n) || (n < 8 && memcmp(head, magic, n) == 0)) return PMS_OK;
    char why[160];
    if (pms__pprof_starts(head, n, n < sizeof head, why, sizeof why)) {
        *out = PMS_PROFILE_PPROF;
        return PMS_OK;
    }
    return pms__fail(PMS_EFORMAT, "%s: neither a perf.data file (no PERFILE2 magic at offset 0) nor a pprof profile (%s)",
                     path, why);
}

static const char *str(const pms_pprof *p, int64_t i) { return p->msg->string_table[i]; }

size_t pms_pprof_ntypes(const pms_pprof *p) { return p->msg->n_sample_type; }

void pms_pprof_type(const pms_pprof *p, size_t i, const char **type, const char **unit)
{
    *type = i < p->msg->n_sample_type ? str(p, p->msg->sample_type[i]->type) : "";
    *unit = i < p->msg->n_sample_type ? str(p, p->msg->sample_type[i]->unit) : "";
}

size_t pms_pprof_default_type(const pms_pprof *p)
{
    size_t n = p->msg->n_sample_type;
    if (p->msg->default_sample_type)
        for (size_t i = 0; i < n; i++)
            if (strcmp(str(p, p->msg->sample_type[i]->type), str(p, p->msg->default_sample_type)) == 0) return i;
    return n ? n - 1 : 0;
}

size_t pms_pprof_ncomments(const pms_pprof *p) { return p->msg->n_comment; }
const char *pms_pprof_comment(const pms_pprof *p, size_t i) { return i < p->msg->n_comment ? str(p, p->msg->comment[i]) : ""; }

/* The sample type that counts samples ("count", as Go's "samples"), or SIZE_MAX. */
static size_t count_type(const pms_pprof *p)
{
    for (size_t i = 0; i < p->msg->n_sample_type; i++)
        if (strcmp(str(p, p->msg->sample_type[i]->unit), "count") == 0) return i;
    return SIZE_MAX;
}

/* The function of location `at`'s line `line` (0: the innermost; a location without lines
 * has one unnamed), its source file, and the location's binary and build-id. A function
 * without a name is the location's address. */
static int line_function(pms_pprof *p, size_t at, size_t line, const char **name, const char **file,
                         const char **binary, const char **build_id)
{
    const Pms__Location *loc = p->msg->location[at];
    const uint64_t *m = loc->mapping_id ? pms__keymap_find(&p->mapping_index, loc->mapping_id, 0) : NULL;
    *binary = m ? str(p, p->msg->mapping[*m]->filename) : "";
    *build_id = m ? str(p, p->msg->mapping[*m]->build_id) : "";
    *file = "";
    if (line < loc->n_line) {
        const Pms__Function *f = p->msg->function[*pms__keymap_find(&p->function_index, loc->line[line]->function_id, 0)];
        *name = str(p, f->name)[0] ? str(p, f->name) : str(p, f->system_name);
        *file = str(p, f->filename);
        if ((*name)[0]) return PMS_OK;
    }
    if (!p->addresses[at] && asprintf(&p->addresses[at], "0x%llx", (unsigned long long)loc->address) < 0) {
        p->addresses[at] = NULL;
        return pms__fail(PMS_ENOMEM, "out of memory for the pprof table");
    }
    *name = p->addresses[at];
    return PMS_OK;
}

static int compare_rows(const void *x, const void *y)
{
    const pms_pprof_row *a = x, *b = y;
    if (a->value != b->value) return a->value < b->value ? 1 : -1;
    if (a->cum_value != b->cum_value) return a->cum_value < b->cum_value ? 1 : -1;
    int c = strcmp(a->function, b->function);
    return c ? c : strcmp(a->file, b->file);
}

/* The rows being built: a row per (function name, source file, binary), strings told apart
 * by their content (pprof asks for distinct strings, but a writer that repeats one, an
 * entry per function, must not split the function's row). */
typedef struct table_build {
    pms_keymap where, index; /* (file, binary) -> place; (name, place) -> row */
    pms_strtab names;
    pms_pprof_row *rows;
    uint64_t *last_sample; /* per row: 1 + the last sample counted in its cum value */
    size_t nrows, size, seen_size;
} table_build;

static int row_of(table_build *t, const char *name, const char *file, const char *binary, const char *build_id,
                  pms_pprof_row **out)
{
    int64_t in = pms__strtab_intern(&t->names, name), ifile = pms__strtab_intern(&t->names, file),
            ibin = pms__strtab_intern(&t->names, binary);
    uint64_t *place = in < 0 || ifile < 0 || ibin < 0
                          ? NULL
                          : pms__keymap_upsert(&t->where, (uint64_t)ifile, (uint64_t)ibin, t->where.count);
    uint64_t *slot = place ? pms__keymap_upsert(&t->index, (uint64_t)in, *place, UINT64_MAX) : NULL;
    if (!slot || (*slot == UINT64_MAX && (pms__grow(&t->rows, &t->size, t->nrows + 1, sizeof *t->rows) ||
                                          pms__grow(&t->last_sample, &t->seen_size, t->nrows + 1, sizeof *t->last_sample))))
        return pms__fail(PMS_ENOMEM, "out of memory for the pprof table");
    if (*slot == UINT64_MAX) {
        t->rows[t->nrows] = (pms_pprof_row){name, file, binary, build_id, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, false};
        t->last_sample[t->nrows] = 0;
        *slot = t->nrows++;
    }
    *out = &t->rows[*slot];
    return PMS_OK;
}

/* Adds sample i's value and count to r's flat or cum columns. Hostile values must not
 * overflow: a sum beyond 64 bits is refused, not wrapped. */
static int add_value(int64_t *value, uint64_t *samples, int64_t v, uint64_t n, size_t i, size_t type)
{
    *samples += n;
    if (__builtin_add_overflow(*value, v, value))
        return pms__fail(PMS_EFORMAT, "pprof sample %zu: the values of sample type %zu add up beyond 64 bits", i, type);
    return PMS_OK;
}

/* Sample i: its value to the leaf's innermost function (flat) and, once, to every function
 * of its stack (cum); to *total, and its draws (its count, else 1) to *draws. */
static int add_sample(pms_pprof *p, table_build *t, size_t i, size_t type, size_t counts, int64_t *total,
                      uint64_t *draws)
{
    const Pms__Sample *s = p->msg->sample[i];
    int64_t v = s->value[type];
    uint64_t n = counts == SIZE_MAX ? 0 : (uint64_t)(s->value[counts] > 0 ? s->value[counts] : 0);
    *draws += counts == SIZE_MAX ? 1 : n;
    const char *name = NULL, *file = NULL, *binary = NULL, *build_id = NULL;
    pms_pprof_row *r;
    int rc;
    if (__builtin_add_overflow(*total, v, total))
        return pms__fail(PMS_EFORMAT, "pprof sample %zu: the values of sample type %zu add up beyond 64 bits", i, type);
    if (!s->n_location_id) { /* no stack: an unknown function, flat and cum */
        if ((rc = row_of(t, PMS_BINARY_UNKNOWN, "", "", "", &r))) return rc;
        r->leaf = true;
        if ((rc = add_value(&r->value, &r->samples, v, n, i, type))) return rc;
        return add_value(&r->cum_value, &r->cum_samples, v, n, i, type);
    }
    for (size_t l = 0; l < s->n_location_id; l++) {
        size_t at = (size_t)*pms__keymap_find(&p->location_index, s->location_id[l], 0);
        size_t nlines = p->msg->location[at]->n_line ? p->msg->location[at]->n_line : 1;
        for (size_t line = 0; line < nlines; line++) {
            if ((rc = line_function(p, at, line, &name, &file, &binary, &build_id)) ||
                (rc = row_of(t, name, file, binary, build_id, &r)))
                return rc;
            if (l == 0 && line == 0) {
                r->leaf = true;
                if ((rc = add_value(&r->value, &r->samples, v, n, i, type))) return rc;
            }
            size_t row = (size_t)(r - t->rows);
            if (t->last_sample[row] == i + 1) continue; /* recursion: once per sample */
            t->last_sample[row] = i + 1;
            if ((rc = add_value(&r->cum_value, &r->cum_samples, v, n, i, type))) return rc;
        }
    }
    return PMS_OK;
}

/* share = value / total, with its Wilson interval as a proportion of `draws` samples. */
static void set_share(int64_t value, int64_t total, uint64_t draws, double confidence, double *share, double *low,
                      double *high)
{
    *share = total > 0 ? (double)value / (double)total : 0;
    double k = round(*share * (double)draws);
    if (k < 0) k = 0;
    if (k > (double)draws) k = (double)draws;
    if (draws) pms_wilson_interval((uint64_t)k, draws, confidence, low, high);
}

int pms_pprof_table(pms_pprof *p, size_t type, double confidence, pms_pprof_row **rows, size_t *nrows)
{
    *rows = NULL;
    *nrows = 0;
    if (type >= p->msg->n_sample_type)
        return pms__fail(PMS_EINVAL, "sample type %zu: the profile has %zu", type, p->msg->n_sample_type);
    if (!(confidence > 0 && confidence < 1))
        return pms__fail(PMS_EINVAL, "confidence level %g is not between 0 and 1", confidence);
    size_t counts = count_type(p);
    table_build t = {0};
    pms__keymap_init(&t.where);
    pms__keymap_init(&t.index);
    pms__strtab_init(&t.names);
    int64_t total = 0;
    uint64_t draws = 0;
    int rc = PMS_OK;
    for (size_t i = 0; i < p->msg->n_sample && !rc; i++) rc = add_sample(p, &t, i, type, counts, &total, &draws);
    pms__keymap_free(&t.where);
    pms__keymap_free(&t.index);
    pms__strtab_free(&t.names);
    free(t.last_sample);
    if (rc) {
        free(t.rows);
        return rc;
    }
    /* Each share is a proportion of `draws` samples (the count type's total, else the
     * number of samples in the profile) for its Wilson interval. */
    for (size_t i = 0; i < t.nrows; i++) {
        pms_pprof_row *r = &t.rows[i];
        set_share(r->value, total, draws, confidence, &r->share, &r->ci_low, &r->ci_high);
        set_share(r->cum_value, total, draws, confidence, &r->cum_share, &r->cum_ci_low, &r->cum_ci_high);
    }
    if (t.nrows) qsort(t.rows, t.nrows, sizeof *t.rows, compare_rows);
    *rows = t.rows;
    *nrows = t.nrows;
    return PMS_OK;
}

size_t pms__pprof_count_type(const pms_pprof *p)
{
    size_t t = count_type(p);
    return t == SIZE_MAX ? pms_pprof_default_type(p) : t;
}

int64_t pms__pprof_period(const pms_pprof *p) { return p->msg->period; }

int pms__pprof_each_leaf(const pms_pprof *p, size_t type, pms_pprof_leaf_fn fn, void *ctx)
{
    if (type >= p->msg->n_sample_type)
        return pms__fail(PMS_EINVAL, "sample type %zu: the profile has %zu", type, p->msg->n_sample_type);
    for (size_t i = 0; i < p->msg->n_sample; i++) {
        const Pms__Sample *s = p->msg->sample[i];
        uint64_t count = s->value[type] > 0 ? (uint64_t)s->value[type] : 0;
        const char *file = NULL;
        uint64_t offset = 0;
        if (s->n_location_id) {
            const Pms__Location *loc =
                p->msg->location[*pms__keymap_find(&p->location_index, s->location_id[0], 0)];
            const uint64_t *m = loc->mapping_id ? pms__keymap_find(&p->mapping_index, loc->mapping_id, 0) : NULL;
            const Pms__Mapping *map = m ? p->msg->mapping[*m] : NULL;
            if (map && loc->address >= map->memory_start) {
                file = str(p, map->filename);
                offset = loc->address - map->memory_start + map->file_offset;
            }
        }
        int rc = fn(file, offset, count, ctx);
        if (rc) return rc;
    }
    return PMS_OK;
}
