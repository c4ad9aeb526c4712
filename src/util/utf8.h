/* Internal: UTF-8 well-formedness, for the writers that must emit valid text. */
#ifndef PMS_UTIL_UTF8_H
#define PMS_UTIL_UTF8_H
#include <stddef.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence that starts at p in a
 * NUL-terminated string, or 0 when the byte at p starts none: a stray
 * continuation byte, an overlong form, a surrogate, a code point above
 * U+10FFFF, a sequence cut short, or the terminating NUL itself. */
size_t pms__utf8_sequence_len(const unsigned char *p);

#endif
