/* Internal: one binary opened through elfutils' libdwfl, with its load segments and
 * symbols. Files are cached by path for the lifetime of a pms_symbols map. */
#ifndef PMS_SYMBOL_ELF_FILE_H
#define PMS_SYMBOL_ELF_FILE_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms_elf_file pms_elf_file;
typedef struct pms_elf_cache pms_elf_cache;

pms_elf_cache *pms__elf_cache_create(void);
void pms__elf_cache_destroy(pms_elf_cache *c);
/* The opened file, or NULL with the failure recorded (pms__fail) when it cannot be read
 * as ELF; failures are cached too, so a missing file is tried once. */
pms_elf_file *pms__elf_cache_get(pms_elf_cache *c, const char *path);
/* This process's vDSO, read from its image in memory (cached as "[vdso]"). */
pms_elf_file *pms__elf_cache_get_vdso(pms_elf_cache *c);

int pms__elf_offset_to_address(const pms_elf_file *f, uint64_t offset, uint64_t *address);
int pms__elf_address_to_offset(const pms_elf_file *f, uint64_t address, uint64_t *offset);
/* The function symbol covering ELF address `address` (name owned by the file), or NULL. */
const char *pms__elf_symbol_at(pms_elf_file *f, uint64_t address, uint64_t *symbol_address);
/* The DWARF source line of ELF address `address`: file name (owned by the file) and line;
 * PMS_ENOENT when there is none. */
int pms__elf_source_line(pms_elf_file *f, uint64_t address, const char **file, int *line);
#endif
