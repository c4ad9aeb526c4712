/* Internal: what the perf.data writer offers beyond its public API (pmuscope/perfdata.h). */
#ifndef PMS_IO_PERFDATA_WRITER_H
#define PMS_IO_PERFDATA_WRITER_H
#include "pmuscope/perfdata.h"

/* pms_perfdata_writer_open writing path, with name for the file in its messages: a
 * recording writes a temporary file that becomes name, and a full disk must name the
 * file the user asked for. */
int pms__perfdata_writer_open_as(pms_perfdata_writer **out, const char *path, const char *name,
                                 const pms_perfdata_attr *attrs, size_t nattrs, int argc, char *const argv[]);

#endif
