/* Internal: the first bytes of a pprof profile, looked at before it is read whole (the
 * sniff that tells it from a perf.data, and the look at a pipe's head before it is
 * copied). No protobuf-c types here: the field walk is by hand, on Profile's field numbers
 * and wire types. */
#ifndef PMS_IO_PPROF_HEAD_H
#define PMS_IO_PPROF_HEAD_H
#include <stdbool.h>
#include <stddef.h>

/* Whether the first len bytes (all of the file when whole) can start a pprof profile; if
 * not, why ("offset N: expected ...") into why. */
bool pms__pprof_starts(const unsigned char *data, size_t len, bool whole, char *why, size_t size);
/* Whether the first len bytes of name (all of it when whole) can start a pprof profile:
 * gzip's header and what its deflate data give so far, or the raw message itself, walked
 * field by field (each of Profile's fields 1 to 14 with its wire type, each length inside
 * a whole file). 0, or PMS_EFORMAT with "name: not a pprof profile: offset N: expected ...". */
int pms__pprof_check_start(const unsigned char *data, size_t len, bool whole, const char *name);
/* pms__pprof_check_start of a head that more follows (a pms__head_check: ctx unused). */
int pms__pprof_check_head(const unsigned char *head, size_t len, const char *name, void *ctx);
#endif
