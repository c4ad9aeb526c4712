/* ELF build-id through elfutils (libelf + libdwelf). */
#include "symbol/build_id.h"
#include "util/error.h"
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

static void hex_of(Elf *elf, char hex[PMS_BUILD_ID_HEX])
{
    const unsigned char *id;
    ssize_t len = dwelf_elf_gnu_build_id(elf, (const void **)&id);
    static const char digits[] = "0123456789abcdef";
    for (ssize_t i = 0; len > 0 && (size_t)len * 2 < PMS_BUILD_ID_HEX && i < len; i++) {
        hex[2 * i] = digits[id[i] >> 4];
        hex[2 * i + 1] = digits[id[i] & 15];
        hex[2 * i + 2] = '\0';
    }
}

int pms__elf_build_id(const char *path, char hex[PMS_BUILD_ID_HEX])
{
    hex[0] = '\0';
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = PMS_OK;
    if (!elf || elf_kind(elf) != ELF_K_ELF)
        rc = pms__fail(PMS_EFORMAT, "%s: not an ELF file", path);
    else
        hex_of(elf, hex);
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

int pms__vdso_image(char **image, size_t *size)
{
    *image = NULL;
    const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
    if (!eh) return pms__fail(PMS_ENOENT, "this process has no vDSO");
    /* A copy: libelf may not be handed read-only pages. The image ends with its section headers. */
    *size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
    if (!(*image = malloc(*size))) return pms__fail(PMS_ENOMEM, "out of memory for the vDSO");
    memcpy(*image, eh, *size);
    return PMS_OK;
}

int pms__vdso_build_id(char hex[PMS_BUILD_ID_HEX])
{
    hex[0] = '\0';
    size_t size;
    char *copy;
    int rc = pms__vdso_image(&copy, &size);
    if (rc) return rc;
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory(copy, size);
    rc = elf && elf_kind(elf) == ELF_K_ELF ? PMS_OK : pms__fail(PMS_EFORMAT, "the vDSO is not ELF");
    if (!rc) hex_of(elf, hex);
    if (elf) elf_end(elf);
    free(copy);
    return rc;
}
