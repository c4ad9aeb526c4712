/* The first bytes of a perf.data (see io/perfdata_head.h). */
#include "io/perfdata_head.h"
#include "io/perfdata_format.h"
#include "util/error.h"

#include <byteswap.h>
#include <string.h>

bool pms__perfdata_magic(const unsigned char *head, size_t len)
{
    uint64_t magic;
    if (len < sizeof magic) return false;
    memcpy(&magic, head, sizeof magic);
    return magic == PMS_PERFDATA_MAGIC || magic == bswap_64(PMS_PERFDATA_MAGIC) || magic == PMS_PERFDATA_MAGIC_V1;
}

int pms__perfdata_check_magic(const uint64_t head[2], const char *name, bool *pipe)
{
    *pipe = false;
    if (head[0] == bswap_64(PMS_PERFDATA_MAGIC))
        return pms__fail(PMS_ENOTSUP, "%s: big-endian perf.data (recorded on another architecture) is not supported",
                         name);
    if (head[0] == PMS_PERFDATA_MAGIC_V1)
        return pms__fail(PMS_ENOTSUP, "%s: perf.data version 1 (perf before Linux 2.6.36) is not supported", name);
    if (head[0] != PMS_PERFDATA_MAGIC)
        return pms__fail(PMS_EFORMAT, "%s: offset 0: not a perf.data file: expected the magic \"PERFILE2\"", name);
    *pipe = head[1] == PMS_PERFDATA_PIPE_HEADER_SIZE; /* perf record -o -: records to the end */
    /* 72 bytes: the header before feature bits existed. */
    if (!*pipe && head[1] != PMS_PERFDATA_HEADER_SIZE && head[1] != offsetof(struct pms_file_header, features))
        return pms__fail(PMS_EFORMAT, "%s: offset 8: header size is neither 104 nor 72 bytes", name);
    return PMS_OK;
}

int pms__perfdata_check_head(const unsigned char *head, size_t len, const char *name, void *ctx)
{
    (void)ctx;
    uint64_t h[2];
    if (len < sizeof h) return PMS_OK;
    memcpy(h, head, sizeof h);
    bool pipe;
    int rc = pms__perfdata_check_magic(h, name, &pipe);
    if (rc || !pipe) return rc;
    for (size_t off = sizeof h; off + sizeof(struct perf_event_header) <= len;) {
        struct perf_event_header rec;
        memcpy(&rec, head + off, sizeof rec);
        if (rec.size < sizeof rec)
            return pms__fail(PMS_EFORMAT, "%s: offset %zu: record size smaller than its 8-byte header", name, off);
        if (rec.type == PMS_RECORD_HEADER_ATTR) return PMS_OK; /* the recording is described */
        if (rec.type < PMS_RECORD_HEADER_ATTR || rec.type == PMS_RECORD_COMPRESSED)
            return pms__fail(PMS_EFORMAT,
                             "%s: offset %zu: pipe-mode perf.data without an event attribute (HEADER_ATTR) before "
                             "its first record",
                             name, off);
        off += rec.size; /* the payload of an AUXTRACE record is not in its size: none comes first */
    }
    return PMS_OK;
}
