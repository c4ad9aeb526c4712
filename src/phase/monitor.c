/* The live phase monitor: one ring buffer holds the IP samples and the interval event's
 * overflow records; they are cut into intervals by the same assembler as the perf.data
 * replay, on the monitor's own thread or inside pms_phase_monitor_poll(). */
#include "phase/assembler.h"
#include "collect/sampler_counts.h"
#include "pmuscope/sampler.h"
#include "util/error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pms_phase_monitor {
    pms_phase_monitor_config cfg;
    pms_event events[4];            /* sample, interval, then cycles and instructions if counted */
    pms_sampling_event sampling[2];
    pms_sampler *sampler;
    pms_phase_engine *engine;
    pms_assembler assembler;
    unsigned multiple;              /* the periods currently set, in base intervals */
    uint64_t lost;
    const char *metric_about;       /* pms_phase_monitor_metric_about */
    int user_only;                  /* an event counts user space only (perf_event_paranoid) */
    pthread_t thread;
    int thread_running;
    atomic_int stop;
    int callback_status;            /* a non-zero return of on_record's work, for poll */
    int failure;                    /* the reading thread's status */
    char message[1024];             /* and its message (pms_strerror is per thread) */
    int stopped;
};

void pms_phase_monitor_config_default(pms_phase_monitor_config *c)
{
    memset(c, 0, sizeof *c);
    pms_phase_config_default(&c->phase);
    c->phase.classifier.threshold = PMS_PHASE_THRESHOLD_AUTO;
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
    if (rc) return rc;
    /* Dynamic intervals: the interval event's period follows the engine's wish, and the
     * sample period grows with it so that an interval keeps about as many samples. */
    if (ev->next_multiple != m->multiple) {
        m->multiple = ev->next_multiple;
        rc = pms_sampler_set_period(m->sampler, 1, m->sampling[1].period * m->multiple);
        if (!rc) rc = pms_sampler_set_period(m->sampler, 0, m->sampling[0].period * m->multiple);
    }
    return rc;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
    pms_phase_monitor *m = ctx;
    if (h->type == PERF_RECORD_LOST) {
        const struct { struct perf_event_header h; uint64_t id, lost; } *l = (const void *)h;
        if (h->size >= sizeof *l) m->lost += l->lost;
        return 0;
    }
    if (h->type != PERF_RECORD_SAMPLE) return 0;
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(m->sampler, &nattrs);
    pms_sample s;
    pms_read_value values[8];
    int rc = pms_sample_parse(h, attrs, nattrs, &s, values, 8);
    if (!rc) rc = pms__assembler_sample(&m->assembler, &s);
    if (rc) m->callback_status = rc;
    return rc;
}

int pms_phase_monitor_open(pms_phase_monitor **out, pid_t pid, const pms_phase_monitor_config *cfg)
{
    pms_phase_monitor *m = calloc(1, sizeof *m);
    if (!m) return pms__fail(PMS_ENOMEM, "out of memory for the phase monitor");
    m->cfg = *cfg;
    m->multiple = 1;
    int rc = pick_event(cfg->sample_event, sample_events, "cpu-clock", &m->events[0], &m->user_only);
    if (!rc) rc = pick_event(cfg->interval_event, interval_events, "task-clock", &m->events[1], &m->user_only);
    if (rc) {
        free(m);
        return rc;
    }
    int hw_interval = !pms_event_is_software(&m->events[1]);
    uint64_t period = cfg->sample_period ? cfg->sample_period : default_sample_period(&m->events[0]);
    /* .read is never NULL, even with nread 0: the sampler memcpy()s from it. */
    m->sampling[0] = (pms_sampling_event){.event = m->events[0], .read = &m->events[2], .period = period};
    if (cfg->randomize) m->sampling[0].randomize = (pms_randomize){.kind = PMS_RANDOMIZE_EXP, .seed = cfg->random_seed};
    /* The reader wakes once per interval (the interval event's record), not per sample. */
    m->sampling[1] = (pms_sampling_event){
        .event = m->events[1], .read = &m->events[2], .wakeup_events = 1,
        .period = cfg->interval_size ? cfg->interval_size
                  : hw_interval      ? PMS_PHASE_PMU_INTERVAL
                                     : PMS_PHASE_SAMPLES_PER_INTERVAL *
                                           (pms_event_is_software(&m->events[0]) ? period : PMS_PHASE_SOFTWARE_PERIOD)};
    /* With a PMU, cycles and instructions read at every interval end give its CPI. */
    m->metric_about = "wall-clock ns per sample, as no hardware PMU counts cycles and instructions here (it "
                      "measures the machine's load as much as the program)";
    if (hw_interval && pms_event_parse("cycles", &m->events[2]) == PMS_OK &&
        pms_event_parse("instructions", &m->events[3]) == PMS_OK && probe(&m->events[2], &m->user_only) == PMS_OK &&
        probe(&m->events[3], &m->user_only) == PMS_OK) {
        m->sampling[1].read = &m->events[2];
        m->sampling[1].nread = 2;
        m->metric_about = "cycles / instructions, both counted in each interval";
    } else if (hw_interval) {
        m->metric_about = "wall-clock ns per sample, as cycles and instructions cannot both be counted here";
    }
    if (pid == 0) pid = getpid();
    /* Per-CPU (or per-thread) buffers are merged in time order before intervals are cut. */
    pms_sampler_config sc = {.events = m->sampling, .nevents = 2, .use_clockid = cfg->use_clockid,
                             .clockid = cfg->clockid, .inherit = cfg->inherit, .enable_on_exec = cfg->enable_on_exec,
                             .time_order = 1};
    rc = pms_sampler_open(&m->sampler, &sc, pid);
    if (rc == PMS_EINVAL && sc.inherit && m->sampling[1].nread) {
        /* Linux before 6.12 refuses PERF_SAMPLE_READ on inherited events: following the
         * command's children matters more than the CPI, which is left out then. */
        m->sampling[1].nread = 0;
        m->metric_about = "wall-clock ns per sample, as Linux before 6.12 reads no counts in samples of events "
                          "that the command's children inherit (without inherit, following the command's "
                          "own process only, the CPI is read)";
        rc = pms_sampler_open(&m->sampler, &sc, pid);
    }
    pms_phase_config phase = cfg->phase;
    if (phase.classifier.threshold == PMS_PHASE_THRESHOLD_AUTO)
        phase.classifier.threshold = pms_phase_default_threshold(m->sampling[1].period / m->sampling[0].period);
    if (!rc) rc = pms_phase_engine_create(&m->engine, &phase, m->sampling[1].period);
    if (rc) {
        pms_phase_monitor_close(m);
        return rc;
    }
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(m->sampler, &nattrs);
    pms__assembler_init(&m->assembler, m->engine, NULL, attrs, nattrs, on_interval, m);
    m->assembler.one_mark_per_interval = 1;
    pms__assembler_set_interval_event(&m->assembler, &attrs[1], m->sampling[0].period);
    *out = m;
    return PMS_OK;
}

static void *reader(void *arg)
{
    pms_phase_monitor *m = arg;
    while (!atomic_load(&m->stop)) {
        /* Woken by every interval's end; the timeout only bounds how late a stop is seen. */
        int rc = pms_sampler_poll(m->sampler, 100, on_record, m);
        if (m->callback_status) rc = m->callback_status;
        if (rc < 0 || m->callback_status) {
            m->failure = rc;
            snprintf(m->message, sizeof m->message, "%s", pms_strerror());
            break;
        }
        if (rc == 0 && pms_sampler_target_gone(m->sampler)) break;
    }
    return NULL;
}

int pms_phase_monitor_start(pms_phase_monitor *m)
{
    int rc = m->cfg.enable_on_exec ? PMS_OK : pms_sampler_enable(m->sampler);
    if (rc || !m->cfg.own_thread) return rc;
    if (pthread_create(&m->thread, NULL, reader, m)) return pms__fail(PMS_EIO, "cannot start the monitor thread");
    m->thread_running = 1;
    return PMS_OK;
}

int pms_phase_monitor_poll(pms_phase_monitor *m, int timeout_ms)
{
    if (m->cfg.own_thread) return pms__fail(PMS_EINVAL, "this monitor reads on its own thread: no poll needed");
    int n = pms_sampler_poll(m->sampler, timeout_ms, on_record, m);
    if (m->callback_status) {
        n = m->callback_status;
        m->callback_status = 0;
    }
    return n;
}

int pms_phase_monitor_stop(pms_phase_monitor *m)
{
    if (m->stopped) return m->failure ? pms__fail(m->failure, "%s", m->message) : PMS_OK;
    m->stopped = 1;
    atomic_store(&m->stop, 1);
    if (m->thread_running) pthread_join(m->thread, NULL);
    m->thread_running = 0;
    pms_sampler_disable(m->sampler);
    int rc = m->failure;
    /* What is left in the buffer, then the last partial interval. */
    while (!rc) {
        int n = pms_sampler_poll(m->sampler, 0, on_record, m);
        if (m->callback_status || n <= 0) {
            rc = m->callback_status ? m->callback_status : n;
            break;
        }
    }
    if (!rc) rc = pms_sampler_flush(m->sampler, on_record, m);
    if (!rc && m->callback_status) rc = m->callback_status;
    /* The counts up to the end, for the last interval's CPI, where the group's counts are
     * the ones the samples read: events of one thread, not inherited. (Each thread's samples
     * read its own counts, per thread or, inherited since Linux 6.12, per CPU: no read of
     * the group gives those.) */
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(m->sampler, &nattrs);
    if (!rc && m->sampling[1].nread && !m->cfg.inherit && attrs[1].nids == 1) {
        pms_read_value counts[4];
        size_t n;
        rc = pms__sampler_read_group(m->sampler, 1, counts, 4, &n);
        if (!rc) pms__assembler_final_counts(&m->assembler, counts, n);
    }
    if (!rc) rc = pms__assembler_finish(&m->assembler);
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
        atomic_store(&m->stop, 1);
        pthread_join(m->thread, NULL);
    }
    pms_sampler_close(m->sampler);
    pms__assembler_free(&m->assembler);
    pms_phase_engine_destroy(m->engine);
    free(m);
}

const char *pms_phase_monitor_sample_event(const pms_phase_monitor *m) { return m->events[0].name; }
const char *pms_phase_monitor_interval_event(const pms_phase_monitor *m) { return m->events[1].name; }
const char *pms_phase_monitor_metric_about(const pms_phase_monitor *m) { return m->metric_about; }
const pms_phase_engine *pms_phase_monitor_engine(const pms_phase_monitor *m) { return m->engine; }
int pms_phase_monitor_target_gone(const pms_phase_monitor *m) { return pms_sampler_target_gone(m->sampler); }

int pms_phase_monitor_user_only(const pms_phase_monitor *m)
{
    return m->user_only;
}

void pms_phase_monitor_losses(const pms_phase_monitor *m, uint64_t *lost, uint64_t *empty_intervals)
{
    *lost = m->lost;
    *empty_intervals = m->assembler.dropped_empty;
}
