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

#define NONE ((size_t)-1)
/* A group read gives the leader's value then its members' in the order they joined it (the
 * kernel's sibling list), which is the order of opening here: no ids needed, as PAPI reads. */
#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

typedef struct member {
    int fd;                            /* -1: not supported */
    bool leads;                        /* reads its group with read(2) */
    size_t next;                       /* the group's next member in the kernel's order (the
                                          order of opening), NONE after its last */
    bool clock;                        /* a clock: checked against its enabled time */
    bool group_mapped;                 /* leader: every member of its group has its page */
    size_t group_size;                 /* leader: its group's events */
    bool user;                         /* read in user space at the last snapshot */
    struct perf_event_mmap_page *page; /* NULL: read(2) only */
    char *unsupported;                 /* why it could not be opened */
} member;

struct pms_counterset {
    pms_event *events;
    size_t n;
    member *m;
    uint64_t *buf;          /* one group read */
    size_t *leaders, nleaders; /* the events that lead a group */
    bool started;
    counter_reading *now;    /* the latest snapshot */
    counter_reading *last;   /* the one before it: the window between them is the latest */
    counter_reading *offset; /* started: the counts since the reset are now - offset */
    counter_reading *held;   /* stopped: the counts since the reset */
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
    free(s->m), free(s->events), free(s->buf), free(s->leaders);
    free(s->now), free(s->last), free(s->offset), free(s->held), free(s->win);
    free(s);
}

/* Opens event i on the calling thread (in the group of leader_fd, or leading a new one). */
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
    return fd;
}

/* The event leading event i's group: its first event that opened (NONE: i leads). A group's
 * events need not be next to each other in the list. */
static size_t leader_of(const pms_counterset *s, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (s->events[j].group == s->events[i].group && s->m[j].leads) return j;
    return NONE;
}

/* Adds event i at the end of the chain of lead's group. */
static void chain(pms_counterset *s, size_t lead, size_t i)
{
    size_t last = lead;
    while (s->m[last].next != NONE) last = s->m[last].next;
    s->m[last].next = i;
}

/* Opens every group; a group's first event that opens leads it. */
static int open_all(pms_counterset *s, unsigned flags)
{
    bool user_reads = !(flags & PMS_COUNTERSET_NO_USER_READ) && pms__user_read_allowed();
    for (size_t i = 0; i < s->n; i++) {
        size_t lead = leader_of(s, i);
        int leader_fd = lead == NONE ? -1 : s->m[lead].fd;
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
        m->leads = lead == NONE;
        m->clock = pms_event_counts_time(s->events[i].attr.type, s->events[i].attr.config);
        if (lead != NONE) chain(s, lead, i);
        if (user_reads && !pms_event_is_software(&s->events[i])) m->page = pms__user_read_map(fd);
    }
    for (size_t i = 0; i < s->n; i++) {
        if (!s->m[i].leads) continue;
        s->leaders[s->nleaders++] = i;
        s->m[i].group_mapped = true;
        for (size_t j = i; j != NONE; j = s->m[j].next) {
            s->m[i].group_mapped &= s->m[j].page != NULL;
            s->m[i].group_size++;
        }
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
    s->buf = malloc((3 + n) * sizeof *s->buf);
    s->leaders = calloc(n, sizeof *s->leaders);
    s->now = calloc(n, sizeof *s->now);
    s->last = calloc(n, sizeof *s->last);
    s->offset = calloc(n, sizeof *s->offset);
    s->held = calloc(n, sizeof *s->held);
    s->win = calloc(n, sizeof *s->win);
    if (!s->events || !s->m || !s->buf || !s->leaders || !s->now || !s->last || !s->offset || !s->held || !s->win) {
        pms_counterset_destroy(s);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    memcpy(s->events, events, n * sizeof *events);
    for (size_t i = 0; i < n; i++) s->m[i] = (member){.fd = -1, .next = NONE};
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

/* The group that event lead leads, read with read(2) into now: nr, enabled, running, then the
 * values in the group's order. */
static int read_group(pms_counterset *s, size_t lead, counter_reading *now)
{
    size_t want = (3 + s->m[lead].group_size) * sizeof *s->buf;
    ssize_t got = read(s->m[lead].fd, s->buf, want);
    if (got < 0) return pms__fail_errno(PMS_EIO, errno, "%s: cannot read the counter group", s->events[lead].name);
    if ((size_t)got != want || s->buf[0] != s->m[lead].group_size)
        return pms__fail(PMS_EIO, "%s: a group read of %zd bytes, expected %zu", s->events[lead].name, got, want);
    const uint64_t *value = s->buf + 3;
    for (size_t i = lead; i != NONE; i = s->m[i].next) {
        now[i] = (counter_reading){*value++, s->buf[1], s->buf[2]};
        if (s->m[i].user) s->m[i].user = false;
    }
    return PMS_OK;
}

/* Reads the group that event lead leads in user space; false if any member cannot be. */
static bool read_group_user(pms_counterset *s, size_t lead, counter_reading *now)
{
    for (size_t i = lead; i != NONE; i = s->m[i].next) {
        if (!pms__user_read(s->m[i].page, &now[i].raw, &now[i].enabled, &now[i].running)) return false;
        if (!s->m[i].user) s->m[i].user = true;
    }
    return true;
}

int pms__counterset_snapshot(pms_counterset *s, counter_reading *now)
{
    for (size_t k = 0; k < s->nleaders; k++) {
        size_t i = s->leaders[k];
        if (s->m[i].group_mapped && read_group_user(s, i, now)) continue;
        int r = read_group(s, i, now);
        if (r) return r;
    }
    return PMS_OK;
}

static counter_reading minus(counter_reading a, counter_reading b)
{
    return (counter_reading){a.raw - b.raw, a.enabled - b.enabled, a.running - b.running};
}

/* Takes a snapshot into the older buffer, closes with it a window of every event since the
 * snapshot before, and makes it s->now. Only the windows in which the event was multiplexed are
 * kept: the estimate may use any windows that the kernel's turns, not the counts, chose, and an
 * event never multiplexed costs nothing here. */
static int snapshot_window(pms_counterset *s)
{
    counter_reading *fresh = s->last;
    int r = pms__counterset_snapshot(s, fresh);
    if (r) return r;
    for (size_t i = 0; i < s->n; i++) {
        counter_reading d = minus(fresh[i], s->now[i]);
        if (d.running < d.enabled) pms_mux_windows_add(&s->win[i], d.raw, d.running);
    }
    s->last = s->now;
    s->now = fresh;
    return PMS_OK;
}

/* The count of event i of raw, enabled and running (since the reset): unscaled, the usual case,
 * in a few stores. */
static inline void set_count(const pms_counterset *s, size_t i, uint64_t raw, uint64_t enabled, uint64_t running,
                             pms_count *out)
{
    const member *m = &s->m[i];
    counter_reading c = {raw, enabled, running};
    out->raw = c.raw;
    out->enabled = c.enabled;
    out->running = c.running;
    out->flaw = PMS_FLAW_NONE;
    out->uncertainty = 0;
    if (!m->unsupported && c.running == c.enabled && c.running > 0) {
        out->state = PMS_COUNT_COUNTED;
        out->value = (double)c.raw;
        out->dispersion = 0;
        out->windows = 0;
    } else {
        out->state = m->unsupported ? PMS_COUNT_NOT_SUPPORTED : PMS_COUNT_COUNTED;
        out->windows = s->win[i].n;
        out->dispersion = pms_mux_dispersion(&s->win[i]);
        pms_count_scale(out);
    }
    if (m->clock) pms_count_check(out, &s->events[i]);
}

int pms_counterset_start(pms_counterset *s)
{
    if (s->started) return pms__fail(PMS_EINVAL, "the counter set is already started");
    int r = snapshot_window(s); /* stopped: nothing counts until enabled below */
    if (r) return r;
    for (size_t i = 0; i < s->n; i++) s->offset[i] = minus(s->now[i], s->held[i]);
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
        s->held[i] = minus(s->now[i], s->offset[i]);
        if (out) set_count(s, i, s->held[i].raw, s->held[i].enabled, s->held[i].running, &out[i]);
    }
    return PMS_OK;
}

int pms_counterset_reset(pms_counterset *s)
{
    memset(s->held, 0, s->n * sizeof *s->held);
    if (!s->started) return PMS_OK;
    int r = snapshot_window(s);
    if (r == PMS_OK) memcpy(s->offset, s->now, s->n * sizeof *s->offset);
    return r;
}

int pms_counterset_read(pms_counterset *s, pms_count *out)
{
    int r = s->started ? snapshot_window(s) : PMS_OK;
    if (r) return r;
    if (!s->started) {
        for (size_t i = 0; i < s->n; i++) set_count(s, i, s->held[i].raw, s->held[i].enabled, s->held[i].running, &out[i]);
        return PMS_OK;
    }
    const counter_reading *now = s->now, *off = s->offset;
    for (size_t i = 0; i < s->n; i++)
        set_count(s, i, now[i].raw - off[i].raw, now[i].enabled - off[i].enabled, now[i].running - off[i].running, &out[i]);
    return PMS_OK;
}

int pms_counterset_accum(pms_counterset *s, pms_count *sum)
{
    int r = s->started ? snapshot_window(s) : PMS_OK;
    if (r) return r;
    for (size_t i = 0; i < s->n; i++) {
        counter_reading c = s->started ? minus(s->now[i], s->offset[i]) : s->held[i];
        set_count(s, i, c.raw + sum[i].raw, c.enabled + sum[i].enabled, c.running + sum[i].running, &sum[i]);
        s->held[i] = (counter_reading){0};
        s->offset[i] = s->now[i];
    }
    return PMS_OK;
}
