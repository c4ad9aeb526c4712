/* Reading perf.data (the file mode of `perf record`, perf 3.x to 6.x, and pmuscope's own
 * files) in one streaming pass through a fixed window: memory does not grow with the
 * number of records. Every size and offset is checked against the file before use, and
 * every failure names the byte offset at fault. */
#include "io/perfdata_decompress.h"
#include "io/perfdata_format.h"
#include "io/perfdata_order.h"
#include "io/input_spool.h"
#include "io/perfdata_head.h"
#include "io/perf_event_names.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"

#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define WINDOW_SIZE (1u << 20)    /* at least one whole record (u16 size) */
#define MAX_READ_VALUES (UINT16_MAX / 16)

struct pms_perfdata_reader {
    char *name;
    int fd;                   /* -1 when reading from memory */
    const unsigned char *mem; /* the image when fd < 0 */
    uint64_t file_size;
    struct pms_file_header hdr;
    pms_perfdata_attr *attrs;
    size_t nattrs, attrs_cap;
    pms_keymap id_index; /* sample id -> index in attrs */
    pms_perfdata_build_id *build_ids;
    size_t nbuild_ids, build_ids_cap;
    char **cmdline;      /* HEADER_CMDLINE, NULL-terminated; NULL if the file has none */
    size_t ncmdline;
    unsigned char *window;
    pms_perfdata_order order;
    bool pipe;            /* pipe mode: attrs and features come as records in the data */
    uint64_t header_end;  /* pipe mode: where the leading header records end */
    pms__order_queue queue; /* records waiting for their turn (PMS_PERFDATA_ORDER_TIME) */
    pms__decompressor *decomp; /* perf record -z: made at the first compressed record */
    uint32_t compression;      /* HEADER_COMPRESSED's type: 0 none said, 1 zstd */
    pms_read_value values[MAX_READ_VALUES];
    _Alignas(8) unsigned char aligned[UINT16_MAX + 1]; /* a record whose size broke 8-byte alignment */
};

static int fail_at(const pms_perfdata_reader *r, uint64_t off, const char *what)
{
    return pms__fail(PMS_EFORMAT, "%s: offset %llu: %s", r->name, (unsigned long long)off, what);
}

/* Reads exactly n bytes at off; a short read is a truncated file. */
static int read_at(const pms_perfdata_reader *r, void *dst, size_t n, uint64_t off, const char *what)
{
    if (off > r->file_size || n > r->file_size - off)
        return pms__fail(PMS_EFORMAT, "%s: offset %llu: %s of %zu bytes runs past the end of the file (%llu bytes)",
                        r->name, (unsigned long long)off, what, n, (unsigned long long)r->file_size);
    if (r->fd < 0) {
        memcpy(dst, r->mem + off, n);
        return PMS_OK;
    }
    unsigned char *p = dst;
    while (n) {
        ssize_t k = pread(r->fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return pms__fail_errno(PMS_EIO, errno, "%s: offset %llu: cannot read %s", r->name,
                                         (unsigned long long)off, what);
        if (k == 0) return fail_at(r, off, "file shrank while reading");
        p += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return PMS_OK;
}

static bool section_ok(const pms_perfdata_reader *r, const struct pms_file_section *s)
{
    return s->offset <= r->file_size && s->size <= r->file_size - s->offset;
}

static int check_magic(pms_perfdata_reader *r)
{
    if (r->file_size < PMS_PERFDATA_PIPE_HEADER_SIZE)
        return pms__fail(PMS_EFORMAT, "%s: %llu bytes is too short for a perf.data header", r->name,
                        (unsigned long long)r->file_size);
    uint64_t head[2];
    int rc = read_at(r, head, sizeof head, 0, "file header");
    if (!rc) rc = pms__perfdata_check_magic(head, r->name, &r->pipe);
    if (rc) return rc;
    if (r->pipe) { /* perf record -o -: records to the end */
        memset(&r->hdr, 0, sizeof r->hdr);
        r->hdr.data = (struct pms_file_section){PMS_PERFDATA_PIPE_HEADER_SIZE, r->file_size - PMS_PERFDATA_PIPE_HEADER_SIZE};
        return PMS_OK;
    }
    memset(&r->hdr, 0, sizeof r->hdr);
    return read_at(r, &r->hdr, (size_t)head[1], 0, "file header");
}

static int add_attr(pms_perfdata_reader *r, const struct perf_event_attr *a, uint64_t *ids, size_t nids)
{
    if (pms__grow(&r->attrs, &r->attrs_cap, r->nattrs + 1, sizeof *r->attrs))
        return pms__fail(PMS_ENOMEM, "%s: out of memory for event attributes", r->name);
    for (size_t i = 0; i < nids; i++) {
        uint64_t *slot = pms__keymap_upsert(&r->id_index, ids[i], 0, r->nattrs);
        if (!slot) return pms__fail(PMS_ENOMEM, "%s: out of memory for sample ids", r->name);
    }
    r->attrs[r->nattrs++] = (pms_perfdata_attr){*a, NULL, ids, nids};
    return PMS_OK;
}

/* Copies an on-file attr of any size (VER0 = 64 bytes up to newer kernels' larger ones). */
static int decode_attr(const pms_perfdata_reader *r, const unsigned char *p, size_t avail, uint64_t off,
                       struct perf_event_attr *a, size_t *size_out)
{
    if (avail < PERF_ATTR_SIZE_VER0) return fail_at(r, off, "event attribute shorter than 64 bytes");
    uint32_t sz = pms__get_u32(p + offsetof(struct perf_event_attr, size));
    if (sz == 0) sz = PERF_ATTR_SIZE_VER0;
    if (sz < PERF_ATTR_SIZE_VER0 || sz > avail) return fail_at(r, off + 4, "event attribute size out of range");
    memset(a, 0, sizeof *a);
    memcpy(a, p, sz < sizeof *a ? sz : sizeof *a);
    a->size = sizeof *a;
    *size_out = sz;
    return PMS_OK;
}

static int read_ids(pms_perfdata_reader *r, const struct pms_file_section *s, uint64_t at, uint64_t **ids,
                    size_t *nids)
{
    *ids = NULL;
    *nids = 0;
    if (!section_ok(r, s) || s->size % 8) return fail_at(r, at, "sample id section out of the file or misaligned");
    size_t n = (size_t)(s->size / 8);
    *ids = malloc((n ? n : 1) * sizeof **ids);
    if (!*ids) return pms__fail(PMS_ENOMEM, "%s: out of memory for sample ids", r->name);
    int rc = read_at(r, *ids, n * 8, s->offset, "sample ids");
    if (rc) {
        free(*ids);
        *ids = NULL;
        return rc;
    }
    *nids = n;
    return PMS_OK;
}

static int read_attrs(pms_perfdata_reader *r)
{
    const struct pms_file_header *h = &r->hdr;
    uint64_t entry = h->attr_size;
    if (entry < PERF_ATTR_SIZE_VER0 + sizeof(struct pms_file_section) || entry > 4096)
        return fail_at(r, 16, "attribute entry size out of range");
    if (!section_ok(r, &h->attrs) || h->attrs.size % entry)
        return fail_at(r, 24, "attribute section lies outside the file or is not a whole number of entries");
    if (h->attrs.size == 0) return fail_at(r, 24, "no event attributes (an empty or unfinished recording?)");
    unsigned char buf[4096];
    for (uint64_t off = h->attrs.offset; off < h->attrs.offset + h->attrs.size; off += entry) {
        int rc = read_at(r, buf, (size_t)entry, off, "event attribute");
        struct perf_event_attr a;
        size_t sz;
        if (!rc) rc = decode_attr(r, buf, (size_t)entry - sizeof(struct pms_file_section), off, &a, &sz);
        if (rc) return rc;
        struct pms_file_section ids;
        memcpy(&ids, buf + sz, sizeof ids); /* perf puts it right after the attr's own size */
        uint64_t *idv;
        size_t nids;
        rc = read_ids(r, &ids, off + sz, &idv, &nids);
        if (!rc) rc = add_attr(r, &a, idv, nids);
        if (rc) {
            free(idv);
            return rc;
        }
    }
    return PMS_OK;
}

/* Reads a feature string (u32 length, then bytes) from p[0..len) at *pos. */
static char *feature_string(const unsigned char *p, size_t len, size_t *pos)
{
    if (len - *pos < 4) return NULL;
    uint32_t n = pms__get_u32(p + *pos);
    if (n == 0 || n > len - *pos - 4) return NULL;
    const char *s = (const char *)p + *pos + 4;
    *pos += 4 + n;
    return strndup(s, n);
}

static const char *record_string(const unsigned char *p, const unsigned char *end);

/* HEADER_EVENT_DESC: the events' names, matched to the attrs by their ids. */
static int parse_event_desc(pms_perfdata_reader *r, const unsigned char *p, size_t len, uint64_t off)
{
    if (len < 8) return fail_at(r, off, "event description section too short");
    uint32_t nre = pms__get_u32(p), sz = pms__get_u32(p + 4);
    size_t pos = 8;
    for (uint32_t e = 0; e < nre; e++) {
        if (sz < PERF_ATTR_SIZE_VER0 || len - pos < (size_t)sz + 4)
            return fail_at(r, off + pos, "event description truncated");
        pos += sz;
        uint32_t nids = pms__get_u32(p + pos);
        pos += 4;
        char *name = feature_string(p, len, &pos);
        if (!name || nids > (len - pos) / 8) {
            free(name);
            return fail_at(r, off + pos, "event description: bad name or id count");
        }
        uint64_t first = nids ? pms__get_u64(p + pos) : 0;
        pos += (size_t)nids * 8;
        pms_perfdata_attr *a = NULL;
        if (nids) a = (pms_perfdata_attr *)pms_attr_by_id(r->attrs, r->nattrs, first);
        if (!a && e < r->nattrs && !nids) a = &r->attrs[e];
        if (a && !a->name)
            a->name = name;
        else
            free(name);
    }
    return PMS_OK;
}

/* HEADER_BUILD_ID: records of {header (misc: cpumode, size), pid, build_id[20], size u8,
 * 3 bytes, file name}. Older perf leaves the size byte 0: then the id is 20 bytes. */
static int parse_build_ids(pms_perfdata_reader *r, const unsigned char *p, size_t len, uint64_t off)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t pos = 0; pos < len;) {
        if (len - pos < 37) return fail_at(r, off + pos, "build-id record shorter than its fields");
        struct perf_event_header h;
        memcpy(&h, p + pos, sizeof h);
        if (h.size < 37 || h.size > len - pos) return fail_at(r, off + pos, "build-id record size out of range");
        const char *name = record_string(p + pos + 36, p + pos + h.size);
        if (!name) return fail_at(r, off + pos, "build-id record: file name not terminated");
        if (pms__grow(&r->build_ids, &r->build_ids_cap, r->nbuild_ids + 1, sizeof *r->build_ids))
            return pms__fail(PMS_ENOMEM, "%s: out of memory for build-ids", r->name);
        pms_perfdata_build_id *b = &r->build_ids[r->nbuild_ids];
        size_t n = p[pos + 32] && p[pos + 32] <= 20 ? p[pos + 32] : 20;
        for (size_t i = 0; i < n; i++) {
            b->hex[2 * i] = digits[p[pos + 12 + i] >> 4];
            b->hex[2 * i + 1] = digits[p[pos + 12 + i] & 15];
        }
        b->hex[2 * n] = '\0';
        b->cpumode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
        b->pid = (int32_t)pms__get_u32(p + pos + 8);
        if (!(b->filename = strdup(name))) return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
        r->nbuild_ids++;
        pos += h.size;
    }
    return PMS_OK;
}

/* HEADER_CMDLINE: u32 count, then that many strings. */
static int parse_cmdline(pms_perfdata_reader *r, const unsigned char *p, size_t len, uint64_t off)
{
    if (len < 4) return fail_at(r, off, "command line section too short");
    uint32_t n = pms__get_u32(p);
    if (n > (len - 4) / 4) return fail_at(r, off, "command line: more arguments than the section can hold");
    if (!(r->cmdline = calloc((size_t)n + 1, sizeof *r->cmdline))) return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
    size_t pos = 4;
    for (; r->ncmdline < n; r->ncmdline++)
        if (!(r->cmdline[r->ncmdline] = feature_string(p, len, &pos)))
            return fail_at(r, off + pos, "command line: an argument runs past its section");
    return PMS_OK;
}

/* HEADER_COMPRESSED: u32 version, type, level, ratio, mmap_len. Only zstd (type 1) exists. */
static int parse_compressed(pms_perfdata_reader *r, const unsigned char *p, size_t len, uint64_t off)
{
    if (len < 20) return fail_at(r, off, "compression section shorter than its 20 bytes");
    r->compression = pms__get_u32(p + 4);
    if (r->compression != PMS_COMP_ZSTD)
        return pms__fail(PMS_ENOTSUP, "%s: offset %llu: compression type %u is not zstd (1), the only one perf writes",
                         r->name, (unsigned long long)off + 4, r->compression);
    return PMS_OK;
}

/* Reads one feature section (at most 64 MiB) into memory and hands it to parse. */
static int read_section(pms_perfdata_reader *r, const struct pms_file_section *s, const char *what,
                        int (*parse)(pms_perfdata_reader *, const unsigned char *, size_t, uint64_t))
{
    if (!s->size) return PMS_OK;
    if (s->size > (64u << 20)) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s section larger than 64 MiB", what);
        return fail_at(r, s->offset, msg);
    }
    unsigned char *p = malloc(s->size);
    if (!p) return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
    int rc = read_at(r, p, (size_t)s->size, s->offset, what);
    if (!rc) rc = parse(r, p, (size_t)s->size, s->offset);
    free(p);
    return rc;
}

/* Checks that every feature section lies in the file (a file cut short in its features
 * is not a whole one) and reads the event names (HEADER_EVENT_DESC) and the command
 * line (HEADER_CMDLINE). */
static int read_features(pms_perfdata_reader *r)
{
    const struct pms_file_header *h = &r->hdr;
    uint64_t at = h->data.offset + h->data.size; /* the table: one section per set bit */
    struct pms_file_section desc = {0, 0}, cmd = {0, 0}, build_ids = {0, 0}, comp = {0, 0};
    for (unsigned bit = 0; bit < PMS_FEAT_BITS; bit++) {
        if (!((h->features[bit / 64] >> (bit % 64)) & 1)) continue;
        struct pms_file_section s;
        int rc = read_at(r, &s, sizeof s, at, "feature section table");
        if (rc) return rc;
        if (!section_ok(r, &s)) {
            char what[128];
            snprintf(what, sizeof what, "feature section %u (%llu bytes at %llu) runs past the end of the file", bit,
                     (unsigned long long)s.size, (unsigned long long)s.offset);
            return fail_at(r, at, what);
        }
        if (bit == PMS_FEAT_EVENT_DESC) desc = s;
        if (bit == PMS_FEAT_CMDLINE) cmd = s;
        if (bit == PMS_FEAT_BUILD_ID) build_ids = s;
        if (bit == PMS_FEAT_COMPRESSED) comp = s;
        at += sizeof s;
    }
    int rc = read_section(r, &desc, "event description", parse_event_desc);
    if (!rc) rc = read_section(r, &cmd, "command line", parse_cmdline);
    if (!rc) rc = read_section(r, &comp, "compression", parse_compressed);
    return rc ? rc : read_section(r, &build_ids, "build-id", parse_build_ids);
}

/* Events without a name in the file get the name perf gives them, else their type and config. */
static int name_attrs(pms_perfdata_reader *r)
{
    for (size_t i = 0; i < r->nattrs; i++) {
        if (r->attrs[i].name) continue;
        char buf[64];
        if (pms__perf_event_name(&r->attrs[i].attr, buf, sizeof buf))
            snprintf(buf, sizeof buf, "type %u config 0x%llx", r->attrs[i].attr.type,
                     (unsigned long long)r->attrs[i].attr.config);
        if (!(r->attrs[i].name = strdup(buf))) return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
    }
    return PMS_OK;
}

static int record_payload(const pms_perfdata_reader *r, const unsigned char *rec, const struct perf_event_header *h,
                          uint64_t off, uint64_t end, uint64_t *payload);
static int header_attr(pms_perfdata_reader *r, const unsigned char *rec, size_t size, uint64_t off);

/* PERF_RECORD_EVENT_UPDATE of type NAME (perf 4.x on, pipe mode): an event's name by id. */
static void event_update_name(pms_perfdata_reader *r, const unsigned char *rec, size_t size)
{
    if (size < 32 || pms__get_u64(rec + 8) != 2 /* PERF_EVENT_UPDATE__NAME (0 unit, 1 scale, 3 cpus) */) return;
    const char *name = record_string(rec + 24, rec + size);
    pms_perfdata_attr *a = (pms_perfdata_attr *)pms_attr_by_id(r->attrs, r->nattrs, pms__get_u64(rec + 16));
    if (name && a && !a->name) a->name = strdup(name);
}

/* An EVENT_UPDATE name after the first records replaces the event's name, as in perf
 * report (the last name given is the one it prints). */
static void late_event_name(pms_perfdata_reader *r, const unsigned char *rec, size_t size)
{
    if (size < 32 || pms__get_u64(rec + 8) != 2) return;
    pms_perfdata_attr *a = (pms_perfdata_attr *)pms_attr_by_id(r->attrs, r->nattrs, pms__get_u64(rec + 16));
    if (!a || !record_string(rec + 24, rec + size)) return;
    free((char *)a->name);
    a->name = NULL;
    event_update_name(r, rec, size);
}

/* PERF_RECORD_HEADER_FEATURE (perf 4.16 on, pipe mode): a feature section as a record. */
static int header_feature(pms_perfdata_reader *r, const unsigned char *rec, size_t size, uint64_t off)
{
    if (size < 16) return fail_at(r, off, "feature record too short for its feature number");
    uint64_t feat = pms__get_u64(rec + 8);
    const unsigned char *p = rec + 16;
    size_t len = size - 16;
    if (feat == PMS_FEAT_EVENT_DESC) return parse_event_desc(r, p, len, off + 16);
    if (feat == PMS_FEAT_CMDLINE && !r->cmdline) return parse_cmdline(r, p, len, off + 16);
    if (feat == PMS_FEAT_BUILD_ID) return parse_build_ids(r, p, len, off + 16);
    if (feat == PMS_FEAT_COMPRESSED) return parse_compressed(r, p, len, off + 16);
    return PMS_OK;
}

/* Pipe mode: the records before the first kernel record describe the recording (events,
 * their names, build-ids, features); read them now so the events are known at open. */
static int read_pipe_header(pms_perfdata_reader *r)
{
    const uint64_t end = r->file_size;
    uint64_t off = PMS_PERFDATA_PIPE_HEADER_SIZE;
    int rc = PMS_OK;
    while (!rc && end - off >= sizeof(struct perf_event_header)) {
        struct perf_event_header h;
        if ((rc = read_at(r, &h, sizeof h, off, "record header"))) return rc;
        if (h.size < sizeof h) return fail_at(r, off, "record size smaller than its 8-byte header");
        if (h.type < PMS_RECORD_HEADER_ATTR || h.type == PMS_RECORD_COMPRESSED) break; /* the recording starts */
        unsigned char *rec = r->aligned;
        if ((rc = read_at(r, rec, h.size, off, "header record"))) return rc;
        uint64_t payload;
        if ((rc = record_payload(r, rec, &h, off, end, &payload))) return rc;
        if (h.type == PMS_RECORD_HEADER_ATTR) rc = header_attr(r, rec, h.size, off);
        else if (h.type == PMS_RECORD_EVENT_UPDATE) event_update_name(r, rec, h.size);
        else if (h.type == PMS_RECORD_HEADER_FEATURE) rc = header_feature(r, rec, h.size, off);
        else if (h.type == PMS_RECORD_HEADER_BUILD_ID) rc = parse_build_ids(r, rec, h.size, off);
        off += h.size + payload;
    }
    r->header_end = off;
    if (!rc && !r->nattrs)
        rc = fail_at(r, off, "pipe-mode perf.data without an event attribute (HEADER_ATTR) before its first record");
    return rc;
}

static int open_common(pms_perfdata_reader *r)
{
    r->window = malloc(WINDOW_SIZE);
    if (!r->window) return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
    int rc = check_magic(r);
    if (!rc && !section_ok(r, &r->hdr.data))
        rc = pms__fail(PMS_EFORMAT, "%s: offset 40: data section (%llu bytes at %llu) runs past the end of the file "
                                   "(%llu bytes): truncated recording",
                      r->name, (unsigned long long)r->hdr.data.size, (unsigned long long)r->hdr.data.offset,
                      (unsigned long long)r->file_size);
    if (!rc && r->pipe) rc = read_pipe_header(r);
    if (!rc && !r->pipe) rc = read_attrs(r);
    if (!rc && !r->pipe) {
        rc = read_features(r);
        /* perf record writes the data size and the features only when it finishes. */
        if (rc == PMS_EFORMAT && r->hdr.data.size == 0 && r->file_size > r->hdr.data.offset)
            rc = pms__fail(PMS_EFORMAT,
                          "%s: offset 48: the header gives no data and no valid feature sections, yet %llu bytes "
                          "follow it: the recording was killed before it finished the file",
                          r->name, (unsigned long long)(r->file_size - r->hdr.data.offset));
    }
    if (!rc) rc = name_attrs(r);
    return rc;
}

static pms_perfdata_reader *reader_new(const char *name)
{
    pms_perfdata_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->fd = -1;
    r->name = strdup(name ? name : "perf.data");
    if (!r->name) {
        free(r);
        return NULL;
    }
    return r;
}

int pms_perfdata_open(pms_perfdata_reader **out, const char *path)
{
    *out = NULL;
    bool std_in = strcmp(path, "-") == 0;
    pms_perfdata_reader *r = reader_new(std_in ? "stdin" : path);
    if (!r) return pms__fail(PMS_ENOMEM, "out of memory");
    r->fd = std_in ? fcntl(0, F_DUPFD_CLOEXEC, 3) : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int rc = PMS_OK;
    if (r->fd < 0)
        rc = pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", r->name);
    else if (fstat(r->fd, &st) != 0)
        rc = pms__fail_errno(PMS_EIO, errno, "cannot stat %s", r->name);
    else if (S_ISDIR(st.st_mode))
        rc = pms__fail(PMS_ENOTSUP, "%s: is a directory (perf record --threads format), not supported", path);
    else if (S_ISREG(st.st_mode))
        r->file_size = (uint64_t)st.st_size;
    else { /* a pipe, a FIFO, a device: perf record -o - | pmuscope report -i - */
        int spooled; /* its magic and header looked at before the rest is copied */
        rc = pms__spool(r->fd, r->name, pms__perfdata_check_head, NULL, &spooled, &r->file_size);
        close(r->fd);
        r->fd = rc ? -1 : spooled;
    }
    if (!rc) rc = open_common(r);
    if (rc) {
        pms_perfdata_close(r);
        return rc;
    }
    *out = r;
    return PMS_OK;
}

int pms_perfdata_open_mem(pms_perfdata_reader **out, const void *data, size_t len, const char *name)
{
    *out = NULL;
    pms_perfdata_reader *r = reader_new(name);
    if (!r) return pms__fail(PMS_ENOMEM, "out of memory");
    r->mem = data;
    r->file_size = len;
    int rc = open_common(r);
    if (rc) {
        pms_perfdata_close(r);
        return rc;
    }
    *out = r;
    return PMS_OK;
}

char *const *pms_perfdata_cmdline(const pms_perfdata_reader *r, size_t *argc)
{
    *argc = r->ncmdline;
    return r->cmdline;
}

void pms_perfdata_close(pms_perfdata_reader *r)
{
    if (!r) return;
    if (r->fd >= 0) close(r->fd);
    for (size_t i = 0; i < r->nattrs; i++) {
        free((char *)r->attrs[i].name);
        free((uint64_t *)r->attrs[i].ids);
    }
    free(r->attrs);
    for (size_t i = 0; i < r->nbuild_ids; i++) free((char *)r->build_ids[i].filename);
    free(r->build_ids);
    for (size_t i = 0; i < r->ncmdline; i++) free(r->cmdline[i]);
    free(r->cmdline);
    pms__keymap_free(&r->id_index);
    pms__order_free(&r->queue);
    pms__decompressor_free(r->decomp);
    free(r->window);
    free(r->name);
    free(r);
}

size_t pms_perfdata_nattrs(const pms_perfdata_reader *r) { return r->nattrs; }

void pms_perfdata_set_order(pms_perfdata_reader *r, pms_perfdata_order order) { r->order = order; }

const pms_perfdata_attr *pms_perfdata_get_attr(const pms_perfdata_reader *r, size_t i)
{
    return i < r->nattrs ? &r->attrs[i] : NULL;
}

uint64_t pms_perfdata_data_size(const pms_perfdata_reader *r) { return r->hdr.data.size; }
size_t pms_perfdata_nbuild_ids(const pms_perfdata_reader *r) { return r->nbuild_ids; }

const pms_perfdata_build_id *pms_perfdata_get_build_id(const pms_perfdata_reader *r, size_t i)
{
    return i < r->nbuild_ids ? &r->build_ids[i] : NULL;
}

/* ---- the data pass ---- */

/* The attr that describes a non-sample record's sample_id_all trailer. */
static const pms_perfdata_attr *trailer_attr(const pms_perfdata_reader *r, const unsigned char *rec, size_t size)
{
    const pms_perfdata_attr *a = &r->attrs[0];
    if (r->nattrs > 1 && (a->attr.sample_type & PERF_SAMPLE_IDENTIFIER) && size >= 16) {
        const pms_perfdata_attr *by_id = pms_attr_by_id(r->attrs, r->nattrs, pms__get_u64(rec + size - 8));
        if (by_id) a = by_id;
    }
    return a->attr.sample_id_all ? a : NULL;
}

/* Body length of a record without its trailer, or -1 if the trailer does not fit. */
static int trailer(const pms_perfdata_reader *r, const unsigned char *rec, size_t size, pms_sample_id *sid,
                   size_t *body)
{
    const pms_perfdata_attr *a = trailer_attr(r, rec, size);
    memset(sid, 0, sizeof *sid);
    *body = size;
    if (!a) return 0;
    if (pms__sample_id_parse(rec, size, a->attr.sample_type, sid)) return -1;
    *body = size - pms__sample_id_size(a->attr.sample_type);
    return 0;
}

/* A NUL-terminated string inside [p, end), or NULL. */
static const char *record_string(const unsigned char *p, const unsigned char *end)
{
    if (p >= end || !memchr(p, 0, (size_t)(end - p))) return NULL;
    return (const char *)p;
}

static int dispatch_mmap(const pms_perfdata_reader *r, const unsigned char *rec, const struct perf_event_header *h,
                         uint64_t off, const pms_perfdata_handlers *hd)
{
    pms_sample_id sid;
    size_t body;
    size_t fixed = h->type == PERF_RECORD_MMAP2 ? 72 : 40;
    if (trailer(r, rec, h->size, &sid, &body) || body <= fixed)
        return fail_at(r, off, "mmap record too short for its fields");
    pms_mmap_event m = {0};
    m.pid = pms__get_u32(rec + 8);
    m.tid = pms__get_u32(rec + 12);
    m.start = pms__get_u64(rec + 16);
    m.len = pms__get_u64(rec + 24);
    m.pgoff = pms__get_u64(rec + 32);
    m.time = sid.time;
    bool data = h->misc & PERF_RECORD_MISC_MMAP_DATA;
    if (h->type == PERF_RECORD_MMAP2) {
        m.prot = pms__get_u32(rec + 64);
        m.executable = (m.prot & 4 /* PROT_EXEC */) && !data;
    } else {
        m.executable = !data;
    }
    m.filename = record_string(rec + fixed, rec + body);
    if (!m.filename) return fail_at(r, off, "mmap record: file name not terminated inside the record");
    return hd->mmap ? hd->mmap(&m, hd->ctx) : 0;
}

static int dispatch_task(const pms_perfdata_reader *r, const unsigned char *rec, const struct perf_event_header *h,
                         uint64_t off, const pms_perfdata_handlers *hd)
{
    pms_sample_id sid;
    size_t body;
    size_t fixed = h->type == PERF_RECORD_COMM ? 16 : 32;
    if (trailer(r, rec, h->size, &sid, &body) || body < fixed + (h->type == PERF_RECORD_COMM))
        return fail_at(r, off, "task record too short for its fields");
    pms_task_event t = {.type = h->type, .time = sid.time};
    t.pid = pms__get_u32(rec + 8);
    if (h->type == PERF_RECORD_COMM) {
        t.tid = pms__get_u32(rec + 12);
        t.comm = record_string(rec + 16, rec + body);
        if (!t.comm) return fail_at(r, off, "comm record: name not terminated inside the record");
    } else {
        t.ppid = pms__get_u32(rec + 12);
        t.tid = pms__get_u32(rec + 16);
        t.ptid = pms__get_u32(rec + 20);
        t.time = pms__get_u64(rec + 24);
    }
    return hd->task ? hd->task(&t, hd->ctx) : 0;
}

/* PERF_RECORD_HEADER_ATTR: an attr followed by its ids (pipe mode, perf inject). */
static int header_attr(pms_perfdata_reader *r, const unsigned char *rec, size_t size, uint64_t off)
{
    struct perf_event_attr a;
    size_t sz;
    int rc = decode_attr(r, rec + 8, size - 8, off + 8, &a, &sz);
    if (rc) return rc;
    size_t n = (size - 8 - sz) / 8;
    uint64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids) return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
    memcpy(ids, rec + 8 + sz, n * 8);
    rc = add_attr(r, &a, ids, n);
    if (rc) free(ids);
    return rc;
}

static int dispatch(pms_perfdata_reader *r, const unsigned char *rec, uint64_t off, const pms_perfdata_handlers *hd)
{
    struct perf_event_header h;
    memcpy(&h, rec, sizeof h);
    int rc = hd->raw ? hd->raw((const struct perf_event_header *)rec, off, hd->ctx) : 0;
    if (rc) return rc;
    switch (h.type) {
    case PERF_RECORD_SAMPLE: {
        /* Many ids (an id per CPU or thread and event): find the event by hash, not by scan. */
        const pms_perfdata_attr *attrs = r->attrs;
        size_t nattrs = r->nattrs;
        uint64_t id, *index;
        if (nattrs > 1 && !pms__sample_id_of(rec, h.size, attrs[0].attr.sample_type, &id) &&
            (index = pms__keymap_find(&r->id_index, id, 0))) {
            attrs = &r->attrs[*index];
            nattrs = 1;
        }
        pms_sample s;
        rc = pms_sample_parse((const struct perf_event_header *)rec, attrs, nattrs, &s, r->values, MAX_READ_VALUES);
        if (rc) return pms__fail_context(rc, "%s: offset %llu", r->name, (unsigned long long)off);
        return hd->sample ? hd->sample(&s, hd->ctx) : 0;
    }
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2:
        return dispatch_mmap(r, rec, &h, off, hd);
    case PERF_RECORD_COMM:
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
        return dispatch_task(r, rec, &h, off, hd);
    case PERF_RECORD_LOST:
    case PERF_RECORD_LOST_SAMPLES: {
        size_t at = h.type == PERF_RECORD_LOST ? 16 : 8;
        if (h.size < at + 8) return fail_at(r, off, "lost record too short");
        return hd->lost ? hd->lost(pms__get_u64(rec + at), hd->ctx) : 0;
    }
    case PERF_RECORD_THROTTLE:
    case PERF_RECORD_UNTHROTTLE:
        if (h.size < 16) return fail_at(r, off, "throttle record too short");
        return hd->throttle ? hd->throttle(h.type == PERF_RECORD_UNTHROTTLE, pms__get_u64(rec + 8), hd->ctx) : 0;
    case PMS_RECORD_HEADER_ATTR: /* pipe mode's leading ones were read at open */
        if (r->pipe && off < r->header_end) return 0;
        rc = header_attr(r, rec, h.size, off);
        return rc ? rc : name_attrs(r);
    /* Descriptions that come after the first records (perf record -o - sends its events'
     * EVENT_UPDATE names after the synthesized tasks and maps): what they say is taken then. */
    case PMS_RECORD_EVENT_UPDATE:
        if (!(r->pipe && off < r->header_end)) late_event_name(r, rec, h.size);
        return 0;
    case PMS_RECORD_HEADER_FEATURE:
        return r->pipe && off < r->header_end ? 0 : header_feature(r, rec, h.size, off);
    case PMS_RECORD_HEADER_BUILD_ID: /* perf inject -b puts them where a binary first has a sample */
        return r->pipe && off < r->header_end ? 0 : parse_build_ids(r, rec, h.size, off);
    default: /* FINISHED_ROUND, ID_INDEX, TIME_CONV, ... carry nothing pmuscope uses */
        return 0;
    }
}

/* The time perf orders a record by: the sample's time, or the sample_id_all trailer's;
 * 0 when the record has none (perf then delivers it at once). */
static uint64_t record_time(const pms_perfdata_reader *r, const unsigned char *rec, const struct perf_event_header *h)
{
    if (h->type == PERF_RECORD_SAMPLE) {
        const pms_perfdata_attr *a = &r->attrs[0];
        uint64_t id, *index;
        if (r->nattrs > 1 && !pms__sample_id_of(rec, h->size, a->attr.sample_type, &id) &&
            (index = pms__keymap_find(&r->id_index, id, 0)))
            a = &r->attrs[*index];
        uint64_t st = a->attr.sample_type;
        if (!(st & PERF_SAMPLE_TIME)) return 0;
        size_t pos = sizeof *h + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID));
        return pos + 8 <= h->size ? pms__get_u64(rec + pos) : 0; /* too short: dispatch says so */
    }
    const pms_perfdata_attr *a = trailer_attr(r, rec, h->size);
    pms_sample_id sid;
    if (!a || !(a->attr.sample_type & PERF_SAMPLE_TIME) || pms__sample_id_parse(rec, h->size, a->attr.sample_type, &sid))
        return 0;
    return sid.time;
}

struct delivery {
    pms_perfdata_reader *r;
    const pms_perfdata_handlers *hd;
};

static int deliver(const unsigned char *rec, uint64_t file_off, void *ctx)
{
    struct delivery *d = ctx;
    return dispatch(d->r, rec, file_off, d->hd);
}

static int queue_failed(const pms_perfdata_reader *r, int rc)
{
    return rc == PMS_ENOMEM ? pms__fail(PMS_ENOMEM, "%s: out of memory for the records of one round", r->name) : rc;
}

/* Hands the record over now, or queues it until perf's ordered-events rules let it out:
 * records perf adds itself (types 64 and up) and records without a time go at once. */
static int route(pms_perfdata_reader *r, const unsigned char *rec, uint64_t off, const pms_perfdata_handlers *hd)
{
    if (r->order == PMS_PERFDATA_ORDER_FILE) return dispatch(r, rec, off, hd);
    struct perf_event_header h;
    memcpy(&h, rec, sizeof h);
    struct delivery d = {r, hd};
    if (h.type == PMS_RECORD_FINISHED_ROUND) {
        int rc = queue_failed(r, pms__order_round(&r->queue, deliver, &d));
        return rc ? rc : dispatch(r, rec, off, hd);
    }
    uint64_t t = h.type < PMS_RECORD_HEADER_ATTR ? record_time(r, rec, &h) : 0;
    if (t == 0 || t == UINT64_MAX) return dispatch(r, rec, off, hd);
    return queue_failed(r, pms__order_push(&r->queue, rec, h.size, t, off, deliver, &d));
}

/* The bytes that follow a record outside its header's size: the processor trace (Intel
 * PT, CoreSight) after PERF_RECORD_AUXTRACE, which pmuscope does not decode (perf report
 * --no-itrace neither), and the tracepoint formats after a pipe's HEADER_TRACING_DATA
 * (padded to 8 bytes). Checked against the data section; 0 for other records. */
static int record_payload(const pms_perfdata_reader *r, const unsigned char *rec, const struct perf_event_header *h,
                          uint64_t off, uint64_t end, uint64_t *payload)
{
    *payload = 0;
    if (h->type != PMS_RECORD_AUXTRACE && h->type != PMS_RECORD_HEADER_TRACING_DATA) return PMS_OK;
    if (h->size < 16) return fail_at(r, off, "auxtrace or tracing-data record too short for its size field");
    *payload = h->type == PMS_RECORD_AUXTRACE ? pms__get_u64(rec + 8) : (pms__get_u32(rec + 8) + 7ull) & ~7ull;
    if (*payload > end - off - h->size)
        return fail_at(r, off, h->type == PMS_RECORD_AUXTRACE ? "auxtrace data runs past the end of the data section"
                                                              : "tracing data runs past the end of the data section");
    return PMS_OK;
}

struct inner {
    pms_perfdata_reader *r;
    const pms_perfdata_handlers *hd;
    uint64_t off;
};

static int route_inner(const unsigned char *rec, void *ctx)
{
    struct inner *in = ctx;
    return route(in->r, rec, in->off, in->hd);
}

/* PERF_RECORD_COMPRESSED: its records go their way as if they lay in the file at its offset
 * (perf's messages give the compressed record's offset too). */
static int decompress(pms_perfdata_reader *r, const unsigned char *rec, uint16_t size, uint64_t off,
                      const pms_perfdata_handlers *hd)
{
    if (!r->decomp && !(r->decomp = pms__decompressor_new()))
        return pms__fail(PMS_ENOMEM, "%s: out of memory for decompression", r->name);
    struct inner in = {r, hd, off};
    return pms__decompressor_feed(r->decomp, rec + sizeof(struct perf_event_header), size - sizeof(struct perf_event_header),
                                  r->name, off, route_inner, &in);
}

static int read_records(pms_perfdata_reader *r, const pms_perfdata_handlers *hd)
{
    const uint64_t begin = r->hdr.data.offset, end = begin + r->hdr.data.size;
    uint64_t win_off = begin; /* file offset of window[0] */
    size_t win_len = 0, pos = 0;
    uint64_t off = begin;
    while (off < end) {
        /* Keep a whole record (at most 64 KiB) in the window. */
        if (win_len - pos < UINT16_MAX + 1u && win_off + win_len < end) {
            memmove(r->window, r->window + pos, win_len - pos);
            win_off += pos;
            win_len -= pos;
            pos = 0;
            uint64_t want = end - (win_off + win_len);
            if (want > WINDOW_SIZE - win_len) want = WINDOW_SIZE - win_len;
            int rc = read_at(r, r->window + win_len, (size_t)want, win_off + win_len, "data section");
            if (rc) return rc;
            win_len += (size_t)want;
        }
        if (end - off < sizeof(struct perf_event_header))
            return fail_at(r, off, "data section ends inside a record header (truncated file?)");
        struct perf_event_header h;
        memcpy(&h, r->window + pos, sizeof h);
        if (h.size < sizeof h) return fail_at(r, off, "record size smaller than its 8-byte header");
        if (h.size > end - off) {
            char what[160];
            snprintf(what, sizeof what, "record of type %u and %u bytes runs past the end of the data section at %llu",
                     h.type, h.size, (unsigned long long)end);
            return fail_at(r, off, what);
        }
        const unsigned char *rec = r->window + pos;
        if ((uintptr_t)rec % 8) rec = memcpy(r->aligned, rec, h.size);
        int rc = h.type == PMS_RECORD_COMPRESSED ? decompress(r, rec, h.size, off, hd) : route(r, rec, off, hd);
        if (rc) return rc;
        uint64_t payload = 0;
        if ((rc = record_payload(r, rec, &h, off, end, &payload))) return rc;
        pos += h.size;
        off += h.size + payload;
        if (payload <= win_len - pos) {
            pos += (size_t)payload;
        } else { /* past the window: refill from off */
            win_off = off;
            win_len = pos = 0;
        }
    }
    return PMS_OK;
}

int pms_perfdata_read(pms_perfdata_reader *r, const pms_perfdata_handlers *hd)
{
    static const pms_perfdata_handlers none;
    if (!hd) hd = &none;
    pms__order_reset(&r->queue);
    if (r->decomp) pms__decompressor_reset(r->decomp);
    int rc = read_records(r, hd);
    if (!rc) rc = pms__decompressor_finish(r->decomp, r->name);
    struct delivery d = {r, hd};
    if (!rc) rc = queue_failed(r, pms__order_drain(&r->queue, deliver, &d));
    pms__order_reset(&r->queue);
    return rc;
}
