/* Internal: a binary's symbols loaded the way perf loads them (see elf_symbols.c). */
#ifndef PMS_SYMBOL_ELF_SYMBOLS_H
#define PMS_SYMBOL_ELF_SYMBOLS_H
#include "symbol/symtab.h"

#include <elfutils/libdwfl.h>

/* Fills t (empty) with the module's symbols at ELF addresses, finished. */
int pms__elf_symbols_load(Dwfl_Module *module, pms__symtab *t);
#endif
