/* exp-bbv and SimPoint readers on a real valgrind output (tests/fixtures/bbv/two.c,
 * static, run with --interval-size=500000) and on malformed input. */
#include "test_support.h"
#include "pmuscope/bbv.h"
#include "pmuscope/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_loads_valgrind_output(void **state)
{
    (void)state;
    pms_bbv *b;
    char bb[1024];
    snprintf(bb, sizeof bb, "%s", pms_test_fixture("bbv/two.bb"));
    assert_int_equal(pms_bbv_load(&b, bb, pms_test_fixture("bbv/two.pc")), PMS_OK);
    assert_int_equal(pms_bbv_nintervals(b), 10);
    assert_int_equal(pms_bbv_interval_size(b), 500000);
    uint64_t total = 0;
    for (size_t i = 0; i < pms_bbv_nintervals(b); i++) {
        pms_bbv_interval iv;
        assert_int_equal(pms_bbv_get_interval(b, i, &iv), PMS_OK);
        assert_int_equal(iv.line, i + 1);
        total += iv.instructions;
    }
    assert_int_equal(total, 5000001); /* 10 full intervals (+1: valgrind counts the boundary block into the first); the partial last one is not written */
    pms_bbv_interval iv;
    assert_int_equal(pms_bbv_get_interval(b, 1, &iv), PMS_OK);
    assert_int_equal(iv.nentries, 1);
    assert_int_equal(iv.entries[0].block, 853);
    assert_int_equal(iv.entries[0].count, 500000);
    const pms_bbv_block *first = pms_bbv_find_block(b, 853), *second = pms_bbv_find_block(b, 857);
    assert_non_null(first);
    assert_non_null(second);
    assert_string_equal(first->function, "first");
    assert_string_equal(second->function, "second");
    assert_int_equal(first->address, 0x401629);
    assert_int_equal(first->instructions, 463387 + 7 * 500000 + 236599);
    assert_int_equal(second->instructions, 263390 + 500000);
    assert_null(pms_bbv_find_block(b, 999999));
    assert_string_equal(pms_bbv_dominant_function(b, 1, 7), "first");
    assert_string_equal(pms_bbv_dominant_function(b, 9, 1), "second");
    assert_string_equal(pms_bbv_dominant_function(b, 8, 1), "second"); /* 263390 > 236599 */
    assert_int_equal(pms_bbv_get_interval(b, 10, &iv), PMS_EINVAL);
    pms_bbv_free(b);
}

static void expect_error_n(const char *text, size_t len, const char *message)
{
    pms_bbv *b = NULL;
    assert_int_equal(pms_bbv_parse(&b, "x.bb", text, len), PMS_EFORMAT);
    assert_null(b);
    if (!strstr(pms_strerror(), message)) fail_msg("message '%s' lacks '%s'", pms_strerror(), message);
}

#define expect_error(text, message) expect_error_n(text, sizeof text - 1, message)

static void test_malformed_lines_are_named(void **state)
{
    (void)state;
    expect_error("T:1:2\nT:3:x\n", "x.bb: line 2: column 5: expected an instruction count after block 3");
    expect_error("T:1:2 1:2\n", "x.bb: line 1: column 7: expected ':block:count'");
    expect_error("\n\nQ\n", "x.bb: line 3: expected a 'T:' vector line");
    expect_error("T:99999999999999999999999:1\n", "x.bb: line 1: column 3: expected a block number");
    expect_error("T:1:2\n\0T:1:2\n", "x.bb: line 2: unexpected NUL byte");
    pms_bbv *b;
    assert_int_equal(pms_bbv_parse(&b, "x.bb", "T:1:2\n", 6), PMS_OK);
    const char pc[] = "F:1:zz:main\n";
    assert_int_equal(pms_bbv_parse_pc(b, "x.pc", pc, sizeof pc - 1), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "x.pc: line 1: expected a hexadecimal address"));
    /* A PC file that fails half-way leaves no blocks behind. */
    const char pc2[] = "F:1:401000:main\nF:2:4010";
    assert_int_equal(pms_bbv_parse_pc(b, "y.pc", pc2, sizeof pc2 - 1), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "y.pc: line 2:"));
    assert_int_equal(pms_bbv_nblocks(b), 0);
    assert_null(pms_bbv_find_block(b, 1));
    assert_null(pms_bbv_dominant_function(b, 0, 1));
    const char pc3[] = "F:1:401000:main\nF:1:401010:f\n";
    assert_int_equal(pms_bbv_parse_pc(b, "z.pc", pc3, sizeof pc3 - 1), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "z.pc: block 1 is listed twice"));
    assert_int_equal(pms_bbv_nblocks(b), 0);
    pms_bbv_free(b);
}

static void test_simpoint_round_trip(void **state)
{
    (void)state;
    pms_bbv *b;
    assert_int_equal(pms_bbv_create(&b), PMS_OK);
    const pms_bbv_entry a[] = {{1, 10}, {3, 5}}, c[] = {{2, 7}};
    assert_int_equal(pms_bbv_add_interval(b, a, 2), PMS_OK);
    assert_int_equal(pms_bbv_add_interval(b, c, 1), PMS_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(pms_simpoint_write(b, f, "mem"), PMS_OK);
    fclose(f);
    assert_string_equal(text, "T:1:10 :3:5 \nT:2:7 \n");
    const char *path = pms_test_write_temp(".bb", text, len);
    pms_bbv *r;
    assert_int_equal(pms_simpoint_load(&r, path), PMS_OK);
    assert_int_equal(pms_bbv_nintervals(r), 2);
    pms_bbv_interval iv;
    assert_int_equal(pms_bbv_get_interval(r, 0, &iv), PMS_OK);
    assert_int_equal(iv.nentries, 2);
    assert_int_equal(iv.entries[1].block, 3);
    assert_int_equal(iv.instructions, 15);
    pms_bbv_free(r);
    free(text);
    /* Dimension 0 is not SimPoint's. */
    const pms_bbv_entry z[] = {{0, 1}};
    assert_int_equal(pms_bbv_add_interval(b, z, 1), PMS_OK);
    f = fopen("/dev/null", "w");
    assert_int_equal(pms_simpoint_write(b, f, "out.bb"), PMS_EINVAL);
    fclose(f);
    path = pms_test_write_temp(".bb", "T:1:2\nT:0:4\n", 12);
    assert_int_equal(pms_simpoint_load(&r, path), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "line 2: dimension 0"));
    pms_bbv_free(b);
}

/* Inputs the fuzzer found undefined behaviour on (an empty PC file sorted NULL; a vector
 * with no entries handed out NULL + 0): the sanitizer build of this test aborts on either. */
static void test_empty_vectors_and_pc_files(void **state)
{
    (void)state;
    pms_bbv *b;
    assert_int_equal(pms_bbv_parse(&b, "x.bb", "T\n", 2), PMS_OK);
    assert_int_equal(pms_bbv_nintervals(b), 1);
    pms_bbv_interval iv;
    assert_int_equal(pms_bbv_get_interval(b, 0, &iv), PMS_OK);
    assert_int_equal(iv.nentries, 0);
    assert_null(iv.entries);
    assert_int_equal(iv.instructions, 0);
    assert_int_equal(pms_bbv_parse_pc(b, "x.pc", "", 0), PMS_OK);
    assert_int_equal(pms_bbv_nblocks(b), 0);
    assert_null(pms_bbv_dominant_function(b, 0, 1));
    pms_bbv_free(b);
    assert_int_equal(pms_bbv_parse(&b, "x.bb", "T:1:5 \n", 7), PMS_OK);
    assert_int_equal(pms_bbv_parse_pc(b, "x.pc", "", 0), PMS_OK);
    assert_null(pms_bbv_find_block(b, 1));
    pms_bbv_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_valgrind_output),
        cmocka_unit_test(test_malformed_lines_are_named),
        cmocka_unit_test(test_simpoint_round_trip),
        cmocka_unit_test(test_empty_vectors_and_pc_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
