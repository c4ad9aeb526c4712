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

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define WRITER_BUFFER_SIZE (256u * 1024u)

struct pms_perfdata_writer {
    int fd;
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
    int features_changed; /* the sections on disk are not the current ones */
};

static int write_at(pms_perfdata_writer *w, const void *p, size_t n, uint64_t off)
{
    const unsigned char *c = p;
    while (n) {
        ssize_t k = pwrite(w->fd, c, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return pms__fail_errno(PMS_EIO, k < 0 ? errno : ENOSPC, "cannot write %s", w->path);
        c += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return PMS_OK;
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

static int flush(pms_perfdata_writer *w)
{
    if (!w->buflen) return PMS_OK;
    if (w->features_on_disk) { /* the records are about to overwrite them */
        int rc = write_header(w, 0);
        if (rc) return rc;
        w->features_on_disk = 0;
    }
    int rc = write_at(w, w->buf, w->buflen, w->data_offset + w->data_on_disk);
    if (rc) return rc;
    w->data_on_disk += w->buflen;
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
    if (w->fd >= 0) close(w->fd);
    for (size_t i = 0; w->attrs && i < w->nattrs; i++) {
        free((char *)w->attrs[i].name);
        free((uint64_t *)w->attrs[i].ids);
    }
    free(w->attrs);
    pms__features_free(w->features, w->nfeatures);
    free(w->buf);
    free(w->path);
    free(w);
}

int pms_perfdata_writer_open(pms_perfdata_writer **out, const char *path, const pms_perfdata_attr *attrs,
                             size_t nattrs, int argc, char *const argv[])
{
    return pms__perfdata_writer_open_as(out, path, path, attrs, nattrs, argc, argv);
}

int pms__perfdata_writer_open_as(pms_perfdata_writer **out, const char *path, const char *name,
                                 const pms_perfdata_attr *attrs, size_t nattrs, int argc, char *const argv[])
{
    *out = NULL;
    if (!path || !attrs || nattrs == 0) return pms__fail(PMS_EINVAL, "perf.data writer: no file or no events");
    pms_perfdata_writer *w = calloc(1, sizeof *w);
    if (!w) return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    w->fd = -1;
    w->path = strdup(name);
    w->buf = malloc(WRITER_BUFFER_SIZE);
    if (!w->path || !w->buf) {
        writer_free(w);
        return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    }
    int rc = copy_attrs(w, attrs, nattrs);
    if (!rc) rc = pms__features_build(&w->features, &w->nfeatures, w->attrs, nattrs, argc, argv);
    if (!rc) {
        w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        struct stat st;
        if (w->fd < 0) rc = pms__fail_errno(pms__status_from_errno(errno), errno, "cannot create %s", path);
        else if (fstat(w->fd, &st) != 0) rc = pms__fail_errno(PMS_EIO, errno, "cannot stat %s", path);
        else w->regular = S_ISREG(st.st_mode);
    }
    if (!rc) rc = write_attrs(w);
    if (!rc) rc = pms_perfdata_writer_sync(w);
    if (rc) {
        writer_free(w);
        return rc;
    }
    *out = w;
    return PMS_OK;
}

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

int pms_perfdata_writer_sync(pms_perfdata_writer *w)
{
    int rc = flush(w);
    if (!rc && (!w->features_on_disk || w->features_changed)) {
        rc = write_features(w);
        if (!rc) rc = write_header(w, 1);
        if (!rc) w->features_on_disk = 1, w->features_changed = 0;
    }
    return rc;
}

int pms_perfdata_writer_close(pms_perfdata_writer *w)
{
    if (!w) return PMS_OK;
    int rc = pms_perfdata_writer_sync(w);
    if (!rc && close(w->fd) != 0) rc = pms__fail_errno(PMS_EIO, errno, "cannot write %s (closing it)", w->path);
    w->fd = -1;
    writer_free(w);
    return rc;
}

uint64_t pms_perfdata_writer_data_size(const pms_perfdata_writer *w) { return w->data_on_disk + w->buflen; }

int pms_perfdata_writer_set_build_ids(pms_perfdata_writer *w, const pms_perfdata_build_id *ids, size_t n)
{
    pms_feature f;
    int rc = pms__feature_build_ids(&f, ids, n);
    if (rc) return rc;
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
