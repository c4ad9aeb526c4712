/* CPU lists as the kernel and perf write them ("0-3,6"). */
#include "pmuscope/target.h"

#include "util/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

/* Parses list (what: where it came from, for messages) into cpus below ncpu. */
static int parse(int **cpus, size_t *n, const char *list, const char *what, int ncpu)
{
    *cpus = calloc((size_t)ncpu, sizeof **cpus);
    if (!*cpus) return pms__fail(PMS_ENOMEM, "out of memory");
    *n = 0;
    const char *p = list;
    while (*p && *p != '\n') {
        char *end;
        errno = 0;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0 || errno) break;
        if (*end == '-') {
            const char *q = end + 1;
            hi = strtol(q, &end, 10);
            if (end == q || hi < lo) break;
        }
        if (hi >= ncpu) {
            free(*cpus);
            *cpus = NULL;
            return pms__fail(PMS_EINVAL, "%s: CPU %ld does not exist (this machine has CPUs 0-%d)", what, hi, ncpu - 1);
        }
        for (long c = lo; c <= hi; c++) {
            bool dup = false;
            for (size_t k = 0; k < *n; k++) dup = dup || (*cpus)[k] == (int)c;
            if (!dup) (*cpus)[(*n)++] = (int)c;
        }
        p = *end == ',' && end[1] ? end + 1 : end;
        if (p == end && *p && *p != '\n') break;
    }
    if (*n == 0 || (*p && *p != '\n')) {
        free(*cpus);
        *cpus = NULL;
        return pms__fail(PMS_EINVAL, "%s: expected a list of CPUs such as 0-3,6, found '%s' (at offset %zu)", what,
                         list, (size_t)(p - list));
    }
    return PMS_OK;
}

int pms_cpu_list(int **cpus, size_t *n, const char *list)
{
    int ncpu = get_nprocs_conf();
    if (list) return parse(cpus, n, list, "CPU list", ncpu);
    const char *path = "/sys/devices/system/cpu/online";
    char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f) return pms__fail_errno(PMS_EIO, errno, "cannot read %s", path);
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    return parse(cpus, n, buf, path, ncpu);
}
