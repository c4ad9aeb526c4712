/* Internal: reading a whole text file (or stdin) into memory for the parsers. */
#ifndef PMS_IO_TEXT_FILE_H
#define PMS_IO_TEXT_FILE_H
#include <stddef.h>

/* Reads path ("-" is stdin) into a malloc'd buffer with a NUL after the end.
 * Fails with a message naming the file. */
int pms_read_text_file(const char *path, char **data, size_t *len);

#endif
