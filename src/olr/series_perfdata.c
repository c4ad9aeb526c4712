/* olr series from perf.data: samples with read values (PERF_SAMPLE_READ), as
 * `perf record -e '{cpu-clock,page-faults}:S'` or `pmuscope record` write them.
 * x is the sampling event's own count (or the time stamp, or another read event),
 * the counters are the other read values. Read a record at a time: the reader hands
 * samples over in time order (holding at most two of perf's rounds), so each row goes
 * on as soon as its sample comes. */
#include "olr/columns.h"
#include "olr/series_internal.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

typedef struct loader {
    pms_olr_series *s;
    const pms_olr_input_options *opt;
    const char *path;
    pms_perfdata_reader *r;
    olr_columns cols;
    olr_pending pending;
    int chosen;
    uint64_t *vals, *row;
    pms_olr_row_fn fn;
    void *ctx;
} loader;

static const pms_perfdata_attr *attr_of_id(uint64_t id, void *ctx)
{
    pms_perfdata_reader *r = ctx;
    return pms_attr_by_id(pms_perfdata_get_attr(r, 0), pms_perfdata_nattrs(r), id);
}

/* In time order: one row of the series, to the caller. */
static int add_row(uint64_t group, const uint64_t *vals, void *ctx)
{
    loader *L = ctx;
    uint64_t x;
    int rc = pms__olr_columns_accumulate(&L->cols, group, vals, &x, L->row);
    return rc ? rc : L->fn(x, L->row, L->ctx);
}

static int on_sample(const pms_sample *smp, void *ctx)
{
    loader *L = ctx;
    if (L->opt->tid >= 0 && smp->tid != (uint32_t)L->opt->tid) return 0;
    if (L->chosen && smp->tid != (uint32_t)L->s->tid) {
        L->s->skipped++; /* each thread counts on its own: one stream per thread */
        return 0;
    }
    if (!L->chosen) {
        L->s->tid = smp->tid;
        int rc = pms__olr_columns_choose(&L->cols, smp, L->opt->x, L->opt->counters, attr_of_id, L->r, L->path);
        if (rc) return rc;
        L->chosen = 1;
        L->s->k = L->cols.k;
        pms__olr_pending_init(&L->pending, L->cols.k);
        L->vals = malloc((1 + L->cols.k) * sizeof *L->vals);
        L->row = malloc((L->cols.k ? L->cols.k : 1) * sizeof *L->row);
        /* the series has its names from the first sample on */
        L->s->names = L->cols.names;
        L->s->xname = L->cols.xname;
        if (!L->vals || !L->row) return pms__fail(PMS_ENOMEM, "out of memory");
    }
    if (!pms__olr_columns_extract(&L->cols, smp, L->vals)) return 0;
    /* samples come in time order (pms_perfdata_read's default): none older can follow */
    int rc = pms__olr_pending_add(&L->pending, smp->time, smp->id, L->vals);
    return rc ? rc : pms__olr_pending_flush(&L->pending, smp->time, add_row, L);
}

int pms__olr_series_stream_perfdata(pms_olr_series *s, const char *path, const pms_olr_input_options *opt,
                                    pms_olr_row_fn fn, void *ctx)
{
    loader L = {.s = s, .opt = opt, .path = path, .fn = fn, .ctx = ctx};
    int rc = pms_perfdata_open(&L.r, path);
    if (rc) return rc;
    pms_perfdata_handlers h = {.sample = on_sample, .ctx = &L};
    rc = pms_perfdata_read(L.r, &h);
    if (rc == 0 && L.chosen) rc = pms__olr_pending_flush(&L.pending, UINT64_MAX, add_row, &L);
    if (rc == 0 && !L.chosen)
        rc = pms__fail(PMS_EFORMAT, "%s: no samples%s", path, opt->tid >= 0 ? " of that thread" : "");
    if (L.chosen) {
        /* the series keeps the names */
        L.cols.names = NULL;
        L.cols.xname = NULL;
    }
    pms__olr_columns_free(&L.cols);
    pms__olr_pending_free(&L.pending);
    free(L.vals);
    free(L.row);
    pms_perfdata_close(L.r);
    return rc;
}
