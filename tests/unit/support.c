#include "test_support.h"
#include "pmuscope/error.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *pms_test_write_temp(const char *suffix, const void *data, size_t len)
{
    static char paths[8][256];
    static int slot;
    char *path = paths[slot++ % 8];
    snprintf(path, sizeof paths[0], "/tmp/pms-test-XXXXXX%s", suffix ? suffix : "");
    int fd = mkstemps(path, suffix ? (int)strlen(suffix) : 0);
    if (fd < 0) fail_msg("mkstemps failed");
    if (len && write(fd, data, len) != (ssize_t)len) fail_msg("write failed");
    close(fd);
    return path;
}

const char *pms_test_fixture(const char *name)
{
    static char path[1024];
    /* ctest sets PMS_FIXTURES; run by hand from any directory, the source tree's fixtures */
    const char *dir = getenv("PMS_FIXTURES");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : PMS_TEST_FIXTURES_DIR, name);
    return path;
}

int pms_test_system(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    if (rc == -1) return -1;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

void pms_test_assert_close(double a, double b, double rel, const char *what, const char *file, int line)
{
    double scale = fmax(fabs(a), fabs(b));
    double diff = fabs(a - b);
    if (isnan(a) || isnan(b) || diff > rel * (scale > 1e-300 ? scale : 1.0)) {
        print_error("%s:%d: %s = %.17g, expected %.17g (rel tol %g)\n", file, line, what, a, b, rel);
        _fail(file, line);
    }
}

pms_stat_value pms_test_stat_value(const char *spec, uint64_t raw, uint64_t enabled, uint64_t running)
{
    pms_event ev;
    if (pms_event_parse(spec, &ev) != PMS_OK) fail_msg("%s: %s", spec, pms_strerror());
    pms_count c = {.raw = raw, .enabled = enabled, .running = running};
    pms_count_scale(&c);
    pms_stat_value v;
    pms_stat_value_set(&v, &ev, &c);
    return v;
}

void pms_test_sample_until_exit(pms_sampler *s, pid_t pid, pms_record_fn fn, void *ctx)
{
    int status = 0;
    for (;;) {
        assert_true(pms_sampler_poll(s, 50, fn, ctx) >= 0);
        if (waitpid(pid, &status, WNOHANG) == pid) break;
    }
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(pms_sampler_poll(s, 0, fn, ctx) >= 0);
}

/* AddressSanitizer would check each store against its shadow memory, and touching the shadow
 * faults pages of its own: the loop that touches the pages goes unchecked, so that its page
 * faults are the program's. */
#if defined(__SANITIZE_ADDRESS__)
#define UNCHECKED __attribute__((no_sanitize_address))
#else
#define UNCHECKED
#endif

UNCHECKED void pms_test_touch_pages(char *p, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < n; i++) ((volatile char *)p)[i * page] = 1;
}
