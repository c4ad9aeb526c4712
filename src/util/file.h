/* Internal: whole-file reads for the text readers, and directories made as mkdir -p. */
#ifndef PMS_UTIL_FILE_H
#define PMS_UTIL_FILE_H
#include "util/input_limit.h"

#include <stddef.h>

/* Reads PATH ("-" is stdin) into a malloc'ed buffer with a terminating NUL (not
 * counted in *len). check (may be NULL) looks at the first PMS_INPUT_HEAD bytes or more
 * when more may follow, before the rest is read; an input that is not a regular file stops
 * at the input limit (pmuscope/input.h). On failure returns a negative status with a
 * message naming the file. */
int pms__read_file(const char *path, pms__head_check check, void *ctx, char **data, size_t *len);

/* Creates directory PATH and its missing parents (as mkdir -p). On failure returns a
 * negative status with "cannot create PATH: reason". */
int pms__mkdir_p(const char *path);

/* The file name of PATH: after its last '/' (PATH itself when it ends in one). */
const char *pms__base_name(const char *path);

#endif
