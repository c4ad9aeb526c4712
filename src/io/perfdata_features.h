/* Internal: the feature sections the writer puts after the data section. */
#ifndef PMS_IO_PERFDATA_FEATURES_H
#define PMS_IO_PERFDATA_FEATURES_H
#include <stddef.h>

#include "io/perfdata_format.h"

typedef struct pms_feature {
    unsigned bit;        /* PMS_FEAT_* */
    unsigned char *data; /* the section's bytes */
    size_t len;
} pms_feature;

/* Builds the sections perf reads to describe a recording: hostname, os release, version,
 * arch, cpu counts, total memory, command line and the event descriptions (names and
 * ids). *out is sorted by bit. */
int pms__features_build(pms_feature **out, size_t *count, const pms_perfdata_attr *attrs, size_t nattrs, int argc,
                       char *const argv[]);
/* The HEADER_BUILD_ID section of the given build-ids, as perf record writes it. */
int pms__feature_build_ids(pms_feature *out, const pms_perfdata_build_id *ids, size_t n);
/* HEADER_COMPRESSED: version 0, zstd, the level, the ratio so far and the most bytes one
 * compressed record expands to (perf's comp_mmap_len: perf report sizes its buffer by it). */
int pms__feature_compressed(pms_feature *out, uint32_t level, uint32_t ratio, uint32_t max_expanded);
void pms__features_free(pms_feature *f, size_t count);

#endif
