/* A diff from files to rows (pmuscope/diff.h): each file to its reader by its content, and
 * the comparison of the sides. */
#include "diff/diff_internal.h"
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "util/error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The counts of `pmuscope stat --json`: a JSON object, so its first character is '{'. */
static int looks_like_json(bool *out, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return pms__fail_errno(PMS_EIO, errno, "%s", path);
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    fclose(f);
    *out = c == '{';
    return PMS_OK;
}

int pms_diff_add_file(pms_diff *d, pms_diff_side side, const char *path)
{
    bool perfdata = false, json = false, pprof = false;
    int rc = pms_perfdata_sniff(&perfdata, path);
    if (rc == PMS_OK && !perfdata) rc = looks_like_json(&json, path);
    if (rc == PMS_OK && !perfdata && !json) rc = pms_pprof_sniff(&pprof, path);
    if (rc) return rc;
    if (!perfdata && !json && !pprof)
        return pms__fail(PMS_EFORMAT, "%s: expected a perf.data, a pprof profile or the JSON of pmuscope stat --json",
                         path);
    return json ? pms__diff_read_counts(d, side, path) : pms__diff_read_profile(d, side, path, pprof);
}

int pms_diff_compute(pms_diff_result *out, pms_diff *d)
{
    memset(out, 0, sizeof *out);
    if (d->kind == DIFF_NOTHING_YET || !d->nfiles[PMS_DIFF_BASE] || !d->nfiles[PMS_DIFF_NEW])
        return pms__fail(PMS_EINVAL, "expected inputs on both sides (BASE and NEW)");
    out->counts = d->kind == DIFF_COUNTS;
    out->event = d->event;
    out->sort = d->opt.sort;
    out->base_files = d->files[PMS_DIFF_BASE];
    out->nbase_files = d->nfiles[PMS_DIFF_BASE];
    out->new_files = d->files[PMS_DIFF_NEW];
    out->nnew_files = d->nfiles[PMS_DIFF_NEW];
    out->fdr = d->opt.fdr;
    out->confidence = d->opt.confidence;
    out->power = d->opt.power;
    out->continuity = !d->opt.no_continuity;
    int rc = out->counts ? pms__diff_compare_counts(d, out) : pms__diff_compare_profiles(d, out);
    out->notes = (const char *const *)d->notes;
    out->nnotes = d->nnotes;
    if (rc) pms_diff_result_free(out);
    return rc;
}

void pms_diff_result_free(pms_diff_result *r)
{
    free(r->rows);
    free(r->count_rows);
    r->rows = NULL;
    r->count_rows = NULL;
    r->nrows = r->ncount_rows = 0;
}

bool pms_diff_changed_by(const pms_diff_result *r, double pct)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].verdict != PMS_DIFF_NONE && fabs(r->rows[i].delta) * 100 > pct) return true;
    for (size_t i = 0; i < r->ncount_rows; i++)
        if (r->count_rows[i].verdict != PMS_DIFF_NONE && fabs(r->count_rows[i].ratio - 1) * 100 > pct) return true;
    return false;
}

