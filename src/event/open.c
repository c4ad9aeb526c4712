/* perf_event_open(2) with failures explained in terms a user can act on:
 * a missing PMU (ENOENT in virtual machines), perf_event_paranoid, ptrace rules. */
#include "event/event_internal.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int pms_event_paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = 2; /* the kernel default when the file cannot be read */
    if (f) {
        if (fscanf(f, "%d", &v) != 1) v = 2;
        fclose(f);
    }
    return v;
}

static bool needs_hardware_pmu(const struct perf_event_attr *attr)
{
    return attr->type != PERF_TYPE_SOFTWARE && attr->type != PERF_TYPE_TRACEPOINT &&
           attr->type != PERF_TYPE_BREAKPOINT;
}

static int explain_permission(const char *name, const struct perf_event_attr *attr, pid_t pid, int cpu, int err)
{
    int paranoid = pms_event_paranoid();
    const char *code = err == EACCES ? "EACCES" : "EPERM";
    /* The most permissive setting this request needs (see perf_event_open(2)): counting every
     * process on a CPU needs 0 whatever the levels; a process's kernel time needs 1. */
    if (pid == -1 && cpu >= 0)
        return pms__fail(PMS_EPERM,
                        "%s: permission denied (%s) to count every process on a CPU (-a, system-wide): "
                        "perf_event_paranoid is %d and system-wide counting needs 0 or less; run as root, give "
                        "the user CAP_PERFMON, or set kernel.perf_event_paranoid=0 (sysctl -w "
                        "kernel.perf_event_paranoid=0)",
                        name, code, paranoid);
    int needed = !attr->exclude_kernel ? 1 : 2;
    if (paranoid <= needed && pid > 0)
        return pms__fail(PMS_EPERM,
                        "%s: permission denied (%s) to count process %d: it belongs to another user or ptrace "
                        "is restricted (kernel.yama.ptrace_scope); run as root or as the process's owner",
                        name, code, (int)pid);
    return pms__fail(PMS_EPERM,
                    "%s: permission denied (%s): perf_event_paranoid is %d; run as root (or with CAP_PERFMON) "
                    "or set kernel.perf_event_paranoid=%d (sysctl -w kernel.perf_event_paranoid=%d)%s",
                    name, code, paranoid, needed, needed,
                    needed == 1 && !attr->exclude_user ? ", or count user space only with the :u modifier" : "");
}

static int explain(const char *name, const struct perf_event_attr *attr, pid_t pid, int cpu, int err)
{
    switch (err) {
    case ENOENT:
        if (!needs_hardware_pmu(attr))
            return pms__fail(PMS_ENOTSUP, "%s: not supported by this kernel (ENOENT)", name);
        if (!pms__sysfs_has_core_pmu())
            return pms__with_option(pms__fail(PMS_ENOTSUP,
                                              "%s: not supported on this machine: no hardware PMU is exposed "
                                              "(ENOENT), as in many virtual machines; software events such as "
                                              "task-clock and cpu-clock work, and one can stand in for it",
                                              name),
                                    "fallback");
        return pms__fail(PMS_ENOTSUP, "%s: not supported by this machine's PMU (ENOENT): it has no such event", name);
    case EOPNOTSUPP:
        return pms__fail(PMS_ENOTSUP,
                        "%s: not supported (EOPNOTSUPP): the PMU cannot %s", name,
                        attr->precise_ip ? "give this precise (:p) level" :
                        attr->sample_period ? "sample this event (no overflow interrupt)" :
                                              "count with these exclusion settings");
    case ENODEV:
        return pms__fail(PMS_ENOTSUP, "%s: not supported on this CPU (ENODEV)", name);
    case EACCES:
    case EPERM:
        return explain_permission(name, attr, pid, cpu, err);
    case ESRCH:
        return pms__fail(PMS_ENOENT, "%s: no process with pid %d (ESRCH)", name, (int)pid);
    case EINVAL: {
        char pmu[128];
        if (pid != -1 && pms__sysfs_pmu_is_system_wide(attr->type, pmu, sizeof pmu))
            return pms__fail(PMS_ENOTSUP,
                            "%s: the %s PMU counts per CPU for the whole system, not per process (EINVAL); "
                            "pmuscope counts processes", name, pmu);
        return pms__fail(PMS_EINVAL,
                        "%s: the kernel rejected the event (EINVAL): type %u config 0x%llx%s", name, attr->type,
                        (unsigned long long)attr->config,
                        attr->precise_ip ? " (the precise level :p may be too high for this PMU)" :
                                           " is not valid for this PMU");
    }
    case EMFILE:
        return pms__fail(PMS_EIO, "%s: too many open files (EMFILE); raise the limit with ulimit -n", name);
    case EBUSY:
        return pms__fail(PMS_EIO, "%s: the counters are held exclusively by another user (EBUSY)", name);
    default:
        return pms__fail_errno(pms__status_from_errno(err), err, "%s: perf_event_open failed", name);
    }
}

int pms_event_open(const char *name, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                   unsigned long flags)
{
    if (!attr->size) attr->size = sizeof *attr;
    if (attr->type == PMS_EVENT_TOOL_TYPE)
        return pms__fail(PMS_EINVAL, "%s: a tool event (a time pmuscope stat measures), not a perf_event_open event: "
                                     "it can be counted by stat, not sampled", name ? name : "event");
    long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
    if (fd >= 0) return (int)fd;
    return explain(name ? name : "event", attr, pid, cpu, errno);
}

int pms_event_probe(const pms_event *ev)
{
    if (pms_event_is_tool(ev)) return PMS_OK; /* measured, not opened: every machine has them */
    struct perf_event_attr attr = ev->attr;
    attr.disabled = 1;
    int fd = pms_event_open(ev->name, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return fd;
    close(fd);
    return PMS_OK;
}
