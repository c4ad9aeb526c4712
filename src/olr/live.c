/* The online line-segment fit as a recording tap (see pmuscope/olr_live.h). The share of
 * run time is the paper's measure: time stamps taken around the regression of every
 * sample, summed, over the whole run. */
#include "pmuscope/olr_live.h"
#include "io/perfdata_format.h"
#include "olr/columns.h"
#include "pmuscope/olr_series.h"
#include "pmuscope/olr_store.h"
#include "util/error.h"
#include "util/output.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pms_olr_live {
    pms_olr_live_options opt;
    const pms_perfdata_attr *attrs;
    size_t nattrs;
    FILE *csv;                       /* where the segments go (the CSV or the segment file) */
    pms__output out;                 /* pms_olr_live_open: the file csv writes */
    bool owned;
    pms_olr_writer *store;           /* the segment file, unless opt.csv */
    olr_columns cols;
    olr_pending pending;             /* samples of the last two rounds, put in time order */
    uint64_t round_max, prev_round_max;
    int chosen, failed;
    int failure_status;
    char *failure;
    bool write_failed;               /* the failure is the output's: said as it is */
    uint32_t tid;
    uint64_t *vals, *row;
    pms_read_value vbuf[64];
    pms_olr *olr;
    uint64_t samples, skipped;
    double seconds; /* in the regression */
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int write_segment(const pms_olr_segment *s, void *ctx)
{
    pms_olr_live *l = ctx;
    if (l->store) return pms_olr_writer_add_segment(l->store, s);
    pms_olr_write_segment(l->csv, l->cols.names[s->counter], s);
    return 0;
}

int pms_olr_live_create(pms_olr_live **out, const pms_olr_live_options *opt, FILE *segments)
{
    pms_olr_live *l = calloc(1, sizeof *l);
    if (!l) return pms__fail(PMS_ENOMEM, "out of memory");
    l->opt = *opt;
    l->csv = segments;
    l->out.fd = -1;
    if (opt->csv && segments) pms_olr_write_segment_header(segments);
    *out = l;
    return PMS_OK;
}

int pms_olr_live_open(pms_olr_live **out, const pms_olr_live_options *opt, const char *path)
{
    *out = NULL;
    pms__output o;
    int rc = pms__output_open(&o, path, PMS_OUTPUT_KEEP_OLD); /* as perf.data: in place at a checkpoint */
    if (rc) return rc;
    pms_olr_live *l = NULL;
    if ((rc = pms_olr_live_create(&l, opt, NULL))) {
        pms__output_abort(&o);
        return rc;
    }
    l->out = o;
    l->owned = true;
    if (!(l->csv = pms__output_stream(&l->out))) {
        pms_olr_live_destroy(l);
        return PMS_ENOMEM;
    }
    if (opt->csv) pms_olr_write_segment_header(l->csv);
    *out = l;
    return PMS_OK;
}

/* The name of the segments in messages. */
static const char *where(const pms_olr_live *l) { return l->owned ? l->out.name : "the olr segment file"; }

static const pms_perfdata_attr *attr_of_id(uint64_t id, void *ctx)
{
    pms_olr_live *l = ctx;
    return pms_attr_by_id(l->attrs, l->nattrs, id);
}

static int start(pms_olr_live *l, const pms_sample *smp)
{
    int rc = pms__olr_columns_choose(&l->cols, smp, NULL, NULL, attr_of_id, l, "the live fit");
    if (rc) return rc;
    l->chosen = 1;
    l->tid = smp->tid;
    pms__olr_pending_init(&l->pending, l->cols.k);
    l->vals = malloc((1 + l->cols.k) * sizeof *l->vals);
    l->row = malloc(l->cols.k * sizeof *l->row);
    if (!l->vals || !l->row) return pms__fail(PMS_ENOMEM, "out of memory");
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = l->opt.method;
    opt.ncounters = l->cols.k;
    pms_olr_counter_options *c = calloc(l->cols.k, sizeof *c);
    if (!c) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; j < l->cols.k; j++) {
        pms_olr_counter_options_init(&c[j]);
        c[j].eps = l->opt.eps;
    }
    opt.counters = c;
    rc = pms_olr_create(&l->olr, &opt, write_segment, l);
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.checkpoints = 1; /* one at each of the recording's syncs */
    if (rc == 0 && !l->opt.csv)
        rc = pms_olr_writer_create(&l->store, l->csv, where(l), &so, &opt, l->cols.xname,
                                   (const char *const *)l->cols.names);
    free(c);
    return rc;
}

/* The fit stops; the recording goes on. A write to the file that failed is said as its
 * own error ("cannot write PATH: reason"), whichever call found it. */
static void stop(pms_olr_live *l, int status)
{
    l->failed = 1;
    l->failure_status = status;
    l->write_failed = l->owned && l->out.err;
    if (l->write_failed) pms__output_failed(&l->out, l->out.err);
    l->failure = strdup(pms_strerror());
}

static int tap_start(void *ctx, const pms_perfdata_attr *attrs, size_t nattrs)
{
    pms_olr_live *l = ctx;
    l->attrs = attrs;
    l->nattrs = nattrs;
    return PMS_OK;
}

/* One ring-buffer record: samples of the first thread seen are kept for fitting. */
static int tap_record(void *ctx, const struct perf_event_header *h, bool *keep)
{
    pms_olr_live *l = ctx;
    if (l->failed || h->type != PERF_RECORD_SAMPLE) return PMS_OK;
    double t0 = now();
    pms_sample smp;
    int rc = pms_sample_parse(h, l->attrs, l->nattrs, &smp, l->vbuf, 64);
    if (rc == 0 && !l->chosen) rc = start(l, &smp);
    if (rc == 0) {
        if (smp.tid == l->tid && pms__olr_columns_extract(&l->cols, &smp, l->vals)) {
            rc = pms__olr_pending_add(&l->pending, smp.time, smp.id, l->vals);
            if (smp.time > l->round_max) l->round_max = smp.time;
        } else {
            l->skipped++;
        }
    }
    if (rc) stop(l, rc);
    else if (l->opt.segments_only) *keep = false;
    l->seconds += now() - t0;
    return PMS_OK;
}

/* In time order: the regression of one sample. */
static int fit_row(uint64_t group, const uint64_t *vals, void *ctx)
{
    pms_olr_live *l = ctx;
    uint64_t x;
    int rc = pms__olr_columns_accumulate(&l->cols, group, vals, &x, l->row);
    if (rc == 0 && l->store) rc = pms_olr_writer_add_sample(l->store, x, l->row);
    if (rc == 0) rc = pms_olr_push(l->olr, x, l->row);
    l->samples += rc == 0;
    return rc;
}

/* After each drain of the ring buffers: fits the samples now known to be in time order. */
static int tap_round(void *ctx)
{
    pms_olr_live *l = ctx;
    if (l->failed || !l->chosen) return PMS_OK;
    double t0 = now();
    /* As perf's FINISHED_ROUND: every buffer has been drained since the previous round
     * ended, so nothing older than that round's newest sample can still arrive. */
    int rc = pms__olr_pending_flush(&l->pending, l->prev_round_max, fit_row, l);
    if (rc) stop(l, rc);
    l->prev_round_max = l->round_max;
    l->seconds += now() - t0;
    return PMS_OK;
}

/* A failed write of the segments: their file's own message ("cannot write PATH: reason"). */
static int write_error(pms_olr_live *l, int err)
{
    if (l->owned) return pms__output_failed(&l->out, l->out.err ? l->out.err : err);
    return pms__fail_errno(PMS_EIO, err, "cannot write %s", where(l));
}

/* At each checkpoint of the recording: what is fitted so far, whole in the file (the
 * segment file's checkpoint, or the CSV's rows flushed), and the file in place once it
 * holds a sample. */
static int tap_sync(void *ctx)
{
    pms_olr_live *l = ctx;
    if (l->failed) return PMS_OK;
    double t0 = now();
    int rc = PMS_OK;
    if (l->store) rc = pms_olr_writer_checkpoint(l->store);
    else if (fflush(l->csv) != 0) rc = write_error(l, errno);
    if (!rc && l->owned && l->samples) rc = pms__output_publish(&l->out);
    if (rc) stop(l, rc);
    l->seconds += now() - t0;
    return PMS_OK;
}

int pms_olr_live_tap(pms_record_tap *out, pms_olr_live *l)
{
    *out = (pms_record_tap){.start = tap_start, .record = tap_record, .round = tap_round, .sync = tap_sync, .ctx = l};
    return PMS_OK;
}

int pms_olr_live_finish(pms_olr_live *l)
{
    double t0 = now();
    if (l->olr && !l->failed) {
        int rc = pms__olr_pending_flush(&l->pending, UINT64_MAX, fit_row, l);
        if (!rc) rc = pms_olr_finish(l->olr);
        if (!rc && l->store) rc = pms_olr_writer_finish(l->store);
        if (rc) stop(l, rc);
    }
    l->seconds += now() - t0;
    if (l->owned && !l->failed && l->olr) { /* complete: in place */
        int rc = pms__output_commit(&l->out); /* its failure names the file */
        l->owned = false; /* closed */
        if (rc) {
            stop(l, rc);
            l->write_failed = true;
        }
    } else if (!l->owned && fflush(l->csv) != 0 && !l->failed) {
        stop(l, write_error(l, errno));
        l->write_failed = true;
    }
    if (l->failed && l->write_failed) return pms__fail(l->failure_status, "%s", l->failure ? l->failure : "out of memory");
    if (l->failed)
        return pms__fail(l->failure_status, "the live olr fit stopped: %s", l->failure ? l->failure : "out of memory");
    if (!l->olr) return pms__fail(PMS_EINVAL, "%s: no samples to fit", where(l));
    return PMS_OK;
}

int pms_olr_live_get_stats(pms_olr_live_stats *out, const pms_olr_live *l)
{
    *out = (pms_olr_live_stats){.samples = l->samples, .skipped = l->skipped, .tid = l->tid,
                                .ncounters = l->olr ? l->cols.k : 0, .seconds = l->seconds};
    return PMS_OK;
}

int pms_olr_live_get_summary(pms_olr_summary *out, const char **name, const pms_olr_live *l, size_t i)
{
    if (!l->olr || i >= l->cols.k) return pms__fail(PMS_EINVAL, "olr: no counter %zu", i);
    *name = l->cols.names[i];
    return pms_olr_get_summary(l->olr, i, out);
}

void pms_olr_live_destroy(pms_olr_live *l)
{
    if (!l) return;
    if (l->owned) pms__output_abort(&l->out); /* not finished: as it was, unless published */
    pms_olr_destroy(l->olr);
    pms_olr_writer_destroy(l->store);
    pms__olr_columns_free(&l->cols);
    pms__olr_pending_free(&l->pending);
    free(l->vals);
    free(l->row);
    free(l->failure);
    free(l);
}
