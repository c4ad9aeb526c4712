/* Overflow sampling: events opened per thread (or per CPU with inherit), one ring
 * buffer per thread or CPU, period randomisation through PERF_EVENT_IOC_PERIOD.
 *
 * Randomisation from user space: a randomised event wakes us at every sample; after a
 * drain, every fd that sampled gets one new period. The ioctl restarts the count, so
 * the events between a sample and our change (our wake-up delay) would not be
 * represented, and a period shorter than that delay fires again with the old period
 * first: the cost of not patching the kernel as Sembrant's thesis did.
 *
 * For cpu-clock and task-clock (their count is the thread's CPU time) the sampler keeps
 * the drawn periods in the count instead: each sample carries the event's count
 * (PERF_SAMPLE_READ, taken out again before the sample is passed on); a sample is due
 * a drawn period after the previous one was due, and the timer is restarted with what is
 * left of it (the count read just before). A sample the kernel took before it was due
 * (the timer fired again before our change) is left out, and each sample says the drawn
 * period it ends (a sample that came late is followed by a shorter interval, so the
 * samples keep to the drawn periods; one overdue, whose due count passed before the
 * sampler got to it, is skipped and the next one is due a fresh period later, as when a
 * fixed period's timer overruns: the time it skipped belongs to no sample and is counted).
 * Without this, beside a short period changed at every sample, a 64 us period lost 40% of
 * its samples to our delay, while a longer one sampled in full the CPU time our interrupts
 * added to the thread.
 *
 * Every change and every wake-up of the sampler interrupts the target, some 35 us of its
 * CPU time on a VM: a 64 us period changed at every sample made the target's CPU time 4
 * times what it was unsampled. So a period that averages under PMS_RUN_NS runs the same
 * number of samples per draw (in_run_sample); the sampler is woken once per run. */
#include "pmuscope/sampler.h"

#include "collect/ring.h"
#include "collect/sampler_counts.h"
#include "io/perfdata_order.h"
#include "pmuscope/target.h"
#include "util/error.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PMS_SAMPLE_BASE                                                                                     \
    (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
/* Position of each field of a sample, in u64 words after the header (kernel order);
 * system-wide, PERF_SAMPLE_CPU sits between TIME and PERIOD (s->w_period).
 * (No PERF_SAMPLE_ID: IDENTIFIER holds the same id, and perf reads either.) */
enum { W_IDENTIFIER, W_IP, W_PIDTID, W_TIME };

/* The shortest period we set on cpu-clock and task-clock (hrtimer events) through
 * PERF_EVENT_IOC_PERIOD. The kernel fires them no sooner than 10 us; worse, on a VM
 * (kernel 6.18) a period of 20 us that the timer could not keep up with left the
 * event firing every ~50 us even after later PERF_EVENT_IOC_PERIOD calls set 200 us,
 * while 50 us recovered. Randomised periods below this are raised to it. */
#define PMS_HRTIMER_MIN_PERIOD 50000
#define PMS_PENDING_MAX 8
/* In the count (ns of CPU time), about the least a randomised cpu-clock or task-clock event
 * runs one drawn period before the sampler changes it (see in_run_sample). Each change costs the
 * target an interrupt (PERF_EVENT_IOC_PERIOD on its CPU) and each wake-up of the sampler
 * another; on a VM the two cost it some 35 us of CPU, so a 64 us period changed at every
 * sample more than doubled its CPU time. */
#define PMS_RUN_NS 1000000

/* A period change that the kernel has not yet shown in a sample: samples taken from
 * time `from` on (ioctl start + the new period, the earliest the restarted timer can
 * fire) were taken with `period`. */
typedef struct pending_period {
    uint64_t from, period;
} pending_period;

typedef struct sampling_fd {
    uint64_t id;
    int fd;
    size_t event;
    uint64_t period; /* in force, for events whose samples we correct */
    pending_period pending[PMS_PENDING_MAX];
    size_t npending;
    int resample; /* took a sample in this drain: gets a new random period after it */
    pid_t tid;    /* the thread whose event this is; -1 system-wide (every task) */
    uint64_t due;        /* kept in the count: the count at which the next sample is due */
    uint64_t period_due; /* ... the drawn period that ends there */
    uint64_t changed_at; /* ... the count read at our latest period change */
    uint64_t last_count; /* ... in runs: the count of the fd's latest sample */
    uint64_t run_left;   /* ... in runs: samples left to the drawn period in force */
} sampling_fd;

typedef struct event_state {
    pms_sampling_event cfg;
    uint64_t base;
    pms_period_gen *gen; /* NULL without randomisation */
    /* The kernel keeps reporting the first period in samples of hrtimer events after
     * PERF_EVENT_IOC_PERIOD (hw.last_period is never updated for them, seen on 6.18),
     * so the sampler writes the period in force into those samples itself. */
    int correct_period;
    /* Randomised and counting CPU time: the drawn periods are kept in the count (see the
     * top). Its samples carry their count (PERF_SAMPLE_READ, which the sampler adds and
     * takes out; not where --read counters already ask for a group read). */
    int in_count;
    /* In the count, a mean period under PMS_RUN_NS: each drawn period runs for several
     * samples (at least PMS_RUN_NS of the count), the sampler woken every `run` samples. */
    uint64_t run;
} event_state;

struct pms_sampler {
    event_state *ev;
    size_t nevents;
    pms_event *reads; /* every event's read counters, in order */
    size_t nreads;
    size_t fds_per_unit;    /* nevents + nreads */
    size_t nunits;          /* threads, or CPUs with inherit, that were opened */
    size_t nalloc;          /* units allocated */
    size_t ring_bytes;      /* data bytes of each ring buffer */
    int *fds;               /* [unit][fds_per_unit] */
    pms_ring *rings;        /* [unit] */
    struct pollfd *pfds;    /* [unit] */
    sampling_fd *sfds;      /* [unit * nevents], sorted by id after open */
    pms_perfdata_attr *attrs;
    uint64_t *ids;          /* [attr][unit] */
    int have_clock;
    clockid_t clock;
    pms_sampler_stats stats;
    pms_record_fn fn;
    void *ctx;
    uint64_t *patched; /* a sample whose period we correct is copied here (64 KiB) */
    sampling_fd **resample; /* the fds marked in this drain */
    size_t nresample;
    int system_wide;        /* units are CPUs with every task on them (pid -1) */
    size_t w_period;        /* the word of PERIOD in a sample: W_TIME + 1, + 1 more with CPU */
    int ordered;            /* records pass through `order` (time_order with several buffers) */
    pms__order_queue order; /* perf's ordered-events rules, as the perf.data reader applies them */
    uint64_t last_time;     /* of the latest record drained, for one without a time */
    uint64_t passed_time;   /* of the newest record passed on, to count late ones */
};

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fill_attr(const pms_sampler *s, const pms_sampler_config *cfg, struct perf_event_attr *a,
                      const pms_event *ev, const pms_sampling_event *sev)
{
    *a = ev->attr;
    a->size = sizeof *a;
    /* A group read in the samples of the events that lead counters (and in the attrs of the
     * counters, whose ids the reads name), not in those of an event that reads none: it
     * would carry its own count, 40 bytes a sample that nobody reads. */
    int reads = s->nreads && (!sev || sev->nread);
    a->sample_type = PMS_SAMPLE_BASE | (reads ? PERF_SAMPLE_READ : 0) | (s->system_wide ? PERF_SAMPLE_CPU : 0) |
                     (cfg->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
    if (cfg->dwarf_stack_size) { /* as perf record --call-graph dwarf sets them */
        a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        a->sample_regs_user = pms_sampler_user_regs_mask();
        a->sample_stack_user = cfg->dwarf_stack_size;
        a->exclude_callchain_user = 1; /* the user part is unwound from the stack copy */
    }
    a->read_format = PERF_FORMAT_ID;
    if (s->nreads)
        a->read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    a->sample_id_all = 1;
    a->inherit = cfg->inherit && !cfg->system_wide ? 1 : 0;
    if (s->have_clock) {
        a->use_clockid = 1;
        a->clockid = s->clock;
    }
    if (!sev) { /* a counter read at every sample: a group member that never samples */
        a->disabled = 0;
        return;
    }
    a->disabled = 1;
    a->enable_on_exec = cfg->enable_on_exec && !cfg->system_wide ? 1 : 0;
    if (sev->period) {
        a->sample_period = sev->period;
    } else {
        a->freq = 1;
        a->sample_freq = sev->freq;
    }
}

static int set_fd_period(pms_sampler *s, sampling_fd *f, uint64_t period)
{
    event_state *e = &s->ev[f->event];
    if (e->correct_period && period < PMS_HRTIMER_MIN_PERIOD) period = PMS_HRTIMER_MIN_PERIOD;
    clockid_t clock = s->have_clock ? s->clock : CLOCK_MONOTONIC;
    uint64_t t0 = now_ns(clock);
    if (ioctl(f->fd, PERF_EVENT_IOC_PERIOD, &period) < 0)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "%s: cannot change the sampling period to %llu",
                              e->cfg.event.name, (unsigned long long)period);
    s->stats.period_update_ns += now_ns(clock) - t0;
    if (e->correct_period && !e->in_count) { /* in the count, the samples say their period */
        if (!s->have_clock) {
            f->period = period; /* no common clock with the samples: the next sample gets it */
        } else {
            if (f->npending == PMS_PENDING_MAX) { /* assume the oldest has taken effect */
                f->period = f->pending[0].period;
                memmove(f->pending, f->pending + 1, (PMS_PENDING_MAX - 1) * sizeof f->pending[0]);
                f->npending--;
            }
            f->pending[f->npending++] = (pending_period){t0 + period, period};
        }
    }
    return PMS_OK;
}

/* The period in force when a sample was taken at time t: the latest change whose
 * restarted timer could have fired by t. */
static uint64_t period_at(sampling_fd *f, uint64_t t)
{
    for (size_t k = f->npending; k-- > 0;) {
        if (f->pending[k].from <= t) {
            f->period = f->pending[k].period;
            memmove(f->pending, f->pending + k + 1, (f->npending - k - 1) * sizeof f->pending[0]);
            f->npending -= k + 1;
            break;
        }
    }
    return f->period;
}

static int cmp_sfd(const void *a, const void *b)
{
    uint64_t x = ((const sampling_fd *)a)->id, y = ((const sampling_fd *)b)->id;
    return x < y ? -1 : x > y;
}

static sampling_fd *find_sfd(pms_sampler *s, uint64_t id)
{
    sampling_fd key = {.id = id};
    return bsearch(&key, s->sfds, s->nunits * s->nevents, sizeof key, cmp_sfd);
}

/* The sample copied into s->patched without the count the sampler asked for (value, id
 * after PERIOD), with `period`: it leaves the sampler as the event's attr describes it. */
static const struct perf_event_header *without_count(pms_sampler *s, const struct perf_event_header *h,
                                                     uint64_t period)
{
    size_t at = sizeof *h + (s->w_period + 1) * sizeof(uint64_t), cut = 2 * sizeof(uint64_t);
    unsigned char *p = (unsigned char *)s->patched;
    memcpy(p, h, at);
    memcpy(p + at, (const unsigned char *)h + at + cut, h->size - at - cut);
    ((struct perf_event_header *)(void *)p)->size = (uint16_t)(h->size - cut);
    s->patched[1 + s->w_period] = period;
    return (const struct perf_event_header *)(void *)p;
}

/* A sample of an event whose periods are kept in the count: left out (returns 1) if it
 * came before it was due, else passed on with the drawn period it ends, the next period
 * drawn; the fd is marked for its change either way. */
static int in_count_sample(pms_sampler *s, sampling_fd *f, const struct perf_event_header **h)
{
    const uint64_t *w = (const uint64_t *)(const void *)(*h + 1);
    uint64_t count = w[s->w_period + 1], period;
    /* With inherit, a thread or child the command started samples with a copy of the
     * event that carries the same id and its own count; PERF_EVENT_IOC_PERIOD reaches the
     * original only: such a sample changes nothing here. Its copy runs with the period the
     * original had when it was copied (what was left of a drawn one, perhaps); it says the
     * original's drawn period, as the samples of the copies always did here. */
    int own = f->tid <= 0 || (pid_t)(w[W_PIDTID] >> 32) == f->tid, early = own && count < f->due;
    /* The timer runs what is left of the period due, unless this early sample came before
     * our latest change, which took it into account already (another change would only
     * interrupt the target once more). */
    if (own && !f->resample && !(early && count < f->changed_at)) {
        f->resample = 1;
        s->resample[s->nresample++] = f;
    }
    if (early) {
        s->stats.early++;
        return 1;
    }
    period = f->period_due;
    if (own) {
        f->period_due = pms_period_gen_next(s->ev[f->event].gen);
        if (f->due + f->period_due > count) {
            f->due += f->period_due;
        } else { /* the next due sample has passed too: skipped, as a timer that overruns */
            s->stats.overdue++;
            s->stats.uncovered += count - f->due;
            f->due = count + f->period_due;
        }
    }
    *h = without_count(s, *h, period);
    return 0;
}

/* A sample of an event whose drawn periods run for several samples each (the same number
 * for every draw, so that the samples follow the drawn distribution: a run of a fixed
 * length in the count would take more samples of a short draw than of a long one): passed
 * on with the drawn period in force. The part of a period that a change cut short (less
 * than one period, whatever the sampler's delay) lengthens the first interval after it,
 * and is counted as covered by no sample. */
static int in_run_sample(pms_sampler *s, sampling_fd *f, const struct perf_event_header **h)
{
    const uint64_t *w = (const uint64_t *)(const void *)(*h + 1);
    uint64_t count = w[s->w_period + 1], period = f->period_due;
    if (f->tid <= 0 || (pid_t)(w[W_PIDTID] >> 32) == f->tid) {
        if (f->run_left == s->ev[f->event].run && count > f->last_count + period) /* first after a change */
            s->stats.uncovered += count - f->last_count - period;
        f->last_count = count;
        if (f->run_left) f->run_left--;
        if (!f->resample && !f->run_left) {
            f->resample = 1;
            s->resample[s->nresample++] = f;
        }
    }
    *h = without_count(s, *h, period);
    return 0;
}

/* Randomises the next period; *h is replaced by a corrected copy where needed. Returns 1
 * for a sample to leave out. */
static int on_sample(pms_sampler *s, const struct perf_event_header **h)
{
    if ((*h)->size < sizeof **h + (s->w_period + 1) * sizeof(uint64_t)) return PMS_OK;
    const uint64_t *w = (const uint64_t *)(const void *)(*h + 1);
    sampling_fd *f = find_sfd(s, w[W_IDENTIFIER]);
    if (!f) return PMS_OK;
    event_state *e = &s->ev[f->event];
    if (e->in_count) {
        if ((*h)->size < sizeof **h + (s->w_period + 3) * sizeof(uint64_t)) return 0;
        return e->run > 1 ? in_run_sample(s, f, h) : in_count_sample(s, f, h);
    }
    if (e->correct_period) {
        uint64_t period = period_at(f, w[W_TIME]);
        if (period != w[s->w_period]) {
            memcpy(s->patched, *h, (*h)->size);
            s->patched[1 + s->w_period] = period;
            *h = (const struct perf_event_header *)(void *)s->patched;
        }
    }
    /* One new period per drain and fd: every sample of a drain was taken before any change
     * we make now, and each change restarts the count, so a second one would only cancel
     * the first. */
    if (e->gen && !f->resample) {
        f->resample = 1;
        s->resample[s->nresample++] = f;
    }
    return PMS_OK;
}

/* The event's count now (read(2) with PERF_FORMAT_ID: value, id). */
static int read_count(const sampling_fd *f, uint64_t *count)
{
    uint64_t v[2];
    return read(f->fd, v, sizeof v) == (ssize_t)sizeof v ? (*count = v[0], 0) : -1;
}

/* What is left of the period due for f's next sample (kept in the count). A sample
 * already overdue is skipped, as a timer that overruns skips to its next period: the next
 * one is due a freshly drawn period from now. (Asking for it as soon as the timer can, 10 us,
 * made the timer fire every 10 us until our next change, and each firing and change
 * interrupted the target: its CPU time grew several times.) */
static uint64_t left_of_due(pms_sampler *s, sampling_fd *f)
{
    uint64_t now;
    if (read_count(f, &now) != 0) return f->period_due;
    f->changed_at = now;
    if (f->due > now) return f->due - now;
    s->stats.overdue++;
    s->stats.uncovered += now - (f->due - f->period_due);
    f->period_due = pms_period_gen_next(s->ev[f->event].gen);
    f->due = now + f->period_due;
    return f->period_due;
}

/* The period f runs next: a fresh draw, or in the count what is left of the one due. */
static uint64_t next_period(pms_sampler *s, sampling_fd *f)
{
    event_state *e = &s->ev[f->event];
    if (!e->in_count) return pms_period_gen_next(e->gen);
    if (e->run <= 1) return left_of_due(s, f);
    f->run_left = e->run;
    return f->period_due = pms_period_gen_next(e->gen);
}

static int randomize_marked(pms_sampler *s)
{
    int rc = PMS_OK;
    for (size_t k = 0; k < s->nresample; k++) {
        sampling_fd *f = s->resample[k];
        f->resample = 0;
        s->stats.period_updates++;
        if (!rc) rc = set_fd_period(s, f, next_period(s, f));
    }
    s->nresample = 0;
    return rc;
}

/* A record's time: a sample's TIME, or the sample_id trailer's (sample_id_all is set:
 * pid/tid, time, identifier end every other record); 0 if it is too short for one. */
static uint64_t time_of(const pms_sampler *s, const struct perf_event_header *h)
{
    const uint64_t *w = (const uint64_t *)(const void *)(h + 1);
    size_t words = (h->size - sizeof *h) / sizeof(uint64_t), trailer = s->system_wide ? 4 : 3; /* [cpu] */
    if (h->type == PERF_RECORD_SAMPLE) return words > W_TIME ? w[W_TIME] : 0;
    return words >= trailer ? w[words - trailer + 1] : 0;
}

/* A record leaving the time-order queue: to the caller's callback. */
static int pass_on(const unsigned char *rec, uint64_t file_off, void *ctx)
{
    (void)file_off;
    pms_sampler *s = ctx;
    const struct perf_event_header *h = (const void *)rec;
    uint64_t t = time_of(s, h);
    if (t && t < s->passed_time) s->stats.late++;
    else if (t) s->passed_time = t;
    return s->fn ? s->fn(h, s->ctx) : 0;
}

/* Queues a drained record for time order; one without a time goes with the one before. */
static int queue_record(pms_sampler *s, const struct perf_event_header *h)
{
    uint64_t t = time_of(s, h);
    if (t) s->last_time = t;
    int rc = pms__order_push(&s->order, (const unsigned char *)h, h->size, s->last_time ? s->last_time : 1, 0,
                             pass_on, s);
    return rc == PMS_ENOMEM ? pms__fail(rc, "out of memory for the records awaiting time order") : rc;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
    pms_sampler *s = ctx;
    s->stats.records++;
    const uint64_t *w = (const uint64_t *)(const void *)(h + 1);
    switch (h->type) {
    case PERF_RECORD_SAMPLE: {
        int rc = on_sample(s, &h);
        if (rc < 0) return rc;
        if (rc) { /* left out */
            s->stats.records--;
            return PMS_OK;
        }
        s->stats.samples++;
        break;
    }
    case PERF_RECORD_LOST:
        if (h->size >= sizeof *h + 2 * sizeof(uint64_t)) s->stats.lost += w[1];
        break;
    case PERF_RECORD_THROTTLE: s->stats.throttles++; break;
    case PERF_RECORD_UNTHROTTLE: s->stats.unthrottles++; break;
    default: break;
    }
    if (s->ordered) return queue_record(s, h);
    return s->fn ? s->fn(h, s->ctx) : 0;
}

static int check_config(const pms_sampler_config *cfg)
{
    if (!cfg || !cfg->events || cfg->nevents == 0) return pms__fail(PMS_EINVAL, "no sampling event given");
    for (size_t i = 0; i < cfg->nevents; i++) {
        const pms_sampling_event *e = &cfg->events[i];
        if (!e->period && !e->freq)
            return pms__fail(PMS_EINVAL, "%s: no sampling period or frequency given", e->event.name);
        if (e->randomize.kind != PMS_RANDOMIZE_NONE && !e->period)
            return pms__with_option(
                pms__fail(PMS_EINVAL, "%s: period randomisation needs a fixed period, not a frequency", e->event.name),
                "period");
        if (e->nread && !e->read) return pms__fail(PMS_EINVAL, "%s: read counters missing", e->event.name);
    }
    if (cfg->thread_only && (cfg->inherit || cfg->system_wide))
        return pms__fail(PMS_EINVAL, "one thread alone cannot be followed into the threads it starts (inherit) "
                                     "or system-wide");
    if (cfg->dwarf_stack_size && (cfg->dwarf_stack_size % 8 || cfg->dwarf_stack_size > PMS_DWARF_STACK_MAX))
        return pms__fail(PMS_EINVAL, "dwarf stack size %u: expected a multiple of 8 up to %u bytes",
                        cfg->dwarf_stack_size, PMS_DWARF_STACK_MAX);
    if (cfg->dwarf_stack_size && !pms_sampler_user_regs_mask())
        return pms__with_option(
            pms__fail(PMS_EINVAL, "DWARF call graphs: pmuscope does not know this architecture's registers"),
            "dwarf_stack_size");
    size_t pages = cfg->mmap_pages ? cfg->mmap_pages : 128;
    if (pages & (pages - 1))
        return pms__fail(PMS_EINVAL, "ring buffer: %zu pages is not a power of 2", pages);
    return PMS_OK;
}

/* Copies the configuration: the events, their read counters, the random generators. */
static int setup_events(pms_sampler *s, const pms_sampler_config *cfg)
{
    s->nevents = cfg->nevents;
    for (size_t i = 0; i < cfg->nevents; i++) s->nreads += cfg->events[i].nread;
    s->fds_per_unit = s->nevents + s->nreads;
    s->ev = calloc(s->nevents, sizeof *s->ev);
    s->reads = calloc(s->nreads ? s->nreads : 1, sizeof *s->reads);
    s->attrs = calloc(s->fds_per_unit, sizeof *s->attrs);
    if (!s->ev || !s->reads || !s->attrs) return pms__fail(PMS_ENOMEM, "out of memory");
    if (cfg->use_clockid) {
        s->have_clock = 1;
        s->clock = cfg->clockid;
    }
    size_t r = 0;
    for (size_t i = 0; i < cfg->nevents; i++) {
        event_state *e = &s->ev[i];
        e->cfg = cfg->events[i];
        e->base = e->cfg.period;
        if (e->cfg.nread) memcpy(s->reads + r, e->cfg.read, e->cfg.nread * sizeof *s->reads);
        e->cfg.read = s->reads + r;
        r += e->cfg.nread;
        /* The clock events are hrtimer based: the kernel keeps reporting their first period. */
        e->correct_period = pms_event_counts_time(e->cfg.event.attr.type, e->cfg.event.attr.config) && e->cfg.period;
        if (e->cfg.randomize.kind != PMS_RANDOMIZE_NONE) {
            int rc = pms_period_gen_create(&e->gen, &e->cfg.randomize, e->base);
            if (rc) return rc;
            e->in_count = e->correct_period && !s->nreads;
            uint64_t mean = e->base + (e->cfg.randomize.kind == PMS_RANDOMIZE_MASK ? (1ull << e->cfg.randomize.bits) / 2 : 0);
            e->run = e->in_count && mean < PMS_RUN_NS ? (PMS_RUN_NS + mean - 1) / mean : 1;
            /* Matching the samples to our period changes needs one clock for both. */
            if (e->correct_period && !s->have_clock) {
                s->have_clock = 1;
                s->clock = CLOCK_MONOTONIC;
            }
        }
    }
    return PMS_OK;
}

/* The thread tid alone, if it exists. */
static int one_thread(pid_t tid, pid_t **tids, size_t *n)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d", (int)tid, (int)tid);
    if (access(path, F_OK)) return pms__fail(PMS_ENOENT, "no thread with id %d", (int)tid);
    if (!(*tids = malloc(sizeof **tids))) return pms__fail(PMS_ENOMEM, "out of memory");
    **tids = tid;
    *n = 1;
    return PMS_OK;
}

/* The monitored units: the threads of pid, or with inherit every CPU (the kernel
 * cannot map an inherited per-thread event, so perf record does the same), or
 * system-wide the CPUs asked for (all online ones by default) with every task (-1). */
static int list_units(const pms_sampler_config *cfg, pid_t pid, pid_t **tids, int **cpus, size_t *n)
{
    if (cfg->system_wide) pid = -1;
    if (!cfg->inherit && !cfg->system_wide) {
        int rc = cfg->thread_only ? one_thread(pid, tids, n) : pms_process_threads(pid, tids, n);
        if (rc) return rc;
        size_t kept = 0;
        for (size_t i = 0; i < *n; i++)
            if (!cfg->exclude_tid || (*tids)[i] != cfg->exclude_tid) (*tids)[kept++] = (*tids)[i];
        *n = kept;
        *cpus = calloc(*n ? *n : 1, sizeof **cpus);
        if (!*cpus) return pms__fail(PMS_ENOMEM, "out of memory");
        for (size_t i = 0; i < *n; i++) (*cpus)[i] = -1;
        return PMS_OK;
    }
    int rc = pms_cpu_list(cpus, n, cfg->system_wide ? cfg->cpus : NULL);
    if (rc) return rc;
    *tids = calloc(*n, sizeof **tids);
    if (!*tids) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t c = 0; c < *n; c++) (*tids)[c] = pid;
    return PMS_OK;
}

static int open_unit(pms_sampler *s, const pms_sampler_config *cfg, size_t u, pid_t tid, int cpu)
{
    int *fds = s->fds + u * s->fds_per_unit;
    size_t r = s->nevents;
    for (size_t i = 0; i < s->nevents; i++) {
        event_state *e = &s->ev[i];
        struct perf_event_attr a;
        fill_attr(s, cfg, &a, &e->cfg.event, &e->cfg);
        if (i == 0) { /* the records that let IPs be symbolised, once per buffer */
            a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 1;
            /* with dwarf, the files' data mappings too, as perf: its unwinder reads the
             * .eh_frame_hdr of a PIE binary in the read-only mapping before the code */
            a.mmap_data = cfg->dwarf_stack_size ? 1 : 0;
        }
        if (e->gen) {
            /* wake at every sample to set the next period (at the end of a run) */
            a.wakeup_events = e->in_count ? (uint32_t)e->run : 1;
        } else if (e->cfg.wakeup_events) {
            a.wakeup_events = e->cfg.wakeup_events; /* redirected events share the buffer's wake-ups */
        } else {
            a.watermark = 1;
            a.wakeup_watermark = (uint32_t)(s->ring_bytes / 4);
        }
        struct perf_event_attr with_count = a;
        with_count.sample_type |= e->in_count ? PERF_SAMPLE_READ : 0;
        int fd = pms_event_open(e->cfg.event.name, &with_count, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd == PMS_EINVAL && e->in_count && cfg->inherit && u == 0) {
            /* before Linux 6.12 an inherited event cannot read its count into its samples:
             * then the periods are not kept in the count */
            e->in_count = 0;
            e->run = 1;
            a.wakeup_events = 1;
            fd = pms_event_open(e->cfg.event.name, &a, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
        }
        if (fd < 0) return fd;
        fds[i] = fd;
        s->sfds[u * s->nevents + i].tid = tid;
        if (u == 0) s->attrs[i].attr = a; /* as the samples leave the sampler */
        for (size_t k = 0; k < e->cfg.nread; k++, r++) {
            struct perf_event_attr m;
            fill_attr(s, cfg, &m, &e->cfg.read[k], NULL);
            int mfd = pms_event_open(e->cfg.read[k].name, &m, tid, cpu, fd, PERF_FLAG_FD_CLOEXEC);
            if (mfd < 0) return mfd;
            fds[r] = mfd;
            if (u == 0) s->attrs[r].attr = m;
        }
    }
    return PMS_OK;
}

static int map_unit(pms_sampler *s, size_t u, size_t pages)
{
    int *fds = s->fds + u * s->fds_per_unit;
    int rc = pms__ring_map(&s->rings[u], fds[0], pages);
    if (rc) return pms__fail_context(rc, "%s", s->ev[0].cfg.event.name);
    for (size_t i = 1; i < s->nevents; i++)
        if (ioctl(fds[i], PERF_EVENT_IOC_SET_OUTPUT, fds[0]) < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot redirect its samples into the buffer of %s",
                                  s->ev[i].cfg.event.name, s->ev[0].cfg.event.name);
    for (size_t k = 0; k < s->fds_per_unit; k++) {
        uint64_t id;
        if (ioctl(fds[k], PERF_EVENT_IOC_ID, &id) < 0)
            return pms__fail_errno(PMS_EIO, errno, "cannot read the id of an event");
        s->ids[k * s->nunits + u] = id;
        if (k < s->nevents) {
            sampling_fd *f = &s->sfds[u * s->nevents + k];
            f->id = id;
            f->fd = fds[k];
            f->event = k;
            f->period = s->ev[k].cfg.period;
            f->due = f->period_due = s->ev[k].cfg.period; /* the first period, set at the open */
            f->run_left = s->ev[k].run;
        }
    }
    s->pfds[u] = (struct pollfd){.fd = fds[0], .events = POLLIN};
    return PMS_OK;
}

static int alloc_units(pms_sampler *s, size_t n)
{
    s->fds = malloc(n * s->fds_per_unit * sizeof *s->fds);
    s->rings = calloc(n, sizeof *s->rings);
    s->pfds = calloc(n, sizeof *s->pfds);
    s->sfds = calloc(n * s->nevents, sizeof *s->sfds);
    s->ids = calloc(n * s->fds_per_unit, sizeof *s->ids);
    s->resample = calloc(n * s->nevents, sizeof *s->resample);
    s->nalloc = n;
    if (!s->fds || !s->rings || !s->pfds || !s->sfds || !s->ids || !s->resample) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < n * s->fds_per_unit; i++) s->fds[i] = -1;
    return PMS_OK;
}

/* Closes the fds of unit u (a thread that exited before we got to it). */
static void close_unit(pms_sampler *s, size_t u)
{
    for (size_t k = 0; k < s->fds_per_unit; k++) {
        int *fd = &s->fds[u * s->fds_per_unit + k];
        if (*fd >= 0) close(*fd);
        *fd = -1;
    }
}

static int open_all(pms_sampler *s, const pms_sampler_config *cfg, pid_t pid)
{
    pid_t *tids = NULL;
    int *cpus = NULL;
    size_t n = 0;
    int rc = list_units(cfg, pid, &tids, &cpus, &n);
    if (!rc) rc = alloc_units(s, n);
    size_t pages = cfg->mmap_pages ? cfg->mmap_pages : 128;
    size_t opened = 0;
    s->ring_bytes = pages * (size_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; !rc && i < n; i++) {
        rc = open_unit(s, cfg, opened, tids[i], cpus[i]);
        if (rc == PMS_ENOENT && !cfg->inherit && !cfg->system_wide) { /* a thread that ended since we listed it */
            close_unit(s, opened);
            rc = PMS_OK;
            continue;
        }
        if (!rc) opened++;
    }
    s->nunits = opened;
    for (size_t u = 0; !rc && u < s->nunits; u++) rc = map_unit(s, u, pages);
    if (!rc && s->nunits == 0) rc = pms__fail(PMS_ENOENT, "process %d has no thread left to sample", (int)pid);
    free(tids);
    free(cpus);
    return rc;
}

static int name_attrs(pms_sampler *s)
{
    size_t r = s->nevents;
    for (size_t i = 0; i < s->fds_per_unit; i++) {
        s->attrs[i].ids = s->ids + i * s->nunits;
        s->attrs[i].nids = s->nunits;
    }
    for (size_t i = 0; i < s->nevents; i++) {
        s->attrs[i].name = s->ev[i].cfg.event.name;
        for (size_t k = 0; k < s->ev[i].cfg.nread; k++, r++) s->attrs[r].name = s->ev[i].cfg.read[k].name;
    }
    qsort(s->sfds, s->nunits * s->nevents, sizeof *s->sfds, cmp_sfd);
    return PMS_OK;
}

int pms_sampler_open(pms_sampler **out, const pms_sampler_config *cfg, pid_t pid)
{
    *out = NULL;
    int rc = check_config(cfg);
    if (rc) return rc;
    pms_sampler *s = calloc(1, sizeof *s);
    if (!s || !(s->patched = malloc(65536))) {
        free(s);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    s->system_wide = cfg->system_wide;
    s->w_period = W_TIME + 1 + (s->system_wide ? 1 : 0);
    rc = setup_events(s, cfg);
    if (!rc) rc = open_all(s, cfg, pid);
    if (!rc) rc = name_attrs(s);
    s->ordered = cfg->time_order && s->nunits > 1;
    if (rc) {
        pms_sampler_close(s);
        return rc;
    }
    *out = s;
    return PMS_OK;
}

const pms_perfdata_attr *pms_sampler_attrs(const pms_sampler *s, size_t *count)
{
    *count = s->fds_per_unit;
    return s->attrs;
}

static int ioctl_leaders(pms_sampler *s, unsigned long request, const char *what)
{
    for (size_t u = 0; u < s->nunits; u++)
        for (size_t i = 0; i < s->nevents; i++)
            if (ioctl(s->fds[u * s->fds_per_unit + i], request, 0) < 0)
                return pms__fail_errno(PMS_EIO, errno, "%s: cannot %s sampling", s->ev[i].cfg.event.name, what);
    return PMS_OK;
}

int pms_sampler_enable(pms_sampler *s) { return ioctl_leaders(s, PERF_EVENT_IOC_ENABLE, "enable"); }
int pms_sampler_disable(pms_sampler *s) { return ioctl_leaders(s, PERF_EVENT_IOC_DISABLE, "disable"); }

int pms_sampler_poll(pms_sampler *s, int timeout_ms, pms_record_fn fn, void *ctx)
{
    if (timeout_ms != 0 && poll(s->pfds, s->nunits, timeout_ms) < 0 && errno != EINTR)
        return pms__fail_errno(PMS_EIO, errno, "waiting for samples");
    s->fn = fn;
    s->ctx = ctx;
    uint64_t count = 0;
    int rc = 0;
    for (size_t u = 0; !rc && u < s->nunits; u++) rc = pms__ring_drain(&s->rings[u], on_record, s, &count);
    if (!rc && s->ordered) rc = pms__order_round(&s->order, pass_on, s);
    int rrc = randomize_marked(s);
    if (rc) return rc;
    if (rrc) return rrc;
    return count > (uint64_t)INT32_MAX ? INT32_MAX : (int)count;
}

int pms_sampler_flush(pms_sampler *s, pms_record_fn fn, void *ctx)
{
    s->fn = fn;
    s->ctx = ctx;
    return s->ordered ? pms__order_drain(&s->order, pass_on, s) : PMS_OK;
}

int pms_sampler_set_period(pms_sampler *s, size_t i, uint64_t period)
{
    if (i >= s->nevents) return pms__fail(PMS_EINVAL, "no sampling event %zu (there are %zu)", i, s->nevents);
    if (period == 0) return pms__fail(PMS_EINVAL, "%s: a sampling period must be at least 1", s->ev[i].cfg.event.name);
    event_state *e = &s->ev[i];
    e->base = period;
    if (e->gen) pms_period_gen_set_base(e->gen, period);
    for (size_t k = 0; k < s->nunits * s->nevents; k++) {
        if (s->sfds[k].event != i) continue;
        s->sfds[k].due = 0; /* the next sample comes with the new period, whenever it comes */
        s->sfds[k].period_due = period;
        s->sfds[k].run_left = e->run;
        int rc = set_fd_period(s, &s->sfds[k], period);
        if (rc) return rc;
    }
    return PMS_OK;
}

int pms_sampler_target_gone(const pms_sampler *s)
{
    if (s->system_wide) return 0; /* every task of the CPUs: never gone */
    for (size_t u = 0; u < s->nunits; u++) {
        struct pollfd p = {.fd = s->pfds[u].fd, .events = POLLIN};
        if (poll(&p, 1, 0) < 0 || !(p.revents & POLLHUP)) return 0;
    }
    return 1;
}

void pms_sampler_get_stats(const pms_sampler *s, pms_sampler_stats *out) { *out = s->stats; }

int pms__sampler_read_group(const pms_sampler *s, size_t i, pms_read_value *values, size_t max, size_t *n)
{
    *n = 0;
    if (i >= s->nevents) return pms__fail(PMS_EINVAL, "no sampling event %zu (there are %zu)", i, s->nevents);
    if (!s->nreads) return pms__fail(PMS_EINVAL, "%s reads no counters", s->ev[i].cfg.event.name);
    size_t members = 1 + s->ev[i].cfg.nread;
    if (members > max || members > 16)
        return pms__fail(PMS_EINVAL, "%zu counters in the group of %s, room for %zu", members,
                         s->ev[i].cfg.event.name, max < 16 ? max : 16);
    for (size_t u = 0; u < s->nunits; u++) {
        /* PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID (fill_attr):
         * nr, time_enabled, time_running, then {value, id} per member */
        uint64_t buf[3 + 2 * 16];
        size_t want = (3 + 2 * members) * sizeof *buf;
        ssize_t got = read(s->fds[u * s->fds_per_unit + i], buf, want);
        if (got < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: cannot read its group's counts", s->ev[i].cfg.event.name);
        if (got != (ssize_t)want || buf[0] != members)
            return pms__fail(PMS_EIO, "%s: its group read %zd bytes, %zu expected", s->ev[i].cfg.event.name, got,
                             want);
        for (size_t k = 0; k < members; k++) {
            if (u == 0) values[k] = (pms_read_value){.value = 0, .id = buf[3 + 2 * k + 1]};
            values[k].value += buf[3 + 2 * k];
        }
    }
    *n = members;
    return PMS_OK;
}

void pms_sampler_close(pms_sampler *s)
{
    if (!s) return;
    for (size_t u = 0; s->rings && u < s->nunits; u++) pms__ring_unmap(&s->rings[u]);
    if (s->fds)
        for (size_t u = 0; u < s->nalloc; u++) close_unit(s, u);
    for (size_t i = 0; s->ev && i < s->nevents; i++) pms_period_gen_destroy(s->ev[i].gen);
    free(s->ev);
    free(s->reads);
    free(s->fds);
    free(s->rings);
    free(s->pfds);
    free(s->sfds);
    free(s->attrs);
    free(s->ids);
    free(s->patched);
    free(s->resample);
    pms__order_free(&s->order);
    free(s);
}
