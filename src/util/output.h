/* Internal: the one way pmuscope writes a file. Every output option of every command and
 * every file the library writes (perf.data, pprof, CSV, JSON, SVG, HTML, olr segment
 * files, traces, truth directories) goes through it, so that none of them can destroy
 * what was there:
 *
 *   - "-" is the standard output, written in place (a duplicate of descriptor 1).
 *   - A path that exists and is not a regular file (a device such as /dev/null, a FIFO, a
 *     socket) is written in place: opened without O_CREAT and O_TRUNC, never removed or
 *     replaced by a regular file.
 *   - Anything else (a regular file, or nothing yet) is replaced atomically: the bytes go
 *     to a temporary file beside it (PATH.tmp-XXXXXX, in the same directory, so the same
 *     file system), which pms__output_commit flushes, fsyncs and renames over PATH. Until
 *     then PATH is as it was; an output aborted or failed leaves PATH as it was and no
 *     temporary file, except where the rename itself fails: then the temporary file, which
 *     holds the whole output, stays and the message names it. The new file gets the mode of the file it replaces (a new one
 *     0666 less the umask, or 0600 with PMS_OUTPUT_PRIVATE).
 *   - A symbolic link is followed: its target is replaced, the link stays a link.
 *   - PMS_OUTPUT_KEEP_OLD: a non-empty regular file that was there is kept as PATH.old
 *     (as perf record keeps perf.data.old).
 *   - Every error (open, write, flush, fsync, close, rename) sets the library's message
 *     "cannot write PATH: reason", PATH as the caller named it, and returns a status.
 *
 * A whole output in one call (a writer of a FILE *, 0 or a status):
 *
 *     return pms__output_save(path, 0, write_my_thing, &thing);
 *
 * Or step by step, where the writing is spread out:
 *
 *     pms__output o;
 *     int rc = pms__output_open(&o, path, 0);
 *     if (rc) return rc;
 *     FILE *f = pms__output_stream(&o);  // or pms__output_write(&o, bytes, n), or o.fd
 *     ... write ...
 *     if (rc) { pms__output_abort(&o); return rc; }  // PATH stays as it was
 *     return pms__output_commit(&o);                 // PATH is the new file
 *
 * The struct must stay where it is between open and commit or abort (its stream points
 * at it). A new output option is one call: pms__output_save in the library, or
 * cli_open_output / cli_finish_output in the command line (src/cli/cli.h), which open
 * their files through this. */
#ifndef PMS_UTIL_OUTPUT_H
#define PMS_UTIL_OUTPUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
    PMS_OUTPUT_KEEP_OLD = 1, /* keep a non-empty regular file that was there as PATH.old */
    PMS_OUTPUT_PRIVATE = 2,  /* a new file is 0600 (perf record's perf.data) */
};

typedef struct pms__output {
    char *name;      /* as the caller named it: the name in every message */
    char *target;    /* the file written or replaced: name with symbolic links followed */
    char *tmp;       /* the temporary file beside target; NULL when written in place */
    int fd;          /* what to write to (-1 once closed) */
    FILE *stream;    /* pms__output_stream's stdio stream over fd, or NULL */
    int err;         /* errno of the first write that failed (0: none) */
    unsigned flags;
    bool in_place;   /* a device, FIFO, socket or "-": no temporary file, no rename */
    bool seekable;   /* pwrite and lseek work on fd (a regular file, /dev/null; not a FIFO) */
    bool published;  /* pms__output_publish renamed the temporary file already */
    bool kept;       /* a publish failed: the temporary file stays (named in the message) */
} pms__output;

/* Opens PATH for writing as above; 0, or a status with "cannot write PATH: reason". */
int pms__output_open(pms__output *o, const char *path, unsigned flags);
/* A stdio stream over the output, made at the first call (NULL: out of memory, message
 * set). Its writes keep the errno of the first failure for the message at commit. */
FILE *pms__output_stream(pms__output *o);
/* Writes all n bytes at the current position; 0 or a status naming the file. */
int pms__output_write(pms__output *o, const void *p, size_t n);
/* Records errno err of a write the caller made on o->fd itself (pwrite): the first counts.
 * Returns a status with "cannot write PATH: reason". */
int pms__output_failed(pms__output *o, int err);
/* Puts the temporary file in place now (PATH.old kept with PMS_OUTPUT_KEEP_OLD); writing
 * goes on into it, so that a crash of the writer leaves PATH as far as it was synced
 * (perf record's checkpoints). Once; nothing for an output written in place. */
int pms__output_publish(pms__output *o);
/* Flushes, fsyncs (a regular file), closes and puts the new file in place. Any failure
 * (a write that failed earlier included) returns a status naming the file, and PATH
 * stays as it was unless it was published. The output is closed in every case; where the
 * rename (or PATH.old) fails, the temporary file stays and the message names it. */
int pms__output_commit(pms__output *o);
/* Closes without keeping: the temporary file is removed and PATH stays as it was (what
 * was written in place, or published, stays). Safe on a closed output. */
void pms__output_abort(pms__output *o);

/* The whole output in one call: open, write(stream, ctx), commit; on a failed write the
 * file's own error is the message where the stream failed, else the writer's. */
int pms__output_save(const char *path, unsigned flags, int (*write)(FILE *f, void *ctx), void *ctx);

#endif
