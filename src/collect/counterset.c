/* Counter sets of the calling thread (pmuscope/counterset.h): the events stay open; start,
 * stop and reset move baselines, and reads take the difference from them. */
#include "pmuscope/counterset.h"
#include "pmuscope/multiplex.h"

#include "collect/counterset_reading.h"
#include "collect/user_read.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define READ_FORMAT \
    (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

typedef struct member {
    int fd;                            /* -1: not supported */
    uint64_t id;                       /* PERF_FORMAT_ID */
    bool leads;                        /* reads its group with read(2) */
    bool user;                         /* read in user space at the last snapshot */
    struct perf_event_mmap_page *page; /* NULL: read(2) only */
    char *unsupported;                 /* why it could not be opened */
} member;

struct pms_counterset {
    pms_event *events;
    size_t n;
    member *m;
    uint64_t *buf;          /* one group read */
    bool started;
    counter_reading *now;   /* the latest snapshot */
    counter_reading *base;  /* the snapshot at the last start or reset */
    counter_reading *acc;   /* what was counted since the last reset, before the last start */
    counter_reading *last;  /* the snapshot that closed the last window */
    pms_mux_windows *win;
};

void pms_counterset_destroy(pms_counterset *s)
{
    if (!s) return;
    for (size_t i = 0; s->m && i < s->n; i++) {
        pms__user_read_unmap(s->m[i].page);
        if (s->m[i].fd >= 0) close(s->m[i].fd);
        free(s->m[i].unsupported);
    }
    free(s->m), free(s->events), free(s->buf);
    free(s->now), free(s->base), free(s->acc), free(s->last), free(s->win);
    free(s);
}

/* Opens event i on the calling thread (in the group of leader_fd, or leading a new one).
 * As perf, an event refused for kernel mode is counted in user mode, named NAME:u. */
static int open_member(pms_counterset *s, size_t i, int leader_fd, bool user_reads)
{
    pms_event *ev = &s->events[i];
    struct perf_event_attr attr = ev->attr;
    attr.size = sizeof attr;
    attr.read_format = READ_FORMAT;
    attr.disabled = leader_fd < 0;
    attr.inherit = 0;
    bool user = user_reads && !pms_event_is_software(ev);
    if (user) pms__user_read_prepare(&attr);
    int fd = pms_event_open(ev->name, &attr, 0, -1, leader_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd == PMS_EINVAL && attr.config1 != ev->attr.config1) { /* a kernel without arm64 user access */
        attr.config1 = ev->attr.config1;
        fd = pms_event_open(ev->name, &attr, 0, -1, leader_fd, PERF_FLAG_FD_CLOEXEC);
    }
    pms_event user_mode = *ev;
    if (fd == PMS_EPERM && pms_event_user_only(&user_mode)) {
        attr.exclude_kernel = user_mode.attr.exclude_kernel;
        attr.exclude_hv = user_mode.attr.exclude_hv;
        fd = pms_event_open(user_mode.name, &attr, 0, -1, leader_fd, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0) *ev = user_mode;
    }
    return fd;
}

/* Opens every group; a group's first event that opens leads it. */
static int open_all(pms_counterset *s, unsigned flags)
{
    bool user_reads = !(flags & PMS_COUNTERSET_NO_USER_READ) && pms__user_read_built();
    int leader_fd = -1;
    for (size_t i = 0; i < s->n; i++) {
        if (i == 0 || s->events[i].group != s->events[i - 1].group) leader_fd = -1;
        if (pms_event_is_tool(&s->events[i]))
            return pms__fail(PMS_EINVAL, "%s: a tool event is measured by pmuscope stat, not counted on a thread",
                             s->events[i].name);
        member *m = &s->m[i];
        int fd = open_member(s, i, leader_fd, user_reads);
        if (fd < 0) {
            if (!(flags & PMS_COUNTERSET_SKIP_UNSUPPORTED) || (fd != PMS_ENOTSUP && fd != PMS_EINVAL)) return fd;
            if (!(m->unsupported = strdup(pms_strerror()))) return pms__fail(PMS_ENOMEM, "out of memory");
            continue;
        }
        m->fd = fd;
        m->leads = leader_fd < 0;
        if (m->leads) leader_fd = fd;
        if (ioctl(fd, PERF_EVENT_IOC_ID, &m->id) < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot get the event id", s->events[i].name);
        if (user_reads && !pms_event_is_software(&s->events[i])) m->page = pms__user_read_map(fd);
    }
    return PMS_OK;
}

int pms_counterset_create(pms_counterset **out, const pms_event *events, size_t n, unsigned flags)
{
    *out = NULL;
    if (n == 0) return pms__fail(PMS_EINVAL, "no events to count");
    pms_counterset *s = calloc(1, sizeof *s);
    if (!s) return pms__fail(PMS_ENOMEM, "out of memory");
    s->n = n;
    s->events = malloc(n * sizeof *s->events);
    s->m = calloc(n, sizeof *s->m);
    s->buf = malloc((3 + 2 * n) * sizeof *s->buf);
    s->now = calloc(n, sizeof *s->now);
    s->base = calloc(n, sizeof *s->base);
    s->acc = calloc(n, sizeof *s->acc);
    s->last = calloc(n, sizeof *s->last);
    s->win = calloc(n, sizeof *s->win);
    if (!s->events || !s->m || !s->buf || !s->now || !s->base || !s->acc || !s->last || !s->win) {
        pms_counterset_destroy(s);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    memcpy(s->events, events, n * sizeof *events);
    for (size_t i = 0; i < n; i++) s->m[i].fd = -1;
    int r = open_all(s, flags);
    if (r) {
        pms_counterset_destroy(s);
        return r;
    }
    *out = s;
    return PMS_OK;
}

size_t pms_counterset_count(const pms_counterset *s) { return s->n; }
const pms_event *pms_counterset_event(const pms_counterset *s, size_t i) { return i < s->n ? &s->events[i] : NULL; }
const char *pms_counterset_unsupported_reason(const pms_counterset *s, size_t i)
{
    return i < s->n ? s->m[i].unsupported : NULL;
}
bool pms_counterset_read_in_user_space(const pms_counterset *s, size_t i) { return i < s->n && s->m[i].user; }

/* The group that event lead leads, read with read(2) into now: nr, enabled, running, then
 * {value, id} pairs. */
static int read_group(pms_counterset *s, size_t lead, counter_reading *now)
{
    size_t words = 3 + 2 * s->n;
    ssize_t got = read(s->m[lead].fd, s->buf, words * sizeof *s->buf);
    if (got < 0) return pms__fail_errno(PMS_EIO, errno, "%s: cannot read the counter group", s->events[lead].name);
    uint64_t nr = s->buf[0];
    if ((size_t)got < 3 * sizeof *s->buf || nr > s->n || (size_t)got < (3 + 2 * nr) * sizeof *s->buf)
        return pms__fail(PMS_EIO, "%s: short group read (%zd bytes)", s->events[lead].name, got);
    for (uint64_t k = 0; k < nr; k++)
        for (size_t i = lead; i < s->n && s->events[i].group == s->events[lead].group; i++)
            if (s->m[i].fd >= 0 && s->m[i].id == s->buf[4 + 2 * k]) {
                now[i] = (counter_reading){s->buf[3 + 2 * k], s->buf[1], s->buf[2]};
                s->m[i].user = false;
                break;
            }
    return PMS_OK;
}

/* Reads the group that event lead leads in user space; false if any member cannot be. */
static bool read_group_user(pms_counterset *s, size_t lead, counter_reading *now)
{
    for (size_t i = lead; i < s->n && s->events[i].group == s->events[lead].group; i++) {
        if (s->m[i].fd < 0) continue;
        if (!s->m[i].page || !pms__user_read(s->m[i].page, &now[i].raw, &now[i].enabled, &now[i].running))
            return false;
        s->m[i].user = true;
    }
    return true;
}

int pms__counterset_snapshot(pms_counterset *s, counter_reading *now)
{
    for (size_t i = 0; i < s->n; i++) {
        if (!s->m[i].leads) continue;
        if (read_group_user(s, i, now)) continue;
        int r = read_group(s, i, now);
        if (r) return r;
    }
    return PMS_OK;
}

static counter_reading minus(counter_reading a, counter_reading b)
{
    return (counter_reading){a.raw - b.raw, a.enabled - b.enabled, a.running - b.running};
}

static counter_reading plus(counter_reading a, counter_reading b)
{
    return (counter_reading){a.raw + b.raw, a.enabled + b.enabled, a.running + b.running};
}

/* Takes a snapshot and closes a window of every event with it. */
static int snapshot_window(pms_counterset *s)
{
    int r = pms__counterset_snapshot(s, s->now);
    if (r) return r;
    for (size_t i = 0; i < s->n; i++) {
        counter_reading d = minus(s->now[i], s->last[i]);
        pms_mux_windows_add(&s->win[i], d.raw, d.running);
        s->last[i] = s->now[i];
    }
    return PMS_OK;
}

static void set_count(const pms_counterset *s, size_t i, counter_reading c, pms_count *out)
{
    *out = (pms_count){.raw = c.raw, .enabled = c.enabled, .running = c.running,
                       .state = s->m[i].unsupported ? PMS_COUNT_NOT_SUPPORTED : PMS_COUNT_COUNTED,
                       .dispersion = pms_mux_dispersion(&s->win[i]),
                       .windows = s->win[i].n};
    pms_count_scale(out);
    pms_count_check(out, &s->events[i]);
}

int pms_counterset_start(pms_counterset *s)
{
    if (s->started) return pms__fail(PMS_EINVAL, "the counter set is already started");
    int r = snapshot_window(s); /* stopped: nothing counts until enabled below */
    if (r) return r;
    memcpy(s->base, s->now, s->n * sizeof *s->base);
    for (size_t i = 0; i < s->n; i++)
        if (s->m[i].leads && ioctl(s->m[i].fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot start the counter", s->events[i].name);
    s->started = true;
    return PMS_OK;
}

int pms_counterset_stop(pms_counterset *s, pms_count *out)
{
    if (!s->started) return pms__fail(PMS_EINVAL, "the counter set is not started");
    for (size_t i = 0; i < s->n; i++)
        if (s->m[i].leads && ioctl(s->m[i].fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot stop the counter", s->events[i].name);
    s->started = false;
    int r = snapshot_window(s);
    if (r) return r;
    for (size_t i = 0; i < s->n; i++) {
        s->acc[i] = plus(s->acc[i], minus(s->now[i], s->base[i]));
        if (out) set_count(s, i, s->acc[i], &out[i]);
    }
    return PMS_OK;
}

int pms_counterset_reset(pms_counterset *s)
{
    memset(s->acc, 0, s->n * sizeof *s->acc);
    if (!s->started) return PMS_OK;
    int r = snapshot_window(s);
    if (r == PMS_OK) memcpy(s->base, s->now, s->n * sizeof *s->base);
    return r;
}

int pms_counterset_read(pms_counterset *s, pms_count *out)
{
    int r = s->started ? snapshot_window(s) : PMS_OK;
    if (r) return r;
    for (size_t i = 0; i < s->n; i++)
        set_count(s, i, s->started ? plus(s->acc[i], minus(s->now[i], s->base[i])) : s->acc[i], &out[i]);
    return PMS_OK;
}

int pms_counterset_accum(pms_counterset *s, pms_count *sum)
{
    int r = s->started ? snapshot_window(s) : PMS_OK;
    if (r) return r;
    for (size_t i = 0; i < s->n; i++) {
        counter_reading now = s->started ? plus(s->acc[i], minus(s->now[i], s->base[i])) : s->acc[i];
        set_count(s, i, plus(now, (counter_reading){sum[i].raw, sum[i].enabled, sum[i].running}), &sum[i]);
        s->acc[i] = (counter_reading){0};
        s->base[i] = s->now[i];
    }
    return PMS_OK;
}
