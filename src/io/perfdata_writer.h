/* Internal: what the perf.data writer offers beyond its public API (pmuscope/perfdata.h). */
#ifndef PMS_IO_PERFDATA_WRITER_H
#define PMS_IO_PERFDATA_WRITER_H
#include "pmuscope/perfdata.h"

#include "util/output.h"

/* pms_perfdata_writer_open into an output the caller opened (util/output.h) and commits or
 * aborts after pms_perfdata_writer_close: messages name o->name (a recording writes a
 * temporary file, and a full disk must name the file the user asked for). The output
 * must stay open until then. "-" and an output that cannot seek (a FIFO, a terminal) get
 * perf's pipe format, as perf record -o - writes it. */
int pms__perfdata_writer_open_output(pms_perfdata_writer **out, pms__output *o, const pms_perfdata_attr *attrs,
                                     size_t nattrs, int argc, char *const argv[]);
/* Whether the writer writes perf's pipe format. */
bool pms__perfdata_writer_is_pipe(const pms_perfdata_writer *w);

#endif
