/* Helpers shared by the cmocka unit tests. */
#ifndef PMS_TEST_SUPPORT_H
#define PMS_TEST_SUPPORT_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmuscope/sampler.h"
#include "pmuscope/stat.h"

/* Writes text to a fresh temporary file and returns its path (static buffer per call slot). */
const char *pms_test_write_temp(const char *suffix, const void *data, size_t len);
/* Path of a fixture under tests/fixtures (uses $PMS_FIXTURES). */
const char *pms_test_fixture(const char *name);
/* Runs a shell command; returns its exit status, or -1. */
int pms_test_system(const char *fmt, ...);
/* Asserts two doubles agree to a relative tolerance (absolute near zero). */
#define assert_close(a, b, rel) pms_test_assert_close((a), (b), (rel), #a, __FILE__, __LINE__)
void pms_test_assert_close(double a, double b, double rel, const char *what, const char *file, int line);
/* The counting result of event spec (parsed) from raw counts over enabled and running ns. */
pms_stat_value pms_test_stat_value(const char *spec, uint64_t raw, uint64_t enabled, uint64_t running);
/* Drains sampler s into fn until the child pid exits, then what is left; asserts that it
 * exited with status 0. */
void pms_test_sample_until_exit(pms_sampler *s, pid_t pid, pms_record_fn fn, void *ctx);
/* Stores a byte in each of the n pages from p, unchecked by AddressSanitizer (whose shadow
 * memory would fault pages of its own): n page faults where the pages are fresh. */
void pms_test_touch_pages(char *p, size_t n);
#endif
