/* Test helpers that ask binutils (an independent source) about the bundled workloads. */
#ifndef PMS_TEST_BINARY_HELPERS_H
#define PMS_TEST_BINARY_HELPERS_H
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

/* The run of a shell command's first number (hex when hex is set); fails the test if none. */
static inline uint64_t pms_test_command_number(const char *cmd, int hex)
{
    FILE *p = popen(cmd, "r");
    unsigned long v = 0;
    int ok = p && fscanf(p, hex ? "%lx" : "%lu", &v) == 1;
    if (p) pclose(p);
    if (!ok) fail_msg("no number from: %s", cmd);
    return v;
}

/* The address of a symbol as nm prints it. */
static inline uint64_t pms_test_nm_address(const char *binary, const char *symbol)
{
    char cmd[PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "nm '%s' | awk '$3==\"%s\"{print $1; exit}'", binary, symbol);
    return pms_test_command_number(cmd, 1);
}

/* File offset of the executable PT_LOAD segment as readelf prints it. */
static inline uint64_t pms_test_text_offset(const char *binary)
{
    char cmd[PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "readelf -lW '%s' | awk '$1==\"LOAD\" && / E /{print $2; exit}'", binary);
    return pms_test_command_number(cmd, 1);
}

/* Absolute path of a workload binary ($PMS_WORKLOADS/name). */
static inline const char *pms_test_workload(const char *name)
{
    static char path[PATH_MAX];
    char raw[PATH_MAX];
    const char *dir = getenv("PMS_WORKLOADS");
    snprintf(raw, sizeof raw, "%s/%s", dir ? dir : "workloads", name);
    if (!realpath(raw, path)) fail_msg("no workload at %s", raw);
    return path;
}
#endif
