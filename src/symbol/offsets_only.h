/* Internal: a symbol map that places addresses in their files without naming functions. */
#ifndef PMS_SYMBOL_OFFSETS_ONLY_H
#define PMS_SYMBOL_OFFSETS_ONLY_H
#include "pmuscope/symbols.h"

/* From now on pms_symbols_resolve gives the binary and file offset only (symbol NULL): no
 * ELF symbol table and no /proc/kallsyms is read (the kernel formats its 100,000+ lines for
 * every read: about 40 ms of CPU). For the hotspot measures, which need (binary, offset). */
void pms__symbols_offsets_only(pms_symbols *s);

#endif
