/* Internal: an input that may be a pipe, made readable more than once. The commands that
 * take several formats (olr, phase) look at the first bytes to choose a reader, and the
 * perf.data reader seeks: a pipe ("-", /dev/stdin, a FIFO, bash's <(...)) allows neither.
 * A regular file is read where it is; anything else is copied once to an unlinked
 * temporary file (in TMPDIR), which the readers then open by a /dev/fd path. */
#ifndef PMS_IO_INPUT_SPOOL_H
#define PMS_IO_INPUT_SPOOL_H
#include <stdio.h>

typedef struct pms__input {
    const char *path;   /* what to open: the caller's path, or /dev/fd/N of the copy */
    const char *name;   /* what messages name: the caller's path ("-" for standard input) */
    FILE *copy;         /* the copy of a pipe, NULL for a regular file */
    char fd_path[32];
} pms__input;

/* path "-" is standard input. Errors name path. */
int pms__input_open(pms__input *in, const char *path);
/* A reader's status rc, its message naming in->name where it named the /dev/fd copy. */
int pms__input_status(const pms__input *in, int rc);
void pms__input_close(pms__input *in);

#endif
