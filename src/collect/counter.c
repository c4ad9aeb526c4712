/* Counter sets: perf groups opened per thread, read with PERF_FORMAT_GROUP and summed. */
#include "pmuscope/counter.h"
#include "pmuscope/multiplex.h"
#include "pmuscope/target.h"

#include "collect/cgroup.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define READ_FORMAT \
    (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

struct pms_counter {
    pms_event *events;
    size_t n;
    unsigned flags;
    char **unsupported; /* per event: the reason it could not be opened, or NULL */
    size_t nthreads;    /* units: threads, or CPUs system-wide */
    int *cpus;          /* system-wide: the CPU of each unit; NULL per thread */
    char **cgroups;     /* system-wide in cgroups (perf stat -G): their names; units are
                           cgroup-major, ncgroups x the CPUs */
    size_t ncgroups;
    int *fds;           /* nthreads x n; -1 where not open */
    uint64_t *ids;      /* nthreads x n: PERF_FORMAT_ID of each fd */
    bool *leader;       /* nthreads x n: fd leads its group (the one to read) */
    uint64_t *buf;      /* one group read */
    /* The windows between reads that give each count's dispersion (pmuscope/multiplex.h):
     * of the sums (n) and of every unit's counts (nthreads x n), with the last read of each. */
    pms_mux_windows *win, *unit_win;
    pms_count *last, *unit_last;
};

int pms_counter_create(const pms_event *events, size_t n, unsigned flags, pms_counter **out)
{
    *out = NULL;
    if (n == 0) return pms__fail(PMS_EINVAL, "no events to count");
    pms_counter *c = calloc(1, sizeof *c);
    if (!c) return pms__fail(PMS_ENOMEM, "out of memory");
    c->n = n;
    c->flags = flags;
    c->events = malloc(n * sizeof *c->events);
    c->unsupported = calloc(n, sizeof *c->unsupported);
    c->buf = malloc((3 + 2 * n) * sizeof *c->buf);
    if (!c->events || !c->unsupported || !c->buf) {
        pms_counter_destroy(c);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    memcpy(c->events, events, n * sizeof *events);
    *out = c;
    return PMS_OK;
}

static void close_all(pms_counter *c)
{
    for (size_t k = 0; k < c->nthreads * c->n; k++)
        if (c->fds[k] >= 0) close(c->fds[k]);
    free(c->fds);
    free(c->ids);
    free(c->leader);
    free(c->cpus);
    free(c->win), free(c->unit_win), free(c->last), free(c->unit_last);
    c->win = c->unit_win = NULL;
    c->last = c->unit_last = NULL;
    c->cpus = NULL;
    c->fds = NULL;
    c->ids = NULL;
    c->leader = NULL;
    c->nthreads = 0;
}

void pms_counter_destroy(pms_counter *c)
{
    if (!c) return;
    close_all(c);
    if (c->unsupported)
        for (size_t i = 0; i < c->n; i++) free(c->unsupported[i]);
    free(c->unsupported);
    for (size_t g = 0; g < c->ncgroups; g++) free(c->cgroups[g]);
    free(c->cgroups);
    free(c->events);
    free(c->buf);
    free(c);
}

size_t pms_counter_count(const pms_counter *c) { return c->n; }
const pms_event *pms_counter_event(const pms_counter *c, size_t i) { return i < c->n ? &c->events[i] : NULL; }
const char *pms_counter_unsupported_reason(const pms_counter *c, size_t i)
{
    return i < c->n ? c->unsupported[i] : NULL;
}

static int alloc_threads(pms_counter *c, size_t nthreads)
{
    close_all(c);
    c->fds = malloc(nthreads * c->n * sizeof *c->fds);
    c->ids = calloc(nthreads * c->n, sizeof *c->ids);
    c->leader = calloc(nthreads * c->n, sizeof *c->leader);
    if (!c->fds || !c->ids || !c->leader) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < nthreads * c->n; k++) c->fds[k] = -1;
    c->nthreads = nthreads;
    return PMS_OK;
}

/* Opens every group on one thread (or, with tid -1, on one CPU; with cgroup_fd >= 0, on one
 * CPU for the tasks of that cgroup). A group is a run of events with the same group number;
 * its first event that opens leads it. */
static int open_unit(pms_counter *c, size_t t, pid_t tid, int cpu, bool on_exec, int cgroup_fd)
{
    int leader_fd = -1;
    for (size_t i = 0; i < c->n; i++) {
        if (i == 0 || c->events[i].group != c->events[i - 1].group) leader_fd = -1;
        /* Tool events are measured, not opened; a group's next event leads in their place. */
        if (c->unsupported[i] || pms_event_is_tool(&c->events[i])) continue;
        struct perf_event_attr attr = c->events[i].attr;
        attr.size = sizeof attr;
        attr.read_format = READ_FORMAT;
        attr.inherit = tid >= 0; /* a CPU's events see every task already */
        bool leads = leader_fd < 0;
        attr.disabled = leads;
        attr.enable_on_exec = leads && on_exec;
        int fd = cgroup_fd >= 0 ? pms_event_open(c->events[i].name, &attr, cgroup_fd, cpu, leader_fd,
                                                 PERF_FLAG_FD_CLOEXEC | PERF_FLAG_PID_CGROUP)
                                : pms_event_open(c->events[i].name, &attr, tid, cpu, leader_fd, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
            if ((c->flags & PMS_COUNTER_SKIP_UNSUPPORTED) && (fd == PMS_ENOTSUP || fd == PMS_EINVAL)) {
                c->unsupported[i] = strdup(pms_strerror());
                if (!c->unsupported[i]) return pms__fail(PMS_ENOMEM, "out of memory");
                continue;
            }
            return fd;
        }
        size_t k = t * c->n + i;
        c->fds[k] = fd;
        c->leader[k] = leads;
        if (leads) leader_fd = fd;
        if (ioctl(fd, PERF_EVENT_IOC_ID, &c->ids[k]) < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot get the event id", c->events[i].name);
    }
    return PMS_OK;
}

static void close_thread(pms_counter *c, size_t t)
{
    for (size_t i = 0; i < c->n; i++) {
        size_t k = t * c->n + i;
        if (c->fds[k] >= 0) close(c->fds[k]);
        c->fds[k] = -1;
        c->leader[k] = false;
    }
}

int pms_counter_open_child(pms_counter *c, pid_t pid)
{
    int r = alloc_threads(c, 1);
    if (r) return r;
    r = open_unit(c, 0, pid, -1, true, -1);
    if (r) close_all(c);
    return r;
}

static int enable_all(pms_counter *c)
{
    for (size_t k = 0; k < c->nthreads * c->n; k++)
        if (c->leader[k] && ioctl(c->fds[k], PERF_EVENT_IOC_ENABLE, 0) < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot enable the counters", c->events[k % c->n].name);
    return PMS_OK;
}

int pms_counter_attach(pms_counter *c, pid_t pid)
{
    pid_t *tids;
    size_t nt;
    int r = pms_process_threads(pid, &tids, &nt);
    if (r) return r;
    r = alloc_threads(c, nt);
    size_t opened = 0;
    for (size_t t = 0; r == PMS_OK && t < nt; t++) {
        r = open_unit(c, t, tids[t], -1, false, -1);
        if (r == PMS_ENOENT) { /* the thread ended since it was listed */
            close_thread(c, t);
            r = PMS_OK;
        } else if (r == PMS_OK) {
            opened++;
        }
    }
    free(tids);
    if (r == PMS_OK && opened == 0) r = pms__fail(PMS_ENOENT, "no process with pid %d", (int)pid);
    if (r == PMS_OK) r = enable_all(c);
    if (r) close_all(c);
    return r;
}

int pms_counter_set_cgroups(pms_counter *c, const char *const *cgroups, size_t n)
{
    if (c->fds) return pms__fail(PMS_EINVAL, "the counters are open already: set the cgroups first");
    char **names = calloc(n ? n : 1, sizeof *names);
    if (!names) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t g = 0; g < n; g++)
        if (!(names[g] = strdup(cgroups[g]))) {
            while (g--) free(names[g]);
            free(names);
            return pms__fail(PMS_ENOMEM, "out of memory");
        }
    for (size_t g = 0; g < c->ncgroups; g++) free(c->cgroups[g]);
    free(c->cgroups);
    c->cgroups = names;
    c->ncgroups = n;
    return PMS_OK;
}

/* Every CPU of list, once per cgroup where there are cgroups. */
int pms_counter_open_cpus(pms_counter *c, const char *cpus)
{
    int *list;
    size_t n;
    int r = pms_cpu_list(&list, &n, cpus);
    if (r) return r;
    size_t ng = c->ncgroups ? c->ncgroups : 1;
    r = alloc_threads(c, ng * n);
    if (r == PMS_OK && !(c->cpus = malloc(ng * n * sizeof *c->cpus))) r = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t g = 0; r == PMS_OK && g < ng; g++) {
        int cgroup_fd = -1;
        if (c->ncgroups && (r = pms__cgroup_open(c->cgroups[g], &cgroup_fd)) != PMS_OK) break;
        for (size_t k = 0; r == PMS_OK && k < n; k++) {
            c->cpus[g * n + k] = list[k];
            r = open_unit(c, g * n + k, -1, list[k], false, cgroup_fd);
        }
        if (cgroup_fd >= 0) close(cgroup_fd);
    }
    if (r == PMS_OK) r = enable_all(c);
    free(list);
    if (r) close_all(c);
    return r;
}

size_t pms_counter_units(const pms_counter *c) { return c->nthreads; }
int pms_counter_unit_cpu(const pms_counter *c, size_t u) { return c->cpus && u < c->nthreads ? c->cpus[u] : -1; }
size_t pms_counter_cgroups(const pms_counter *c) { return c->ncgroups; }
const char *pms_counter_cgroup_name(const pms_counter *c, size_t g) { return g < c->ncgroups ? c->cgroups[g] : NULL; }
int pms_counter_unit_cgroup(const pms_counter *c, size_t u)
{
    return c->ncgroups && u < c->nthreads ? (int)(u / (c->nthreads / c->ncgroups)) : -1;
}

/* Adds one group read of thread t to out: nr, enabled, running, then {value, id} pairs. */
static int add_group(pms_counter *c, size_t t, size_t lead, pms_count *out)
{
    size_t words = 3 + 2 * c->n;
    ssize_t got = read(c->fds[t * c->n + lead], c->buf, words * sizeof *c->buf);
    if (got == 0) return PMS_OK; /* nothing to read from a thread that is gone */
    if (got < 0) return pms__fail_errno(PMS_EIO, errno, "%s: cannot read the counter group", c->events[lead].name);
    uint64_t nr = c->buf[0];
    if ((size_t)got < 3 * sizeof *c->buf || nr > c->n || (size_t)got < (3 + 2 * nr) * sizeof *c->buf)
        return pms__fail(PMS_EIO, "%s: short group read (%zd bytes)", c->events[lead].name, got);
    for (uint64_t m = 0; m < nr; m++) {
        uint64_t value = c->buf[3 + 2 * m], id = c->buf[4 + 2 * m];
        for (size_t i = lead; i < c->n && c->events[i].group == c->events[lead].group; i++)
            if (c->fds[t * c->n + i] >= 0 && c->ids[t * c->n + i] == id) {
                out[i].raw += value;
                out[i].enabled += c->buf[1];
                out[i].running += c->buf[2];
                break;
            }
    }
    return PMS_OK;
}

/* Adds the window since the last read of these n counts to win, and gives each count the
 * dispersion of its windows so far. */
static void add_windows(size_t n, pms_count *out, pms_count *last, pms_mux_windows *win)
{
    for (size_t i = 0; i < n; i++) {
        if (out[i].raw >= last[i].raw && out[i].running >= last[i].running)
            pms_mux_windows_add(&win[i], out[i].raw - last[i].raw, out[i].running - last[i].running);
        last[i] = out[i];
        out[i].dispersion = pms_mux_dispersion(&win[i]);
        out[i].windows = win[i].n;
    }
}

/* The states, dispersions and scaled values of one read of n counts (a unit's or the sums),
 * with the windows kept in *win and *last (allocated at the first read). */
static int finish_counts(const pms_counter *c, pms_count *out, size_t units, pms_mux_windows **win,
                         pms_count **last)
{
    size_t m = units * c->n;
    if (!*win) {
        *win = calloc(m ? m : 1, sizeof **win);
        *last = calloc(m ? m : 1, sizeof **last);
        if (!*win || !*last) return pms__fail(PMS_ENOMEM, "out of memory");
    }
    add_windows(m, out, *last, *win);
    for (size_t k = 0; k < m; k++) {
        size_t i = k % c->n;
        out[k].state = c->unsupported[i] ? PMS_COUNT_NOT_SUPPORTED : PMS_COUNT_COUNTED;
        pms_count_scale(&out[k]);
        pms_count_check(&out[k], &c->events[i]);
    }
    return PMS_OK;
}

int pms_counter_read(pms_counter *c, pms_count *out)
{
    if (!c->fds) return pms__fail(PMS_EINVAL, "the counters are not open");
    memset(out, 0, c->n * sizeof *out);
    for (size_t t = 0; t < c->nthreads; t++)
        for (size_t i = 0; i < c->n; i++)
            if (c->leader[t * c->n + i]) {
                int r = add_group(c, t, i, out);
                if (r) return r;
            }
    return finish_counts(c, out, 1, &c->win, &c->last);
}

int pms_counter_read_units(pms_counter *c, pms_count *out)
{
    if (!c->fds) return pms__fail(PMS_EINVAL, "the counters are not open");
    memset(out, 0, c->nthreads * c->n * sizeof *out);
    for (size_t t = 0; t < c->nthreads; t++) {
        pms_count *unit = out + t * c->n;
        for (size_t i = 0; i < c->n; i++) {
            int r = c->leader[t * c->n + i] ? add_group(c, t, i, unit) : PMS_OK;
            if (r) return r;
        }
    }
    return finish_counts(c, out, c->nthreads, &c->unit_win, &c->unit_last);
}
