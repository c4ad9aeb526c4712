/* The input limit (pmuscope/input.h) and its message. */
#include "pmuscope/input.h"
#include "util/input_limit.h"
#include "util/error.h"

#include <stdio.h>

static uint64_t limit = PMS_INPUT_LIMIT_DEFAULT;

uint64_t pms_input_limit_set(uint64_t bytes)
{
    uint64_t before = limit;
    limit = bytes;
    return before;
}

uint64_t pms_input_limit(void) { return limit; }

bool pms__over_input_limit(uint64_t bytes) { return limit && bytes > limit; }

void pms__size_text(char *buf, size_t size, uint64_t bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    uint64_t v = bytes;
    while (u < 4 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, "%llu %s", (unsigned long long)v, units[u]);
}

int pms__fail_input_limit(const char *name)
{
    char size[32];
    pms__size_text(size, sizeof size, limit);
    return pms__with_option(pms__fail(PMS_EFORMAT,
                                      "%s: longer than the input limit of %s: an input that is not a regular file "
                                      "(a pipe, a device) is copied before it is read, up to that limit; give a "
                                      "larger limit or a file",
                                      name, size),
                            "input_limit");
}
