/* The callgrind.out reader: compression, call costs, parts, and clear errors. */
#include "pmuscope/callgrind.h"
#include "pmuscope/error.h"
#include "test_support.h"
#include <string.h>

static void test_two_parts_fixture(void **state)
{
    (void)state;
    pms_callgrind *cg;
    assert_int_equal(pms_callgrind_read(&cg, pms_test_fixture("callgrind/two-parts.out")), 0);
    size_t n;
    const pms_cg_instr *in = pms_callgrind_instrs(cg, &n);
    /* by hand: 0x1000 5+1 (the "-7 -1 1" line after the call), 0x1004 5, 0x1007 10,
     * 0x1100 100+7 (part 2); the call's inclusive 400 is not self cost; libc 200, 200 */
    const struct { const char *ob; uint64_t addr, count; } want[] = {
        {"/bin/prog", 0x1000, 6}, {"/bin/prog", 0x1004, 5}, {"/bin/prog", 0x1007, 10},
        {"/bin/prog", 0x1100, 107}, {"/lib/libc.so.6", 0x500, 200}, {"/lib/libc.so.6", 0x502, 200}};
    assert_int_equal(n, 6);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(pms_callgrind_object(cg, in[i].object), want[i].ob);
        assert_int_equal(in[i].addr, want[i].addr);
        assert_int_equal(in[i].count, want[i].count);
    }
    assert_string_equal(pms_callgrind_function(cg, in[3].function), "helper");
    assert_string_equal(pms_callgrind_function(cg, in[4].function), "puts");
    assert_int_equal(pms_callgrind_total(cg), 528);
    assert_int_equal(pms_callgrind_parts(cg), 2);
    assert_string_equal(pms_callgrind_command(cg), "./prog --x");
    assert_int_equal(pms_callgrind_pid(cg), 42); /* "pid: 42" */
    pms_callgrind_free(cg);
}

/* --collect-jumps=yes: a jump's target is relative to the last cost line and does not
 * move it; the position line after it is the source; a call's target lies in cob=. */
static void test_branches(void **state)
{
    (void)state;
    static const char text[] = "positions: instr line\nevents: Ir\nob=(1) /bin/prog\nfn=(1) main\n"
                               "0x1000 1 1\n+2 * 5\njcnd=3/5 +14 *\n* *\n+4 * 2\njump=2 -6 *\n* *\n"
                               "cob=(2) /lib/libc.so.6\ncfn=(2) puts\ncalls=1 0x500 *\n+3 * 9\n"
                               "cfn=(3) helper\ncalls=1 0x1100 *\n* * 9\n0x1010 * 3\n";
    const char *path = pms_test_write_temp(".out", text, strlen(text));
    pms_callgrind *cg;
    assert_int_equal(pms_callgrind_read(&cg, path), 0);
    size_t nt, ns;
    const pms_cg_branch *t = pms_callgrind_branch_targets(cg, &nt), *s = pms_callgrind_branch_sources(cg, &ns);
    const struct { const char *ob; uint64_t addr; } targets[] = {
        {"/bin/prog", 0x1000}, {"/bin/prog", 0x1010}, {"/bin/prog", 0x1100}, {"/lib/libc.so.6", 0x500}};
    const uint64_t sources[] = {0x1002, 0x1006, 0x1009};
    assert_int_equal(nt, 4);
    for (size_t i = 0; i < nt; i++) {
        assert_string_equal(pms_callgrind_object(cg, t[i].object), targets[i].ob);
        assert_int_equal(t[i].addr, targets[i].addr);
    }
    assert_int_equal(ns, 3);
    for (size_t i = 0; i < ns; i++) {
        assert_string_equal(pms_callgrind_object(cg, s[i].object), "/bin/prog");
        assert_int_equal(s[i].addr, sources[i]);
    }
    assert_int_equal(pms_callgrind_total(cg), 11); /* 1 + 5 + 2 + 3: call costs are inclusive */
    /* each call pairs its source (the cost line after it) with its target, in file order */
    size_t nc;
    const pms_cg_call *c = pms_callgrind_calls(cg, &nc);
    assert_int_equal(nc, 2);
    assert_string_equal(pms_callgrind_object(cg, c[0].from_object), "/bin/prog");
    assert_string_equal(pms_callgrind_object(cg, c[0].to_object), "/lib/libc.so.6");
    assert_int_equal(c[0].from_addr, 0x1009);
    assert_int_equal(c[0].to_addr, 0x500);
    assert_string_equal(pms_callgrind_object(cg, c[1].to_object), "/bin/prog");
    assert_int_equal(c[1].from_addr, 0x1009);
    assert_int_equal(c[1].to_addr, 0x1100);
    pms_callgrind_free(cg);
}

/* Parses text and expects a format error whose message contains every fragment. */
static void expect_error(const char *text, const char *frag1, const char *frag2)
{
    const char *path = pms_test_write_temp(".out", text, strlen(text));
    pms_callgrind *cg = (pms_callgrind *)1;
    assert_int_equal(pms_callgrind_read(&cg, path), PMS_EFORMAT);
    assert_null(cg);
    const char *msg = pms_strerror();
    if (!strstr(msg, frag1) || (frag2 && !strstr(msg, frag2)))
        fail_msg("message \"%s\" lacks \"%s\" / \"%s\"", msg, frag1, frag2 ? frag2 : "");
    assert_non_null(strstr(msg, path));
}

#define HEAD "# callgrind format\npositions: instr line\nevents: Ir\n"

static void test_errors_name_line_and_expectation(void **state)
{
    (void)state;
    expect_error("# callgrind format\nevents: Ir\nfn=main\n16 20\n", "line 4", "--dump-instr=yes");
    expect_error(HEAD "ob=(3)\n0x10 1 1\n", "line 4", "ob=(3) refers to an id that was never defined");
    expect_error(HEAD "fn=(1) f\n0x10 1 5\n-0x20 * 1\n", "line 6", "relative subposition");
    expect_error(HEAD "fn=(1) f\n0x10 1 5\nzz 1 1\n", "line 6", "expected a header");
    expect_error(HEAD "fn=(1) f\n0x10 1 5 6\n", "line 5", "more costs than events");
    expect_error(HEAD "fn=(1) f\ncfn=(2) g\ncalls=1 0x20 1\nfn=(2)\n", "line 7", "cost line of the call at line 6");
    expect_error(HEAD "fn=(1) f\ncalls=1 0x20 1\n", "ends before the cost line of the call at line 5", NULL);
    expect_error("# callgrind format\npositions: instr line\nevents: Dr Dw\n", "line 3", "no Ir");
    expect_error("hello\n", "line 1", "expected a header");
    expect_error(HEAD "fn=(1) f\n0x10 1 5\njump=1 +4 *\nfn=(2) g\n", "line 7", "source position of the jump at line 6");
    expect_error("creator: x\n", "no \"events:\" header", NULL);
    expect_error("pid: twelve\n" HEAD, "line 1", "expected a process id");
}

/* A truncated profile: the cost lines no longer add up to the summary. */
static void test_truncated_file_detected(void **state)
{
    (void)state;
    expect_error(HEAD "summary: 30\nfn=(1) f\n0x10 1 10\n+1 * 10\n", "add up to 20 instructions but the summary says 30",
                 NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_parts_fixture),
        cmocka_unit_test(test_branches),
        cmocka_unit_test(test_errors_name_line_and_expectation),
        cmocka_unit_test(test_truncated_file_detected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
