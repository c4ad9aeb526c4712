/* The records inside PERF_RECORD_COMPRESSED, through libzstd's streaming decoder (perf's
 * tools/perf/util/zstd.c writes them with ZSTD_compressStream + ZSTD_flushStream). */
#include "io/perfdata_decompress.h"
#include "pmuscope/perfdata.h"
#include "util/error.h"
#include "io/perfdata_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* At least one whole inner record (u16 size) plus room to decompress into. */
#define DECOMP_BUFFER_SIZE ((size_t)1 << 20)

struct pms__decompressor {
    ZSTD_DStream *stream;
    unsigned char *buf; /* decompressed bytes not yet handed out, from buf[0] */
    size_t len;
    uint64_t base;      /* position of buf[0] in the decompressed stream, for messages */
    uint64_t last_off;  /* file offset of the last compressed record fed */
};

pms__decompressor *pms__decompressor_new(void)
{
    pms__decompressor *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->stream = ZSTD_createDStream();
    d->buf = aligned_alloc(8, DECOMP_BUFFER_SIZE);
    if (!d->stream || !d->buf) {
        pms__decompressor_free(d);
        return NULL;
    }
    ZSTD_initDStream(d->stream);
    return d;
}

void pms__decompressor_free(pms__decompressor *d)
{
    if (!d) return;
    ZSTD_freeDStream(d->stream);
    free(d->buf);
    free(d);
}

void pms__decompressor_reset(pms__decompressor *d)
{
    ZSTD_DCtx_reset(d->stream, ZSTD_reset_session_only);
    d->len = 0;
    d->base = d->last_off = 0;
}

static int fail_inner(const pms__decompressor *d, const char *name, uint64_t off, size_t pos, const char *what)
{
    return pms__fail(PMS_EFORMAT, "%s: offset %llu: compressed record: at byte %llu of the decompressed data: %s", name,
                     (unsigned long long)off, (unsigned long long)(d->base + pos), what);
}

/* Hands out the whole records at the start of buf and keeps the rest. */
static int hand_out(pms__decompressor *d, const char *name, uint64_t off, pms__inner_record_fn fn, void *ctx)
{
    size_t pos = 0;
    while (d->len - pos >= sizeof(struct perf_event_header)) {
        struct perf_event_header h;
        memcpy(&h, d->buf + pos, sizeof h);
        if (h.size < sizeof h || h.size % 8)
            return fail_inner(d, name, off, pos, "record size not a multiple of 8 of at least 8 bytes");
        if (h.type == PMS_RECORD_COMPRESSED) return fail_inner(d, name, off, pos, "a compressed record inside compressed data");
        if (h.type == PMS_RECORD_AUXTRACE || h.type == PMS_RECORD_HEADER_TRACING_DATA)
            return fail_inner(d, name, off, pos, "a record with data after it (auxtrace, tracing data) inside compressed data");
        if (h.size > d->len - pos) break; /* the next compressed record completes it */
        int rc = fn(d->buf + pos, ctx);
        if (rc) return rc;
        pos += h.size;
    }
    memmove(d->buf, d->buf + pos, d->len - pos);
    d->len -= pos;
    d->base += pos;
    return PMS_OK;
}

int pms__decompressor_feed(pms__decompressor *d, const unsigned char *src, size_t n, const char *name, uint64_t off,
                           pms__inner_record_fn fn, void *ctx)
{
    ZSTD_inBuffer in = {src, n, 0};
    d->last_off = off;
    for (;;) {
        /* After hand_out the buffer holds less than one record (64 KiB): there is room. */
        ZSTD_outBuffer out = {d->buf, DECOMP_BUFFER_SIZE, d->len};
        size_t zr = ZSTD_decompressStream(d->stream, &out, &in);
        if (ZSTD_isError(zr)) {
            char what[160];
            snprintf(what, sizeof what, "zstd: %s", ZSTD_getErrorName(zr));
            return fail_inner(d, name, off, d->len, what);
        }
        d->len = out.pos;
        int rc = hand_out(d, name, off, fn, ctx);
        if (rc) return rc;
        /* A full buffer may mean the decoder holds more output back: go on until it does not. */
        if (in.pos == in.size && out.pos < out.size) return PMS_OK;
    }
}

int pms__decompressor_finish(const pms__decompressor *d, const char *name)
{
    if (!d || !d->len) return PMS_OK;
    return pms__fail(PMS_EFORMAT,
                     "%s: offset %llu: compressed data ends inside a record (%zu bytes of it): truncated file or "
                     "a compressed record missing",
                     name, (unsigned long long)d->last_off, d->len);
}
