/* Internal: an input that may be a pipe, made readable more than once. The commands that
 * take several formats (olr, phase) look at the first bytes to choose a reader, and the
 * perf.data reader seeks: a pipe ("-", /dev/stdin, a FIFO, bash's <(...)) allows neither.
 * A regular file is read where it is; a pipe is copied once to an unlinked temporary file
 * (in TMPDIR), which the readers then open by a /dev/fd path. Before the copy goes past
 * the pipe's first 64 KiB, the caller's head check looks at them (pmuscope/input.h), and
 * the copy stops at the input limit. */
#ifndef PMS_IO_INPUT_SPOOL_H
#define PMS_IO_INPUT_SPOOL_H
#include "util/input_limit.h"

#include <stdint.h>

typedef struct pms__input {
    const char *path;   /* what to open: the caller's path, or /dev/fd/N of the copy */
    const char *name;   /* what messages name: the caller's path ("-" for standard input) */
    int copy;           /* the copy of a pipe, -1 for a regular file */
    char fd_path[32];
} pms__input;

/* path "-" is standard input. check (may be NULL) sees a pipe's head. Errors name path. */
int pms__input_open(pms__input *in, const char *path, pms__head_check check, void *ctx);
/* A reader's status rc, its message naming in->name where it named the /dev/fd copy. */
int pms__input_status(const pms__input *in, int rc);
void pms__input_close(pms__input *in);

/* Reads in_fd to its end into a new temporary file (in $TMPDIR, else /tmp) that is already
 * unlinked: check (may be NULL) sees the first PMS_INPUT_HEAD bytes before the rest is
 * read, and the copy stops at the input limit. *out_fd reads it, *size is its length.
 * name stands for the input in messages. */
int pms__spool(int in_fd, const char *name, pms__head_check check, void *ctx, int *out_fd, uint64_t *size);

#endif
