/* /proc/kallsyms and /sys/kernel/notes read the way perf reads them (symbol types T, W,
 * D, B in either case; module symbols, marked "[module]", belong to the modules' maps). */
#include "symbol/kallsyms.h"
#include "util/error.h"
#include "util/grow.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wanted_type(char type)
{
    type = (char)toupper((unsigned char)type);
    return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

/* The table of module `name` ("[wp512]"), made at its first symbol; NULL when out of memory. */
static pms__symtab *module_table(pms__kmodules *m, const char *name)
{
    for (size_t i = m->n; i-- > 0;) /* from the last: lines come module by module */
        if (strcmp(m->v[i].name, name) == 0) return &m->v[i].syms;
    if (pms__grow(&m->v, &m->cap, m->n + 1, sizeof *m->v)) return NULL;
    char *copy = strdup(name);
    if (!copy) return NULL;
    m->v[m->n] = (struct pms__kmodule){copy, {0}};
    return &m->v[m->n++].syms;
}

int pms__kallsyms_load(const char *path, pms__symtab *t, pms__kmodules *modules)
{
    FILE *f = fopen(path, "r");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    char line[1024];
    int rc = PMS_OK, nonzero = 0;
    unsigned long lineno = 0;
    while (rc == PMS_OK && fgets(line, sizeof line, f)) {
        lineno++;
        char type, name[512], module[128];
        uint64_t addr;
        int fields = sscanf(line, "%" SCNx64 " %c %511s %127s", &addr, &type, name, module);
        if (fields < 3) {
            rc = pms__fail(PMS_EFORMAT, "%s:%lu: expected 'ADDRESS TYPE NAME [MODULE]'", path, lineno);
            break;
        }
        if (addr) nonzero = 1;
        if (!wanted_type(type)) continue;
        int binding = isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
        if (fields == 3) {
            rc = pms__symtab_add(t, addr, 0, binding, name);
        } else if (modules && module[0] == '[') { /* a module's symbol */
            pms__symtab *mt = module_table(modules, module);
            rc = mt ? pms__symtab_add(mt, addr, 0, binding, name) : pms__fail(PMS_ENOMEM, "out of memory for symbols");
        }
    }
    fclose(f);
    if (rc == PMS_OK && !nonzero) rc = pms__fail(PMS_EPERM, "%s: every address is 0 (kernel.kptr_restrict)", path);
    if (rc == PMS_OK) pms__symtab_finish(t);
    for (size_t i = 0; rc == PMS_OK && modules && i < modules->n; i++) pms__symtab_finish(&modules->v[i].syms);
    return rc;
}

const pms__symtab *pms__kmodules_find(const pms__kmodules *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->v[i].name, name) == 0) return &m->v[i].syms;
    return NULL;
}

void pms__kmodules_free(pms__kmodules *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->v[i].name);
        pms__symtab_free(&m->v[i].syms);
    }
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* Whether line (one of /proc/kallsyms, its newline kept) names symbol `name`: a cheap test
 * before sscanf, on a file of some 100,000 lines. */
static int names(const char *line, const char *name)
{
    size_t n = strlen(line), k = strlen(name);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
    return n > k && line[n - k - 1] == ' ' && memcmp(line + n - k, name, k) == 0;
}

/* The running kernel's text range does not change while a process lives, and the kernel
 * formats all of /proc/kallsyms to reach _etext near its end (about 0.1 s of CPU here): read
 * it once per process (a sweep records once per period). Each value is written alone, and
 * every writer writes the same ones, so a reader sees either 0 or the right value in each. */
static _Atomic uint64_t text_start, text_end;
static _Atomic int text_from_stext; /* _text was not listed: the range starts at _stext */

int pms__kernel_text(uint64_t *start, uint64_t *end, const char **ref)
{
    *start = atomic_load(&text_start);
    *end = atomic_load(&text_end);
    *ref = atomic_load(&text_from_stext) ? "_stext" : "_text";
    if (*start && *end > *start) return PMS_OK;
    FILE *f = fopen("/proc/kallsyms", "r");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open /proc/kallsyms");
    char line[1024], name[512], type;
    uint64_t addr, text = 0, stext = 0;
    *end = 0;
    while ((!text || !*end) && fgets(line, sizeof line, f))
        if ((names(line, "_text") || names(line, "_stext") || names(line, "_etext")) &&
            sscanf(line, "%" SCNx64 " %c %511s", &addr, &type, name) == 3) {
            if (strcmp(name, "_text") == 0) text = addr;
            if (strcmp(name, "_stext") == 0) stext = addr;
            if (strcmp(name, "_etext") == 0) *end = addr;
        }
    fclose(f);
    /* perf's order (ref_reloc_sym_names): _text, else _stext, which is all that kallsyms
     * lists of the two without CONFIG_KALLSYMS_ALL on arm64 */
    *start = text ? text : stext;
    *ref = text ? "_text" : "_stext";
    if (!*start || *end <= *start) return pms__fail(PMS_ENOENT, "/proc/kallsyms: no _text (or _stext) and _etext addresses");
    atomic_store(&text_from_stext, !text);
    atomic_store(&text_start, *start);
    atomic_store(&text_end, *end);
    return PMS_OK;
}

int pms__kernel_build_id(const char *notes_path, char hex[PMS_BUILD_ID_HEX])
{
    hex[0] = '\0';
    FILE *f = fopen(notes_path, "rb");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", notes_path);
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f), at = 0;
    fclose(f);
    static const char digits[] = "0123456789abcdef";
    while (at + sizeof(Elf64_Nhdr) <= n) { /* 4-byte aligned notes: namesz, descsz, type */
        const Elf64_Nhdr *h = (const void *)(buf + at);
        size_t name = (h->n_namesz + 3u) & ~3u, desc = (h->n_descsz + 3u) & ~3u;
        size_t body = at + sizeof *h;
        if (body + name + desc > n) break;
        if (h->n_type == NT_GNU_BUILD_ID && h->n_namesz == 4 && memcmp(buf + body, "GNU", 4) == 0 &&
            h->n_descsz * 2 < PMS_BUILD_ID_HEX) {
            for (size_t i = 0; i < h->n_descsz; i++) {
                hex[2 * i] = digits[buf[body + name + i] >> 4];
                hex[2 * i + 1] = digits[buf[body + name + i] & 15];
            }
            hex[2 * h->n_descsz] = '\0';
            return PMS_OK;
        }
        at = body + name + desc;
    }
    return PMS_OK;
}
