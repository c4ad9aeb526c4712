/* The sampled side (Wu & Mencer): S from a perf.data, with every IP placed in its file
 * (binary, file offset) through the recording's MMAP records (pms_profile, pms_symbols). */
#include "pmuscope/event.h"
#include "pmuscope/hotspot.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "pmuscope/profile.h"
#include "pmuscope/symbols.h"
#include "hotspot/pprof_sites.h"
#include "hotspot/recordings.h"
#include "symbol/offsets_only.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies the rows that lie in a file into out->samples (c_i counts samples, as the
 * paper does, not their periods), each with its thread's command name (the process that
 * ran it: a truth keeps the processes of a command apart); the rest is unplaced. */
static int take_rows(pms_hotspot_recording *out, const pms_profile_row *rows, size_t n)
{
    out->samples = calloc(n ? n : 1, sizeof *out->samples);
    if (!out->samples)
        return pms__fail(PMS_ENOMEM, "out of memory for %zu sampled IPs", n);
    for (size_t i = 0; i < n; i++) {
        if (rows[i].binary[0] != '/') { /* [kernel], [unknown], [vdso] */
            out->unplaced += rows[i].samples;
            continue;
        }
        char *path = strdup(rows[i].binary), *process = rows[i].comm ? strdup(rows[i].comm) : NULL;
        if (!path || (rows[i].comm && !process)) {
            free(path);
            return pms__fail(PMS_ENOMEM, "out of memory");
        }
        out->samples[out->n++] = (pms_hotspot_sample){path, NULL, rows[i].file_offset, rows[i].samples, process};
    }
    return PMS_OK;
}

static int copy_cmdline(pms_hotspot_recording *out, const pms_perfdata_reader *r)
{
    size_t n;
    char *const *cmd = pms_perfdata_cmdline(r, &n);
    if (!n)
        return PMS_OK;
    if (!(out->cmdline = calloc(n + 1, sizeof *out->cmdline)))
        return pms__fail(PMS_ENOMEM, "out of memory");
    for (; out->ncmdline < n; out->ncmdline++)
        if (!(out->cmdline[out->ncmdline] = strdup(cmd[out->ncmdline])))
            return pms__fail(PMS_ENOMEM, "out of memory");
    return PMS_OK;
}

/* A pprof profile's sampled instructions, merged by (file, offset) as BY_IP rows are. */
struct pprof_place {
    pms_hotspot_recording *out;
    pms_keymap index; /* (file string's address, offset) -> sample */
    size_t cap;
};

static int place_leaf(const char *file, uint64_t offset, uint64_t count, void *ctx)
{
    struct pprof_place *pl = ctx;
    pms_hotspot_recording *out = pl->out;
    out->total += count;
    if (!file || file[0] != '/') { /* [kernel], [vdso], no mapping */
        out->unplaced += count;
        return PMS_OK;
    }
    uint64_t *slot = pms__keymap_upsert(&pl->index, (uint64_t)(uintptr_t)file, offset, UINT64_MAX);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for sampled IPs");
    if (*slot == UINT64_MAX) {
        char *path = NULL;
        if (pms__grow(&out->samples, &pl->cap, out->n + 1, sizeof *out->samples) || !(path = strdup(file)))
            return pms__fail(PMS_ENOMEM, "out of memory for sampled IPs");
        out->samples[out->n] = (pms_hotspot_sample){path, NULL, offset, 0};
        *slot = out->n++;
    }
    out->samples[*slot].count += count;
    return PMS_OK;
}

/* S from a pprof profile: its count sample type (else its default one) at each leaf. */
static int read_pprof(pms_hotspot_recording *out, const char *path)
{
    pms_pprof *p = NULL;
    int rc = pms_pprof_open(&p, path);
    if (rc) return rc;
    if (pms_pprof_ntypes(p) == 0) {
        pms_pprof_close(p);
        return pms__fail(PMS_EFORMAT, "%s: the profile has no sample types", path);
    }
    size_t type = pms__pprof_count_type(p);
    const char *name, *unit;
    pms_pprof_type(p, type, &name, &unit);
    size_t len = strlen(name);
    if (len > 8 && strcmp(name + len - 8, "_samples") == 0) len -= 8; /* pmuscope's "<event>_samples" */
    snprintf(out->event, sizeof out->event, "%.*s", (int)len, name);
    out->period = pms__pprof_period(p) > 0 ? (uint64_t)pms__pprof_period(p) : 0;
    for (size_t t = 0; t < pms_pprof_ntypes(p); t++) { /* a CPU-time profile: periods in nanoseconds */
        pms_pprof_type(p, t, &name, &unit);
        if (strcmp(unit, "nanoseconds") == 0) out->time_based = 1;
    }
    struct pprof_place pl = {out, {0}, 0};
    pms__keymap_init(&pl.index);
    rc = pms__pprof_each_leaf(p, type, place_leaf, &pl);
    if (!rc && !out->samples && !(out->samples = calloc(1, sizeof *out->samples)))
        rc = pms__fail(PMS_ENOMEM, "out of memory");
    pms__keymap_free(&pl.index);
    pms_pprof_close(p);
    return rc;
}

/* Event i of the open recording r into out[i], for i < n (every out[i] zeroed before). */
static int read_events(pms_hotspot_recording *out, size_t n, pms_perfdata_reader *r, const char *perfdata)
{
    if (pms_perfdata_nattrs(r) < n)
        return pms__fail(PMS_EFORMAT, "%s: %zu events where %zu were recorded", perfdata, pms_perfdata_nattrs(r), n);
    for (size_t i = 0; i < n; i++) {
        const pms_perfdata_attr *a = pms_perfdata_get_attr(r, i);
        snprintf(out[i].event, sizeof out[i].event, "%s", a->name && a->name[0] ? a->name : "?");
        out[i].period = a->attr.freq ? 0 : a->attr.sample_period;
        out[i].time_based = pms_event_counts_time(a->attr.type, a->attr.config);
        if (!(a->attr.sample_type & PERF_SAMPLE_IP))
            return pms__fail(PMS_EINVAL, "%s: event %s was recorded without IPs (PERF_SAMPLE_IP)", perfdata,
                             out[i].event);
    }
    int rc = PMS_OK;
    for (size_t i = 0; i < n && rc == PMS_OK; i++)
        rc = copy_cmdline(&out[i], r);
    pms_symbols *sym = NULL;
    pms_profile *prof = NULL;
    if (rc == PMS_OK && (rc = pms_symbols_create(&sym)) == PMS_OK)
        pms__symbols_offsets_only(sym); /* the measures place samples; they name no function */
    if (rc == PMS_OK)
        rc = pms_profile_create(&prof, sym);
    if (rc == PMS_OK)
        rc = pms_profile_read(prof, r, NULL, NULL);
    for (size_t i = 0; i < n && rc == PMS_OK; i++) {
        pms_profile_row *rows = NULL;
        size_t nrows = 0;
        if ((rc = pms_profile_table(prof, i, PMS_PROFILE_BY_IP | PMS_PROFILE_WITH_COMM, 0.95, &rows, &nrows)) ==
            PMS_OK) {
            out[i].total = pms_profile_samples(prof, i);
            rc = take_rows(&out[i], rows, nrows);
        }
        free(rows);
    }
    pms_profile_destroy(prof);
    pms_symbols_destroy(sym);
    return rc;
}

/* A recording of more events than asked for: the measures compare one event's samples
 * with the truth, and taking the first event's would silently drop the others. */
static int more_events(pms_perfdata_reader *r, size_t n, const char *perfdata)
{
    char names[256] = "";
    size_t len = 0, nattrs = pms_perfdata_nattrs(r);
    for (size_t i = 0; i < nattrs && len < sizeof names; i++) {
        const pms_perfdata_attr *a = pms_perfdata_get_attr(r, i);
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                a->name && a->name[0] ? a->name : "?");
        if (len < sizeof names && !a->attr.freq)
            len += (size_t)snprintf(names + len, sizeof names - len, " period %llu",
                                    (unsigned long long)a->attr.sample_period);
    }
    return pms__fail(PMS_EINVAL, "%s records %zu events (%s), not %zu: the measures score the samples of one event "
                     "(record one, e.g. perf record -e cpu-clock:u)", perfdata, nattrs, names, n);
}

int pms__hotspot_recordings_read(pms_hotspot_recording *out, size_t n, const char *perfdata)
{
    memset(out, 0, n * sizeof *out);
    pms_perfdata_reader *r = NULL;
    int rc = pms_perfdata_open(&r, perfdata);
    if (rc == PMS_OK && pms_perfdata_nattrs(r) == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: the file describes no event", perfdata);
    if (rc == PMS_OK && pms_perfdata_nattrs(r) > n)
        rc = more_events(r, n, perfdata);
    if (rc == PMS_OK)
        rc = read_events(out, n, r, perfdata);
    pms_perfdata_close(r);
    if (rc < 0)
        for (size_t i = 0; i < n; i++)
            pms_hotspot_recording_free(&out[i]);
    return rc;
}

int pms_hotspot_recording_read(pms_hotspot_recording *out, const char *perfdata)
{
    memset(out, 0, sizeof *out);
    pms_profile_kind kind;
    int sniffed = pms_profile_sniff(&kind, perfdata);
    if (sniffed) return sniffed; /* neither a perf.data nor a pprof profile: says so */
    if (kind == PMS_PROFILE_PPROF) {
        int rc = read_pprof(out, perfdata);
        if (rc < 0) pms_hotspot_recording_free(out);
        return rc;
    }
    return pms__hotspot_recordings_read(out, 1, perfdata);
}

void pms_hotspot_recording_free(pms_hotspot_recording *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free((char *)r->samples[i].path);
        free((char *)r->samples[i].process);
    }
    free(r->samples);
    r->samples = NULL;
    r->n = 0;
    for (size_t i = 0; i < r->ncmdline; i++)
        free(r->cmdline[i]);
    free(r->cmdline);
    r->cmdline = NULL;
    r->ncmdline = 0;
}
