/* pmuscope: how much of an input that is not a regular file the readers take.
 *
 * A reader that needs its input whole (the perf.data reader seeks; pprof profiles, olr
 * segment files and text tables are decoded whole; olr and phase read a pipe twice) copies
 * a pipe, a FIFO or a device first: to an unlinked temporary file in $TMPDIR, or to
 * memory. Before it copies, it looks at the first 64 KiB with the format's own checks (a
 * perf.data magic and header, a pprof's gzip header or protobuf fields, an olr segment
 * file's magic, a table's or vector file's first lines), so that /dev/zero, /dev/urandom or
 * `yes` is refused at once, with a message naming the input and the offset or line; and it
 * stops at the input limit with a message naming the limit. A regular file is read where
 * it is, whatever its size; a reader that streams (olr's rows of a table) has no limit. */
#ifndef PMUSCOPE_INPUT_H
#define PMUSCOPE_INPUT_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* The limit a process starts with: 1 GiB. */
#define PMS_INPUT_LIMIT_DEFAULT ((uint64_t)1 << 30)

/* Sets the limit, in bytes, for the whole process (0: none) and returns the one before. */
uint64_t pms_input_limit_set(uint64_t bytes);
/* The limit now. */
uint64_t pms_input_limit(void);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
