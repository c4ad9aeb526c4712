/* A fitted series to the olr segment file, and the decoded samples through it (see
 * pmuscope/olr_series.h). */
#include "pmuscope/olr_series.h"
#include "pmuscope/olr_store.h"
#include "util/error.h"

#include <stdlib.h>

/* The segment file of a fit to OUT (NULL: none), with each decoded sample to DECODED. */
static int store_fit(FILE *out, const char *where, const pms_olr_store_options *so, const pms_olr_series *s,
                     const pms_olr_fit *f, pms_olr_store_stats *stats, pms_olr_decoded_fn decoded, void *ctx)
{
    pms_olr_writer *w;
    int rc = pms_olr_writer_create(&w, out, where, so, &f->opt, s->xname, (const char *const *)s->names);
    if (rc) return rc;
    if (decoded) rc = pms_olr_writer_set_decoded(w, decoded, ctx);
    for (size_t i = 0; rc == 0 && i < s->n; i++) rc = pms_olr_writer_add_sample(w, s->x[i], &s->y[i * s->k]);
    for (size_t i = 0; rc == 0 && i < f->nseg; i++) rc = pms_olr_writer_add_segment(w, &f->seg[i]);
    if (rc == 0) rc = pms_olr_writer_finish(w);
    if (rc == 0 && stats) pms_olr_writer_get_stats(w, stats);
    pms_olr_writer_destroy(w);
    return rc;
}

int pms_olr_write_store(FILE *out, const char *where, const pms_olr_store_options *so, const pms_olr_series *s,
                        const pms_olr_fit *f, pms_olr_store_stats *stats)
{
    return store_fit(out, where, so, s, f, stats, NULL, NULL);
}

typedef struct decoding {
    FILE *out;
    size_t k;
} decoding;

static int write_decoded_row(uint64_t x, const uint64_t *y, void *ctx)
{
    decoding *d = ctx;
    pms_olr_write_series_row(d->out, x, y, d->k);
    return PMS_OK;
}

int pms_olr_write_decoded(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.level = 1; /* nothing written: only the end points matter */
    so.keep_x = 0;
    so.encoding = PMS_OLR_ENCODING_SEGMENTS;
    decoding d = {out, s->k};
    pms_olr_write_series_header(out, s);
    return store_fit(NULL, "the decoded samples", &so, s, f, NULL, write_decoded_row, &d);
}
