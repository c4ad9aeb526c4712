/* ELF identity and load segments through libelf/libdw (elfutils). */
#include "hotspot/elf_image.h"
#include "util/error.h"
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <unistd.h>

static int read_segments(pms_elf_image *img, Elf *elf, const char *path)
{
    size_t n;
    if (elf_getphdrnum(elf, &n) != 0)
        return pms_fail(PMS_EFORMAT, "%s: cannot read the ELF program headers: %s", path, elf_errmsg(-1));
    img->segments = calloc(n ? n : 1, sizeof *img->segments);
    if (!img->segments)
        return pms_fail(PMS_ENOMEM, "%s: out of memory for %zu program headers", path, n);
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph))
            return pms_fail(PMS_EFORMAT, "%s: program header %zu: %s", path, i, elf_errmsg(-1));
        if (ph.p_type != PT_LOAD)
            continue;
        img->segments[img->nsegments++] = (pms_elf_segment){ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_filesz,
                                                            (ph.p_flags & PF_X) != 0};
    }
    if (img->nsegments == 0)
        return pms_fail(PMS_EFORMAT, "%s: the ELF file has no loadable (PT_LOAD) segment", path);
    return PMS_OK;
}

static void read_build_id(pms_elf_image *img, Elf *elf)
{
    const void *id;
    ssize_t len = dwelf_elf_gnu_build_id(elf, &id);
    img->build_id[0] = '\0';
    if (len <= 0 || (size_t)len * 2 >= sizeof img->build_id)
        return;
    static const char hex[] = "0123456789abcdef";
    for (ssize_t i = 0; i < len; i++) {
        img->build_id[2 * i] = hex[((const unsigned char *)id)[i] >> 4];
        img->build_id[2 * i + 1] = hex[((const unsigned char *)id)[i] & 15];
    }
    img->build_id[2 * len] = '\0';
}

int pms_elf_image_read(pms_elf_image *img, const char *path)
{
    *img = (pms_elf_image){{0}, NULL, 0};
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pms_fail_errno(pms_status_from_errno(errno), errno, "cannot open %s", path);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc;
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        rc = pms_fail(PMS_EFORMAT, "%s: not an ELF file", path);
    } else {
        rc = read_segments(img, elf, path);
        read_build_id(img, elf);
    }
    if (elf)
        elf_end(elf);
    close(fd);
    if (rc < 0)
        pms_elf_image_free(img);
    return rc;
}

void pms_elf_image_free(pms_elf_image *img)
{
    free(img->segments);
    img->segments = NULL;
    img->nsegments = 0;
}

int pms_elf_image_offset(const pms_elf_image *img, uint64_t vaddr, uint64_t *offset)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const pms_elf_segment *s = &img->segments[i];
        if (vaddr >= s->vaddr && vaddr - s->vaddr < s->filesz) {
            *offset = vaddr - s->vaddr + s->offset;
            return 0;
        }
    }
    return -1;
}
