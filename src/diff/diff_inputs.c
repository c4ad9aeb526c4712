/* A diff's inputs, side by side (pmuscope/diff.h): runs of profiles by row key, runs of
 * counts by event; the strings, keys and notes they share. */
#include "diff/diff_internal.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/file.h"
#include "util/grow.h"
#include "util/keymap.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int pms_diff_create(pms_diff **out, const pms_diff_options *options)
{
    *out = NULL;
    pms_diff_options o = options ? *options : (pms_diff_options){0};
    o.fdr = o.fdr ? o.fdr : 0.05;
    o.confidence = o.confidence ? o.confidence : 0.95;
    o.power = o.power ? o.power : 0.8;
    o.sort = o.sort ? o.sort : "sym";
    if (!(o.fdr > 0 && o.fdr < 1) || !(o.confidence > 0 && o.confidence < 1) || !(o.power > 0 && o.power < 1))
        return pms__fail(PMS_EINVAL, "expected the FDR, confidence and power between 0 and 1, got %g, %g and %g",
                         o.fdr, o.confidence, o.power);
    pms_diff *d = calloc(1, sizeof *d);
    if (!d) return pms__fail(PMS_ENOMEM, "out of memory");
    d->opt = o;
    int rc = pms_profile_report_sort(&d->layout, o.sort);
    if (rc == PMS_OK && (d->layout.key & PMS_PROFILE_WITH_PID))
        rc = pms__fail(PMS_EINVAL, "sort key pid: thread ids differ from run to run, so rows by thread never meet "
                       "(comm does)");
    if (rc) {
        free(d);
        return rc;
    }
    pms__strtab_init(&d->strings);
    pms__strtab_init(&d->keys);
    *out = d;
    return PMS_OK;
}

void pms_diff_destroy(pms_diff *d)
{
    if (!d) return;
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < d->nruns[s]; i++) free(d->runs[s][i].cells);
        free(d->runs[s]);
        free(d->files[s]);
    }
    for (size_t i = 0; i < d->nseries; i++) free(d->series[i].values[0]), free(d->series[i].values[1]);
    free(d->series);
    free(d->where);
    for (size_t i = 0; i < d->nnotes; i++) free(d->notes[i]);
    free(d->notes);
    pms__strtab_free(&d->strings);
    pms__strtab_free(&d->keys);
    free(d);
}

const char *pms__diff_string(pms_diff *d, const char *s)
{
    if (!s) return NULL;
    int64_t i = pms__strtab_intern(&d->strings, s);
    return i < 0 ? NULL : d->strings.strings[i];
}

int64_t pms__diff_key(pms_diff *d, const char *key) { return pms__strtab_intern(&d->keys, key); }

int pms__diff_note(pms_diff *d, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < d->nnotes; i++)
        if (strcmp(d->notes[i], text) == 0) return PMS_OK;
    if (pms__grow(&d->notes, &d->notes_cap, d->nnotes + 1, sizeof *d->notes) || !(d->notes[d->nnotes] = strdup(text)))
        return pms__fail(PMS_ENOMEM, "out of memory");
    d->nnotes++;
    return PMS_OK;
}

int pms__diff_set_kind(pms_diff *d, enum diff_kind kind, const char *file)
{
    if (d->kind != DIFF_NOTHING_YET && d->kind != kind)
        return pms__fail(PMS_EINVAL, "%s: a %s, but the other inputs are %s: compare profiles with profiles and "
                         "counts with counts", file, kind == DIFF_COUNTS ? "stat --json file of counts" : "profile",
                         d->kind == DIFF_COUNTS ? "counts" : "profiles");
    d->kind = kind;
    return PMS_OK;
}

int pms__diff_add_name(pms_diff *d, pms_diff_side side, const char *name)
{
    const char *copy = pms__diff_string(d, name ? name : "(rows)");
    if (!copy || pms__grow(&d->files[side], &d->files_cap[side], d->nfiles[side] + 1, sizeof *d->files[side]))
        return pms__fail(PMS_ENOMEM, "out of memory");
    d->files[side][d->nfiles[side]++] = copy;
    return PMS_OK;
}

/* The key that meets the same row in other runs: the binary by its base name (two builds in
 * two folders meet, as in perf diff), then what the sort keys split by. */
static void row_key(const pms_diff *d, const pms_profile_row *r, char *buf, size_t size)
{
    pms_profile_key base = (pms_profile_key)(d->layout.key & 0xff);
    const char *binary = r->binary ? pms__base_name(r->binary) : "";
    int n = 0;
    if (base == PMS_PROFILE_BY_SYMBOL && r->symbol) n = snprintf(buf, size, "%s\037%s", binary, r->symbol);
    else if (base == PMS_PROFILE_BY_SYMBOL || base == PMS_PROFILE_BY_IP)
        n = snprintf(buf, size, "%s\037@%llx", binary, (unsigned long long)r->file_offset);
    else if (base == PMS_PROFILE_BY_DSO) n = snprintf(buf, size, "%s", binary);
    else buf[0] = 0;
    if ((d->layout.key & PMS_PROFILE_WITH_COMM) && n >= 0 && (size_t)n < size) {
        if (r->comm) snprintf(buf + n, size - (size_t)n, "\037%s", r->comm);
        else snprintf(buf + n, size - (size_t)n, "\037:%u", (unsigned)r->tid);
    }
}

/* The row's names, kept for the key's first run. */
static int keep_where(pms_diff *d, size_t key, const pms_profile_row *r)
{
    if (key < d->nwhere) return PMS_OK;
    if (pms__grow(&d->where, &d->where_cap, key + 1, sizeof *d->where)) return pms__fail(PMS_ENOMEM, "out of memory");
    pms_profile_row w = *r;
    w.binary = pms__diff_string(d, r->binary ? r->binary : "");
    w.symbol = pms__diff_string(d, r->symbol);
    w.comm = pms__diff_string(d, r->comm);
    w.thread_comm = pms__diff_string(d, r->thread_comm);
    if (!w.binary || (r->symbol && !w.symbol) || (r->comm && !w.comm) || (r->thread_comm && !w.thread_comm))
        return pms__fail(PMS_ENOMEM, "out of memory");
    d->where[d->nwhere++] = w;
    return PMS_OK;
}

int pms_diff_add_profile_run(pms_diff *d, pms_diff_side side, const char *name, const char *event,
                             const pms_profile_row *rows, size_t nrows, uint64_t total)
{
    int rc = pms__diff_set_kind(d, DIFF_PROFILES, name ? name : "(rows)");
    if (rc) return rc;
    if (event && d->event && strcmp(event, d->event) != 0)
        return pms__fail(PMS_EINVAL, "%s: samples of %s, but the diff compares %s (the event must be the same)",
                         name ? name : "(rows)", event, d->event);
    if (event && !d->event && !(d->event = pms__diff_string(d, event))) return pms__fail(PMS_ENOMEM, "out of memory");
    if (!total) return pms__fail(PMS_EINVAL, "%s: no samples", name ? name : "(rows)");
    if (pms__grow(&d->runs[side], &d->runs_cap[side], d->nruns[side] + 1, sizeof *d->runs[side]))
        return pms__fail(PMS_ENOMEM, "out of memory");
    diff_run run = {total, calloc(nrows ? nrows : 1, sizeof *run.cells), 0};
    if (!run.cells) return pms__fail(PMS_ENOMEM, "out of memory");
    uint64_t sum = 0;
    pms_keymap cell_of; /* key -> the run's cell */
    pms__keymap_init(&cell_of);
    for (size_t i = 0; i < nrows && rc == PMS_OK; i++) {
        char key[1024];
        row_key(d, &rows[i], key, sizeof key);
        int64_t k = pms__diff_key(d, key);
        if (k < 0) rc = PMS_ENOMEM;
        else if ((size_t)k < d->nwhere || (rc = keep_where(d, (size_t)k, &rows[i])) == PMS_OK) {
            /* two rows of one run on one key (the same function in two folders): added up */
            uint64_t *c = pms__keymap_upsert(&cell_of, (uint64_t)k, 0, run.ncells);
            if (!c) rc = pms__fail(PMS_ENOMEM, "out of memory");
            else if (*c == run.ncells) run.cells[run.ncells++] = (diff_cell){(size_t)k, 0};
            if (c) run.cells[*c].samples += rows[i].samples;
            sum += rows[i].samples;
        }
    }
    pms__keymap_free(&cell_of);
    if (rc == PMS_OK && sum > total)
        rc = pms__fail(PMS_EINVAL, "%s: the rows hold %llu samples, more than the %llu in all", name ? name : "(rows)",
                       (unsigned long long)sum, (unsigned long long)total);
    if (rc == PMS_OK) rc = pms__diff_add_name(d, side, name);
    if (rc) {
        free(run.cells);
        return rc;
    }
    d->runs[side][d->nruns[side]++] = run;
    return PMS_OK;
}

int pms_diff_add_count_runs(pms_diff *d, pms_diff_side side, const char *name, const char *event, const char *unit,
                            const double *values, size_t nruns)
{
    int rc = pms__diff_set_kind(d, DIFF_COUNTS, name ? name : "(values)");
    if (rc) return rc;
    int64_t k = pms__diff_key(d, event);
    if (k < 0) return PMS_ENOMEM;
    if ((size_t)k == d->nseries) {
        if (pms__grow(&d->series, &d->series_cap, d->nseries + 1, sizeof *d->series))
            return pms__fail(PMS_ENOMEM, "out of memory");
        d->series[d->nseries] = (diff_series){.event = pms__diff_string(d, event), .unit = pms__diff_string(d, unit)};
        if (!d->series[d->nseries].event || (unit && !d->series[d->nseries].unit))
            return pms__fail(PMS_ENOMEM, "out of memory");
        d->nseries++;
    }
    size_t nf = d->nfiles[side]; /* the side's inputs, each named once */
    if ((!nf || strcmp(d->files[side][nf - 1], name ? name : "(values)") != 0) &&
        (rc = pms__diff_add_name(d, side, name ? name : "(values)")))
        return rc;
    diff_series *s = &d->series[k];
    if (pms__grow(&s->values[side], &s->cap[side], s->n[side] + nruns, sizeof *s->values[side]))
        return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t r = 0; r < nruns; r++) s->values[side][s->n[side]++] = values[r];
    return PMS_OK;
}

