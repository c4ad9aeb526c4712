/* The live phase monitor. The IP samples and the interval event's overflow records go to
 * one ring buffer per monitored thread, or per CPU where the command's children are
 * followed (inherit); every drain of the buffers is sorted by time and each record goes
 * to its thread's intervals at once, without waiting for other buffers: a thread's
 * interval ends on its own samples (or its own interval count), and its decision is taken
 * in the drain that brought that sample. The reader wakes when a buffer has an interval's
 * worth of samples (or, per thread, at every interval count), and where a thread's samples
 * spread over several CPUs' buffers, when its next interval should be complete. */
#include "phase/maps.h"
#include "phase/threads_internal.h"
#include "collect/sampler_counts.h"
#include "io/perfdata_format.h"
#include "pmuscope/sampler.h"
#include "util/error.h"
#include "util/grow.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A period no run reaches (146 years of task-clock; 2^62 instructions). */
#define UNREACHED_PERIOD (1ull << 62)

/* The records of one drain, copied out of the buffers to be sorted by time. */
typedef struct batch_entry {
    uint64_t time;
    size_t at, seq;
} batch_entry;

typedef struct batch {
    unsigned char *bytes;
    size_t len, cap;
    batch_entry *v;
    size_t n, ncap;
} batch;

struct pms_phase_monitor {
    pms_phase_monitor_config cfg;
    pms_event events[4];            /* sample, interval, then cycles and instructions if counted */
    pms_sampling_event sampling[2];
    pms_sampler *sampler;
    pms_phase_threads *threads;
    pms_maps *maps;
    pid_t pid;
    int per_cpu;                    /* inherit: one buffer per CPU, intervals cut by samples */
    uint64_t interval_size;         /* in the interval event's unit */
    uint64_t sample_type;           /* of every event (sample_id_all trailers) */
    batch batch;
    uint64_t lost;
    const char *metric_about;       /* pms_phase_monitor_metric_about */
    int user_only;                  /* an event counts user space only (perf_event_paranoid) */
    pthread_t thread;
    int thread_running;
    pthread_mutex_t lock;           /* the reader thread's start */
    pthread_cond_t cond;
    pid_t reader_tid;
    int go;
    atomic_int stop;
    int callback_status;            /* a non-zero return of the work on a record, for poll */
    int failure;                    /* the reading thread's status */
    char message[1024];             /* and its message (pms_strerror is per thread) */
    int stopped;
};

void pms_phase_monitor_config_default(pms_phase_monitor_config *c)
{
    memset(c, 0, sizeof *c);
    pms_phase_config_default(&c->phase);
    c->phase.classifier.threshold = PMS_PHASE_THRESHOLD_AUTO; /* these by the samples per interval */
    c->phase.classifier.transition_threshold = 0;
    c->phase.classifier.signature_size = 0;
    c->own_thread = 1;
}

/* The thesis's 100K branches with a PMU. Without one, samples are hrtimer interrupts that
 * cost the program about 25 us each on a VM (bench/bench-phase.sh: +40% of its CPU time at
 * one per 0.1 ms): one per 4 ms keeps the overhead below 1%. */
static uint64_t default_sample_period(const pms_event *e)
{
    return pms_event_is_software(e) ? PMS_PHASE_SOFTWARE_PERIOD : PMS_PHASE_PMU_PERIOD;
}

/* The event in user space only where perf_event_paranoid allows no more (as perf does:
 * "cpu-clock:u"); any other failure is left for the open to report. Counts the fallbacks. */
static int probe(pms_event *e, int *user_only)
{
    int fell_back;
    int rc = pms_event_probe_user_fallback(e, &fell_back);
    *user_only |= fell_back;
    return rc;
}

/* Parses name, or when it is NULL the first of the preferred names (NULL-terminated) this
 * machine can count, else the fallback. */
static int pick_event(const char *name, const char *const *preferred, const char *fallback, pms_event *out,
                      int *user_only)
{
    int rc;
    if (name) {
        if (!(rc = pms_event_parse(name, out))) (void)probe(out, user_only);
        return rc;
    }
    for (; *preferred; preferred++)
        if (pms_event_parse(*preferred, out) == PMS_OK && probe(out, user_only) == PMS_OK) return PMS_OK;
    if (!(rc = pms_event_parse(fallback, out))) (void)probe(out, user_only);
    return rc;
}

/* Samples of a hardware event as in the thesis: branches, or cycles on a PMU without a
 * branch event (ARM's PMUv3 in QEMU has cycles and instructions only). */
static const char *const sample_events[] = {"branches", "cycles", NULL};
static const char *const interval_events[] = {"instructions", NULL};

static int on_interval(const pms_phase_event *ev, void *ctx)
{
    pms_phase_monitor *m = ctx;
    int rc = 0;
    if (m->cfg.on_interval) rc = m->cfg.on_interval(ev, m->cfg.user);
    if (!rc && ev->changed && m->cfg.on_change) rc = m->cfg.on_change(ev, m->cfg.user);
    return rc;
}

/* ---- a drain's records, sorted by time ---- */

static int batch_add(pms_phase_monitor *m, const struct perf_event_header *h)
{
    batch *b = &m->batch;
    const unsigned char *rec = (const unsigned char *)h;
    uint64_t time = 0;
    if (h->type == PERF_RECORD_SAMPLE) { /* IDENTIFIER, IP, TID, then TIME (the sampler's layout) */
        if (h->size >= sizeof *h + 4 * 8) time = pms__get_u64(rec + sizeof *h + 3 * 8);
    } else {
        pms_sample_id sid;
        if (!pms__sample_id_parse(rec, h->size, m->sample_type, &sid)) time = sid.time;
    }
    if (pms__grow(&b->bytes, &b->cap, b->len + h->size, 1) || pms__grow(&b->v, &b->ncap, b->n + 1, sizeof *b->v))
        return pms__fail(PMS_ENOMEM, "out of memory for the monitor's records");
    memcpy(b->bytes + b->len, h, h->size);
    b->v[b->n] = (batch_entry){time, b->len, b->n};
    b->n++;
    b->len += h->size;
    return PMS_OK;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
    pms_phase_monitor *m = ctx;
    if (h->type == PERF_RECORD_LOST) {
        const struct { struct perf_event_header h; uint64_t id, lost; } *l = (const void *)h;
        if (h->size >= sizeof *l) m->lost += l->lost;
        return 0;
    }
    if (h->type != PERF_RECORD_SAMPLE && h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2 &&
        h->type != PERF_RECORD_FORK)
        return 0;
    int rc = batch_add(m, h);
    if (rc) m->callback_status = rc;
    return rc;
}

static int cmp_entry(const void *a, const void *b)
{
    const batch_entry *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One record of the batch to its thread's intervals (or to the address map). */
static int handle(pms_phase_monitor *m, const struct perf_event_header *h)
{
    if (h->type != PERF_RECORD_SAMPLE) return pms__maps_record(m->maps, h, m->sample_type);
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(m->sampler, &nattrs);
    pms_sample s;
    pms_read_value values[8];
    int rc = pms_sample_parse(h, attrs, nattrs, &s, values, 8);
    return rc ? rc : pms__phase_threads_sample(m->threads, &s);
}

static int dispatch_batch(pms_phase_monitor *m)
{
    batch *b = &m->batch;
    if (b->n) qsort(b->v, b->n, sizeof *b->v, cmp_entry);
    int rc = PMS_OK;
    for (size_t i = 0; !rc && i < b->n; i++) {
        /* records are 8-byte aligned in the copy as in the buffer: each size is a multiple of 8 */
        rc = handle(m, (const struct perf_event_header *)(const void *)(b->bytes + b->v[i].at));
    }
    b->n = b->len = 0;
    return rc;
}

/* Drains the buffers (waiting up to timeout_ms) and handles what came: PMS_OK with the
 * number of records in *records, or a failure (negative) or a callback's non-zero value. */
static int drain(pms_phase_monitor *m, int timeout_ms, int *records)
{
    int n = pms_sampler_poll(m->sampler, timeout_ms, on_record, m);
    int rc = m->callback_status ? m->callback_status : n < 0 ? n : dispatch_batch(m);
    m->batch.n = m->batch.len = 0;
    m->callback_status = 0;
    *records = n;
    return rc;
}

/* How long the reader may sleep: per CPU, until the thread nearest to the end of its
 * interval should have its samples (as if it ran all the time; a thread that gets less of
 * a CPU makes the reader wake early and sleep again); per thread, the interval count wakes
 * it. The limit bounds how late a stop is seen. */
static int sleep_ms(const pms_phase_monitor *m)
{
    const int limit = 100;
    if (!m->per_cpu || !pms_event_counts_time(m->events[0].attr.type, m->events[0].attr.config)) return limit;
    uint64_t to_go = pms__phase_threads_samples_to_go(m->threads);
    if (!to_go) return limit;
    uint64_t ms = (to_go * m->sampling[0].period + 999999) / 1000000 + 1; /* and a millisecond's slack */
    return ms < (uint64_t)limit ? (int)ms : limit;
}

/* ---- the reader thread ---- */

static void *reader(void *arg)
{
    pms_phase_monitor *m = arg;
    pthread_mutex_lock(&m->lock);
    m->reader_tid = (pid_t)syscall(SYS_gettid);
    pthread_cond_broadcast(&m->cond);
    while (!m->go && !atomic_load(&m->stop)) pthread_cond_wait(&m->cond, &m->lock);
    pthread_mutex_unlock(&m->lock);
    while (!atomic_load(&m->stop)) {
        int records, rc = drain(m, sleep_ms(m), &records);
        if (rc) {
            m->failure = rc;
            snprintf(m->message, sizeof m->message, "%s", pms_strerror());
            break;
        }
        if (records == 0 && pms_sampler_target_gone(m->sampler)) break;
    }
    return NULL;
}

/* Starts the reader before the events are opened: it exists before them, so that events
 * inherited by the threads the target creates later do not sample it, and its thread id
 * is known, so that an own-process target's thread list leaves it out. */
static int start_reader(pms_phase_monitor *m)
{
    if (pthread_create(&m->thread, NULL, reader, m)) return pms__fail(PMS_EIO, "cannot start the monitor thread");
    m->thread_running = 1;
    pthread_mutex_lock(&m->lock);
    while (!m->reader_tid) pthread_cond_wait(&m->cond, &m->lock);
    pthread_mutex_unlock(&m->lock);
    return PMS_OK;
}

static void release_reader(pms_phase_monitor *m, int go)
{
    pthread_mutex_lock(&m->lock);
    if (go) m->go = 1;
    else atomic_store(&m->stop, 1);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

/* ---- opening ---- */

/* The events and their periods; the counters read (cycles and instructions, with a PMU)
 * go with the interval event's records where each thread has its buffer, with every
 * sample where they are per CPU (intervals are cut by samples there). */
static int choose_events(pms_phase_monitor *m, const pms_phase_monitor_config *cfg)
{
    int rc = pick_event(cfg->sample_event, sample_events, "cpu-clock", &m->events[0], &m->user_only);
    if (!rc) rc = pick_event(cfg->interval_event, interval_events, "task-clock", &m->events[1], &m->user_only);
    if (rc) return rc;
    int hw_interval = !pms_event_is_software(&m->events[1]);
    uint64_t period = cfg->sample_period ? cfg->sample_period : default_sample_period(&m->events[0]);
    uint64_t size = cfg->interval_size ? cfg->interval_size
                    : hw_interval      ? PMS_PHASE_PMU_INTERVAL
                                       : PMS_PHASE_SAMPLES_PER_INTERVAL *
                                        (pms_event_is_software(&m->events[0]) ? period : PMS_PHASE_SOFTWARE_PERIOD);
    uint64_t per_interval = size / period ? size / period : 1;
    /* .read is never NULL, even with nread 0: the sampler memcpy()s from it. */
    m->sampling[0] = (pms_sampling_event){.event = m->events[0], .read = &m->events[2], .period = period,
                                          .wakeup_events = m->per_cpu ? (uint32_t)per_interval : 0};
    if (cfg->randomize) m->sampling[0].randomize = (pms_randomize){.kind = PMS_RANDOMIZE_EXP, .seed = cfg->random_seed};
    /* Per CPU the interval event's counts are not a thread's: intervals are cut by samples,
     * and the event is kept (for its name and the counters it reads where it does) without
     * its timer interrupts, at a period no run reaches. */
    m->interval_size = size;
    m->sampling[1] = (pms_sampling_event){.event = m->events[1], .read = &m->events[2],
                                          .period = m->per_cpu ? UNREACHED_PERIOD : size,
                                          .wakeup_events = m->per_cpu ? 0 : 1};
    m->metric_about = "wall-clock ns per sample, as no hardware PMU counts cycles and instructions here (it "
                      "measures the machine's load as much as the program)";
    if (hw_interval && pms_event_parse("cycles", &m->events[2]) == PMS_OK &&
        pms_event_parse("instructions", &m->events[3]) == PMS_OK && probe(&m->events[2], &m->user_only) == PMS_OK &&
        probe(&m->events[3], &m->user_only) == PMS_OK) {
        m->sampling[m->per_cpu ? 0 : 1].nread = 2;
        m->metric_about = "cycles / instructions, both counted in each interval";
    } else if (hw_interval) {
        m->metric_about = "wall-clock ns per sample, as cycles and instructions cannot both be counted here";
    }
    return PMS_OK;
}

static int open_sampler(pms_phase_monitor *m, const pms_phase_monitor_config *cfg)
{
    pms_sampler_config sc = {.events = m->sampling, .nevents = 2, .use_clockid = cfg->use_clockid,
                             .clockid = cfg->clockid, .inherit = m->per_cpu, .enable_on_exec = cfg->enable_on_exec,
                             .thread_only = cfg->thread_only, .exclude_tid = m->reader_tid};
    int rc = pms_sampler_open(&m->sampler, &sc, m->pid);
    size_t reading = m->sampling[0].nread ? 0 : 1;
    if (rc == PMS_EINVAL && sc.inherit && m->sampling[reading].nread) {
        /* Linux before 6.12 refuses PERF_SAMPLE_READ on inherited events: following the
         * command's children matters more than the CPI, which is left out then. */
        m->sampling[reading].nread = 0;
        m->metric_about = "wall-clock ns per sample, as Linux before 6.12 reads no counts in samples of events "
                          "that the command's children inherit (without inherit, following the command's "
                          "own process only, the CPI is read)";
        rc = pms_sampler_open(&m->sampler, &sc, m->pid);
    }
    return rc;
}

int pms_phase_monitor_open(pms_phase_monitor **out, pid_t pid, const pms_phase_monitor_config *cfg)
{
    if (cfg->thread_only && cfg->inherit)
        return pms__fail(PMS_EINVAL, "a thread alone (thread_only) is not followed into the threads it starts "
                                     "(inherit)");
    pms_phase_monitor *m = calloc(1, sizeof *m);
    if (!m) return pms__fail(PMS_ENOMEM, "out of memory for the phase monitor");
    m->cfg = *cfg;
    m->pid = pid ? pid : getpid();
    m->per_cpu = cfg->inherit;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    int rc = choose_events(m, cfg);
    if (!rc) rc = pms__maps_create(&m->maps);
    if (!rc && cfg->own_thread) rc = start_reader(m);
    if (!rc) rc = open_sampler(m, cfg);
    if (!rc) rc = pms_phase_threads_create(&m->threads, &cfg->phase, m->interval_size, 1);
    if (rc) {
        pms_phase_monitor_close(m);
        return rc;
    }
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(m->sampler, &nattrs);
    m->sample_type = attrs[0].attr.sample_type;
    uint64_t per_interval = m->interval_size / m->sampling[0].period;
    pms_cutting cut = {.attrs = attrs, .nattrs = nattrs, .interval = &attrs[1], .sample_period = m->sampling[0].period,
                       .per_thread_counts = !m->per_cpu, .by_samples = m->per_cpu ? (per_interval ? per_interval : 1) : 0,
                       .fn = on_interval, .ctx = m};
    pms__phase_threads_cut(m->threads, &cut, m->maps);
    pms_phase_engine *own; /* the target's own thread's engine exists from the start */
    if ((rc = pms_phase_threads_get(m->threads, m->pid, &own))) {
        pms_phase_monitor_close(m);
        return rc;
    }
    *out = m;
    return PMS_OK;
}

/* An attached process's (or our own) mappings, which the kernel reported before the events
 * existed, from /proc. */
static int synthesize_maps(const struct perf_event_header *h, void *ctx)
{
    pms_phase_monitor *m = ctx;
    return pms__maps_record(m->maps, h, m->sample_type);
}

int pms_phase_monitor_start(pms_phase_monitor *m)
{
    int rc = m->cfg.enable_on_exec ? PMS_OK : pms_sampler_synthesize(m->sampler, m->pid, synthesize_maps, m);
    if (!rc && !m->cfg.enable_on_exec) rc = pms_sampler_enable(m->sampler);
    if (!rc && m->thread_running) release_reader(m, 1);
    return rc;
}

int pms_phase_monitor_poll(pms_phase_monitor *m, int timeout_ms)
{
    if (m->cfg.own_thread) return pms__fail(PMS_EINVAL, "this monitor reads on its own thread: no poll needed");
    int records, rc = drain(m, timeout_ms, &records);
    return rc ? rc : records;
}

/* The counts up to the end, for the last interval's CPI, where the group's counts are the
 * ones the samples read: the events of one thread, not inherited. (Each thread's samples
 * read its own counts, per thread or, inherited since Linux 6.12, per CPU: no read of the
 * group gives those.) */
static int final_counts(pms_phase_monitor *m)
{
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(m->sampler, &nattrs);
    if (m->per_cpu || !m->sampling[1].nread || attrs[1].nids != 1 || pms_phase_threads_count(m->threads) != 1)
        return PMS_OK;
    pms_read_value counts[4];
    size_t n;
    pid_t tid;
    pms_phase_threads_engine(m->threads, 0, &tid);
    int rc = pms__sampler_read_group(m->sampler, 1, counts, 4, &n);
    if (!rc) pms__phase_threads_final_counts(m->threads, tid, counts, n);
    return rc;
}

int pms_phase_monitor_stop(pms_phase_monitor *m)
{
    if (m->stopped) return m->failure ? pms__fail(m->failure, "%s", m->message) : PMS_OK;
    m->stopped = 1;
    if (m->thread_running) {
        release_reader(m, 0);
        pthread_join(m->thread, NULL);
        m->thread_running = 0;
    }
    pms_sampler_disable(m->sampler);
    int rc = m->failure;
    /* What is left in the buffers, then each thread's last partial interval. */
    for (int records = 1; !rc && records > 0;) rc = drain(m, 0, &records);
    if (!rc) rc = final_counts(m);
    if (!rc) rc = pms__phase_threads_finish(m->threads);
    if (rc && !m->failure) {
        m->failure = rc;
        snprintf(m->message, sizeof m->message, "%s", pms_strerror());
    }
    return rc ? pms__fail(rc, "%s", m->message) : PMS_OK;
}

void pms_phase_monitor_close(pms_phase_monitor *m)
{
    if (!m) return;
    if (m->thread_running) {
        release_reader(m, 0);
        pthread_join(m->thread, NULL);
    }
    pms_sampler_close(m->sampler);
    pms_phase_threads_destroy(m->threads);
    pms__maps_free(m->maps);
    free(m->batch.bytes);
    free(m->batch.v);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->cond);
    free(m);
}

const char *pms_phase_monitor_sample_event(const pms_phase_monitor *m) { return m->events[0].name; }
const char *pms_phase_monitor_interval_event(const pms_phase_monitor *m) { return m->events[1].name; }
const char *pms_phase_monitor_metric_about(const pms_phase_monitor *m) { return m->metric_about; }
const pms_phase_threads *pms_phase_monitor_threads(const pms_phase_monitor *m) { return m->threads; }
int pms_phase_monitor_target_gone(const pms_phase_monitor *m) { return pms_sampler_target_gone(m->sampler); }
int pms_phase_monitor_user_only(const pms_phase_monitor *m) { return m->user_only; }
uint64_t pms_phase_monitor_samples_per_interval(const pms_phase_monitor *m)
{
    return pms__phase_threads_samples_per_interval(m->threads);
}

const pms_phase_engine *pms_phase_monitor_engine(const pms_phase_monitor *m)
{
    /* the target's own (main) thread's, else the first thread's */
    const pms_phase_engine *e = pms_phase_threads_find(m->threads, m->pid);
    return e ? e : pms_phase_threads_engine(m->threads, 0, NULL);
}

void pms_phase_monitor_losses(const pms_phase_monitor *m, uint64_t *lost, uint64_t *empty_intervals)
{
    *lost = m->lost;
    *empty_intervals = pms__phase_threads_dropped(m->threads);
}
