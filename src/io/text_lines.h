/* Internal: the one reader of text input, line by line. Every text format (CSV/TSV
 * tables, perf stat output, callgrind, exp-bbv and SimPoint files, truth schedules, olr
 * input) is read through it, so all of them get the same guards:
 *   - only regular files and pipes ("-" is stdin): a device such as /dev/zero is refused
 *     before anything is read;
 *   - a UTF-8 byte-order mark at the start is dropped;
 *   - a NUL byte is refused, naming its line and byte offset;
 *   - a line longer than max_len is refused instead of growing without bound;
 *   - with PMS_LINES_COMPLETE, a last line without its newline is refused (the formats
 *     whose every line has a fixed shape: a line cut short would still parse).
 * Errors name the file and line; the reader never prints. */
#ifndef PMS_IO_TEXT_LINES_H
#define PMS_IO_TEXT_LINES_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { PMS_LINES_COMPLETE = 1 };
#define PMS_LINES_MAX_LEN ((size_t)16 << 20) /* 16 MiB: a 65536-column header fits */

typedef struct pms_lines {
    const char *name;
    FILE *f;
    bool owned;      /* f was opened here */
    unsigned flags;
    size_t max_len;  /* longest line accepted, without its newline */
    char *buf;
    size_t cap;
    size_t line;     /* number of the line last returned, from 1 */
    uint64_t offset; /* bytes of the file consumed (the BOM included) */
    bool newline;    /* the line last returned ended with '\n' */
    bool regular;    /* a regular file (else a pipe: pms__read_text stops at the input limit) */
} pms_lines;

/* Opens PATH ("-": stdin). NAME for messages is PATH. */
int pms__lines_open(pms_lines *r, const char *path, unsigned flags);
/* Reads from an open stream (not closed by pms__lines_close); checked like a file. */
int pms__lines_from_stream(pms_lines *r, FILE *f, const char *name, unsigned flags);
/* The next line, NUL-terminated, without its '\n' (a '\r' before it is kept): returns 1
 * with *line and *len set, 0 at the end, or a negative status. The line stays valid until
 * the next call. */
int pms__lines_next(pms_lines *r, char **line, size_t *len);
void pms__lines_close(pms_lines *r);

/* A parser of a whole text (len bytes, NUL-terminated), name for messages: 0 or a status. */
typedef int (*pms__text_parser)(const char *text, size_t len, const char *name, void *ctx);

/* The whole text of PATH through the line reader, for the parsers that work on a buffer:
 * malloc'ed, NUL-terminated (not counted in *len), lines as in the file less any BOM.
 * head (may be NULL) is the parser itself, run on the first complete lines once they pass
 * PMS_INPUT_HEAD bytes and more follow: a failure there is the input's (unless only its
 * end could cause it: pms__fail_at_end), so `yes` through a pipe is refused at its first
 * lines. A pipe stops at the input limit (pmuscope/input.h). */
int pms__read_text(const char *path, unsigned flags, pms__text_parser head, void *ctx, char **data, size_t *len);

/* A pms__head_check (util/input_limit.h) made of a parser: parse runs on the complete lines
 * of the head (up to its last newline); its failure is final unless pms__failed_at_end. */
int pms__text_head_check(const unsigned char *head, size_t len, const char *name, pms__text_parser parse,
                         void *ctx);

#endif
