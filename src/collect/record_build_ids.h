/* Internal: the build-ids of the binaries a recording's samples fell in. */
#ifndef PMS_COLLECT_RECORD_BUILD_IDS_H
#define PMS_COLLECT_RECORD_BUILD_IDS_H
#include "pmuscope/perfdata.h"

/* Reads the recording at path (synced, still open in w) once more, as perf record does at
 * its end, and gives w the build-ids of every binary with samples: files by their ELF
 * build-id note, the kernel by /sys/kernel/notes, [vdso] by this process's vDSO.
 * Nothing for a path that is not a regular file. */
int pms__record_build_ids(const char *path, pms_perfdata_writer *w);
#endif
