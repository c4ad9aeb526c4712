/* Internal: the on-disk layout of perf.data (tools/perf/util/header.h in the kernel
 * tree) shared by the reader, the writer and the record encoders. Little-endian only. */
#ifndef PMS_IO_PERFDATA_FORMAT_H
#define PMS_IO_PERFDATA_FORMAT_H
#include <stdint.h>
#include <string.h>

#include "pmuscope/perfdata.h"

#define PMS_PERFDATA_MAGIC 0x32454c4946524550ULL  /* "PERFILE2" read little-endian */
#define PMS_PERFDATA_MAGIC_V1 0x454c494646524550ULL /* "PERFFILE": perf before 2.6.36 */
#define PMS_PERFDATA_HEADER_SIZE 104u
#define PMS_PERFDATA_PIPE_HEADER_SIZE 16u
#define PMS_FEAT_BITS 256u

/* Feature sections (enum HEADER_* in tools/perf/util/header.h). */
enum {
    PMS_FEAT_TRACING_DATA = 1,
    PMS_FEAT_BUILD_ID = 2,
    PMS_FEAT_HOSTNAME = 3,
    PMS_FEAT_OSRELEASE = 4,
    PMS_FEAT_VERSION = 5,
    PMS_FEAT_ARCH = 6,
    PMS_FEAT_NRCPUS = 7,
    PMS_FEAT_CPUDESC = 8,
    PMS_FEAT_CPUID = 9,
    PMS_FEAT_TOTAL_MEM = 10,
    PMS_FEAT_CMDLINE = 11,
    PMS_FEAT_EVENT_DESC = 12,
    PMS_FEAT_SAMPLE_TIME = 21,
    PMS_FEAT_COMPRESSED = 27,
};
#define PMS_COMP_ZSTD 1u /* HEADER_COMPRESSED's type (enum perf_comp_type) */

/* Record types that perf itself adds to the data section (enum perf_user_event_type). */
enum {
    PMS_RECORD_HEADER_ATTR = 64,
    PMS_RECORD_HEADER_TRACING_DATA = 66, /* followed by its u32 size (at +8) of data, padded to 8 */
    PMS_RECORD_HEADER_BUILD_ID = 67, /* the build_id_event of the HEADER_BUILD_ID feature */
    PMS_RECORD_FINISHED_ROUND = 68,
    PMS_RECORD_ID_INDEX = 69,
    PMS_RECORD_AUXTRACE = 71, /* followed by `size` (u64 at +8) bytes of trace outside h.size */
    PMS_RECORD_EVENT_UPDATE = 78,
    PMS_RECORD_HEADER_FEATURE = 80,
    PMS_RECORD_COMPRESSED = 81,
};

struct pms_file_section {
    uint64_t offset, size;
};

struct pms_file_header {
    uint64_t magic;
    uint64_t size;      /* of this header */
    uint64_t attr_size; /* of one entry in the attrs section: perf_event_attr + ids section */
    struct pms_file_section attrs, data, event_types;
    uint64_t features[PMS_FEAT_BITS / 64];
};
_Static_assert(sizeof(struct pms_file_header) == PMS_PERFDATA_HEADER_SIZE, "perf_file_header layout");

/* Strings in feature sections: u32 length (padded to 64, with the NUL), then the bytes. */
#define PMS_FEAT_STRING_ALIGN 64u
#define PMS_PERF_RECORD_MISC_BUILD_ID_SIZE (1u << 15) /* a build_id_event says its id's size */

static inline uint64_t pms__get_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline uint32_t pms__get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The sample-id fields that follow non-sample records when attr.sample_id_all is set. */
typedef struct pms_sample_id {
    uint32_t pid, tid;
    uint64_t time, id, stream_id;
    uint32_t cpu;
} pms_sample_id;

/* Size in bytes of the sample_id_all trailer for this sample_type. */
size_t pms__sample_id_size(uint64_t sample_type);
/* Parses the trailer at the end of a non-sample record of `size` bytes. Returns 0, or -1
 * if the record is too short to hold it. */
int pms__sample_id_parse(const unsigned char *rec, size_t size, uint64_t sample_type, pms_sample_id *out);
/* The sample id of a PERF_RECORD_SAMPLE laid out by sample_type; -1 when the layout has
 * none or the record is too short for it. */
int pms__sample_id_of(const unsigned char *rec, size_t size, uint64_t sample_type, uint64_t *id);

#endif
