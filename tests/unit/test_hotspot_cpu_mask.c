/* The CPU mask of a sweep's native runs, worked out from glibc's loader reports
 * (ld.so --list-diagnostics) natively and under valgrind: what valgrind's virtual CPU lacks
 * is turned off, its preferences and copy thresholds are taken, nothing is asked where the
 * reports agree or are not x86's. The fixtures: this development machine's reports (an AMD
 * Zen CPU with AVX-512; valgrind 3.19 models an Intel Haswell there), the valgrind report as
 * both sides (an Intel host without AVX-512 whose glibc chooses as under valgrind), and
 * lines in the form of glibc's ARM64 report (no x86 line: no tunable to give). That glibc
 * itself takes the mask and then reports valgrind's choices is checked live in
 * integration/hotspot_debian.sh (the loader run again with the tunables). */
#include "hotspot/cpu_mask.h"
#include "pmuscope/hotspot.h"
#include "test_support.h"
#include "util/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct compared {
    int x86;
    char tunables[1024], differing[512];
} compared;

static compared compare(const char *name)
{
    char native[128], vg[128];
    snprintf(native, sizeof native, "glibc-diagnostics/%s.native.txt", name);
    snprintf(vg, sizeof vg, "glibc-diagnostics/%s.valgrind.txt", name);
    char *a, *b;
    size_t len;
    assert_int_equal(pms__read_file(pms_test_fixture(native), NULL, NULL, &a, &len), 0);
    assert_int_equal(pms__read_file(pms_test_fixture(vg), NULL, NULL, &b, &len), 0);
    compared c;
    c.x86 = pms__cpu_mask_compare(a, b, c.tunables, sizeof c.tunables, c.differing, sizeof c.differing);
    free(a);
    free(b);
    return c;
}

/* The position of word in a comma- or colon-separated list, -1 if absent. */
static long position(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *s = list; (s = strstr(s, word)); s += len)
        if ((s == list || strchr(",:=", s[-1])) && (!s[len] || strchr(",:", s[len])))
            return (long)(s - list);
    return -1;
}

static void test_zen_avx512(void **state)
{
    (void)state;
    compared c = compare("zen-avx512");
    print_message("tunables %s\ndiffering %s\n", c.tunables, c.differing);
    assert_int_equal(c.x86, 1);
    assert_int_equal(strncmp(c.tunables, "glibc.cpu.hwcaps=", 17), 0);
    /* active natively (features[1].active[1] = 0xf1af0328), not under valgrind (0x40328) */
    static const char *const off[] = {"-AVX512F", "-AVX512DQ", "-AVX512CD", "-AVX512BW", "-AVX512VL"};
    for (size_t i = 0; i < sizeof off / sizeof *off; i++)
        assert_true(position(c.tunables, off[i]) > 0);
    /* XSAVEC: features[3].active[0] 0x7 natively, 0 under valgrind */
    assert_true(position(c.tunables, "-XSAVEC") > 0);
    /* what both have stays: AVX2 and BMI2 are in features[1].active[1] on both sides */
    assert_int_equal(position(c.tunables, "-AVX2"), -1);
    assert_int_equal(position(c.tunables, "-BMI2"), -1);
    /* preferences valgrind's glibc has on (0x1) and this one off: taken, before any feature
     * is turned off (Prefer_No_AVX512 is only taken while AVX512F is usable) */
    static const char *const on[] = {"Fast_Rep_String", "Fast_Unaligned_Load", "Prefer_PMINUB_for_stringop",
                                     "Fast_Unaligned_Copy", "Prefer_No_AVX512"};
    for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
        assert_true(position(c.tunables, on[i]) > 0);
        assert_true(position(c.tunables, on[i]) < position(c.tunables, "-AVX512F"));
    }
    /* the copy thresholds valgrind's glibc derived from its cache sizes */
    assert_true(position(c.tunables, "0x2000") > position(c.tunables, "glibc.cpu.x86_rep_movsb_threshold"));
    assert_true(strstr(c.tunables, ":glibc.cpu.x86_rep_movsb_threshold=0x2000") != NULL);
    assert_true(strstr(c.tunables, ":glibc.cpu.x86_non_temporal_threshold=0x200000") != NULL);
    assert_true(strstr(c.tunables, ":glibc.cpu.x86_shared_cache_size=0x800000") != NULL);
    /* rep_stosb_threshold is 0x800 on both sides: not set */
    assert_null(strstr(c.tunables, "rep_stosb"));
    /* the differences named: the features by name, the bits no tunable turns off by number */
    assert_non_null(strstr(c.differing, "AVX512F"));
    assert_non_null(strstr(c.differing, "CPUID bits that glibc.cpu.hwcaps cannot turn off: features[1].ebx 19,21"));
    assert_non_null(strstr(c.differing, "rep_movsb_threshold"));
}

static void test_same_choices(void **state)
{
    (void)state;
    compared c = compare("haswell");
    assert_int_equal(c.x86, 1);
    assert_string_equal(c.tunables, "");
    assert_string_equal(c.differing, "");
}

static void test_not_x86(void **state)
{
    (void)state;
    compared c = compare("arm64");
    assert_int_equal(c.x86, 0);
    assert_string_equal(c.tunables, "");
    assert_string_equal(c.differing, "");
}

/* The environment string keeps a caller's own tunables first, and gives nothing when there
 * is nothing to mask. */
static void test_env(void **state)
{
    (void)state;
    pms_hotspot_cpu_mask m = {.state = PMS_CPU_MASK_APPLIED};
    snprintf(m.tunables, sizeof m.tunables, "glibc.cpu.hwcaps=-AVX512F");
    char env[256] = "untouched";
    setenv("GLIBC_TUNABLES", "glibc.malloc.check=3", 1);
    assert_int_equal(pms_hotspot_cpu_mask_env(&m, env, sizeof env), 1);
    assert_string_equal(env, "GLIBC_TUNABLES=glibc.malloc.check=3:glibc.cpu.hwcaps=-AVX512F");
    unsetenv("GLIBC_TUNABLES");
    assert_int_equal(pms_hotspot_cpu_mask_env(&m, env, sizeof env), 1);
    assert_string_equal(env, "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F");
    m.state = PMS_CPU_MASK_SAME;
    strcpy(env, "untouched");
    assert_int_equal(pms_hotspot_cpu_mask_env(&m, env, sizeof env), 0);
    assert_string_equal(env, "untouched");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zen_avx512),
        cmocka_unit_test(test_same_choices),
        cmocka_unit_test(test_not_x86),
        cmocka_unit_test(test_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
