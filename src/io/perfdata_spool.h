/* Internal: copying a perf.data stream from a pipe into an unlinked temporary file. */
#ifndef PMS_IO_PERFDATA_SPOOL_H
#define PMS_IO_PERFDATA_SPOOL_H
#include <stdint.h>

/* Reads in_fd to its end into a new temporary file (in $TMPDIR, else /tmp) that is already
 * unlinked; *out_fd reads it, *size is its length. `name` stands for the input in messages. */
int pms__spool(int in_fd, const char *name, int *out_fd, uint64_t *size);

#endif
