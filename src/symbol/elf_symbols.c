/* One binary's symbol table as perf 6.1 loads it (tools/perf/util/symbol-elf.c,
 * dso__load_sym and dso__synthesize_plt_symbols): functions, objects and text labels of
 * the best symbol table libdwfl finds (.symtab of the file or of its separate debuginfo,
 * else .dynsym), demangled, plus one `name@plt` symbol per PLT entry. */
#include "symbol/elf_symbols.h"
#include "util/error.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

static const char *section_name(Elf *elf, GElf_Word shndx, GElf_Shdr *shdr)
{
    size_t strndx;
    Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
    if (!scn || !gelf_getshdr(scn, shdr) || elf_getshdrstrndx(elf, &strndx) != 0) return NULL;
    return elf_strptr(elf, strndx, shdr->sh_name);
}

/* ARM's $a, $d, $t, $x mapping symbols mark code and data, they name nothing. */
static int arm_mapping_symbol(const char *name)
{
    return name[0] == '$' && strchr("adtx", name[1]) && name[1] && (name[2] == '\0' || name[2] == '.');
}

static int keep(const GElf_Sym *sym, const char *name, Elf *elf, GElf_Word shndx, int arm)
{
    int type = GELF_ST_TYPE(sym->st_info);
    /* An absolute symbol is a value, not a place in the file: libgcc_s's version nodes
     * (GCC_4.7.0, an OBJECT at 0) would otherwise name its first pages, which perf leaves
     * as addresses. */
    if (!name || !name[0] || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS) return 0;
    if (arm && arm_mapping_symbol(name)) return 0;
    if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT) return 1;
    if (type != STT_NOTYPE) return 0;
    int vis = GELF_ST_VISIBILITY(sym->st_other);
    if (vis == STV_HIDDEN || vis == STV_INTERNAL) return 0;
    GElf_Shdr shdr;
    const char *sec = section_name(elf, shndx, &shdr);
    return sec && strstr(sec, "text"); /* labels only in code */
}

static int add_named(pms__symtab *t, uint64_t start, uint64_t size, int binding, const char *name, const char *suffix)
{
    char *demangled = pms__demangle(name);
    const char *base = demangled ? demangled : name;
    int rc;
    if (suffix) {
        size_t n = strlen(base) + strlen(suffix) + 1;
        char *full = malloc(n);
        if (!full) {
            free(demangled);
            return pms__fail(PMS_ENOMEM, "out of memory for symbols");
        }
        snprintf(full, n, "%s%s", base, suffix);
        rc = pms__symtab_add(t, start, size, binding, full);
        free(full);
    } else {
        rc = pms__symtab_add(t, start, size, binding, base);
    }
    free(demangled);
    return rc;
}

static Elf_Scn *section_by_name(Elf *elf, const char *want, GElf_Shdr *shdr, size_t *index)
{
    size_t strndx;
    if (elf_getshdrstrndx(elf, &strndx) != 0) return NULL;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        const char *name = gelf_getshdr(scn, shdr) ? elf_strptr(elf, strndx, shdr->sh_name) : NULL;
        if (name && strcmp(name, want) == 0) {
            if (index) *index = elf_ndxscn(scn);
            return scn;
        }
    }
    return NULL;
}

/* perf's PLT entries: after a header of one entry (x86: .plt's sh_entsize; ARM and
 * AArch64: fixed sizes), one entry per .rela.plt (or .rel.plt) relocation in order, named
 * after the relocation's dynamic symbol. An x86 binary linked for IBT (-z ibtplt, CET:
 * gcc -fcf-protection) calls through .plt.sec instead, one entry per relocation from its
 * start, while .plt keeps the lazy-binding stubs: the names go to .plt.sec then, as newer
 * perf (6.4 on) and objdump -d give them. */
static int add_plt(pms__symtab *t, Elf *elf)
{
    GElf_Ehdr eh;
    GElf_Shdr plt, rel, dynsym;
    Elf_Scn *rel_scn = section_by_name(elf, ".rela.plt", &rel, NULL);
    if (!rel_scn) rel_scn = section_by_name(elf, ".rel.plt", &rel, NULL);
    if (!gelf_getehdr(elf, &eh) || !rel_scn || !section_by_name(elf, ".plt", &plt, NULL) || !rel.sh_entsize ||
        (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL))
        return PMS_OK;
    Elf_Scn *sym_scn = elf_getscn(elf, rel.sh_link);
    Elf_Data *rel_data = elf_getdata(rel_scn, NULL), *sym_data = sym_scn ? elf_getdata(sym_scn, NULL) : NULL;
    if (!sym_scn || !gelf_getshdr(sym_scn, &dynsym) || !rel_data || !sym_data) return PMS_OK;
    uint64_t header, entry;
    GElf_Shdr sec;
    switch (eh.e_machine) {
    case EM_ARM: header = 20, entry = 12; break;
    case EM_AARCH64: header = 32, entry = 16; break;
    default: header = entry = plt.sh_entsize; break;
    }
    if ((eh.e_machine == EM_X86_64 || eh.e_machine == EM_386) && section_by_name(elf, ".plt.sec", &sec, NULL) &&
        sec.sh_entsize) {
        plt = sec;
        header = 0;
        entry = sec.sh_entsize;
    }
    if (!entry) return PMS_OK;
    uint64_t at = plt.sh_addr + header;
    size_t n = rel.sh_size / rel.sh_entsize;
    for (size_t i = 0; i < n; i++, at += entry) {
        GElf_Rela rela;
        GElf_Rel r;
        size_t symidx;
        if (rel.sh_type == SHT_RELA) {
            if (!gelf_getrela(rel_data, (int)i, &rela)) break;
            symidx = GELF_R_SYM(rela.r_info);
        } else {
            if (!gelf_getrel(rel_data, (int)i, &r)) break;
            symidx = GELF_R_SYM(r.r_info);
        }
        GElf_Sym sym;
        const char *name = gelf_getsym(sym_data, (int)symidx, &sym) ? elf_strptr(elf, dynsym.sh_link, sym.st_name) : NULL;
        int rc = add_named(t, at, entry, STB_GLOBAL, name ? name : "", "@plt");
        if (rc) return rc;
    }
    return PMS_OK;
}

int pms__elf_symbols_load(Dwfl_Module *module, pms__symtab *t)
{
    GElf_Addr bias;
    Elf *main_elf = dwfl_module_getelf(module, &bias);
    GElf_Ehdr eh;
    int arm = main_elf && gelf_getehdr(main_elf, &eh) && (eh.e_machine == EM_ARM || eh.e_machine == EM_AARCH64);
    int n = dwfl_module_getsymtab(module);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        GElf_Word shndx;
        Elf *elf;
        Dwarf_Addr sbias;
        const char *name = dwfl_module_getsym_info(module, i, &sym, &addr, &shndx, &elf, &sbias);
        if (!keep(&sym, name, elf, shndx, arm)) continue;
        int rc = add_named(t, addr - bias, sym.st_size, GELF_ST_BIND(sym.st_info), name, NULL);
        if (rc) return rc;
    }
    int rc = main_elf ? add_plt(t, main_elf) : PMS_OK;
    if (!rc) pms__symtab_finish(t);
    return rc;
}
