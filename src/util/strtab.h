/* Internal: a table of distinct strings, each with its index (pprof's string table, the
 * names of merged rows). */
#ifndef PMS_UTIL_STRTAB_H
#define PMS_UTIL_STRTAB_H
#include <stddef.h>
#include <stdint.h>

#include "util/keymap.h"

typedef struct pms_strtab {
    pms_keymap index; /* (hash, length | probe << 32) -> index */
    char **strings;
    size_t n, cap;
} pms_strtab;

void pms__strtab_init(pms_strtab *t);
void pms__strtab_free(pms_strtab *t);
/* The index of s (NULL: ""), copied in if new; -1 when out of memory (message set). */
int64_t pms__strtab_intern(pms_strtab *t, const char *s);
#endif
