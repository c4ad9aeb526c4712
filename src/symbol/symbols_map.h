/* The mappings of a pms_symbols, for the stack unwinder. */
#ifndef PMS_SYMBOL_SYMBOLS_MAP_H
#define PMS_SYMBOL_SYMBOLS_MAP_H

#include "pmuscope/symbols.h"

#include <stdint.h>

/* The user-space file mapping of `ip` in process pid at `time` (as pms_symbols_resolve finds
 * it): its start address, file offset and the path its binary is read from (under the
 * symfs directory when one is set; valid until the next call), or "[vdso]" for the vDSO
 * when it is this machine's (pms__vdso_image). PMS_ENOENT when no file that can be read is
 * mapped there (another kernel's vDSO, anonymous memory, no mapping). */
int pms__symbols_user_map(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, uint64_t *start,
                          uint64_t *pgoff, const char **path);

#endif
