/* Internal: the running kernel's symbols from /proc/kallsyms, as perf names kernel
 * samples when no vmlinux is found, and the kernel's build-id from /sys/kernel/notes. */
#ifndef PMS_SYMBOL_KALLSYMS_H
#define PMS_SYMBOL_KALLSYMS_H
#include "symbol/build_id.h"
#include "symbol/symtab.h"

/* Fills t (empty) with the kernel's own text and data symbols of the kallsyms file at
 * path (module symbols left out), finished. Fails when it cannot be read or shows only
 * zero addresses (kptr_restrict). */
int pms__kallsyms_load(const char *path, pms__symtab *t);
/* The running kernel's text, _text to _etext, from /proc/kallsyms: PMS_ENOENT when the
 * addresses are hidden (kernel.kptr_restrict) or absent. */
int pms__kernel_text(uint64_t *start, uint64_t *end);
/* The build-id in a notes file such as /sys/kernel/notes ("" when it has none). */
int pms__kernel_build_id(const char *notes_path, char hex[PMS_BUILD_ID_HEX]);
#endif
