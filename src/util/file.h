/* Internal: whole-file reads for the text readers. */
#ifndef PMS_UTIL_FILE_H
#define PMS_UTIL_FILE_H
#include <stddef.h>

/* Reads PATH ("-" is stdin) into a malloc'ed buffer with a terminating NUL (not
 * counted in *len). On failure returns a negative status with a message naming the file. */
int pms__read_file(const char *path, char **data, size_t *len);

/* The file name of PATH: after its last '/' (PATH itself when it ends in one). */
const char *pms__base_name(const char *path);

#endif
