/* The error module: messages are kept per thread and carry context. */
#include "test_support.h"
#include "util/error.h"
#include <errno.h>
#include <string.h>

static void test_fail_sets_message_and_returns_status(void **state)
{
    (void)state;
    assert_int_equal(pms__fail(PMS_EFORMAT, "%s: line %d: expected a number", "x.csv", 7), PMS_EFORMAT);
    assert_string_equal(pms_strerror(), "x.csv: line 7: expected a number");
}

static void test_fail_errno_appends_reason(void **state)
{
    (void)state;
    assert_int_equal(pms__fail_errno(PMS_EIO, ENOENT, "cannot open %s", "a.data"), PMS_EIO);
    assert_string_equal(pms_strerror(), "cannot open a.data: No such file or directory");
    assert_int_equal(pms__fail_context(PMS_EIO, "record"), PMS_EIO);
    assert_string_equal(pms_strerror(), "record: cannot open a.data: No such file or directory");
}

static void test_errno_mapping(void **state)
{
    (void)state;
    assert_int_equal(pms__status_from_errno(EACCES), PMS_EPERM);
    assert_int_equal(pms__status_from_errno(ENOENT), PMS_ENOENT);
    assert_int_equal(pms__status_from_errno(EOPNOTSUPP), PMS_ENOTSUP);
    assert_string_equal(pms_status_name(PMS_ENUMERIC), "numerical error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail_sets_message_and_returns_status),
        cmocka_unit_test(test_fail_errno_appends_reason),
        cmocka_unit_test(test_errno_mapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
