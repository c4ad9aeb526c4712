/* pmuscope: overflow sampling into mmap ring buffers.
 *
 * One or more sampling events (each with its own period or frequency, optional
 * period randomisation and optional counters read at every sample) write into one
 * ring buffer per monitored thread (the others are redirected with
 * PERF_EVENT_IOC_SET_OUTPUT). Samples always carry IP, TID, TIME, PERIOD, ID and
 * IDENTIFIER; MMAP2/COMM/FORK/EXIT records are requested so that IPs can be
 * symbolised later. pms_sampler_poll() hands every record to a callback in order,
 * contiguous even where it wraps in the buffer, and advances data_tail.
 *
 * With inherit the buffers are per CPU (the kernel cannot map an inherited per-thread
 * event). A randomised event wakes the poll at every sample; after each drain every fd
 * that sampled gets one new period. For cpu-clock and task-clock, whose samples the
 * kernel keeps marking with the first period after PERF_EVENT_IOC_PERIOD, the sampler
 * writes the period in force into the samples (CLOCK_MONOTONIC is used for that unless a
 * clock is given) and never sets a period below 50 us. */
#ifndef PMUSCOPE_SAMPLER_H
#define PMUSCOPE_SAMPLER_H
#include "pmuscope/event.h"
#include "pmuscope/perfdata.h"
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef enum pms_randomize_kind {
    PMS_RANDOMIZE_NONE,
    PMS_RANDOMIZE_MASK, /* next period = base + uniform value below 2^bits (pfmon; Wu & Mencer) */
    PMS_RANDOMIZE_EXP,  /* next period exponentially distributed with mean base (Sembrant) */
} pms_randomize_kind;

typedef struct pms_randomize {
    pms_randomize_kind kind;
    unsigned bits;      /* MASK only */
    uint64_t seed;      /* 0: seeded from the clock */
} pms_randomize;

/* Parses "mask:BITS" (BITS 1..32) or "exp" into *out (seed 0). */
int pms_randomize_parse(const char *spec, pms_randomize *out);

/* The next sampling period for a uniform draw u in [0,1) (a pure function, so the
 * distribution is testable): MASK gives base + floor(u * 2^bits), EXP gives
 * -base * ln(1 - u) rounded, at least 1; NONE gives base. */
uint64_t pms_randomize_period(const pms_randomize *r, uint64_t base, double u);

/* A seeded source of randomised periods around base (GSL's MT19937 supplies u). The
 * same seed gives the same sequence; seed 0 seeds from the clock. */
typedef struct pms_period_gen pms_period_gen;
int pms_period_gen_create(pms_period_gen **out, const pms_randomize *r, uint64_t base);
uint64_t pms_period_gen_next(pms_period_gen *g);
void pms_period_gen_set_base(pms_period_gen *g, uint64_t base);
void pms_period_gen_destroy(pms_period_gen *g);

typedef struct pms_sampling_event {
    pms_event event;
    uint64_t period;           /* -c; 0 means use freq */
    uint64_t freq;             /* -F in Hz */
    pms_randomize randomize;
    const pms_event *read;     /* counters read at every sample (PERF_SAMPLE_READ group) */
    size_t nread;
    uint32_t wakeup_events;    /* 0: pms_sampler_poll() wakes when the buffer is a quarter
                                  full; N: also after every N samples of this event (e.g. 1
                                  on an interval event: one wake-up per interval) */
} pms_sampling_event;

typedef struct pms_sampler_config {
    const pms_sampling_event *events;
    size_t nevents;
    size_t mmap_pages;         /* data pages per buffer, a power of 2; 0: 128 (512 KiB) */
    int use_clockid;           /* non-zero: timestamps from clockid (e.g. CLOCK_MONOTONIC) */
    int clockid;
    int inherit;               /* follow threads and children created later */
    int enable_on_exec;        /* start counting when the launched child execs */
    int time_order;            /* non-zero: records reach the callback in time order across the
                                  buffers (see pms_sampler_poll); pms_sampler_flush() at the end */
    int thread_only;           /* pid is a thread id: that thread alone, not its process's other
                                  threads (perf record -t); without inherit */
    pid_t exclude_tid;         /* a thread of pid's process left out (the caller's own reader
                                  thread, when it samples its own process); 0: none */
    int system_wide;           /* every task on the CPUs (perf record -a): pid is ignored, inherit
                                  and enable_on_exec too (enable with pms_sampler_enable); samples
                                  carry PERF_SAMPLE_CPU */
    const char *cpus;          /* system-wide: the CPUs, as "0-3,6" (perf's -C); NULL: every online one */
    int callchain;             /* non-zero: samples carry the kernel's frame-pointer callchain
                                  (PERF_SAMPLE_CALLCHAIN, as perf record -g) */
    uint32_t dwarf_stack_size; /* non-zero (with callchain): perf record --call-graph dwarf,SIZE:
                                  samples carry the user registers and SIZE bytes (a multiple of 8,
                                  at most PMS_DWARF_STACK_MAX) of the user stack for unwinding
                                  afterwards (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER); the
                                  kernel's callchain then holds only kernel frames */
} pms_sampler_config;

/* perf record --call-graph dwarf's default and largest stack copies, in bytes. */
#define PMS_DWARF_STACK_DEFAULT 8192u
#define PMS_DWARF_STACK_MAX 65528u
/* The user registers a dwarf sample carries on this architecture (perf's sample_regs_user):
 * every general register, x86_64 without the segment registers; 0 where pmuscope does not
 * know the architecture's set. */
uint64_t pms_sampler_user_regs_mask(void);

typedef struct pms_sampler_stats {
    uint64_t records, samples;
    uint64_t lost;             /* samples lost (PERF_RECORD_LOST) */
    uint64_t throttles, unthrottles;
    uint64_t period_updates;   /* PERF_EVENT_IOC_PERIOD calls made for randomisation */
    uint64_t period_update_ns; /* time spent in those calls */
    uint64_t late;             /* with time_order: records that arrived after a newer one had
                                  been passed on (passed on at once, out of order) */
    uint64_t early;            /* randomised cpu-clock or task-clock: samples the kernel took
                                  before their drawn period had run (the timer fired again
                                  before the sampler changed it), left out */
    uint64_t overdue;          /* ... due samples skipped: the sampler got to them after
                                  their count had passed, so the next one is due a freshly
                                  drawn period later (as a timer that overruns skips to its
                                  next period) */
    uint64_t uncovered;        /* ... the count (ns of CPU time) that no sample's period
                                  covers: skipped when overdue, or the part of a period that
                                  a change cut short (a period under 1 ms on average runs
                                  several samples per draw, then changes) */
} pms_sampler_stats;

/* The kernel's limit on sampling frequencies (perf_event_max_sample_rate, samples per
 * second): perf_event_open refuses a higher frequency with EINVAL. */
int pms_sampler_max_sample_rate(uint64_t *max);
/* The event to sample when the caller names none, as perf record's: "cycles" where this
 * machine samples it, else "cpu-clock" (the default without a hardware PMU, as in most
 * virtual machines). *event is set in both cases; the status is cycles' probe's, and
 * when it is not PMS_OK, pms_strerror() says why cycles cannot be sampled. */
int pms_sampler_default_event(const char **event);

typedef struct pms_sampler pms_sampler;

/* Opens the events on process pid (all its current threads; with inherit, later ones
 * too). pid may be a child held by pms_child_spawn. */
int pms_sampler_open(pms_sampler **out, const pms_sampler_config *cfg, pid_t pid);
/* The opened events as perf.data attributes with their sample ids: the sampling
 * events first, in order, then their read counters. Valid until close. */
const pms_perfdata_attr *pms_sampler_attrs(const pms_sampler *s, size_t *count);
int pms_sampler_enable(pms_sampler *s);
int pms_sampler_disable(pms_sampler *s);

/* Waits up to timeout_ms (0: no wait, -1: forever) for data, then passes every
 * available record to fn. Returns the number of records drained, or a negative status
 * (fn's non-zero return stops the drain and is returned).
 *
 * With time_order and more than one buffer (inherit: one per CPU; or several threads),
 * the records drained are queued instead, and fn gets, sorted by time, those no newer
 * than the newest record of the previous poll (as perf's FINISHED_ROUND): every buffer
 * has been drained since, so nothing older can arrive. With one buffer they pass at once. */
typedef int (*pms_record_fn)(const struct perf_event_header *h, void *ctx);
int pms_sampler_poll(pms_sampler *s, int timeout_ms, pms_record_fn fn, void *ctx);
/* With time_order: passes every record still queued to fn, in time order (after the last
 * poll, once the events are disabled). Without it, does nothing. */
int pms_sampler_flush(pms_sampler *s, pms_record_fn fn, void *ctx);

/* Changes the period of sampling event i on every thread (PERF_EVENT_IOC_PERIOD). */
int pms_sampler_set_period(pms_sampler *s, size_t i, uint64_t period);

/* Passes COMM and MMAP2 records (time 0, laid out for these events) describing process
 * pid as it is now, read from /proc: for an attach to a running process, whose
 * mappings the kernel reported before the events existed. */
int pms_sampler_synthesize(const pms_sampler *s, pid_t pid, pms_record_fn fn, void *ctx);

/* The same for every process of the machine (system-wide recording), as perf record -a;
 * processes that end meanwhile or cannot be read are left out. */
int pms_sampler_synthesize_all(const pms_sampler *s, pms_record_fn fn, void *ctx);
/* Passes the kernel's text mapping as perf record synthesizes it ([kernel.kallsyms]_text,
 * _text to _etext from /proc/kallsyms), and the loaded modules' ([name], from
 * /proc/modules), so that kernel samples are named from the file alone; nothing when every
 * event excludes the kernel or its addresses are hidden. */
int pms_sampler_synthesize_kernel(const pms_sampler *s, pms_record_fn fn, void *ctx);

/* True once every monitored thread has exited (all buffers report POLLHUP). */
int pms_sampler_target_gone(const pms_sampler *s);

void pms_sampler_get_stats(const pms_sampler *s, pms_sampler_stats *out);
void pms_sampler_close(pms_sampler *s);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
