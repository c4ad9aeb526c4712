/* Internal: the first bytes of a perf.data, checked before anything else is read (the
 * reader's own check, and the look at a pipe's head before it is copied). */
#ifndef PMS_IO_PERFDATA_HEAD_H
#define PMS_IO_PERFDATA_HEAD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether the first len bytes start with a perf.data magic of any kind (the current one,
 * big-endian, version 1): a perf.data for the reader to accept or name. */
bool pms__perfdata_magic(const unsigned char *head, size_t len);
/* The magic and the header size (head[0], head[1]) of the perf.data name: 0 with *pipe
 * set for perf's pipe format, or a status with a message naming name and the offset. */
int pms__perfdata_check_magic(const uint64_t head[2], const char *name, bool *pipe);
/* A pms__head_check (util/input_limit.h) for a perf.data that comes through a pipe or a
 * device: its magic and header size, then for the pipe format the records of its head,
 * which must describe the recording (HEADER_ATTR) before its first kernel record. */
int pms__perfdata_check_head(const unsigned char *head, size_t len, const char *name, void *ctx);

#endif
