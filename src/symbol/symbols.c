/* The address map of a recording: executable mappings per process from MMAP/MMAP2
 * records, parents from FORK records, and ELF symbols through symbol/elf_file.c. */
#include "pmuscope/symbols.h"
#include "symbol/build_id.h"
#include "symbol/elf_file.h"
#include "symbol/kallsyms.h"
#include "symbol/offsets_only.h"
#include "symbol/perf_map.h"
#include "symbol/symbols_map.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_PARENT UINT64_MAX
#define KERNEL_PID UINT32_MAX /* perf's pid -1: the kernel's and its modules' mappings */

/* One object each, so that tables can tell binaries apart by the string's address. */
static const char unknown_bucket[] = PMS_BINARY_UNKNOWN, vmlinux_name[] = "[kernel.vmlinux]";
#define MAX_FORK_DEPTH 32

struct map {
    uint64_t start, end, pgoff, time;
    size_t name; /* index in names */
};

struct process {
    uint64_t parent;    /* index in procs, or NO_PARENT */
    uint64_t fork_time; /* when it was forked from parent (0: unknown) */
    struct map *maps;
    size_t n, cap;
};

/* A binary's build-id as recorded, and what the file on disk has (checked once). */
struct build_id {
    char *filename;
    char recorded[PMS_BUILD_ID_HEX], on_disk[PMS_BUILD_ID_HEX];
    int checked, mismatch;
};

/* A JIT process's functions from /tmp/perf-PID.map (empty when it has none). */
struct jit_symbols {
    uint32_t pid;
    pms__symtab syms;
};

struct pms_symbols {
    pms_keymap pid_index; /* pid -> index in procs */
    struct process *procs;
    size_t nprocs, procs_cap;
    char **names; /* interned file names */
    size_t nnames, names_cap, last_name;
    pms_elf_cache *elf;
    struct build_id *build_ids;
    size_t nbuild_ids, build_ids_cap;
    int vmlinux; /* the kernel was recorded against a vmlinux file: perf names it [kernel.vmlinux] */
    char kernel_build_id[PMS_BUILD_ID_HEX]; /* as recorded ("" if not) */
    char vdso_build_id[PMS_BUILD_ID_HEX];   /* [vdso]'s, as recorded ("" if not) */
    int vdso_state; /* 0: not compared yet, 1: this process's vDSO is the recorded one, -1: not */
    pms__symtab kallsyms;
    pms__kmodules kmodules; /* the loaded modules' symbols, read with kallsyms */
    const char *kcore_kernel; /* "[kernel.kallsyms]" (interned) when module code goes there, as
                               * perf's does when it reads /proc/kcore; NULL when not */
    int kallsyms_state; /* 0: not tried, 1: loaded, -1: not this kernel's or unreadable */
    int offsets_only;   /* pms__symbols_offsets_only: no function names looked up */
    struct jit_symbols *jits; /* perf maps read so far, one per JIT process */
    size_t njits, jits_cap;
    char *symfs;          /* pms_symbols_set_symfs: binaries are read under this directory */
    char disk[PATH_MAX];  /* the last path joined with symfs */
};

int pms_symbols_create(pms_symbols **out)
{
    pms_symbols *s = calloc(1, sizeof *s);
    if (!s || !(s->elf = pms__elf_cache_create())) {
        free(s);
        return pms__fail(PMS_ENOMEM, "out of memory for the symbol map");
    }
    pms__keymap_init(&s->pid_index);
    *out = s;
    return PMS_OK;
}

void pms_symbols_destroy(pms_symbols *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nprocs; i++) free(s->procs[i].maps);
    free(s->procs);
    for (size_t i = 0; i < s->nnames; i++) free(s->names[i]);
    free(s->names);
    for (size_t i = 0; i < s->nbuild_ids; i++) free(s->build_ids[i].filename);
    free(s->build_ids);
    pms__keymap_free(&s->pid_index);
    pms__symtab_free(&s->kallsyms);
    pms__kmodules_free(&s->kmodules);
    for (size_t i = 0; i < s->njits; i++) pms__symtab_free(&s->jits[i].syms);
    free(s->jits);
    pms__elf_cache_destroy(s->elf);
    free(s->symfs);
    free(s);
}

int pms_symbols_set_symfs(pms_symbols *s, const char *dir)
{
    free(s->symfs);
    s->symfs = NULL;
    if (!dir || !dir[0]) return PMS_OK;
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') len--;
    if (len == 1 && dir[0] == '/') return PMS_OK; /* "/" is no change */
    if (!(s->symfs = strndup(dir, len))) return pms__fail(PMS_ENOMEM, "out of memory for the symfs directory");
    return PMS_OK;
}

/* Where a binary recorded at `path` is read: under the symfs directory when one is set (the
 * string lives until the next call). A path too long to join is one that does not exist. */
static const char *on_disk(pms_symbols *s, const char *path)
{
    if (!s->symfs || path[0] != '/') return path;
    int n = snprintf(s->disk, sizeof s->disk, "%s%s", s->symfs, path);
    return n > 0 && (size_t)n < sizeof s->disk ? s->disk : "";
}

static pms_elf_file *elf_of(pms_symbols *s, const char *path) { return pms__elf_cache_get(s->elf, on_disk(s, path)); }

static int process_index(pms_symbols *s, uint32_t pid, int create, size_t *index)
{
    uint64_t *v = create ? pms__keymap_upsert(&s->pid_index, pid, 0, UINT64_MAX) : pms__keymap_find(&s->pid_index, pid, 0);
    if (!v) return create ? pms__fail(PMS_ENOMEM, "out of memory for the symbol map") : PMS_ENOENT;
    if (*v == UINT64_MAX) {
        if (pms__grow(&s->procs, &s->procs_cap, s->nprocs + 1, sizeof *s->procs))
            return pms__fail(PMS_ENOMEM, "out of memory for the symbol map");
        s->procs[s->nprocs] = (struct process){NO_PARENT, 0, NULL, 0, 0};
        *v = s->nprocs++;
    }
    *index = (size_t)*v;
    return PMS_OK;
}

static int intern(pms_symbols *s, const char *name, size_t *index)
{
    if (s->last_name < s->nnames && strcmp(s->names[s->last_name], name) == 0) {
        *index = s->last_name;
        return PMS_OK;
    }
    for (size_t i = 0; i < s->nnames; i++)
        if (strcmp(s->names[i], name) == 0) {
            *index = s->last_name = i;
            return PMS_OK;
        }
    if (pms__grow(&s->names, &s->names_cap, s->nnames + 1, sizeof *s->names) ||
        !(s->names[s->nnames] = strdup(name)))
        return pms__fail(PMS_ENOMEM, "out of memory for the symbol map");
    *index = s->last_name = s->nnames++;
    return PMS_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A kernel module's path (/lib/modules/.../usb-storage.ko[.xz]) -> perf's "[usb_storage]". */
static int module_name(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strstr(base, ".ko");
    if (path[0] != '/' || !dot || (dot[3] && dot[3] != '.') || (size_t)(dot - base) + 3 > cap) return 0;
    size_t n = (size_t)(dot - base);
    out[0] = '[';
    for (size_t i = 0; i < n; i++) out[i + 1] = base[i] == '-' ? '_' : base[i];
    out[n + 1] = ']';
    out[n + 2] = '\0';
    return 1;
}

/* The name a mapping goes by: kernel mappings as perf names them ([kernel.kallsyms] and
 * [module]), anonymous code as perf's "[JIT] tid PID" (whose functions are in
 * /tmp/perf-PID.map), files by their path. */
static const char *map_name(const pms_mmap_event *m, char *buf, size_t cap)
{
    if (m->pid != KERNEL_PID && pms__perf_map_covers(m->filename)) {
        snprintf(buf, cap, PMS__JIT_PREFIX "%u", m->pid);
        return buf;
    }
    if (m->pid != KERNEL_PID) return m->filename;
    if (strncmp(m->filename, "[kernel.kallsyms]", 17) == 0) return PMS_BINARY_KERNEL;
    return module_name(m->filename, buf, cap) ? buf : m->filename;
}

int pms_symbols_add_mmap(pms_symbols *s, const pms_mmap_event *m)
{
    if (!m->executable || !m->filename || m->len == 0 || m->start + m->len < m->start) return PMS_OK;
    size_t p, name;
    char module[256];
    int rc = process_index(s, m->pid, 1, &p);
    if (!rc) rc = intern(s, map_name(m, module, sizeof module), &name);
    if (rc) return rc;
    struct process *pr = &s->procs[p];
    if (pms__grow(&pr->maps, &pr->cap, pr->n + 1, sizeof *pr->maps))
        return pms__fail(PMS_ENOMEM, "out of memory for the symbol map");
    pr->maps[pr->n++] = (struct map){m->start, m->start + m->len, m->pgoff, m->time, name};
    return PMS_OK;
}

int pms_symbols_add_task(pms_symbols *s, const pms_task_event *t)
{
    if (t->type != PERF_RECORD_FORK || t->pid == t->ppid) return PMS_OK; /* a new thread shares its maps */
    size_t child, parent;
    int rc = process_index(s, t->pid, 1, &child);
    if (!rc) rc = process_index(s, t->ppid, 1, &parent);
    if (rc) return rc;
    if (child != parent) {
        s->procs[child].parent = parent;
        s->procs[child].fork_time = t->time;
    }
    return PMS_OK;
}

/* The mapping of `ip` in effect at `time`: the latest one made at or before it, else the
 * earliest (records of different CPUs are not strictly ordered in a file). A child
 * inherits the mappings its parent had when it forked, so the parent is searched at the
 * fork's time, not the sample's: what the parent maps later is not the child's. */
static const struct map *find_map(const pms_symbols *s, size_t p, uint64_t ip, uint64_t time)
{
    for (int depth = 0; depth < MAX_FORK_DEPTH; depth++) {
        const struct process *pr = &s->procs[p];
        const struct map *before = NULL, *after = NULL;
        for (size_t i = 0; i < pr->n; i++) {
            const struct map *m = &pr->maps[i];
            if (ip < m->start || ip >= m->end) continue;
            if (!time || m->time <= time) {
                if (!before || m->time >= before->time) before = m;
            } else if (!after || m->time < after->time) {
                after = m;
            }
        }
        if (before || after) return before ? before : after;
        if (pr->parent == NO_PARENT) return NULL;
        if (pr->fork_time && (!time || pr->fork_time < time)) time = pr->fork_time;
        p = (size_t)pr->parent;
    }
    return NULL;
}

int pms_symbols_add_build_id(pms_symbols *s, const pms_perfdata_build_id *b)
{
    if (b->cpumode == PERF_RECORD_MISC_KERNEL && b->filename[0] == '/' && !ends_with(b->filename, ".ko") &&
        !strstr(b->filename, ".ko."))
        s->vmlinux = 1;
    if (b->cpumode == PERF_RECORD_MISC_KERNEL && strncmp(b->filename, "[kernel.kallsyms]", 17) == 0)
        snprintf(s->kernel_build_id, sizeof s->kernel_build_id, "%s", b->hex);
    if (strcmp(b->filename, "[vdso]") == 0) {
        snprintf(s->vdso_build_id, sizeof s->vdso_build_id, "%s", b->hex);
        s->vdso_state = 0;
    }
    if (b->filename[0] != '/' || !b->hex[0]) return PMS_OK;
    if (pms__grow(&s->build_ids, &s->build_ids_cap, s->nbuild_ids + 1, sizeof *s->build_ids))
        return pms__fail(PMS_ENOMEM, "out of memory for build-ids");
    struct build_id *id = &s->build_ids[s->nbuild_ids];
    *id = (struct build_id){0};
    if (!(id->filename = strdup(b->filename))) return pms__fail(PMS_ENOMEM, "out of memory for build-ids");
    snprintf(id->recorded, sizeof id->recorded, "%s", b->hex);
    s->nbuild_ids++;
    return PMS_OK;
}

/* Whether the file at `path` is the build the recording saw (true when nothing was recorded
 * for it or it has no build-id to compare). */
static int same_build(pms_symbols *s, const char *path)
{
    for (size_t i = 0; i < s->nbuild_ids; i++) {
        struct build_id *id = &s->build_ids[i];
        if (strcmp(id->filename, path) != 0) continue;
        if (!id->checked) {
            id->checked = 1;
            if (pms__elf_build_id(on_disk(s, path), id->on_disk) == PMS_OK && id->on_disk[0])
                id->mismatch = strcmp(id->on_disk, id->recorded) != 0;
        }
        return !id->mismatch;
    }
    return 1;
}

size_t pms_symbols_build_id_mismatches(const pms_symbols *s, size_t i, const char **path, const char **recorded,
                                        const char **on_disk)
{
    size_t n = 0;
    for (size_t k = 0; k < s->nbuild_ids; k++) {
        const struct build_id *id = &s->build_ids[k];
        if (!id->mismatch) continue;
        if (n++ == i && path) {
            *path = id->filename;
            *recorded = id->recorded;
            *on_disk = id->on_disk;
        }
    }
    return n;
}

/* This process's vDSO when it is the one recorded, as perf reads its own for [vdso]: the
 * recorded build-id is this vDSO's, or none was recorded. Another kernel's vDSO keeps its
 * addresses. */
static pms_elf_file *vdso_of(pms_symbols *s)
{
    if (!s->vdso_state) {
        char running[PMS_BUILD_ID_HEX];
        s->vdso_state = !s->vdso_build_id[0] ||
                (pms__vdso_build_id(running) == PMS_OK && strcmp(running, s->vdso_build_id) == 0) ? 1 : -1;
    }
    return s->vdso_state > 0 ? pms__elf_cache_get_vdso(s->elf) : NULL;
}

static void fill_symbol(pms_symbols *s, pms_symbol_info *out)
{
    const char *b = out->binary;
    pms_elf_file *f;
    if (strcmp(b, "[vdso]") == 0) f = vdso_of(s);
    else if (b[0] == '[' || strncmp(b, "//anon", 6) == 0 || strncmp(b, "/memfd:", 7) == 0) return;
    else if (!same_build(s, b)) return; /* another build's symbols would be wrong ones */
    else f = elf_of(s, b);
    uint64_t address;
    if (!f || pms__elf_offset_to_address(f, out->file_offset, &address)) return;
    out->symbol = pms__elf_symbol_at(f, address, &out->symbol_address);
    if (out->symbol) out->symbol_offset = address - out->symbol_address;
}

/* The running kernel's symbols, and its modules' in s->kmodules, when the recording is of
 * this kernel (as perf decides: its recorded build-id is this kernel's, or none was
 * recorded). */
static const pms__symtab *kernel_symbols(pms_symbols *s)
{
    if (!s->kallsyms_state) {
        char running[PMS_BUILD_ID_HEX];
        s->kallsyms_state = -1;
        if (s->kernel_build_id[0] &&
            (pms__kernel_build_id("/sys/kernel/notes", running) || strcmp(running, s->kernel_build_id) != 0))
            return NULL;
        if (pms__kallsyms_load("/proc/kallsyms", &s->kallsyms, &s->kmodules) == PMS_OK) {
            s->kallsyms_state = 1;
            /* perf report, where it may read /proc/kcore (root), takes the kernel's and the
             * modules' code from there as one [kernel.kallsyms] */
            size_t name;
            if (access("/proc/kcore", R_OK) == 0 && intern(s, PMS_BINARY_KERNEL, &name) == PMS_OK)
                s->kcore_kernel = s->names[name];
        } else {
            pms__symtab_free(&s->kallsyms);
            pms__kmodules_free(&s->kmodules);
        }
    }
    return s->kallsyms_state > 0 ? &s->kallsyms : NULL;
}

/* A kernel sample's function from kallsyms: the kernel's own, or a module's ("[wp512]", by
 * the module's symbols there, as perf splits them off when it reads kallsyms; in
 * [kernel.kallsyms] where perf would read /proc/kcore). Kernel addresses are their own
 * "file offsets". */
static void fill_kernel_symbol(pms_symbols *s, pms_symbol_info *out, uint64_t ip)
{
    out->file_offset = ip;
    int kernel = strcmp(out->binary, PMS_BINARY_KERNEL) == 0 || out->binary == vmlinux_name;
    const pms__symtab *t = kernel_symbols(s);
    if (t && !kernel) t = out->binary[0] == '[' ? pms__kmodules_find(&s->kmodules, out->binary) : NULL;
    const struct pms__sym *sym = t ? pms__symtab_find(t, ip) : NULL;
    if (t && !kernel && s->kcore_kernel) out->binary = s->kcore_kernel;
    if (!sym) return;
    out->symbol = sym->name;
    out->symbol_address = sym->start;
    out->symbol_offset = ip - sym->start;
}

/* The functions of JIT process pid from its perf map, read at the first lookup. */
static const pms__symtab *jit_symbols(pms_symbols *s, uint32_t pid)
{
    for (size_t i = 0; i < s->njits; i++)
        if (s->jits[i].pid == pid) return &s->jits[i].syms;
    if (pms__grow(&s->jits, &s->jits_cap, s->njits + 1, sizeof *s->jits)) return NULL;
    struct jit_symbols *j = &s->jits[s->njits++];
    *j = (struct jit_symbols){pid, {0}};
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%u.map", pid);
    if (pms__perf_map_load(path, &j->syms) != PMS_OK) pms__symtab_free(&j->syms); /* none: addresses, as perf */
    return &j->syms;
}

/* A sample in anonymous code ("[JIT] tid PID"): its function from the process's perf map,
 * by run-time address as perf looks it up there. */
static void fill_jit_symbol(pms_symbols *s, pms_symbol_info *out, uint64_t ip)
{
    char *end;
    unsigned long pid = strtoul(out->binary + strlen(PMS__JIT_PREFIX), &end, 10);
    const pms__symtab *t = *end ? NULL : jit_symbols(s, (uint32_t)pid);
    const struct pms__sym *sym = t ? pms__symtab_find(t, ip) : NULL;
    if (!sym) return;
    out->symbol = sym->name;
    out->symbol_address = sym->start;
    out->symbol_offset = ip - sym->start;
}

static const struct map *map_of(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, int kernel)
{
    size_t p;
    return process_index(s, kernel ? KERNEL_PID : pid, 0, &p) ? NULL : find_map(s, p, ip, time);
}

int pms__symbols_user_map(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, uint64_t *start,
                          uint64_t *pgoff, const char **path)
{
    const struct map *m = map_of(s, pid, ip, time, 0);
    if (!m) return PMS_ENOENT;
    const char *name = s->names[m->name];
    int vdso = strcmp(name, "[vdso]") == 0;
    if (vdso ? !vdso_of(s) : name[0] != '/') return PMS_ENOENT;
    *start = m->start;
    *pgoff = m->pgoff;
    *path = vdso ? name : on_disk(s, name);
    return PMS_OK;
}

const char *pms_symbols_binary(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, int kernel)
{
    const struct map *m = map_of(s, pid, ip, time, kernel);
    return m ? s->names[m->name] : NULL;
}

void pms_symbols_resolve(pms_symbols *s, uint32_t pid, uint64_t ip, uint64_t time, int kernel, pms_symbol_info *out)
{
    *out = (pms_symbol_info){unknown_bucket, ip, NULL, 0, 0, 0};
    const struct map *m = map_of(s, pid, ip, time, kernel);
    if (!m) return; /* perf too puts kernel samples outside the kernel's maps in [unknown] */
    out->binary = s->names[m->name];
    out->map_start = m->start;
    out->map_end = m->end;
    out->map_pgoff = m->pgoff;
    if (kernel) { /* named, not symbolised: file offsets mean nothing there */
        if (s->vmlinux && strcmp(out->binary, PMS_BINARY_KERNEL) == 0) out->binary = vmlinux_name;
        out->mapped = 1;
        if (!s->offsets_only) fill_kernel_symbol(s, out, ip);
        return;
    }
    out->mapped = 1;
    if (strncmp(out->binary, PMS__JIT_PREFIX, strlen(PMS__JIT_PREFIX)) == 0) { /* perf maps its addresses as they are */
        out->file_offset = ip;
        if (!s->offsets_only) fill_jit_symbol(s, out, ip);
        return;
    }
    out->file_offset = ip - m->start + m->pgoff;
    if (!s->offsets_only) fill_symbol(s, out);
}

void pms__symbols_offsets_only(pms_symbols *s) { s->offsets_only = 1; }

int pms_symbols_lookup_file(pms_symbols *s, const char *binary, uint64_t file_offset, pms_symbol_info *out)
{
    *out = (pms_symbol_info){binary, file_offset, NULL, 0, 0, 1};
    pms_elf_file *f = elf_of(s, binary);
    if (!f) return access(on_disk(s, binary), R_OK) == 0 ? PMS_EFORMAT : PMS_ENOENT;
    size_t name;
    int rc = intern(s, binary, &name); /* the info's strings live as long as the map */
    if (rc) return rc;
    out->binary = s->names[name];
    fill_symbol(s, out);
    return PMS_OK;
}

int pms_symbols_source_line(pms_symbols *s, const char *binary, uint64_t file_offset, const char **file, int *line)
{
    *file = NULL;
    *line = 0;
    if (binary[0] != '/' || !same_build(s, binary)) return PMS_ENOENT;
    pms_elf_file *f = elf_of(s, binary);
    uint64_t address;
    if (!f || pms__elf_offset_to_address(f, file_offset, &address)) return PMS_ENOENT;
    return pms__elf_source_line(f, address, file, line);
}

const char *pms_symbols_build_id(pms_symbols *s, const char *binary)
{
    for (size_t i = 0; i < s->nbuild_ids; i++)
        if (strcmp(s->build_ids[i].filename, binary) == 0) return s->build_ids[i].recorded;
    if (binary[0] != '/') return "";
    /* Kept in the build-id list (as not recorded), so that the string lives with the map. */
    if (pms__grow(&s->build_ids, &s->build_ids_cap, s->nbuild_ids + 1, sizeof *s->build_ids)) return "";
    struct build_id *id = &s->build_ids[s->nbuild_ids];
    *id = (struct build_id){0};
    if (!(id->filename = strdup(binary))) return "";
    s->nbuild_ids++;
    if (pms__elf_build_id(on_disk(s, binary), id->recorded) != PMS_OK) id->recorded[0] = 0;
    id->checked = 1; /* recorded is what is on disk: nothing to compare */
    return id->recorded;
}

int pms_symbols_offset_to_address(pms_symbols *s, const char *binary, uint64_t file_offset, uint64_t *address)
{
    pms_elf_file *f = elf_of(s, binary);
    return f ? pms__elf_offset_to_address(f, file_offset, address) : PMS_EFORMAT;
}

int pms_symbols_address_to_offset(pms_symbols *s, const char *binary, uint64_t address, uint64_t *file_offset)
{
    pms_elf_file *f = elf_of(s, binary);
    return f ? pms__elf_address_to_offset(f, address, file_offset) : PMS_EFORMAT;
}
