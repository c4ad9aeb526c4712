/* Ground truth from valgrind on the hotspots workload, whose counts are known from
 * its source: 100 rounds of 1e6 loop iterations split 40/25/20/10/5 % over hot_a..e.
 * Checks the mapping of callgrind's addresses and branches to (file, offset) on a PIE
 * and on libc, the measures on samples placed by hand, and the refusal of a truth
 * from another binary.
 * ctest-labels: no-sanitize
 */
#include "pmuscope/error.h"
#include "pmuscope/hotspot.h"
#include "binary_helpers.h"
#include "test_support.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const hot[5] = {"hot_a", "hot_b", "hot_c", "hot_d", "hot_e"};
static const uint64_t iterations[5] = {40000000, 25000000, 20000000, 10000000, 5000000};

static char truth_dir[PATH_MAX], workload[PATH_MAX];
static pms_hotspot_truth *truth;
static long exe = -1;
static uint64_t loop_offset[5]; /* the hottest instruction of each function */

/* The i-th executed instruction and what the truth says about it. */
static void instruction_fact(size_t i, size_t *o, uint64_t *off, uint64_t *count, pms_hotspot_fact *f)
{
    pms_hotspot_truth_instruction(truth, i, o, off, count);
    pms_hotspot_truth_lookup(truth, *o, *off, f);
}

static int setup(void **state)
{
    (void)state;
    const char *w = getenv("PMS_WORKLOADS");
    snprintf(workload, sizeof workload, "%s/hotspots", w ? w : "workloads");
    snprintf(truth_dir, sizeof truth_dir, "/tmp/pms-truth-XXXXXX");
    if (!mkdtemp(truth_dir))
        return -1;
    char *argv[] = {workload, NULL};
    if (pms_hotspot_truth_record(truth_dir, argv) < 0 || pms_hotspot_truth_load(&truth, truth_dir) < 0) {
        fprintf(stderr, "truth: %s\n", pms_strerror());
        return -1;
    }
    char real[PATH_MAX];
    exe = pms_hotspot_truth_find_object(truth, realpath(workload, real) ? real : workload, NULL);
    if (exe < 0)
        return -1;
    uint64_t best[5] = {0};
    for (size_t i = 0; i < pms_hotspot_truth_ninstructions(truth); i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_fact f;
        instruction_fact(i, &o, &off, &count, &f);
        for (int k = 0; k < 5; k++)
            if ((long)o == exe && strcmp(f.function, hot[k]) == 0 && count > best[k]) {
                best[k] = count;
                loop_offset[k] = off;
            }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    pms_hotspot_truth_free(truth);
    pms_test_system("rm -rf '%s'", truth_dir);
    return 0;
}

/* PIE: every loop instruction of hot_X ran exactly as often as the source says, and so
 * did the basic block (the loop body) it lies in. */
static void test_pie_counts_match_the_source(void **state)
{
    (void)state;
    for (int k = 0; k < 5; k++) {
        pms_hotspot_fact f;
        pms_hotspot_truth_lookup(truth, (size_t)exe, loop_offset[k], &f);
        assert_string_equal(f.function, hot[k]);
        assert_int_equal(f.executed, iterations[k]);
        assert_int_equal(f.block_count, iterations[k]);
        assert_true(f.block_offset <= loop_offset[k]);
    }
    /* NI covers the whole run: at least the 8-instruction loop bodies */
    assert_true(pms_hotspot_truth_instructions(truth) > 8 * 100000000ull);
}

/* A basic block runs whole, so each executed instruction's block ran exactly as often
 * as the instruction itself, also where a valgrind superblock went on past a side exit
 * (hotspots' main+0x14a8, run once, lay in a superblock entered 100 times and got
 * count 100). A sample at an instruction of main that ran once, alone: SOLevel 1,
 * ROLevel = the level of count 1 among all block counts (the last), so OD = sqrt(1 * (1 - ROLevel)^2) / 1 = ROLevel - 1. */
static void test_blocks_are_basic_blocks(void **state)
{
    (void)state;
    size_t nb, mismatched = 0, once = SIZE_MAX;
    const uint64_t *bc = pms_hotspot_truth_block_counts(truth, &nb);
    for (size_t i = 0; i < pms_hotspot_truth_ninstructions(truth); i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_fact f;
        instruction_fact(i, &o, &off, &count, &f);
        mismatched += f.block_count != count;
        if ((long)o == exe && count == 1 && strcmp(f.function, "main") == 0)
            once = i;
    }
    assert_int_equal(mismatched, 0);
    assert_true(once != SIZE_MAX);
    /* 1 is the smallest count of an executed block: its level is the last one */
    size_t *levels = malloc(nb * sizeof *levels), level = 0, o;
    assert_non_null(levels);
    assert_int_equal(pms_hotspot_order_levels(bc, nb, levels), 0);
    for (size_t i = 0; i < nb; i++)
        level = levels[i] > level ? levels[i] : level;
    free(levels);
    uint64_t off, count;
    pms_hotspot_truth_instruction(truth, once, &o, &off, &count);
    pms_hotspot_sample s = {pms_hotspot_truth_object_path(truth, o), NULL, off, 1};
    pms_hotspot_result r;
    assert_int_equal(pms_hotspot_evaluate(truth, &s, 1, 1, &r), 0);
    assert_close(r.measures.od, (double)(level - 1), 1e-12);
    pms_hotspot_result_free(&r);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorted distinct values of v[0..n), in place; their number. */
static size_t distinct(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (!w || v[w - 1] != v[i])
            v[w++] = v[i];
    return w;
}

/* A sweep's valgrind run leaves the branches out: its blocks are then the runs of equal
 * counts. The order levels, and so every measure, rest on the distinct block counts, which
 * are the distinct counts of the executed instructions (a basic block's instructions run as
 * often as it): the same with the branches' basic blocks as without. */
static void test_block_levels_need_no_branches(void **state)
{
    (void)state;
    size_t nb, ni = pms_hotspot_truth_ninstructions(truth);
    const uint64_t *bc = pms_hotspot_truth_block_counts(truth, &nb);
    uint64_t *blocks = malloc(nb * sizeof *blocks), *instrs = malloc(ni * sizeof *instrs);
    assert_non_null(blocks);
    assert_non_null(instrs);
    memcpy(blocks, bc, nb * sizeof *blocks);
    size_t n = 0;
    for (size_t i = 0; i < ni; i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_truth_instruction(truth, i, &o, &off, &count);
        if (count)
            instrs[n++] = count;
    }
    size_t db = distinct(blocks, nb), di = distinct(instrs, n);
    assert_true(nb > db); /* blocks of equal counts exist: the check is not empty */
    assert_int_equal(db, di);
    assert_memory_equal(blocks, instrs, db * sizeof *blocks);
    free(blocks);
    free(instrs);
}

/* The shared library: callgrind's branch targets in libc land on instructions it
 * counted there, and nearly all branch targets of the run are placed. */
static void test_shared_library_blocks_line_up(void **state)
{
    (void)state;
    long libc = -1;
    for (size_t i = 0; i < pms_hotspot_truth_nobjects(truth); i++)
        if (strstr(pms_hotspot_truth_object_path(truth, i), "/libc.so"))
            libc = (long)i;
    assert_true(libc >= 0);
    assert_true(pms_hotspot_truth_object_blocks(truth, (size_t)libc) >= 50);
    uint64_t ui;
    size_t ub, nb;
    pms_hotspot_truth_unmapped(truth, &ui, &ub);
    pms_hotspot_truth_block_counts(truth, &nb);
    assert_true(ub * 20 <= nb);
}

/* Samples at the five loops in the true proportions: the order is right (OD = 0) and
 * SC = (sum of the loop counts) / NI. Reversed proportions: OD by hand:
 * SOLevel e1 d2 c3 b4 a5 against ROLevel a1 b2 c3 d4 e5, weights .05 .10 .20 .25 .40
 * for a..e: sqrt(.05*16 + .10*4 + .25*4 + .40*16) / 5 = sqrt(8.6) / 5. */
static void test_measures_on_placed_samples(void **state)
{
    (void)state;
    const char *path = pms_hotspot_truth_object_path(truth, (size_t)exe);
    const uint64_t right[5] = {40, 25, 20, 10, 5}, reversed[5] = {5, 10, 20, 25, 40};
    pms_hotspot_sample s[5];
    for (int k = 0; k < 5; k++)
        s[k] = (pms_hotspot_sample){path, NULL, loop_offset[k], right[k]};
    pms_hotspot_result r;
    assert_int_equal(pms_hotspot_evaluate(truth, s, 5, 5, &r), 0);
    double ni = (double)pms_hotspot_truth_instructions(truth);
    assert_int_equal(r.nrows, 5);
    assert_close(r.measures.od, 0.0, 1e-12);
    assert_close(r.measures.sc, 100000000.0 / ni, 1e-12);
    assert_close(r.measures.kendall_tau, 1.0, 1e-12);
    assert_string_equal(r.rows[0].fact.function, "hot_a");
    pms_hotspot_result_free(&r);
    for (int k = 0; k < 5; k++)
        s[k].count = reversed[k];
    assert_int_equal(pms_hotspot_evaluate(truth, s, 5, 5, &r), 0);
    assert_close(r.measures.od, sqrt(8.6) / 5, 1e-12);
    assert_close(r.measures.kendall_tau, -1.0, 1e-12);
    pms_hotspot_result_free(&r);
}

/* An IP that valgrind never ran (a gap between executed instructions of the binary):
 * r = 0, block count 0, whose order level comes after all L distinct block counts.
 * With the five loops sampled 40..5 and 3 samples there (NS = 103): SOLevels 1..6,
 * ROLevels 1..5 and L + 1, so OD = sqrt(3/103 * (6 - (L + 1))^2) / 6. */
static void test_unexecuted_ip(void **state)
{
    (void)state;
    uint64_t gap = 0, prev = 0;
    for (size_t i = 0; i < pms_hotspot_truth_ninstructions(truth) && !gap; i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_truth_instruction(truth, i, &o, &off, &count);
        if ((long)o == exe && prev && off - prev > 32)
            gap = prev + 16;
        if ((long)o == exe)
            prev = off;
    }
    assert_true(gap > 0);
    const char *path = pms_hotspot_truth_object_path(truth, (size_t)exe);
    const uint64_t counts[5] = {40, 25, 20, 10, 5};
    pms_hotspot_sample s[6];
    for (int k = 0; k < 5; k++)
        s[k] = (pms_hotspot_sample){path, NULL, loop_offset[k], counts[k]};
    s[5] = (pms_hotspot_sample){path, NULL, gap, 3};
    size_t nb;
    const uint64_t *bc = pms_hotspot_truth_block_counts(truth, &nb);
    size_t *levels = malloc(nb * sizeof *levels), distinct = 0;
    assert_int_equal(pms_hotspot_order_levels(bc, nb, levels), 0);
    for (size_t i = 0; i < nb; i++)
        distinct = levels[i] > distinct ? levels[i] : distinct;
    free(levels);
    pms_hotspot_result r;
    assert_int_equal(pms_hotspot_evaluate(truth, s, 6, 5, &r), 0);
    assert_int_equal(r.unexecuted_samples, 3);
    assert_int_equal(r.rows[5].fact.executed, 0);
    assert_int_equal(r.rows[5].fact.block_count, 0);
    double d = 6.0 - (double)(distinct + 1);
    assert_close(r.measures.od, sqrt(3.0 / 103 * d * d) / 6, 1e-12);
    /* over the covered IPs alone the five loops are in the true order: 0 */
    assert_close(r.measures.od_covered, 0.0, 1e-12);
    assert_int_equal(r.measures.m_covered, 5);
    assert_int_equal(r.measures.ns_uncovered, 3);
    pms_hotspot_result_free(&r);
}

/* The file offset of STUB (e.g. "__cxa_finalize@plt") as objdump's disassembly of the
 * executable's PLT sections names it, through readelf's address and offset of its section. */
static uint64_t stub_offset(const char *stub)
{
    char cmd[PATH_MAX + 512];
    snprintf(cmd, sizeof cmd,
             "objdump -d -j .plt -j .plt.sec -j .plt.got '%s' | awk '$2 == \"<%s>:\" { print $1; exit }'", workload,
             stub);
    uint64_t addr = pms_test_command_number(cmd, 1);
    /* name, address, offset and size of each section: the one that holds addr */
    snprintf(cmd, sizeof cmd, "readelf -SW '%s' | sed 's/^ *\\[ *[0-9]*\\]//' | awk '$1 ~ /^[.]plt/ { print $3, $4, $5 }'",
             workload);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    unsigned long sec, off, size;
    uint64_t found = 0;
    while (!found && fscanf(p, "%lx %lx %lx", &sec, &off, &size) == 3)
        if (sec <= addr && addr < sec + size)
            found = addr - sec + off;
    pclose(p);
    if (!found)
        fail_msg("%s at 0x%llx lies in no .plt section", stub, (unsigned long long)addr);
    return found;
}

/* callgrind puts PLT stubs in no object, at run-time addresses; the calls into them from the
 * executable give its load bias under valgrind, so the stubs get their truth: the executable's
 * __cxa_finalize stub (.plt.got) ran once, when exit ran the destructors, and a sample there
 * is at an instruction with that count. */
static void test_plt_stub_has_truth(void **state)
{
    (void)state;
    uint64_t off = stub_offset("__cxa_finalize@plt");
    pms_hotspot_fact f;
    pms_hotspot_truth_lookup(truth, (size_t)exe, off, &f);
    print_message("__cxa_finalize@plt at file offset 0x%llx: executed %llu, block count %llu\n",
                  (unsigned long long)off, (unsigned long long)f.executed, (unsigned long long)f.block_count);
    assert_int_equal(f.executed, 1);
    assert_int_equal(f.block_count, 1);
    const char *path = pms_hotspot_truth_object_path(truth, (size_t)exe);
    pms_hotspot_sample s[2] = {{path, NULL, loop_offset[0], 10}, {path, NULL, off, 1}};
    pms_hotspot_result r;
    assert_int_equal(pms_hotspot_evaluate(truth, s, 2, 5, &r), 0);
    assert_int_equal(r.unexecuted_samples, 0);
    assert_int_equal(r.measures.m_covered, 2);
    pms_hotspot_result_free(&r);
}

/* Samples of another program: its binary is not in the truth. */
static void test_samples_of_another_binary_refused(void **state)
{
    (void)state;
    const char *path = pms_hotspot_truth_object_path(truth, (size_t)exe);
    pms_hotspot_sample s[2] = {{path, NULL, loop_offset[0], 10}, {"/usr/bin/other-program", NULL, 0x1234, 90}};
    pms_hotspot_result r;
    assert_int_equal(pms_hotspot_evaluate(truth, s, 2, 5, &r), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "/usr/bin/other-program"));
    assert_non_null(strstr(pms_strerror(), "different binary"));
    s[1] = (pms_hotspot_sample){path, "00112233", loop_offset[1], 5};
    assert_int_equal(pms_hotspot_evaluate(truth, s, 2, 5, &r), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "build-id 00112233"));
}

/* A truth whose binary changed afterwards (build-id differs from the one recorded). */
static void test_rebuilt_binary_refused(void **state)
{
    (void)state;
    assert_int_equal(pms_test_system("sed -i 's|^[0-9a-f]* \\(.*/hotspots\\)$|0123456789abcdef \\1|' '%s/objects'",
                                     truth_dir), 0);
    pms_hotspot_truth *t = NULL;
    assert_int_equal(pms_hotspot_truth_load(&t, truth_dir), PMS_EINVAL);
    assert_null(t);
    assert_non_null(strstr(pms_strerror(), "rebuilt since the truth"));
    assert_non_null(strstr(pms_strerror(), "hotspots"));
}

/* The truth keeps its command: a recording of it passes (with or without "--", from a
 * copy of the same binary too), other arguments or another program are refused. */
static void test_recording_command_checked(void **state)
{
    (void)state;
    size_t argc;
    char *const *argv = pms_hotspot_truth_argv(truth, &argc);
    assert_int_equal(argc, 1);
    assert_string_equal(argv[0], workload);
    char copy[PATH_MAX + 8];
    snprintf(copy, sizeof copy, "%s.copy", truth_dir);
    assert_int_equal(pms_test_system("cp '%s' '%s'", workload, copy), 0);
    char *same[] = {"perf", "record", "-c", "1000", "--", workload};
    char *bare[] = {"perf", "record", workload};
    char *copied[] = {"pmuscope", "record", "--", copy};
    char *other_args[] = {"perf", "record", "--", workload, "--scale", "2"};
    char *other_program[] = {"perf", "record", "--", "/bin/true"};
    assert_int_equal(pms_hotspot_truth_check_command(truth, same, 6), PMS_OK);
    assert_int_equal(pms_hotspot_truth_check_command(truth, bare, 3), PMS_OK);
    assert_int_equal(pms_hotspot_truth_check_command(truth, copied, 4), PMS_OK);
    assert_int_equal(pms_hotspot_truth_check_command(truth, other_args, 6), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "--scale 2"));
    assert_int_equal(pms_hotspot_truth_check_command(truth, other_program, 4), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "/bin/true"));
    assert_int_equal(pms_hotspot_truth_check_command(truth, NULL, 0), PMS_ENOENT);
    unlink(copy);
}

/* A command far shorter than any interval (135K instructions): its whole truth, down to
 * the last code it ran (_Exit, once), with every executed instruction in a block of its
 * own count. */
static void test_short_command_whole_truth(void **state)
{
    (void)state;
    char dir[] = "/tmp/pms-truth-short-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *argv[] = {workload, "--expect", NULL};
    pms_hotspot_truth *t = NULL;
    int rc = pms_hotspot_truth_record(dir, argv);
    if (rc == PMS_OK)
        rc = pms_hotspot_truth_load(&t, dir);
    if (rc)
        fprintf(stderr, "short truth: %s\n", pms_strerror());
    assert_int_equal(rc, PMS_OK);
    assert_true(pms_hotspot_truth_instructions(t) < 1000000);
    size_t last_code = 0, mismatched = 0;
    for (size_t i = 0; i < pms_hotspot_truth_ninstructions(t); i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_fact f;
        pms_hotspot_truth_instruction(t, i, &o, &off, &count);
        pms_hotspot_truth_lookup(t, o, off, &f);
        mismatched += f.block_count != count;
        if (strcmp(f.function, "_Exit") == 0 && f.block_count == 1)
            last_code++;
    }
    assert_int_equal(mismatched, 0);
    assert_true(last_code > 0);
    pms_hotspot_truth_free(t);
    pms_test_system("rm -rf '%s'", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pie_counts_match_the_source),
        cmocka_unit_test(test_blocks_are_basic_blocks),
        cmocka_unit_test(test_block_levels_need_no_branches),
        cmocka_unit_test(test_shared_library_blocks_line_up),
        cmocka_unit_test(test_measures_on_placed_samples),
        cmocka_unit_test(test_unexecuted_ip),
        cmocka_unit_test(test_plt_stub_has_truth),
        cmocka_unit_test(test_samples_of_another_binary_refused),
        cmocka_unit_test(test_recording_command_checked),
        cmocka_unit_test(test_rebuilt_binary_refused),
        cmocka_unit_test(test_short_command_whole_truth),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
