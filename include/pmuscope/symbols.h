/* pmuscope: from run-time instruction addresses to (binary, file offset, function).
 *
 * A pms_symbols map is fed the MMAP/MMAP2 and FORK records of a recording (live or from
 * a perf.data) and then turns a sampled IP of a process into the mapped file, the offset
 * of the IP in that file, and the ELF symbol that covers it. File offsets are the common
 * space across ASLR and PIE, so addresses from other tools (valgrind, which loads PIE
 * binaries elsewhere) meet sampled IPs there: pms_symbols_lookup_file() goes from
 * (binary, file offset) to the symbol. Symbols come from elfutils (libdwfl: .symtab, or
 * .dynsym, or separate debuginfo found by build id).
 *
 * Kernel-mode samples land in the kernel's mappings (pid -1 in perf's records) as perf
 * names them: "[kernel.kallsyms]" (or "[kernel.vmlinux]" when recorded against a vmlinux)
 * and "[module]". Addresses outside every mapping go to "[unknown]", as in perf. */
#ifndef PMUSCOPE_SYMBOLS_H
#define PMUSCOPE_SYMBOLS_H
#include <stddef.h>
#include <stdint.h>

#include "pmuscope/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

#define PMS_BINARY_KERNEL "[kernel.kallsyms]"
#define PMS_BINARY_UNKNOWN "[unknown]"

typedef struct pms_symbols pms_symbols;

/* Where an address lands. Strings belong to the map and live as long as it does. */
typedef struct pms_symbol_info {
    const char *binary;      /* mapped file path, "[vdso]"-style name, or one of the buckets */
    uint64_t file_offset;    /* offset of the address in the binary (the IP itself in a bucket) */
    const char *symbol;      /* covering function, or NULL when the binary has none there */
    uint64_t symbol_offset;  /* address - symbol start */
    uint64_t symbol_address; /* the symbol's start as an ELF address (st_value) */
    int mapped;              /* 1 when the address fell in a file mapping */
    uint64_t map_start, map_end, map_pgoff; /* that mapping: [start, end) at file offset pgoff */
} pms_symbol_info;

int pms_symbols_create(pms_symbols **out);
void pms_symbols_destroy(pms_symbols *s);

/* Reads binaries under directory `dir` (perf's --symfs): a binary recorded at /usr/bin/x is
 * read from dir/usr/bin/x, for a recording made on another machine (another architecture
 * too); its name stays the recorded path. NULL, "" or "/" reads them where they were. Set it
 * before the first lookup. */
int pms_symbols_set_symfs(pms_symbols *s, const char *dir);

/* Feeds one mapping (only executable ones are kept). */
int pms_symbols_add_mmap(pms_symbols *s, const pms_mmap_event *m);
/* Feeds a FORK (the child sees its parent's mappings) or EXEC/EXIT; others are ignored. */
int pms_symbols_add_task(pms_symbols *s, const pms_task_event *t);

/* Feeds a build-id of the recording (pms_perfdata_get_build_id): a binary whose file on
 * disk has another build-id is not symbolised (its symbols would be another build's), and
 * is listed by pms_symbols_build_id_mismatches. */
int pms_symbols_add_build_id(pms_symbols *s, const pms_perfdata_build_id *b);
/* How many binaries looked up so far had another build-id on disk than in the recording;
 * when i is below that and path non-NULL, the i-th one's path and both build-ids. */
size_t pms_symbols_build_id_mismatches(const pms_symbols *s, size_t i, const char **path, const char **recorded,
                                        const char **on_disk);

/* Maps a sampled IP of process pid at `time` (0: any) to its binary and file offset,
 * and looks up the symbol. kernel: the sample was taken in kernel mode
 * (PERF_RECORD_MISC_KERNEL). Never fails: unmapped addresses land in a bucket. */
void pms_symbols_resolve(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, int kernel, pms_symbol_info *out);

/* Only the mapping's name ("[kernel.kallsyms]" for the kernel, a path for a file), or NULL
 * when the address is in no mapping: no symbol is looked up. */
const char *pms_symbols_binary(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, int kernel);

/* The symbol that covers file offset `file_offset` of `binary` (for addresses from other
 * tools). Returns PMS_OK with out->symbol NULL when no symbol covers it, PMS_ENOENT or
 * PMS_EFORMAT when the binary cannot be opened or is not ELF. */
int pms_symbols_lookup_file(pms_symbols *s, const char *binary, uint64_t file_offset, pms_symbol_info *out);

/* The source line of file offset `file_offset` of `binary` from its DWARF line table
 * (in the file or its separate debuginfo): *file (owned by the map) and *line, or
 * PMS_ENOENT when the binary has no line information there. */
int pms_symbols_source_line(pms_symbols *s, const char *binary, uint64_t file_offset, const char **file, int *line);

/* The build-id of `binary` as the recording gave it (pms_symbols_add_build_id), else as
 * the file on disk has it; "" when neither says. The string belongs to the map. */
const char *pms_symbols_build_id(pms_symbols *s, const char *binary);

/* The ELF address (as in nm, objdump) of a file offset in binary, through its PT_LOAD
 * program headers; and back. For tools whose addresses are ELF addresses plus a load
 * bias. */
int pms_symbols_offset_to_address(pms_symbols *s, const char *binary, uint64_t file_offset, uint64_t *address);
int pms_symbols_address_to_offset(pms_symbols *s, const char *binary, uint64_t address, uint64_t *file_offset);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
