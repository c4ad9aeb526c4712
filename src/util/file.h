/* Internal: whole-file reads for the text readers, and directories made as mkdir -p. */
#ifndef PMS_UTIL_FILE_H
#define PMS_UTIL_FILE_H
#include <stddef.h>

/* Reads PATH ("-" is stdin) into a malloc'ed buffer with a terminating NUL (not
 * counted in *len). On failure returns a negative status with a message naming the file. */
int pms__read_file(const char *path, char **data, size_t *len);

/* Creates directory PATH and its missing parents (as mkdir -p). On failure returns a
 * negative status with "cannot create PATH: reason". */
int pms__mkdir_p(const char *path);

/* The file name of PATH: after its last '/' (PATH itself when it ends in one). */
const char *pms__base_name(const char *path);

#endif
