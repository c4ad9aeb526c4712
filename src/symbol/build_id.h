/* Internal: the GNU build-id of an ELF file, the identity by which a truth directory
 * refuses a binary that was rebuilt or replaced after valgrind ran it. */
#ifndef PMS_SYMBOL_BUILD_ID_H
#define PMS_SYMBOL_BUILD_ID_H
#include <stddef.h>

#define PMS_BUILD_ID_HEX 82 /* room for the hex of a 40-byte id */

/* Writes the lower-case hex build-id of PATH ("" if it has none). */
int pms__elf_build_id(const char *path, char hex[PMS_BUILD_ID_HEX]);

/* The build-id of this process's vDSO, which is every process's on this kernel (as perf
 * takes it for [vdso]). */
int pms__vdso_build_id(char hex[PMS_BUILD_ID_HEX]);

/* A malloc'd copy of this process's vDSO image (its ELF file, section headers included) and
 * its size. */
int pms__vdso_image(char **image, size_t *size);

#endif
