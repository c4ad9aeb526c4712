/* Writing perf.data files that perf 6.x reads.
 *
 * Layout: header | sample ids of every attr | attrs section | data section | feature
 * table and feature sections. Records are buffered; pms_perfdata_writer_sync() writes
 * the buffer, then the features after the data, then the header that points at both.
 * Before the next records overwrite the features, the header is rewritten without
 * them, so at every moment the file on disk is a valid perf.data holding everything
 * up to the last sync. */
#include "io/perfdata_features.h"
#include "io/perfdata_format.h"
#include "io/perfdata_writer.h"
#include "util/error.h"
#include "util/output.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define WRITER_BUFFER_SIZE (256u * 1024u)

struct pms_perfdata_writer {
    int fd;        /* the output's: the writer never closes it */
    pms__output *own; /* the file, where the writer opened it itself (pms_perfdata_writer_open) */
    bool publish_at_sync; /* own: put in place at the first sync the caller asks for */
    char *path;    /* for messages */
    int regular;   /* a regular file (a device such as /dev/null is written, never truncated) */
    pms_perfdata_attr *attrs; /* deep copies: names and ids owned here */
    size_t nattrs;
    pms_feature *features;
    size_t nfeatures;
    uint64_t data_offset;
    uint64_t data_on_disk; /* bytes of records written to the file */
    unsigned char *buf;    /* records not yet written */
    size_t buflen;
    int features_on_disk; /* the header points at feature sections after the data */
    bool pipe;            /* path "-": perf's pipe format on the standard output */
    int features_changed; /* the sections on disk are not the current ones */
    ZSTD_CStream *zstream; /* record -z: the buffer goes out as PERF_RECORD_COMPRESSED */
    unsigned char *zbuf;   /* the compressed records of one buffer */
    size_t zcap;
    int zlevel;
    uint64_t raw_bytes, compressed_bytes; /* for the ratio perf prints */
};

static int set_feature(pms_perfdata_writer *w, pms_feature f);

static int write_at(pms_perfdata_writer *w, const void *p, size_t n, uint64_t off)
{
    const unsigned char *c = p;
    while (n) {
        ssize_t k = w->pipe ? write(w->fd, c, n) : pwrite(w->fd, c, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return pms__fail_errno(PMS_EIO, k < 0 ? errno : ENOSPC, "cannot write %s", w->path);
        c += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return PMS_OK;
}

/* Pipe mode writes in sequence: no going back. */
static int write_out(pms_perfdata_writer *w, const void *p, size_t n)
{
    int rc = write_at(w, p, n, w->data_offset);
    w->data_offset += n;
    return rc;
}

/* One feature section as a HEADER_FEATURE record of the pipe format. */
static int write_feature_record(pms_perfdata_writer *w, const pms_feature *f)
{
    unsigned char rec[UINT16_MAX];
    size_t size = sizeof(struct perf_event_header) + 8 + ((f->len + 7) & ~(size_t)7);
    if (size > sizeof rec) return PMS_OK; /* a record holds 64 KiB: perf's pipe mode loses such a feature too */
    memset(rec, 0, size);
    struct perf_event_header h = {PMS_RECORD_HEADER_FEATURE, 0, (uint16_t)size};
    uint64_t bit = f->bit;
    memcpy(rec, &h, sizeof h);
    memcpy(rec + sizeof h, &bit, sizeof bit);
    memcpy(rec + sizeof h + 8, f->data, f->len);
    return write_out(w, rec, size);
}

/* The pipe format (perf record -o -): a 16-byte header, then the events and the features
 * as records (HEADER_ATTR with its ids, HEADER_FEATURE) before the data; perf script -i -
 * and perf report -i - read it, as does pms_perfdata_open(). */
static int write_pipe_header(pms_perfdata_writer *w)
{
    const uint64_t head[2] = {PMS_PERFDATA_MAGIC, PMS_PERFDATA_PIPE_HEADER_SIZE};
    int rc = write_out(w, head, sizeof head);
    unsigned char rec[UINT16_MAX];
    for (size_t i = 0; !rc && i < w->nattrs; i++) {
        struct perf_event_header h = {PMS_RECORD_HEADER_ATTR, 0, 0};
        size_t size = sizeof h + sizeof(struct perf_event_attr) + w->attrs[i].nids * sizeof(uint64_t);
        if (size > sizeof rec) return pms__fail(PMS_EINVAL, "%s: event %s has too many ids for a pipe", w->path, w->attrs[i].name);
        h.size = (uint16_t)size;
        struct perf_event_attr a = w->attrs[i].attr;
        a.size = sizeof a;
        memcpy(rec, &h, sizeof h);
        memcpy(rec + sizeof h, &a, sizeof a);
        memcpy(rec + sizeof h + sizeof a, w->attrs[i].ids, w->attrs[i].nids * sizeof(uint64_t));
        rc = write_out(w, rec, size);
    }
    for (size_t i = 0; !rc && i < w->nfeatures; i++) rc = write_feature_record(w, &w->features[i]);
    return rc;
}

static int write_header(pms_perfdata_writer *w, int with_features)
{
    struct pms_file_header h = {0};
    h.magic = PMS_PERFDATA_MAGIC;
    h.size = PMS_PERFDATA_HEADER_SIZE;
    h.attr_size = sizeof(struct perf_event_attr) + sizeof(struct pms_file_section);
    h.attrs.offset = w->data_offset - h.attr_size * w->nattrs;
    h.attrs.size = h.attr_size * w->nattrs;
    h.data.offset = w->data_offset;
    h.data.size = w->data_on_disk;
    if (with_features)
        for (size_t i = 0; i < w->nfeatures; i++) h.features[w->features[i].bit / 64] |= 1ULL << (w->features[i].bit % 64);
    return write_at(w, &h, sizeof h, 0);
}

/* The ids of every attr, then the attrs section that points at them. */
static int write_attrs(pms_perfdata_writer *w)
{
    uint64_t off = PMS_PERFDATA_HEADER_SIZE;
    uint64_t ids_off = off;
    for (size_t i = 0; i < w->nattrs; i++) {
        size_t n = w->attrs[i].nids * sizeof(uint64_t);
        int rc = write_at(w, w->attrs[i].ids, n, off);
        if (rc) return rc;
        off += n;
    }
    for (size_t i = 0; i < w->nattrs; i++) {
        struct {
            struct perf_event_attr attr;
            struct pms_file_section ids;
        } entry = {w->attrs[i].attr, {ids_off, w->attrs[i].nids * sizeof(uint64_t)}};
        entry.attr.size = sizeof entry.attr;
        ids_off += entry.ids.size;
        int rc = write_at(w, &entry, sizeof entry, off);
        if (rc) return rc;
        off += sizeof entry;
    }
    w->data_offset = off;
    return PMS_OK;
}

static int write_features(pms_perfdata_writer *w)
{
    uint64_t table = w->data_offset + w->data_on_disk;
    uint64_t off = table + w->nfeatures * sizeof(struct pms_file_section);
    for (size_t i = 0; i < w->nfeatures; i++) {
        struct pms_file_section s = {off, w->features[i].len};
        int rc = write_at(w, &s, sizeof s, table + i * sizeof s);
        if (!rc) rc = write_at(w, w->features[i].data, w->features[i].len, off);
        if (rc) return rc;
        off += w->features[i].len;
    }
    if (w->regular && ftruncate(w->fd, (off_t)off) != 0)
        return pms__fail_errno(PMS_EIO, errno, "cannot write %s (truncating it)", w->path);
    return PMS_OK;
}

/* The most a compressed record holds, as perf's zstd_compress_stream_to_records cuts them. */
#define COMPRESSED_PAYLOAD_MAX (UINT16_MAX - sizeof(struct perf_event_header) - 1)

/* The buffer's records as one flushed piece of the zstd stream, cut into COMPRESSED records
 * (sizes not padded to 8, as perf writes them); *len their bytes in w->zbuf. */
static int compress_buffer(pms_perfdata_writer *w, size_t *len)
{
    ZSTD_inBuffer in = {w->buf, w->buflen, 0};
    size_t pos = 0;
    for (;;) {
        struct perf_event_header h = {PMS_RECORD_COMPRESSED, 0, 0};
        if (w->zcap - pos < sizeof h + COMPRESSED_PAYLOAD_MAX)
            return pms__fail(PMS_EIO, "%s: compressed data larger than its buffer", w->path);
        ZSTD_outBuffer out = {w->zbuf + pos + sizeof h, COMPRESSED_PAYLOAD_MAX, 0};
        size_t left = ZSTD_compressStream2(w->zstream, &out, &in, ZSTD_e_flush);
        if (ZSTD_isError(left)) return pms__fail(PMS_EIO, "%s: zstd: %s", w->path, ZSTD_getErrorName(left));
        if (out.pos) {
            h.size = (uint16_t)(sizeof h + out.pos);
            memcpy(w->zbuf + pos, &h, sizeof h);
            pos += h.size;
        }
        if (left == 0 && in.pos == in.size) break;
    }
    w->raw_bytes += w->buflen;
    w->compressed_bytes += pos;
    *len = pos;
    pms_feature f;
    int rc = pms__feature_compressed(&f, (uint32_t)w->zlevel, (uint32_t)(w->raw_bytes / (w->compressed_bytes ? w->compressed_bytes : 1)),
                                     WRITER_BUFFER_SIZE);
    return rc ? rc : set_feature(w, f);
}

static int flush(pms_perfdata_writer *w)
{
    if (!w->buflen) return PMS_OK;
    const unsigned char *bytes = w->buf;
    size_t len = w->buflen;
    if (w->zstream) {
        int rc = compress_buffer(w, &len);
        if (rc) return rc;
        bytes = w->zbuf;
    }
    if (w->pipe) {
        int rc = write_out(w, bytes, len);
        if (!rc) w->data_on_disk += len;
        w->buflen = 0;
        return rc;
    }
    if (w->features_on_disk) { /* the records are about to overwrite them */
        int rc = write_header(w, 0);
        if (rc) return rc;
        w->features_on_disk = 0;
    }
    int rc = write_at(w, bytes, len, w->data_offset + w->data_on_disk);
    if (rc) return rc;
    w->data_on_disk += len;
    w->buflen = 0;
    return PMS_OK;
}

static int copy_attrs(pms_perfdata_writer *w, const pms_perfdata_attr *attrs, size_t nattrs)
{
    w->attrs = calloc(nattrs, sizeof *w->attrs);
    if (!w->attrs) return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    w->nattrs = nattrs;
    for (size_t i = 0; i < nattrs; i++) {
        pms_perfdata_attr *a = &w->attrs[i];
        a->attr = attrs[i].attr;
        a->name = strdup(attrs[i].name ? attrs[i].name : "");
        uint64_t *ids = calloc(attrs[i].nids ? attrs[i].nids : 1, sizeof *ids);
        if (!a->name || !ids) {
            free(ids);
            return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
        }
        if (attrs[i].nids) memcpy(ids, attrs[i].ids, attrs[i].nids * sizeof *ids);
        a->ids = ids;
        a->nids = attrs[i].nids;
    }
    return PMS_OK;
}

static void writer_free(pms_perfdata_writer *w)
{
    if (!w) return;
    if (w->own) pms__output_abort(w->own); /* nothing left behind unless published */
    free(w->own);
    for (size_t i = 0; w->attrs && i < w->nattrs; i++) {
        free((char *)w->attrs[i].name);
        free((uint64_t *)w->attrs[i].ids);
    }
    free(w->attrs);
    pms__features_free(w->features, w->nfeatures);
    free(w->buf);
    ZSTD_freeCStream(w->zstream);
    free(w->zbuf);
    free(w->path);
    free(w);
}

int pms_perfdata_writer_open(pms_perfdata_writer **out, const char *path, const pms_perfdata_attr *attrs,
                             size_t nattrs, int argc, char *const argv[])
{
    *out = NULL;
    if (!path) return pms__fail(PMS_EINVAL, "perf.data writer: no file or no events");
    pms__output *own = calloc(1, sizeof *own);
    if (!own) return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    int rc = pms__output_open(own, path, 0);
    if (rc) {
        free(own);
        return rc;
    }
    if ((rc = pms__perfdata_writer_open_output(out, own, attrs, nattrs, argc, argv))) {
        pms__output_abort(own);
        free(own);
        return rc;
    }
    (*out)->own = own;
    (*out)->publish_at_sync = true;
    return PMS_OK;
}

int pms__perfdata_writer_open_output(pms_perfdata_writer **out, pms__output *o, const pms_perfdata_attr *attrs,
                                     size_t nattrs, int argc, char *const argv[])
{
    *out = NULL;
    if (!attrs || nattrs == 0) return pms__fail(PMS_EINVAL, "perf.data writer: no file or no events");
    pms_perfdata_writer *w = calloc(1, sizeof *w);
    if (!w) return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    w->fd = o->fd;
    /* "-" (perf record -o -) and anything that cannot seek (a FIFO) get the pipe format */
    w->pipe = strcmp(o->name, "-") == 0 || !o->seekable;
    w->path = strdup(strcmp(o->name, "-") == 0 ? "stdout" : o->name);
    w->buf = malloc(WRITER_BUFFER_SIZE);
    struct stat st;
    w->regular = !w->pipe && fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode);
    if (!w->path || !w->buf) {
        writer_free(w);
        return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    }
    int rc = copy_attrs(w, attrs, nattrs);
    if (!rc) rc = pms__features_build(&w->features, &w->nfeatures, w->attrs, nattrs, argc, argv);
    if (!rc) rc = w->pipe ? write_pipe_header(w) : write_attrs(w);
    if (!rc && !w->pipe) rc = pms_perfdata_writer_sync(w);
    if (rc) {
        writer_free(w);
        return rc;
    }
    *out = w;
    return PMS_OK;
}

bool pms__perfdata_writer_is_pipe(const pms_perfdata_writer *w) { return w->pipe; }

int pms_perfdata_writer_add(pms_perfdata_writer *w, const struct perf_event_header *h)
{
    if (h->size < sizeof *h)
        return pms__fail(PMS_EINVAL, "%s: record of type %u has size %u, less than its header", w->path, h->type,
                        h->size);
    if (WRITER_BUFFER_SIZE - w->buflen < h->size) {
        int rc = flush(w);
        if (rc) return rc;
    }
    memcpy(w->buf + w->buflen, h, h->size);
    w->buflen += h->size;
    return PMS_OK;
}

/* The file made valid: what was added written, then the features and the header. */
static int sync_file(pms_perfdata_writer *w)
{
    int rc = flush(w);
    if (!rc && !w->pipe && (!w->features_on_disk || w->features_changed)) {
        rc = write_features(w);
        if (!rc) rc = write_header(w, 1);
        if (!rc) w->features_on_disk = 1, w->features_changed = 0;
    }
    return rc;
}

int pms_perfdata_writer_sync(pms_perfdata_writer *w)
{
    int rc = sync_file(w);
    if (!rc && w->publish_at_sync) { /* valid now: from here on a crash leaves it in place */
        rc = pms__output_publish(w->own);
        w->publish_at_sync = false;
    }
    return rc;
}

int pms_perfdata_writer_close(pms_perfdata_writer *w)
{
    if (!w) return PMS_OK;
    int rc = sync_file(w);
    if (!rc && w->own) rc = pms__output_commit(w->own); /* fsync, close, in place */
    writer_free(w);
    return rc;
}

uint64_t pms_perfdata_writer_data_size(const pms_perfdata_writer *w) { return w->data_on_disk + w->buflen; }

int pms_perfdata_writer_set_build_ids(pms_perfdata_writer *w, const pms_perfdata_build_id *ids, size_t n)
{
    pms_feature f;
    int rc = pms__feature_build_ids(&f, ids, n);
    return rc ? rc : set_feature(w, f);
}

int pms_perfdata_writer_compress(pms_perfdata_writer *w, int level)
{
    if (level < 1 || level > ZSTD_maxCLevel())
        return pms__fail(PMS_EINVAL, "%s: compression level %d: expected 1 to %d", w->path, level, ZSTD_maxCLevel());
    if (w->zstream || pms_perfdata_writer_data_size(w))
        return pms__fail(PMS_EINVAL, "%s: compression is chosen before the first record", w->path);
    w->zcap = ZSTD_compressBound(WRITER_BUFFER_SIZE) + (ZSTD_compressBound(WRITER_BUFFER_SIZE) / COMPRESSED_PAYLOAD_MAX + 2) *
                                                          (sizeof(struct perf_event_header) + COMPRESSED_PAYLOAD_MAX);
    w->zbuf = malloc(w->zcap);
    w->zstream = ZSTD_createCStream();
    if (!w->zbuf || !w->zstream) return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory for compression");
    size_t zr = ZSTD_CCtx_setParameter(w->zstream, ZSTD_c_compressionLevel, level);
    if (ZSTD_isError(zr)) return pms__fail(PMS_EINVAL, "%s: zstd: %s", w->path, ZSTD_getErrorName(zr));
    w->zlevel = level;
    pms_feature f;
    int rc = pms__feature_compressed(&f, (uint32_t)level, 1, WRITER_BUFFER_SIZE);
    if (rc) return rc;
    /* a pipe's features went out at its start: this one goes now, before the first
     * compressed record, as perf record -z -o - sends it */
    if (w->pipe && (rc = write_feature_record(w, &f))) {
        free(f.data);
        return rc;
    }
    return set_feature(w, f);
}

/* Puts a feature section in the table (sorted by bit), replacing an earlier one of its bit. */
static int set_feature(pms_perfdata_writer *w, pms_feature f)
{
    size_t at = 0; /* the table stays sorted by bit; an earlier set is replaced */
    while (at < w->nfeatures && w->features[at].bit < f.bit) at++;
    if (at < w->nfeatures && w->features[at].bit == f.bit) {
        free(w->features[at].data);
        w->features[at] = f;
    } else {
        pms_feature *grown = realloc(w->features, (w->nfeatures + 1) * sizeof *grown);
        if (!grown) {
            free(f.data);
            return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
        }
        w->features = grown;
        memmove(&w->features[at + 1], &w->features[at], (w->nfeatures - at) * sizeof *grown);
        w->features[at] = f;
        w->nfeatures++;
    }
    w->features_changed = 1; /* the next sync writes the new table */
    return PMS_OK;
}
