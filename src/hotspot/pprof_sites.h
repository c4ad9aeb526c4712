/* Internal: the sampled instructions of a pprof profile placed in their files, for
 * hotspot detection against exact counts (pms_hotspot_recording_read reads pprof files
 * through it). */
#ifndef PMS_HOTSPOT_PPROF_SITES_H
#define PMS_HOTSPOT_PPROF_SITES_H
#include <stddef.h>
#include <stdint.h>

#include "pmuscope/pprof.h"

/* Called for each sample's leaf location: its mapping's file (NULL when it has none) and
 * the address's offset in that file, and the sample's count. */
typedef int (*pms_pprof_leaf_fn)(const char *file, uint64_t file_offset, uint64_t count, void *ctx);

/* The sample type that counts samples (unit "count"), else the default one. */
size_t pms__pprof_count_type(const pms_pprof *p);
/* The profile's sampling period (0 when it gives none). */
int64_t pms__pprof_period(const pms_pprof *p);
/* Every sample's leaf with its value of sample type `type` (negative values count 0). */
int pms__pprof_each_leaf(const pms_pprof *p, size_t type, pms_pprof_leaf_fn fn, void *ctx);
#endif
