/* A profile file as one run of a side: a perf.data or a pprof profile read into report's
 * table of the diff's event (pmuscope/profile_report.h), by the diff's sort keys, self
 * samples only; the rows are copied and the file closed. */
#include "diff/diff_internal.h"
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "pmuscope/symbols.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

/* The table of the diff's event (or, before one is known, the first) as a run. pmuscope's
 * pprof profiles name the event's sample count "<event>_samples": the event it counts. */
static int add_table(pms_diff *d, pms_diff_side side, const char *path, const pms_profile_report *rep)
{
    if (!rep->ntables)
        return pms__fail(PMS_ENOENT, "%s: no samples%s%s", path, d->event ? " of " : "", d->event ? d->event : "");
    const pms_profile_event_table *t = &rep->tables[0];
    if (rep->ntables > 1) {
        int rc = pms__diff_note(d, "%s holds samples of other events too: %s is compared (-e picks another)", path,
                                t->event);
        if (rc) return rc;
    }
    char event[256];
    size_t len = strlen(t->event), suffix = strlen("_samples");
    snprintf(event, sizeof event, "%.*s", (int)(len > suffix && strcmp(t->event + len - suffix, "_samples") == 0
                                                    ? len - suffix : len), t->event);
    return pms_diff_add_profile_run(d, side, path, event, t->rows, t->nrows, t->samples);
}

/* A report of the file by the diff's keys: self samples, no call paths. */
static pms_profile_report report_of(const pms_diff *d, const char *path)
{
    pms_profile_report rep = d->layout;
    rep.input = path;
    rep.weight = PMS_WEIGHT_SAMPLES;
    rep.confidence = d->opt.confidence;
    rep.children = PMS_CHILDREN_OFF;
    rep.tables = NULL;
    rep.ntables = 0;
    return rep;
}

static int read_perfdata(pms_diff *d, pms_diff_side side, const char *path)
{
    pms_perfdata_reader *r = NULL;
    pms_symbols *syms = NULL;
    pms_profile *p = NULL;
    pms_profile_report rep = report_of(d, path);
    int rc = pms_perfdata_open(&r, path);
    if (rc == PMS_OK) rc = pms_symbols_create(&syms);
    if (rc == PMS_OK) rc = pms_symbols_set_symfs(syms, d->opt.symfs);
    if (rc == PMS_OK) rc = pms_profile_create(&p, syms);
    if (rc == PMS_OK) rc = pms_profile_read(p, r, d->opt.progress, d->opt.progress_ctx);
    if (rc == PMS_OK) rc = pms_profile_report_add_perfdata(&rep, p, r, d->event ? d->event : d->opt.event);
    if (rc == PMS_OK) rc = add_table(d, side, path, &rep);
    pms_profile_report_free(&rep);
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    return rc;
}

/* A pprof profile: report's table of the sample type, by function. */
static int read_pprof(pms_diff *d, pms_diff_side side, const char *path)
{
    pms_profile_key base = (pms_profile_key)(d->layout.key & 0xff);
    if (base != PMS_PROFILE_BY_SYMBOL || (d->layout.key & PMS_PROFILE_WITH_COMM))
        return pms__fail(PMS_EINVAL, "%s is a pprof profile: its rows are by function (--sort sym)", path);
    pms_pprof *p = NULL;
    pms_profile_report rep = report_of(d, path);
    int rc = pms_pprof_open(&p, path);
    if (rc == PMS_OK) rc = pms_profile_report_add_pprof(&rep, p, d->event ? d->event : d->opt.event);
    if (rc == PMS_OK) rc = add_table(d, side, path, &rep);
    pms_profile_report_free(&rep);
    pms_pprof_close(p);
    return rc;
}

int pms__diff_read_profile(pms_diff *d, pms_diff_side side, const char *path, bool pprof)
{
    int rc = pms__diff_set_kind(d, DIFF_PROFILES, path);
    if (rc) return rc;
    return pprof ? read_pprof(d, side, path) : read_perfdata(d, side, path);
}
