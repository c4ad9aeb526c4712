/* The hotspot truth's blocks (from one callgrind run) against valgrind's exp-bbv, an
 * independent tool that counts every executed instruction in the superblock it entered,
 * on the same command: the bundled `hotspots` loops, and `sizes 1` (a merge sort, whose
 * branches depend on the data). Both truths are checked: the sweep's (no branches: blocks
 * are the runs of equal counts) and pms_hotspot_truth_record's (callgrind's branches:
 * basic blocks).
 *
 * Where the two tools must agree, and where they need not:
 * - exp-bbv's blocks are valgrind's superblocks, which exp-bbv keeps from chasing jumps
 *   (--vex-guest-chase=no): a superblock runs from its entry to the next jump, call,
 *   return or conditional branch, or 50 instructions. So every entry of control into a
 *   block (a truth block start) is a superblock entry; the converse does not hold: a
 *   superblock also starts after a call that returns, or after 50 instructions, where
 *   the truth's block goes on (the count does not change there).
 * - exp-bbv gives per block the instructions executed in it (executions x instructions,
 *   fewer where a side exit left early), not its executions. Both sides are compared at
 *   the instruction-execution level: per function, the sum of exp-bbv's block
 *   instructions equals the sum over the truth's instructions of their block's count,
 *   i.e. the sum over the truth's blocks of executions x executed instructions. A
 *   superblock never crosses a function's end here (compiled C ends each with a jump,
 *   call or return), so the sums are over the same instructions, exactly.
 * - exp-bbv counts a rep-prefixed string instruction once per execution and credits it to
 *   the block of the next instruction; callgrind counts every iteration (sizes' memcpy in
 *   libc). And the two valgrind tools preload different objects, so ld.so's start-up work
 *   differs. So only the executable's own code (no rep instruction in it) is compared;
 *   its addresses are exp-bbv's F: run-time addresses less the PIE base under valgrind
 *   (0x108000), mapped to file offsets through the ELF segments.
 * - callgrind puts the executable's PLT stubs (symbol-less code of .plt and .plt.sec) in no
 *   object ("???", run-time addresses), so the truth cannot place them and counts them
 *   among its unmapped instructions; exp-bbv has them in the executable, unnamed. Those
 *   blocks are left out of the comparison, and the truth's unmapped instructions must
 *   cover them.
 * exp-bbv writes a vector only when an interval is full and drops the rest: the test
 * first reads the run's total T (--instr-count-only) and then uses intervals of T - 1
 * instructions, so the first and only vector (T - 1 + 1 instructions) holds the whole run.
 *
 * Each check is also run on a tampered exp-bbv output (one instruction more in the
 * hottest block; a block moved by one byte) and must fail there.
 * ctest-labels: no-sanitize
 * (valgrind cannot run the ASan-built workloads of the sanitizer build)
 */
#include "pmuscope/bbv.h"
#include "pmuscope/error.h"
#include "pmuscope/hotspot.h"
#include "pmuscope/symbols.h"
#include "hotspot/truth_record.h"
#include "test_support.h"
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct function_sum {
    const char *name;             /* the truth's name */
    uint64_t truth, bbv;          /* instruction executions of the function by each tool */
} function_sum;

typedef struct agreement {
    size_t bbv_blocks;            /* exp-bbv blocks in the executable */
    size_t truth_starts;          /* truth block starts in the executable */
    size_t functions;             /* functions compared */
    uint64_t instructions;        /* instruction executions compared */
    uint64_t stub_instructions;   /* exp-bbv's in the executable's PLT stubs */
    size_t mismatches;
} agreement;

typedef struct run {
    char dir[PATH_MAX];
    char exe[PATH_MAX];           /* the executable's real path */
    char *bb_text, *pc_text;      /* exp-bbv's files */
    size_t bb_len, pc_len;
} run;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return s;
}

/* exp-bbv on argv twice: the total, then one interval that holds the whole run. */
static void run_exp_bbv(run *r, const char *args)
{
    assert_int_equal(pms_test_system("valgrind --tool=exp-bbv --instr-count-only=yes --bb-out-file=%s/count "
                                     "--log-file=%s/bbv.log %s %s", r->dir, r->dir, r->exe, args), 0);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/count", r->dir);
    size_t len;
    char *text = slurp(path, &len), *at = strstr(text, "Total instructions: ");
    assert_non_null(at);
    unsigned long long total = strtoull(at + strlen("Total instructions: "), NULL, 10);
    free(text);
    assert_true(total > 1 && total < INT32_MAX); /* exp-bbv's interval size is an int */
    assert_int_equal(pms_test_system("valgrind --tool=exp-bbv --interval-size=%llu --bb-out-file=%s/bb "
                                     "--pc-out-file=%s/pc --log-file=%s/bbv.log %s %s", total - 1, r->dir,
                                     r->dir, r->dir, r->exe, args), 0);
    snprintf(path, sizeof path, "%s/bb", r->dir);
    r->bb_text = slurp(path, &r->bb_len);
    snprintf(path, sizeof path, "%s/pc", r->dir);
    r->pc_text = slurp(path, &r->pc_len);
    pms_bbv *b;
    assert_int_equal(pms_bbv_parse(&b, "exp-bbv", r->bb_text, r->bb_len), 0);
    pms_bbv_interval iv;
    assert_int_equal(pms_bbv_nintervals(b), 1);
    assert_int_equal(pms_bbv_get_interval(b, 0, &iv), 0);
    assert_int_equal(iv.instructions, total); /* the same run's length both times */
    pms_bbv_free(b);
}

static function_sum *function_of(function_sum *f, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(f[i].name, name) == 0)
            return &f[i];
    f[*n] = (function_sum){name, 0, 0};
    return &f[(*n)++];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

#define MISMATCH(a, ...) ((a)->mismatches++, print_message(__VA_ARGS__))

/* The checks of the header on exp-bbv's output given as text; the mismatches found. */
static agreement compare(const pms_hotspot_truth *t, const run *r, const char *bb, size_t bb_len, const char *pc,
                         size_t pc_len)
{
    agreement a = {0};
    pms_bbv *b;
    pms_symbols *sym;
    assert_int_equal(pms_bbv_parse(&b, "exp-bbv", bb, bb_len), 0);
    assert_int_equal(pms_bbv_parse_pc(b, "exp-bbv pc", pc, pc_len), 0);
    assert_int_equal(pms_symbols_create(&sym), 0);
    long exe = pms_hotspot_truth_find_object(t, r->exe, NULL);
    assert_true(exe >= 0);
    size_t nb = pms_bbv_nblocks(b), nfun = 0;
    uint64_t *starts = malloc((nb + 1) * sizeof *starts);
    function_sum *fun = malloc((nb + pms_hotspot_truth_ninstructions(t) + 1) * sizeof *fun);
    assert_non_null(starts);
    assert_non_null(fun);
    for (size_t i = 0; i < nb; i++) {
        const pms_bbv_block *blk = pms_bbv_get_block(b, i);
        uint64_t off;
        if (blk->instructions == 0 || blk->address < PMS_VALGRIND_PIE_BASE ||
            pms_symbols_address_to_offset(sym, r->exe, blk->address - PMS_VALGRIND_PIE_BASE, &off) < 0)
            continue; /* not the executable's */
        pms_hotspot_fact f;
        pms_hotspot_truth_lookup(t, (size_t)exe, off, &f);
        if (f.executed == 0 && blk->function[0] == '\0') {
            a.stub_instructions += blk->instructions; /* a PLT stub: callgrind's "???" */
            continue;
        }
        if (f.executed == 0) {
            MISMATCH(&a, "exp-bbv block %" PRIu64 " at offset %#" PRIx64 " (%s): callgrind never ran it\n",
                     blk->block, off, blk->function);
            continue;
        }
        /* valgrind names both; code without a symbol (PLT) is "" in exp-bbv, an address in callgrind */
        if (blk->function[0] ? strcmp(blk->function, f.function) != 0 : strncmp(f.function, "0x", 2) != 0)
            MISMATCH(&a, "offset %#" PRIx64 ": exp-bbv says %s, the truth %s\n", off, blk->function, f.function);
        starts[a.bbv_blocks++] = off;
        function_of(fun, &nfun, f.function)->bbv += blk->instructions;
    }
    qsort(starts, a.bbv_blocks, sizeof *starts, cmp_u64);
    for (size_t i = 0; i < pms_hotspot_truth_ninstructions(t); i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_fact f;
        pms_hotspot_truth_instruction(t, i, &o, &off, &count);
        if ((long)o != exe)
            continue;
        pms_hotspot_truth_lookup(t, o, off, &f);
        function_of(fun, &nfun, f.function)->truth += f.block_count;
        if (f.block_offset != off)
            continue;
        a.truth_starts++;
        if (!bsearch(&off, starts, a.bbv_blocks, sizeof *starts, cmp_u64))
            MISMATCH(&a, "truth block at offset %#" PRIx64 " (%s, count %" PRIu64 ") starts no exp-bbv block\n",
                     off, f.function, f.block_count);
    }
    for (size_t i = 0; i < nfun; i++) {
        a.functions++;
        a.instructions += fun[i].truth;
        if (fun[i].truth != fun[i].bbv)
            MISMATCH(&a, "%s: %" PRIu64 " instruction executions in the truth's blocks, %" PRIu64 " in exp-bbv's\n",
                     fun[i].name, fun[i].truth, fun[i].bbv);
    }
    free(starts);
    free(fun);
    pms_symbols_destroy(sym);
    pms_bbv_free(b);
    return a;
}

/* One instruction more in the block of `function` with the most instructions. */
static char *tamper_count(const run *r, const char *function, size_t *len)
{
    pms_bbv *b;
    assert_int_equal(pms_bbv_parse(&b, "exp-bbv", r->bb_text, r->bb_len), 0);
    assert_int_equal(pms_bbv_parse_pc(b, "exp-bbv pc", r->pc_text, r->pc_len), 0);
    pms_bbv_interval iv;
    assert_int_equal(pms_bbv_get_interval(b, 0, &iv), 0);
    const pms_bbv_entry *top = NULL;
    for (size_t i = 0; i < iv.nentries; i++) {
        const pms_bbv_block *blk = pms_bbv_find_block(b, iv.entries[i].block);
        if (blk && strcmp(blk->function, function) == 0 && (!top || iv.entries[i].count > top->count))
            top = &iv.entries[i];
    }
    assert_non_null(top);
    char old[64], new[64];
    snprintf(old, sizeof old, ":%" PRIu64 ":%" PRIu64 " ", top->block, top->count);
    snprintf(new, sizeof new, ":%" PRIu64 ":%" PRIu64 " ", top->block, top->count + 1);
    pms_bbv_free(b);
    const char *at = strstr(r->bb_text, old);
    assert_non_null(at);
    char *out = malloc(r->bb_len + 2);
    assert_non_null(out);
    size_t head = (size_t)(at - r->bb_text);
    *len = (size_t)sprintf(out, "%.*s%s%s", (int)head, r->bb_text, new, at + strlen(old));
    return out;
}

/* The executable's hottest block (the one in function `function`) one byte further on. */
static char *tamper_address(const run *r, const char *function, size_t *len)
{
    char key[128];
    snprintf(key, sizeof key, ":%s\n", function);
    const char *end = strstr(r->pc_text, key);
    assert_non_null(end);
    const char *colon = end;
    while (colon > r->pc_text && colon[-1] != ':')
        colon--;
    uint64_t address = strtoull(colon, NULL, 16);
    char *out = malloc(r->pc_len + 32);
    assert_non_null(out);
    *len = (size_t)sprintf(out, "%.*s%" PRIx64 "%s", (int)(colon - r->pc_text), r->pc_text, address + 1, end);
    return out;
}

static void check_command(const char *program, const char *args, const char *hot_function)
{
    run r = {0};
    const char *w = getenv("PMS_WORKLOADS");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", w ? w : "workloads", program);
    assert_non_null(realpath(path, r.exe));
    snprintf(r.dir, sizeof r.dir, "/tmp/pms-truth-bbv-XXXXXX");
    assert_non_null(mkdtemp(r.dir));
    run_exp_bbv(&r, args);
    char *argv[4] = {r.exe, NULL, NULL, NULL};
    char arg[64];
    if (args[0]) {
        snprintf(arg, sizeof arg, "%s", args);
        argv[1] = arg; /* one argument at most here */
    }
    for (int branches = 0; branches <= 1; branches++) {
        char dir[PATH_MAX + 16];
        snprintf(dir, sizeof dir, "%s/truth%d", r.dir, branches);
        pms__truth_job job;
        pms_hotspot_truth *t = NULL;
        int rc = pms__truth_record_start(&job, dir, argv, branches, NULL);
        if (rc == PMS_OK)
            rc = pms__truth_record_finish(&job, NULL);
        if (rc == PMS_OK)
            rc = pms_hotspot_truth_load(&t, dir);
        if (rc)
            print_message("truth: %s\n", pms_strerror());
        assert_int_equal(rc, PMS_OK);
        agreement a = compare(t, &r, r.bb_text, r.bb_len, r.pc_text, r.pc_len);
        print_message("%s %s, %s: %zu exp-bbv blocks, %zu truth block starts, %zu functions, %" PRIu64
                      " instruction executions agree (%" PRIu64 " in PLT stubs left out)\n", program, args,
                      branches ? "basic blocks" : "runs of equal counts", a.bbv_blocks, a.truth_starts, a.functions,
                      a.instructions, a.stub_instructions);
        assert_int_equal(a.mismatches, 0);
        uint64_t unmapped;
        size_t unmapped_blocks;
        pms_hotspot_truth_unmapped(t, &unmapped, &unmapped_blocks);
        assert_true(unmapped >= a.stub_instructions);
        assert_true(a.truth_starts >= 10 && a.functions >= 3 && a.instructions > 1000000);
        /* the same checks see a tampered exp-bbv output */
        size_t len;
        char *bad = tamper_count(&r, hot_function, &len);
        a = compare(t, &r, bad, len, r.pc_text, r.pc_len);
        assert_int_equal(a.mismatches, 1);
        free(bad);
        bad = tamper_address(&r, hot_function, &len);
        a = compare(t, &r, r.bb_text, r.bb_len, bad, len);
        assert_true(a.mismatches >= 2); /* a block start no instruction has, and a start missing */
        free(bad);
        pms_hotspot_truth_free(t);
    }
    free(r.bb_text);
    free(r.pc_text);
    pms_test_system("rm -rf '%s'", r.dir);
}

/* Five loops, called through a table: the loop blocks run 40M .. 5M times. */
static void test_hotspots_blocks_agree_with_exp_bbv(void **state)
{
    (void)state;
    check_command("hotspots", "", "hot_a");
}

/* A merge sort: branches taken by the data, and memcpy's rep movsb in libc. */
static void test_branchy_blocks_agree_with_exp_bbv(void **state)
{
    (void)state;
    check_command("sizes", "1", "merge_sort");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hotspots_blocks_agree_with_exp_bbv),
        cmocka_unit_test(test_branchy_blocks_agree_with_exp_bbv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
