/* Internal: the running kernel's symbols from /proc/kallsyms, as perf names kernel
 * samples when no vmlinux is found, and the kernel's build-id from /sys/kernel/notes. */
#ifndef PMS_SYMBOL_KALLSYMS_H
#define PMS_SYMBOL_KALLSYMS_H
#include "symbol/build_id.h"
#include "symbol/symtab.h"

/* The symbols of the loaded kernel modules, one table per module. */
typedef struct pms__kmodules {
    struct pms__kmodule {
        char *name; /* as perf names the module's map: "[wp512]" */
        pms__symtab syms;
    } *v;
    size_t n, cap;
} pms__kmodules;

/* Fills t (empty) with the kernel's own text and data symbols of the kallsyms file at
 * path, finished, and modules (empty; NULL: left out) with the modules' (the lines that end
 * in "[module]"), each finished, as perf splits them into the modules' maps. Fails when the
 * file cannot be read or shows only zero addresses (kptr_restrict). */
int pms__kallsyms_load(const char *path, pms__symtab *t, pms__kmodules *modules);
/* The symbols of module `name` ("[wp512]"), or NULL. */
const pms__symtab *pms__kmodules_find(const pms__kmodules *m, const char *name);
void pms__kmodules_free(pms__kmodules *m);
/* The running kernel's text, _text (else _stext, as perf takes it) to _etext, from
 * /proc/kallsyms, and which of the two it starts at (*ref: "_text" or "_stext"): PMS_ENOENT
 * when the addresses are hidden (kernel.kptr_restrict) or absent. */
int pms__kernel_text(uint64_t *start, uint64_t *end, const char **ref);
/* The build-id in a notes file such as /sys/kernel/notes ("" when it has none). */
int pms__kernel_build_id(const char *notes_path, char hex[PMS_BUILD_ID_HEX]);
#endif
