/* Load biases from a valgrind -v -v log (the exp-bbv run's address space). */
#include "hotspot/valgrind_log.h"
#include "pmuscope/error.h"
#include "test_support.h"
#include <string.h>

static void test_objects_and_biases(void **state)
{
    (void)state;
    static const char log[] = "==1== exp-bbv, a SimPoint basic block vector generator\n"
                              "--1-- Reading syms from /tmp/prog\n"
                              "--1--    svma 0x0000001080, avma 0x0000109080\n"
                              "--1-- Reading syms from /usr/lib/libc.so.6\n"
                              "--1--   object doesn't have a dynamic symbol table\n"
                              "--1--    svma 0x0000026380, avma 0x000486d380\n"
                              "--1-- Reading syms from /usr/lib/nosyms.so\n";
    pms_vg_object *o;
    size_t n;
    assert_int_equal(pms_valgrind_log_objects(pms_test_write_temp(".log", log, strlen(log)), &o, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(o[0].path, "/tmp/prog");
    assert_int_equal(o[0].bias, 0x108000);
    assert_string_equal(o[1].path, "/usr/lib/libc.so.6");
    assert_int_equal(o[1].bias, 0x486d380 - 0x26380);
    pms_valgrind_log_free(o, n);
}

static void test_log_without_verbosity_refused(void **state)
{
    (void)state;
    static const char log[] = "==1== Command: ./prog\n==1== \n";
    const char *path = pms_test_write_temp(".log", log, strlen(log));
    pms_vg_object *o;
    size_t n;
    assert_int_equal(pms_valgrind_log_objects(path, &o, &n), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "valgrind -v -v"));
    assert_non_null(strstr(pms_strerror(), path));
    static const char bad[] = "--1-- Reading syms from /tmp/prog\n--1--    svma 0xzz, avma 0x1\n";
    assert_int_equal(pms_valgrind_log_objects(pms_test_write_temp(".log", bad, strlen(bad)), &o, &n), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "line 2"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects_and_biases),
        cmocka_unit_test(test_log_without_verbosity_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
