/* A streamed fit's outputs written as the rows and segments come: the segment CSV,
 * the input series, the segment file, the samples decoded back from it, and the
 * charts gathered as they grow (memory flat in the number of rows). */
#include "olr/store_mixed.h"
#include "pmuscope/olr_series.h"
#include "util/error.h"

#include <string.h>

typedef struct stream {
    const pms_olr_stream_outputs *out;
    const pms_olr_series *meta;
    const pms_olr_fit *fit;
    pms_olr_writer *writer;     /* the segment file, or the decoded samples */
    pms_olr_chart_data *charts;
    bool begun;
} stream;

static int on_segment(const pms_olr_segment *seg, void *ctx)
{
    stream *S = ctx;
    if (S->out->segments) pms_olr_write_segment(S->out->segments, S->meta->names[seg->counter], seg);
    if (S->charts) pms_olr_chart_data_add_segment(S->charts, seg);
    return S->writer ? pms_olr_writer_add_segment(S->writer, seg) : 0;
}

static int on_decoded_row(uint64_t x, const uint64_t *y, void *ctx)
{
    stream *S = ctx;
    pms_olr_write_series_row(S->out->decoded, x, y, S->meta->k);
    return 0;
}

/* At the first row the counters and each one's eps are known. */
static int begin(stream *S)
{
    const pms_olr_stream_outputs *o = S->out;
    S->begun = true;
    int rc = o->charts ? pms_olr_chart_data_create(&S->charts, S->meta->k) : 0;
    if (rc == 0 && (o->store || o->decoded)) {
        pms_olr_store_options so = {0};
        if (o->store_options) so = *o->store_options;
        else pms_olr_store_options_init(&so);
        if (!o->store) { /* nothing written: only the end points matter */
            so.level = 1;
            so.keep_x = so.lossless = 0;
            so.encoding = PMS_OLR_ENCODING_SEGMENTS;
        }
        rc = pms_olr_writer_create(&S->writer, o->store, o->store ? o->store_path : "the decoded samples", &so,
                                   &S->fit->opt, S->meta->xname, (const char *const *)S->meta->names);
    }
    if (rc == 0 && o->decoded) {
        pms_olr_write_series_header(o->decoded, S->meta);
        rc = pms_olr_writer_set_decoded(S->writer, on_decoded_row, S);
    }
    if (o->samples) pms_olr_write_series_header(o->samples, S->meta);
    return rc;
}

static int on_row(uint64_t x, const uint64_t *y, void *ctx)
{
    stream *S = ctx;
    int rc = S->begun ? 0 : begin(S);
    if (rc) return rc;
    if (S->out->samples) pms_olr_write_series_row(S->out->samples, x, y, S->meta->k);
    if (S->charts) pms_olr_chart_data_add_sample(S->charts, x, y);
    return S->writer ? pms_olr_writer_add_sample(S->writer, x, y) : 0;
}

int pms_olr_fit_stream_outputs(pms_olr_fit *out, pms_olr_series *meta, pms_olr_stream_result *res, const char *path,
                               const pms_olr_input_options *in, const pms_olr_options *opt,
                               const pms_olr_eps_spec *specs, size_t nspecs, int monotone,
                               const pms_olr_stream_outputs *outputs)
{
    memset(res, 0, sizeof *res);
    stream S = {.out = outputs, .meta = meta, .fit = out};
    if (outputs->segments) pms_olr_write_segment_header(outputs->segments);
    int rc = pms_olr_fit_stream(out, meta, path, in, opt, specs, nspecs, monotone, on_segment, on_row, &S);
    if (rc == 0 && S.writer) rc = pms_olr_writer_finish(S.writer);
    if (rc == 0 && S.writer && outputs->store) {
        pms_olr_writer_get_stats(S.writer, &res->store);
        res->has_store = true;
    }
    pms_olr_writer_destroy(S.writer);
    res->charts = S.charts;
    return rc;
}

int pms_olr_write_store_stats(FILE *out, const char *path, const pms_olr_store_stats *st)
{
    fprintf(out,
            "%s: %llu bytes: x %llu, segments %llu, residuals %llu, predictive %llu, header %llu; "
            "%llu counters predictive, %llu segments, %llu joint, %llu points\n",
            path, (unsigned long long)st->bytes_total, (unsigned long long)st->bytes_x,
            (unsigned long long)st->bytes_segments, (unsigned long long)st->bytes_residuals,
            (unsigned long long)st->bytes_predictive, (unsigned long long)st->bytes_header,
            (unsigned long long)st->predictive, (unsigned long long)st->segments, (unsigned long long)st->joint,
            (unsigned long long)st->points);
    if (st->mixed_cut)
        fprintf(out, "note: %s: the optimal joint/disjoint mix met its caps at %llu samples (awake starts, memory): "
                     "the end points may not be the fewest\n",
                path, (unsigned long long)st->mixed_cut);
    if (st->mixed_greedy)
        fprintf(out, "note: %s: %llu counters with eps above %u took the greedy joint/disjoint choice: their end "
                     "points may not be the fewest\n",
                path, (unsigned long long)st->mixed_greedy, PMS__OLR_MIXED_EPS_MAX);
    return ferror(out) ? pms__fail(PMS_EIO, "%s: write failed", path) : PMS_OK;
}
