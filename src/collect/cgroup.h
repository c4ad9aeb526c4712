/* Internal: the cgroup directories that perf_event_open(2) counts in (PERF_FLAG_PID_CGROUP). */
#ifndef PMS_COLLECT_CGROUP_H
#define PMS_COLLECT_CGROUP_H
#include <stddef.h>

/* The mount point of the hierarchy perf counts cgroups in: cgroup v1's perf_event controller
 * where it is mounted, else cgroup v2 (PMS_ENOTSUP when neither is mounted). */
int pms__cgroup_root(char *out, size_t size);
/* Opens cgroup name (relative to that root; "/" is the root) as a directory for
 * perf_event_open's pid argument; the message names the path when it does not exist. */
int pms__cgroup_open(const char *name, int *fd);

#endif
