/* The ground truth of a run: exact instruction and basic block counts from valgrind,
 * keyed by (object, file offset). */
#include "symbol/build_id.h"
#include "hotspot/truth_blocks.h"
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

typedef struct truth_object {
    char *path;
    char build_id[PMS_BUILD_ID_HEX];
} truth_object;

typedef struct truth_instr {
    uint32_t object;
    uint32_t function; /* index into the callgrind profile's functions */
    uint64_t offset, count;
} truth_instr;

typedef struct truth_block {
    uint32_t object;
    uint64_t offset, count;
} truth_block;

struct pms_hotspot_truth {
    truth_object *objects;
    size_t nobjects, objects_cap;
    truth_instr *instrs; /* sorted by (object, offset) */
    size_t ninstrs;
    truth_block *blocks; /* sorted by (object, offset) */
    size_t nblocks;
    uint64_t *block_counts;
    uint64_t ni, unmapped_instructions;
    size_t unmapped_blocks;
    int branches;           /* callgrind recorded branches: blocks are basic blocks */
    pms_callgrind *profile; /* kept for function names and the command */
    pms_truth_run run;      /* the command (argc 0 in a truth of an older pmuscope) */
    pms_symbols *symbols;   /* ELF addresses <-> file offsets */
    uint64_t *stub_bias;    /* per object: its load bias under valgrind, where stub_known */
    int *stub_known;
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

/* Reads DIR/objects and checks every object is still the file valgrind ran. */
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
        if (pms__grow(&t->objects, &t->objects_cap, t->nobjects + 1, sizeof *t->objects) ||
            !(t->objects[t->nobjects].path = strdup(space + 1))) {
            rc = pms__fail(PMS_ENOMEM, "%s: out of memory", path);
            break;
        }
        truth_object *o = &t->objects[t->nobjects++];
        snprintf(o->build_id, sizeof o->build_id, "%s", strcmp(line, "-") == 0 ? "" : line);
        char now[PMS_BUILD_ID_HEX];
        rc = pms__elf_build_id(o->path, now);
        if (rc == PMS_OK && strcmp(now, o->build_id) != 0)
            rc = pms__fail(PMS_EINVAL, "%s has been rebuilt since the truth in %s was recorded (build-id %s, was %s): "
                          "record the truth again", o->path, dir, now[0] ? now : "none",
                          o->build_id[0] ? o->build_id : "none");
    }
    pms__lines_close(&r);
    if (rc == PMS_OK && t->nobjects == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: lists no object", path);
    return rc;
}

static long object_by_path(const pms_hotspot_truth *t, const char *path)
{
    for (size_t i = 0; i < t->nobjects; i++)
        if (strcmp(t->objects[i].path, path) == 0)
            return (long)i;
    return -1;
}

/* Places address addr of callgrind's object cg_object in a truth object (its index, the
 * file offset in *off; -1 if none): in its own object, or for code that callgrind puts in
 * no object ("???": PLT stubs, .init, .fini, at run-time addresses) in the object whose
 * load bias under valgrind puts it there (truth_stubs.h). */
static long place(const pms_hotspot_truth *t, const long *obj, uint32_t cg_object, uint64_t addr, uint64_t *off)
{
    long o = obj[cg_object];
    if (o >= 0)
        return pms_symbols_address_to_offset(t->symbols, t->objects[o].path, addr, off) < 0 ? -1 : o;
    if (!t->stub_known || strcmp(pms_callgrind_object(t->profile, cg_object), "???") != 0)
        return -1;
    for (size_t k = 0; k < t->nobjects; k++)
        if (t->stub_known[k] &&
            pms_symbols_address_to_offset(t->symbols, t->objects[k].path, addr - t->stub_bias[k], off) == 0)
            return (long)k;
    return -1;
}

/* The objects' load biases under valgrind, from their calls into "???". */
static int load_stub_biases(pms_hotspot_truth *t, const long *obj)
{
    const char **paths = malloc((t->nobjects + 1) * sizeof *paths);
    t->stub_bias = malloc((t->nobjects + 1) * sizeof *t->stub_bias);
    t->stub_known = malloc((t->nobjects + 1) * sizeof *t->stub_known);
    if (!paths || !t->stub_bias || !t->stub_known) {
        free(paths);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < t->nobjects; k++)
        paths[k] = t->objects[k].path;
    int rc = pms__truth_stub_biases(t->profile, obj, paths, t->nobjects, t->symbols, t->stub_bias, t->stub_known);
    free(paths);
    return rc < 0 ? rc : PMS_OK;
}

/* callgrind's addresses are link-time addresses of each object: map them to file offsets. */
static int load_instructions(pms_hotspot_truth *t, const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/callgrind.out", dir);
    int rc = pms_callgrind_read(&t->profile, path);
    if (rc < 0)
        return rc;
    size_t n;
    const pms_cg_instr *in = pms_callgrind_instrs(t->profile, &n);
    t->instrs = malloc(n * sizeof *t->instrs);
    long *obj = calloc(pms_callgrind_nobjects(t->profile) + 1, sizeof *obj);
    if (!t->instrs || !obj) {
        free(obj);
        return pms__fail(PMS_ENOMEM, "%s: out of memory for %zu instructions", path, n);
    }
    for (size_t i = 0; i < pms_callgrind_nobjects(t->profile); i++)
        obj[i] = object_by_path(t, pms_callgrind_object(t->profile, i));
    t->ni = pms_callgrind_total(t->profile);
    if ((rc = load_stub_biases(t, obj)) < 0) {
        free(obj);
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t off;
        long o = place(t, obj, in[i].object, in[i].addr, &off);
        if (o < 0) {
            t->unmapped_instructions += in[i].count;
            continue;
        }
        t->instrs[t->ninstrs++] = (truth_instr){(uint32_t)o, in[i].function, off, in[i].count};
    }
    free(obj);
    qsort(t->instrs, t->ninstrs, sizeof *t->instrs, cmp_instr);
    return PMS_OK;
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

/* Places a branch address of callgrind's object cg_object; -1 if it cannot be placed or
 * is no executed instruction (the target of a branch that ran 0 times in this part). */
static long placed_instr(const pms_hotspot_truth *t, const long *obj, const pms_cg_branch *b)
{
    uint64_t off;
    long o = place(t, obj, b->object, b->addr, &off);
    if (o < 0)
        return -1;
    const truth_instr *in = find_instr(t, (uint32_t)o, off);
    return in ? in - t->instrs : -1;
}

/* Blocks from callgrind's branches (--collect-jumps=yes): a block starts at every branch
 * target and at the executed instruction after every branch source, in the same object. */
static int load_blocks(pms_hotspot_truth *t)
{
    size_t ntargets, nsources, ncg = pms_callgrind_nobjects(t->profile);
    const pms_cg_branch *targets = pms_callgrind_branch_targets(t->profile, &ntargets);
    const pms_cg_branch *sources = pms_callgrind_branch_sources(t->profile, &nsources);
    t->branches = pms_callgrind_njumps(t->profile) > 0;
    long *obj = malloc((ncg + 1) * sizeof *obj);
    t->blocks = malloc((ntargets + nsources + 1) * sizeof *t->blocks);
    if (!obj || !t->blocks) {
        free(obj);
        return pms__fail(PMS_ENOMEM, "out of memory for %zu blocks", ntargets + nsources);
    }
    for (size_t i = 0; i < ncg; i++)
        obj[i] = object_by_path(t, pms_callgrind_object(t->profile, i));
    for (size_t i = 0; i < ntargets; i++) {
        long k = placed_instr(t, obj, &targets[i]);
        if (k < 0)
            t->unmapped_blocks++;
        else
            t->blocks[t->nblocks++] = (truth_block){t->instrs[k].object, t->instrs[k].offset, t->instrs[k].count};
    }
    for (size_t i = 0; i < nsources; i++) {
        long k = placed_instr(t, obj, &sources[i]);
        if (k >= 0 && (size_t)k + 1 < t->ninstrs && t->instrs[k + 1].object == t->instrs[k].object) {
            const truth_instr *next = &t->instrs[k + 1];
            t->blocks[t->nblocks++] = (truth_block){next->object, next->offset, next->count};
        }
    }
    free(obj);
    qsort(t->blocks, t->nblocks, sizeof *t->blocks, cmp_block);
    size_t w = 0; /* a start reached by several branches is one block */
    for (size_t i = 1; i < t->nblocks; i++)
        if (cmp_block(&t->blocks[w], &t->blocks[i]) != 0)
            t->blocks[++w] = t->blocks[i];
    t->nblocks = t->nblocks ? w + 1 : 0;
    int rc = cut_at_count_changes(t);
    if (rc < 0)
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
        rc = pms__fail(PMS_EFORMAT, "%s/run: %llu instructions, but callgrind.out counts %llu: the files are from "
                      "different runs", dir, (unsigned long long)t->run.instructions, (unsigned long long)t->ni);
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
    for (size_t i = 0; i < t->nobjects; i++)
        free(t->objects[i].path);
    pms_symbols_destroy(t->symbols);
    free(t->stub_bias);
    free(t->stub_known);
    free(t->objects);
    free(t->instrs);
    free(t->blocks);
    free(t->block_counts);
    pms_callgrind_free(t->profile);
    pms__truth_run_free(&t->run);
    free(t);
}

uint64_t pms_hotspot_truth_instructions(const pms_hotspot_truth *t) { return t->ni; }
const char *pms_hotspot_truth_command(const pms_hotspot_truth *t) { return pms_callgrind_command(t->profile); }
size_t pms_hotspot_truth_nobjects(const pms_hotspot_truth *t) { return t->nobjects; }

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
const char *pms_hotspot_truth_object_path(const pms_hotspot_truth *t, size_t i) { return t->objects[i].path; }
const char *pms_hotspot_truth_object_build_id(const pms_hotspot_truth *t, size_t i) { return t->objects[i].build_id; }

long pms_hotspot_truth_find_object(const pms_hotspot_truth *t, const char *path, const char *build_id)
{
    if (build_id && build_id[0]) {
        for (size_t i = 0; i < t->nobjects; i++)
            if (strcmp(t->objects[i].build_id, build_id) == 0)
                return (long)i;
        return -1;
    }
    return path ? object_by_path(t, path) : -1;
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
        if (object < t->nobjects && pms_symbols_lookup_file(t->symbols, t->objects[object].path, offset, &si) == 0 &&
            si.symbol)
            out->function = si.symbol;
        return;
    }
    out->executed = in->count;
    out->function = pms_callgrind_function(t->profile, in->function);
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
