/* Cgroups for perf_event_open(2)'s PERF_FLAG_PID_CGROUP: the hierarchy perf uses (cgroup v1's
 * perf_event controller where it is mounted, else cgroup v2) and a cgroup's directory in it,
 * named as perf stat -G names it: relative to the hierarchy's root, "/" for the root itself. */
#include "collect/cgroup.h"

#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the comma-separated options of a mount (v1's controllers) contain word. */
static bool has_option(const char *options, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = options; (p = strstr(p, word)) != NULL; p += n)
        if ((p == options || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return true;
    return false;
}

int pms__cgroup_root(char *out, size_t size)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f) return pms__fail_errno(PMS_EIO, errno, "/proc/self/mountinfo: cannot read the mounts");
    char line[4096], v1[4096] = "", v2[4096] = "";
    while (fgets(line, sizeof line, f)) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS */
        char mountpoint[4096], fstype[64], super[1024];
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mountpoint) != 1 ||
            sscanf(dash + 3, "%63s %*s %1023s", fstype, super) != 2)
            continue;
        if (strcmp(fstype, "cgroup") == 0 && has_option(super, "perf_event") && !v1[0])
            snprintf(v1, sizeof v1, "%s", mountpoint);
        else if (strcmp(fstype, "cgroup2") == 0 && !v2[0])
            snprintf(v2, sizeof v2, "%s", mountpoint);
    }
    fclose(f);
    const char *root = v1[0] ? v1 : v2;
    if (!root[0])
        return pms__fail(PMS_ENOTSUP, "no cgroup hierarchy with perf events is mounted (cgroup v2, or v1's "
                                      "perf_event controller): cgroups cannot be counted here");
    if (snprintf(out, size, "%s", root) >= (int)size) return pms__fail(PMS_EINVAL, "%s: path too long", root);
    return PMS_OK;
}

int pms__cgroup_open(const char *name, int *fd)
{
    char root[4096], path[8192];
    int rc = pms__cgroup_root(root, sizeof root);
    if (rc) return rc;
    while (*name == '/') name++;
    snprintf(path, sizeof path, "%s/%s", root, name);
    *fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd >= 0) return PMS_OK;
    int err = errno;
    return pms__fail_errno(err == ENOENT || err == ENOTDIR ? PMS_ENOENT : pms__status_from_errno(err), err,
                           "cgroup '%s': cannot open %s (cgroups are named from the root of the hierarchy at %s, "
                           "as perf stat -G names them)",
                           *name ? name : "/", path, root);
}
