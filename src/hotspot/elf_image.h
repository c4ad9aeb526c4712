/* Internal: what the hotspot ground truth needs from an ELF file: its identity
 * (GNU build-id) and its loadable segments, to turn a link-time virtual address
 * into a file offset (the address space shared by valgrind's and perf's views). */
#ifndef PMS_HOTSPOT_ELF_IMAGE_H
#define PMS_HOTSPOT_ELF_IMAGE_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms_elf_segment {
    uint64_t vaddr, memsz, offset, filesz;
    int executable;
} pms_elf_segment;

typedef struct pms_elf_image {
    char build_id[41 * 2]; /* lower-case hex, "" if the file has none */
    pms_elf_segment *segments; /* PT_LOAD, in file order */
    size_t nsegments;
} pms_elf_image;

/* Reads PATH's build-id and PT_LOAD headers. */
int pms_elf_image_read(pms_elf_image *img, const char *path);
void pms_elf_image_free(pms_elf_image *img);
/* File offset of a link-time virtual address; 0 on success, -1 if in no segment's file part. */
int pms_elf_image_offset(const pms_elf_image *img, uint64_t vaddr, uint64_t *offset);

#endif
