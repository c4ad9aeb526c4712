/* The ground truth of a run: exact instruction and basic block counts from valgrind,
 * keyed by (object, file offset). */
#include "symbol/build_id.h"
#include "hotspot/truth_blocks.h"
#include "hotspot/truth_files.h"
#include "hotspot/truth_run.h"
#include "io/text_lines.h"
#include "pmuscope/bbv.h"
#include "pmuscope/callgrind.h"
#include "pmuscope/hotspot.h"
#include "pmuscope/symbols.h"
#include "hotspot/truth_stubs.h"
#include "util/error.h"
#include "util/grow.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file that ran (DIR/objects), with the build-id it had then. */
typedef struct truth_file {
    char *path;
    char build_id[PMS_BUILD_ID_HEX];
} truth_file;

/* A truth object: a file as one process image ran it (a program and its children by fork,
 * named as the kernel names the process: the program's file name, at most 15 bytes). */
typedef struct truth_object {
    uint32_t file;  /* index into files */
    uint32_t image; /* index into images */
} truth_object;

typedef struct truth_instr {
    uint32_t object;
    const char *function; /* from the callgrind profile that ran it */
    uint64_t offset, count;
} truth_instr;

typedef struct truth_block {
    uint32_t object;
    uint64_t offset, count;
} truth_block;

/* One callgrind profile (a process, or one part of one) and where its objects went. */
typedef struct truth_profile {
    pms_callgrind *cg;
    long *obj;            /* callgrind object -> truth object, -1 if none */
    uint64_t *stub_bias;  /* per truth object (the first nbias): its load bias under valgrind ... */
    int *stub_known;      /* ... where known */
    size_t nbias;
} truth_profile;

struct pms_hotspot_truth {
    truth_file *files;
    size_t nfiles, files_cap;
    char **images;           /* process names */
    size_t nimages, images_cap;
    truth_object *objects;
    size_t nobjects, objects_cap;
    truth_profile *profiles; /* profiles[0] is the command's own process (callgrind.out) */
    size_t nprofiles;
    size_t nprocesses;       /* distinct process ids among the profiles */
    truth_instr *instrs; /* sorted by (object, offset) */
    size_t ninstrs;
    truth_block *blocks; /* sorted by (object, offset) */
    size_t nblocks;
    uint64_t *block_counts;
    uint64_t ni, unmapped_instructions;
    size_t unmapped_blocks;
    int branches;           /* callgrind recorded branches: blocks are basic blocks */
    pms_truth_run run;      /* the command (argc 0 in a truth of an older pmuscope) */
    pms_symbols *symbols;   /* ELF addresses <-> file offsets */
};

static int cmp_key(uint32_t ao, uint64_t aoff, uint32_t bo, uint64_t boff)
{
    if (ao != bo)
        return ao < bo ? -1 : 1;
    return aoff < boff ? -1 : aoff > boff ? 1 : 0;
}

static int cmp_instr(const void *a, const void *b)
{
    const truth_instr *x = a, *y = b;
    return cmp_key(x->object, x->offset, y->object, y->offset);
}

static int cmp_block(const void *a, const void *b)
{
    const truth_block *x = a, *y = b;
    return cmp_key(x->object, x->offset, y->object, y->offset);
}

/* Reads DIR/objects and checks every file is still the file valgrind ran. */
static int load_manifest(pms_hotspot_truth *t, const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/objects", dir);
    pms_lines r;
    int rc = pms__lines_open(&r, path, 0);
    if (rc)
        return pms__fail_context(rc, "%s is not a truth directory", dir);
    char *line;
    size_t len;
    while (rc == PMS_OK && (rc = pms__lines_next(&r, &line, &len)) == 1) {
        rc = PMS_OK;
        size_t lineno = r.line;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *space = strchr(line, ' ');
        if (!space || space - line >= PMS_BUILD_ID_HEX || space[1] != '/') {
            rc = pms__fail(PMS_EFORMAT, "%s: line %zu: expected \"BUILD-ID /path\"", path, lineno);
            break;
        }
        *space = '\0';
        if (pms__grow(&t->files, &t->files_cap, t->nfiles + 1, sizeof *t->files) ||
            !(t->files[t->nfiles].path = strdup(space + 1))) {
            rc = pms__fail(PMS_ENOMEM, "%s: out of memory", path);
            break;
        }
        truth_file *o = &t->files[t->nfiles++];
        snprintf(o->build_id, sizeof o->build_id, "%s", strcmp(line, "-") == 0 ? "" : line);
        char now[PMS_BUILD_ID_HEX];
        rc = pms__elf_build_id(o->path, now);
        if (rc == PMS_OK && strcmp(now, o->build_id) != 0)
            rc = pms__fail(PMS_EINVAL, "%s has been rebuilt since the truth in %s was recorded (build-id %s, was %s): "
                          "record the truth again", o->path, dir, now[0] ? now : "none",
                          o->build_id[0] ? o->build_id : "none");
    }
    pms__lines_close(&r);
    if (rc == PMS_OK && t->nfiles == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: lists no object", path);
    return rc;
}

static long file_by_path(const pms_hotspot_truth *t, const char *path)
{
    for (size_t i = 0; i < t->nfiles; i++)
        if (strcmp(t->files[i].path, path) == 0)
            return (long)i;
    return -1;
}

static const char *object_path(const pms_hotspot_truth *t, size_t o) { return t->files[t->objects[o].file].path; }

/* The process name of a profile's command ("/usr/bin/gzip -9 -c" -> "gzip"), as the kernel
 * names a process: the file name it ran, cut to 15 bytes. */
static void process_name(const char *command, char out[16])
{
    size_t len = strcspn(command, " \t");
    const char *base = command;
    for (size_t i = 0; i < len; i++)
        if (command[i] == '/') base = command + i + 1;
    len -= (size_t)(base - command);
    snprintf(out, 16, "%.*s", (int)(len < 15 ? len : 15), len ? base : "?");
}

static long image_index(pms_hotspot_truth *t, const char *command)
{
    char name[16];
    process_name(command, name);
    for (size_t i = 0; i < t->nimages; i++)
        if (!strcmp(t->images[i], name)) return (long)i;
    if (pms__grow(&t->images, &t->images_cap, t->nimages + 1, sizeof *t->images) ||
        !(t->images[t->nimages] = strdup(name)))
        return -1;
    return (long)t->nimages++;
}

/* The truth object of (image, file), added if new; -1 on a lack of memory. */
static long object_of(pms_hotspot_truth *t, size_t image, size_t file)
{
    for (size_t i = 0; i < t->nobjects; i++)
        if (t->objects[i].image == image && t->objects[i].file == file) return (long)i;
    if (pms__grow(&t->objects, &t->objects_cap, t->nobjects + 1, sizeof *t->objects)) return -1;
    t->objects[t->nobjects] = (truth_object){(uint32_t)file, (uint32_t)image};
    return (long)t->nobjects++;
}

/* Places address addr of callgrind's object cg_object in a truth object (its index, the
 * file offset in *off; -1 if none): in its own object, or for code that callgrind puts in
 * no object ("???": PLT stubs, .init, .fini, at run-time addresses) in the object whose
 * load bias under valgrind puts it there (truth_stubs.h). */
static long place(const pms_hotspot_truth *t, const truth_profile *p, uint32_t cg_object, uint64_t addr, uint64_t *off)
{
    long o = p->obj[cg_object];
    if (o >= 0)
        return pms_symbols_address_to_offset(t->symbols, object_path(t, (size_t)o), addr, off) < 0 ? -1 : o;
    if (!p->stub_known || strcmp(pms_callgrind_object(p->cg, cg_object), "???") != 0)
        return -1;
    for (size_t k = 0; k < p->nbias; k++)
        if (p->stub_known[k] &&
            pms_symbols_address_to_offset(t->symbols, object_path(t, k), addr - p->stub_bias[k], off) == 0)
            return (long)k;
    return -1;
}

/* A profile's objects as truth objects of its process image, and their load biases under
 * valgrind from its calls into "???". */
static int map_objects(pms_hotspot_truth *t, truth_profile *p)
{
    size_t ncg = pms_callgrind_nobjects(p->cg);
    long image = image_index(t, pms_callgrind_command(p->cg));
    if (image < 0 || !(p->obj = calloc(ncg + 1, sizeof *p->obj)))
        return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < ncg; i++) {
        long f = file_by_path(t, pms_callgrind_object(p->cg, i));
        p->obj[i] = f < 0 ? -1 : object_of(t, (size_t)image, (size_t)f);
        if (f >= 0 && p->obj[i] < 0) return pms__fail(PMS_ENOMEM, "out of memory");
    }
    p->nbias = t->nobjects;
    const char **paths = malloc((p->nbias + 1) * sizeof *paths);
    p->stub_bias = malloc((p->nbias + 1) * sizeof *p->stub_bias);
    p->stub_known = malloc((p->nbias + 1) * sizeof *p->stub_known);
    if (!paths || !p->stub_bias || !p->stub_known) {
        free(paths);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < p->nbias; k++)
        paths[k] = object_path(t, k);
    int rc = pms__truth_stub_biases(p->cg, p->obj, paths, p->nbias, t->symbols, p->stub_bias, p->stub_known);
    free(paths);
    return rc < 0 ? rc : PMS_OK;
}

/* One profile's instructions, placed (callgrind's addresses are link-time addresses of
 * each object: mapped to file offsets), appended to t->instrs. */
static int place_instructions(pms_hotspot_truth *t, const truth_profile *p, size_t *cap)
{
    size_t n;
    const pms_cg_instr *in = pms_callgrind_instrs(p->cg, &n);
    if (pms__grow(&t->instrs, cap, t->ninstrs + n + 1, sizeof *t->instrs))
        return pms__fail(PMS_ENOMEM, "out of memory for %zu instructions", t->ninstrs + n);
    t->ni += pms_callgrind_total(p->cg);
    for (size_t i = 0; i < n; i++) {
        uint64_t off;
        long o = place(t, p, in[i].object, in[i].addr, &off);
        if (o < 0) {
            t->unmapped_instructions += in[i].count;
            continue;
        }
        t->instrs[t->ninstrs++] =
            (truth_instr){(uint32_t)o, pms_callgrind_function(p->cg, in[i].function), off, in[i].count};
    }
    return PMS_OK;
}

/* Sorted by place; an instruction in several profiles of one process image (the parts of a
 * process, or processes forked from one) counts their sum. */
static void merge_instructions(pms_hotspot_truth *t)
{
    qsort(t->instrs, t->ninstrs, sizeof *t->instrs, cmp_instr);
    size_t w = 0;
    for (size_t i = 1; i < t->ninstrs; i++) {
        if (cmp_instr(&t->instrs[w], &t->instrs[i]) == 0)
            t->instrs[w].count += t->instrs[i].count;
        else
            t->instrs[++w] = t->instrs[i];
    }
    t->ninstrs = t->ninstrs ? w + 1 : 0;
}

static int cmp_ulong(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

static size_t count_processes(const pms_hotspot_truth *t)
{
    unsigned long *pids = malloc((t->nprofiles + 1) * sizeof *pids);
    if (!pids) return t->nprofiles;
    for (size_t i = 0; i < t->nprofiles; i++)
        pids[i] = pms_callgrind_pid(t->profiles[i].cg);
    qsort(pids, t->nprofiles, sizeof *pids, cmp_ulong);
    size_t n = 0;
    for (size_t i = 0; i < t->nprofiles; i++)
        n += i == 0 || pids[i] != pids[i - 1] || !pids[i];
    free(pids);
    return n;
}

/* Every profile of the directory: the command's own process first. */
static int load_instructions(pms_hotspot_truth *t, const char *dir)
{
    char **names;
    size_t nnames, cap = 0;
    int rc = pms__truth_profiles(dir, &names, &nnames);
    if (rc < 0)
        return rc;
    if (!(t->profiles = calloc(nnames, sizeof *t->profiles)))
        rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < nnames && rc == PMS_OK; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        truth_profile *p = &t->profiles[t->nprofiles];
        if ((rc = pms_callgrind_read(&p->cg, path)) < 0)
            break;
        t->nprofiles++;
        if ((rc = map_objects(t, p)) == PMS_OK)
            rc = place_instructions(t, p, &cap);
    }
    pms__truth_profiles_free(names, nnames);
    if (rc == PMS_OK) {
        merge_instructions(t);
        t->nprocesses = count_processes(t);
    }
    return rc;
}

static const truth_instr *find_instr(const pms_hotspot_truth *t, uint32_t object, uint64_t offset)
{
    size_t lo = 0, hi = t->ninstrs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_key(t->instrs[mid].object, t->instrs[mid].offset, object, offset);
        if (c == 0)
            return &t->instrs[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Branch targets and the instructions after branch sources start blocks, but a
 * conditional branch that was never taken leaves no jcnd= line. Every instruction of a
 * basic block runs as often as the block, so a new block also starts wherever the
 * exact count changes from one executed instruction to the next (and at an object's
 * first executed instruction). */
static int cut_at_count_changes(pms_hotspot_truth *t)
{
    truth_block *cut = malloc((t->nblocks + t->ninstrs) * sizeof *cut);
    if (!cut)
        return pms__fail(PMS_ENOMEM, "out of memory for %zu blocks", t->nblocks + t->ninstrs);
    size_t n = 0, b = 0;
    for (size_t i = 0; i < t->ninstrs; i++) {
        const truth_instr *in = &t->instrs[i];
        while (b < t->nblocks && cmp_key(t->blocks[b].object, t->blocks[b].offset, in->object, in->offset) <= 0)
            cut[n++] = t->blocks[b++]; /* every start is an executed instruction (find_instr) */
        if (n == 0 || cut[n - 1].object != in->object || cut[n - 1].count != in->count)
            cut[n++] = (truth_block){in->object, in->offset, in->count};
    }
    while (b < t->nblocks)
        cut[n++] = t->blocks[b++];
    free(t->blocks);
    t->blocks = cut;
    t->nblocks = n;
    return PMS_OK;
}

/* Places a branch address of a profile's object; -1 if it cannot be placed or is no
 * executed instruction (the target of a branch that ran 0 times in this part). */
static long placed_instr(const pms_hotspot_truth *t, const truth_profile *p, const pms_cg_branch *b)
{
    uint64_t off;
    long o = place(t, p, b->object, b->addr, &off);
    if (o < 0)
        return -1;
    const truth_instr *in = find_instr(t, (uint32_t)o, off);
    return in ? in - t->instrs : -1;
}

/* One profile's block starts from its branches (--collect-jumps=yes): every branch target
 * and the executed instruction after every branch source, in the same object. */
static int add_branch_blocks(pms_hotspot_truth *t, const truth_profile *p, size_t *cap)
{
    size_t ntargets, nsources;
    const pms_cg_branch *targets = pms_callgrind_branch_targets(p->cg, &ntargets);
    const pms_cg_branch *sources = pms_callgrind_branch_sources(p->cg, &nsources);
    t->branches |= pms_callgrind_njumps(p->cg) > 0;
    if (pms__grow(&t->blocks, cap, t->nblocks + ntargets + nsources + 1, sizeof *t->blocks))
        return pms__fail(PMS_ENOMEM, "out of memory for %zu blocks", t->nblocks + ntargets + nsources);
    for (size_t i = 0; i < ntargets; i++) {
        long k = placed_instr(t, p, &targets[i]);
        if (k < 0)
            t->unmapped_blocks++;
        else
            t->blocks[t->nblocks++] = (truth_block){t->instrs[k].object, t->instrs[k].offset, t->instrs[k].count};
    }
    for (size_t i = 0; i < nsources; i++) {
        long k = placed_instr(t, p, &sources[i]);
        if (k >= 0 && (size_t)k + 1 < t->ninstrs && t->instrs[k + 1].object == t->instrs[k].object) {
            const truth_instr *next = &t->instrs[k + 1];
            t->blocks[t->nblocks++] = (truth_block){next->object, next->offset, next->count};
        }
    }
    return PMS_OK;
}

/* The blocks of every profile, then the cuts where counts change (cut_at_count_changes). */
static int load_blocks(pms_hotspot_truth *t)
{
    size_t cap = 0;
    int rc = PMS_OK;
    for (size_t i = 0; i < t->nprofiles && rc == PMS_OK; i++)
        rc = add_branch_blocks(t, &t->profiles[i], &cap);
    if (rc < 0)
        return rc;
    qsort(t->blocks, t->nblocks, sizeof *t->blocks, cmp_block);
    size_t w = 0; /* a start reached by several branches is one block */
    for (size_t i = 1; i < t->nblocks; i++)
        if (cmp_block(&t->blocks[w], &t->blocks[i]) != 0)
            t->blocks[++w] = t->blocks[i];
    t->nblocks = t->nblocks ? w + 1 : 0;
    if ((rc = cut_at_count_changes(t)) < 0)
        return rc;
    t->block_counts = malloc((t->nblocks + 1) * sizeof *t->block_counts);
    if (!t->block_counts)
        return pms__fail(PMS_ENOMEM, "out of memory for %zu blocks", t->nblocks);
    for (size_t i = 0; i < t->nblocks; i++)
        t->block_counts[i] = t->blocks[i].count;
    return PMS_OK;
}

int pms_hotspot_truth_load(pms_hotspot_truth **out, const char *dir)
{
    *out = NULL;
    pms_hotspot_truth *t = calloc(1, sizeof *t);
    if (!t)
        return pms__fail(PMS_ENOMEM, "out of memory");
    int rc = pms_symbols_create(&t->symbols);
    if (rc == PMS_OK)
        rc = load_manifest(t, dir);
    if (rc == PMS_OK)
        rc = load_instructions(t, dir);
    if (rc == PMS_OK)
        rc = load_blocks(t);
    int found = 0;
    if (rc == PMS_OK)
        rc = pms__truth_run_read(&t->run, dir, &found);
    if (rc == PMS_OK && found && t->run.instructions != t->ni)
        rc = pms__fail(PMS_EFORMAT, "%s/run: %llu instructions, but the callgrind profiles count %llu: the files are "
                      "from different runs", dir, (unsigned long long)t->run.instructions, (unsigned long long)t->ni);
    if (rc < 0) {
        pms_hotspot_truth_free(t);
        return rc;
    }
    *out = t;
    return PMS_OK;
}

void pms_hotspot_truth_free(pms_hotspot_truth *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nfiles; i++)
        free(t->files[i].path);
    for (size_t i = 0; i < t->nimages; i++)
        free(t->images[i]);
    for (size_t i = 0; i < t->nprofiles; i++) {
        pms_callgrind_free(t->profiles[i].cg);
        free(t->profiles[i].obj);
        free(t->profiles[i].stub_bias);
        free(t->profiles[i].stub_known);
    }
    pms_symbols_destroy(t->symbols);
    free(t->files);
    free(t->images);
    free(t->profiles);
    free(t->objects);
    free(t->instrs);
    free(t->blocks);
    free(t->block_counts);
    pms__truth_run_free(&t->run);
    free(t);
}

uint64_t pms_hotspot_truth_instructions(const pms_hotspot_truth *t) { return t->ni; }
const char *pms_hotspot_truth_command(const pms_hotspot_truth *t) { return pms_callgrind_command(t->profiles[0].cg); }
size_t pms_hotspot_truth_nobjects(const pms_hotspot_truth *t) { return t->nobjects; }
size_t pms_hotspot_truth_nprocesses(const pms_hotspot_truth *t) { return t->nprocesses; }

char *const *pms_hotspot_truth_argv(const pms_hotspot_truth *t, size_t *argc)
{
    *argc = t->run.argc;
    return t->run.argv;
}

int pms_hotspot_truth_check_command(const pms_hotspot_truth *t, char *const cmdline[], size_t n)
{
    if (!t->run.argc)
        return pms__fail(PMS_ENOENT, "the truth does not say which command it is of (recorded by an older pmuscope)");
    return pms__truth_run_compare(&t->run, cmdline, n);
}
const char *pms_hotspot_truth_object_path(const pms_hotspot_truth *t, size_t i) { return object_path(t, i); }
const char *pms_hotspot_truth_object_build_id(const pms_hotspot_truth *t, size_t i)
{
    return t->files[t->objects[i].file].build_id;
}
const char *pms_hotspot_truth_object_process(const pms_hotspot_truth *t, size_t i)
{
    return t->images[t->objects[i].image];
}

long pms_hotspot_truth_find_process_object(const pms_hotspot_truth *t, const char *process, const char *path,
                                           const char *build_id)
{
    for (size_t i = 0; i < t->nobjects; i++) {
        const truth_file *f = &t->files[t->objects[i].file];
        if ((build_id && build_id[0] ? !strcmp(f->build_id, build_id) : path && !strcmp(f->path, path)) &&
            (!process || !strcmp(t->images[t->objects[i].image], process)))
            return (long)i;
    }
    return -1;
}

long pms_hotspot_truth_find_object(const pms_hotspot_truth *t, const char *path, const char *build_id)
{
    return pms_hotspot_truth_find_process_object(t, NULL, path, build_id);
}

const uint64_t *pms_hotspot_truth_block_counts(const pms_hotspot_truth *t, size_t *n)
{
    *n = t->nblocks;
    return t->block_counts;
}

void pms_hotspot_truth_lookup(const pms_hotspot_truth *t, size_t object, uint64_t offset, pms_hotspot_fact *out)
{
    *out = (pms_hotspot_fact){0, 0, 0, ""};
    const truth_instr *in = find_instr(t, (uint32_t)object, offset);
    if (!in) { /* never executed under valgrind: count 0, in no executed block; name it from the ELF */
        pms_symbol_info si;
        if (object < t->nobjects && pms_symbols_lookup_file(t->symbols, object_path(t, object), offset, &si) == 0 &&
            si.symbol)
            out->function = si.symbol;
        return;
    }
    out->executed = in->count;
    out->function = in->function;
    /* the block: the last block start at or before the instruction in the same object */
    size_t lo = 0, hi = t->nblocks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(t->blocks[mid].object, t->blocks[mid].offset, (uint32_t)object, offset) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && t->blocks[lo - 1].object == object) {
        out->block_count = t->blocks[lo - 1].count;
        out->block_offset = t->blocks[lo - 1].offset;
    } else { /* executed but before any block start valgrind reported: its own block */
        out->block_count = in->count;
        out->block_offset = offset;
    }
}

void pms_hotspot_truth_unmapped(const pms_hotspot_truth *t, uint64_t *instructions, size_t *blocks)
{
    *instructions = t->unmapped_instructions;
    *blocks = t->unmapped_blocks;
}

size_t pms_hotspot_truth_object_blocks(const pms_hotspot_truth *t, size_t object)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nblocks; i++)
        n += t->blocks[i].object == object;
    return n;
}

size_t pms_hotspot_truth_ninstructions(const pms_hotspot_truth *t) { return t->ninstrs; }

void pms_hotspot_truth_instruction(const pms_hotspot_truth *t, size_t i, size_t *object, uint64_t *offset,
                                   uint64_t *count)
{
    *object = t->instrs[i].object;
    *offset = t->instrs[i].offset;
    *count = t->instrs[i].count;
}

int pms__truth_has_branches(const pms_hotspot_truth *t) { return t->branches; }

size_t pms__truth_block_start(const pms_hotspot_truth *t, size_t i)
{
    pms_hotspot_fact f;
    pms_hotspot_truth_lookup(t, t->instrs[i].object, t->instrs[i].offset, &f);
    const truth_instr *start = find_instr(t, t->instrs[i].object, f.block_offset);
    return start ? (size_t)(start - t->instrs) : i;
}
