/* Binaries through libdwfl: .symtab, .dynsym or separate debuginfo (found by build id in
 * the standard debug paths), and the PT_LOAD headers that relate file offsets to ELF
 * addresses. */
#include "symbol/elf_file.h"
#include "symbol/build_id.h"
#include "symbol/elf_symbols.h"
#include "util/error.h"
#include "util/grow.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>

struct segment {
    uint64_t vaddr, offset, filesz, memsz;
};

struct pms_elf_file {
    char *path;
    int vdso;    /* this process's vDSO, read from memory (image), not from path */
    char *image;
    Dwfl *dwfl;
    Dwfl_Module *module;
    GElf_Addr bias;
    struct segment *segments;
    size_t nsegments;
    int ok;
    char *error; /* why it could not be opened */
    pms__symtab symbols;
    int symbols_loaded; /* 1: loaded, -1: failed */
};

struct pms_elf_cache {
    pms_elf_file **files;
    size_t n, cap;
};

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

pms_elf_cache *pms__elf_cache_create(void) { return calloc(1, sizeof(pms_elf_cache)); }

static void file_free(pms_elf_file *f)
{
    if (!f) return;
    if (f->dwfl) dwfl_end(f->dwfl);
    free(f->image); /* after dwfl_end: libdwfl reads it until then */
    pms__symtab_free(&f->symbols);
    free(f->segments);
    free(f->error);
    free(f->path);
    free(f);
}

void pms__elf_cache_destroy(pms_elf_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->n; i++) file_free(c->files[i]);
    free(c->files);
    free(c);
}

static int load_segments(pms_elf_file *f)
{
    Elf *elf = dwfl_module_getelf(f->module, &f->bias);
    size_t n;
    if (!elf || elf_getphdrnum(elf, &n) != 0) return -1;
    f->segments = calloc(n ? n : 1, sizeof *f->segments);
    if (!f->segments) return -1;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
            f->segments[f->nsegments++] = (struct segment){ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_memsz};
    }
    return f->nsegments ? 0 : -1;
}

/* Reports the file (or the in-memory image) to a fresh libdwfl session. */
static void report_module(pms_elf_file *f)
{
    f->dwfl = dwfl_begin(&callbacks);
    if (!f->dwfl) return;
    dwfl_report_begin(f->dwfl);
    size_t size;
    if (f->vdso) {
        if (pms__vdso_image(&f->image, &size) == PMS_OK)
            f->module = dwfl_report_offline_memory(f->dwfl, f->path, f->path, f->image, size);
    } else {
        f->module = dwfl_report_elf(f->dwfl, f->path, f->path, -1, 0, false);
    }
    dwfl_report_end(f->dwfl, NULL, NULL);
}

static void open_file(pms_elf_file *f)
{
    struct stat st;
    if (!f->vdso && stat(f->path, &st) != 0) {
        f->error = strdup(strerror(errno));
        return;
    }
    if (!f->vdso && !S_ISREG(st.st_mode)) { /* a FIFO or device would block or never end */
        f->error = strdup("not a regular file");
        return;
    }
    report_module(f);
    if (!f->module) {
        const char *why = dwfl_errmsg(-1);
        f->error = strdup(why ? why : "cannot open");
        return;
    }
    if (load_segments(f)) {
        f->error = strdup("no loadable segments");
        return;
    }
    f->ok = 1;
}

static pms_elf_file *cache_get(pms_elf_cache *c, const char *path, int vdso)
{
    pms_elf_file *f = NULL;
    for (size_t i = 0; i < c->n && !f; i++)
        if (c->files[i]->vdso == vdso && strcmp(c->files[i]->path, path) == 0) f = c->files[i];
    if (!f) {
        if (pms__grow(&c->files, &c->cap, c->n + 1, sizeof *c->files))
            return pms__fail(PMS_ENOMEM, "out of memory"), NULL;
        f = calloc(1, sizeof *f);
        if (!f || !(f->path = strdup(path))) {
            free(f);
            return pms__fail(PMS_ENOMEM, "out of memory"), NULL;
        }
        c->files[c->n++] = f;
        f->vdso = vdso;
        open_file(f);
    }
    if (!f->ok) {
        pms__fail(PMS_EFORMAT, "%s: cannot read as ELF: %s", path, f->error ? f->error : "unknown error");
        return NULL;
    }
    return f;
}

pms_elf_file *pms__elf_cache_get(pms_elf_cache *c, const char *path) { return cache_get(c, path, 0); }

pms_elf_file *pms__elf_cache_get_vdso(pms_elf_cache *c) { return cache_get(c, "[vdso]", 1); }

int pms__elf_offset_to_address(const pms_elf_file *f, uint64_t offset, uint64_t *address)
{
    for (size_t i = 0; i < f->nsegments; i++) {
        const struct segment *s = &f->segments[i];
        if (offset >= s->offset && offset - s->offset < s->filesz) {
            *address = offset - s->offset + s->vaddr;
            return PMS_OK;
        }
    }
    return pms__fail(PMS_ENOENT, "%s: file offset 0x%llx is in no loadable segment", f->path,
                    (unsigned long long)offset);
}

int pms__elf_address_to_offset(const pms_elf_file *f, uint64_t address, uint64_t *offset)
{
    for (size_t i = 0; i < f->nsegments; i++) {
        const struct segment *s = &f->segments[i];
        if (address >= s->vaddr && address - s->vaddr < s->memsz) {
            *offset = address - s->vaddr + s->offset;
            return PMS_OK;
        }
    }
    return pms__fail(PMS_ENOENT, "%s: address 0x%llx is in no loadable segment", f->path,
                    (unsigned long long)address);
}

const char *pms__elf_symbol_at(pms_elf_file *f, uint64_t address, uint64_t *symbol_address)
{
    if (!f->symbols_loaded) f->symbols_loaded = pms__elf_symbols_load(f->module, &f->symbols) == PMS_OK ? 1 : -1;
    const struct pms__sym *s = f->symbols_loaded > 0 ? pms__symtab_find(&f->symbols, address) : NULL;
    if (!s) return NULL;
    *symbol_address = s->start;
    return s->name;
}

int pms__elf_source_line(pms_elf_file *f, uint64_t address, const char **file, int *line)
{
    Dwfl_Line *l = dwfl_module_getsrc(f->module, address + f->bias);
    int lineno = 0;
    const char *name = l ? dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (!name) return PMS_ENOENT;
    *file = name;
    *line = lineno;
    return PMS_OK;
}
