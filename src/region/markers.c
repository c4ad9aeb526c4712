/* The region markers (pmuscope/region.h): a counter set per thread, opened at the thread's
 * first pms_region_begin; a stack of the regions open on it; per region and thread, the sums
 * of the differences between each begin and end. */
#include "pmuscope/region.h"
#include "pmuscope/region_report.h"

#include "region/markers_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/output.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Events the list does not group ({a,b}) go in one group where they fit on the counters
 * together (as PAPI's event sets): a read(2) then reads them all. Where they do not, each
 * hardware event is alone, multiplexed on its own (with its own uncertainty), and the software
 * events, which need no counter, share one group. */
#define DEFAULT_SOFTWARE "task-clock,page-faults,context-switches"
#define DEFAULT_HARDWARE ",cycles,instructions"

markers pms__markers = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_status;
static char init_message[600];
static pthread_key_t thread_key;
static __thread thread_state *self;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pms__markers_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = NULL;
    int ok = vasprintf(&line, fmt, ap) >= 0;
    va_end(ap);
    if (!ok) return;
    pthread_mutex_lock(&pms__markers.lock);
    char **more = realloc(pms__markers.errors, (pms__markers.nerrors + 1) * sizeof *more);
    if (more) {
        pms__markers.errors = more;
        more[pms__markers.nerrors++] = line;
        line = NULL;
    }
    pthread_mutex_unlock(&pms__markers.lock);
    free(line);
}

static bool alone(const pms_event *ev, size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++)
        if (j != i && ev[j].group == ev[i].group) return false;
    return true;
}

/* The events each alone in its group (and, unless all, only the software ones) join the first
 * of them. */
static void group_alone(pms_event *ev, size_t n, bool all)
{
    int shared = -1;
    bool *single = calloc(n ? n : 1, sizeof *single);
    if (!single) return; /* the groups stay as they are: slower reads, the same counts */
    for (size_t i = 0; i < n; i++) single[i] = alone(ev, n, i) && (all || pms_event_is_software(&ev[i]));
    for (size_t i = 0; i < n; i++) {
        if (!single[i]) continue;
        if (shared < 0) shared = ev[i].group;
        ev[i].group = shared;
    }
    free(single);
}

/* Whether the events fit on the counters all at once: as one group on this thread, started
 * and stopped, every one that opens runs (a group that does not fit never does). */
static bool fit_together(const pms_event *ev, size_t n)
{
    pms_event *one = malloc((n ? n : 1) * sizeof *one);
    if (!one) return false;
    memcpy(one, ev, n * sizeof *one);
    group_alone(one, n, true);
    pms_counterset *s = NULL;
    pms_count *c = calloc(n ? n : 1, sizeof *c);
    bool fit = c && pms_counterset_create(&s, one, n, PMS_COUNTERSET_SKIP_UNSUPPORTED) == PMS_OK &&
               pms_counterset_start(s) == PMS_OK && pms_counterset_stop(s, c) == PMS_OK;
    for (size_t i = 0; fit && i < n; i++) fit = c[i].state == PMS_COUNT_COUNTED || c[i].state == PMS_COUNT_NOT_SUPPORTED;
    pms_counterset_destroy(s);
    free(one), free(c);
    return fit;
}

static const char *default_events(void)
{
    pms_event cycles;
    bool pmu = pms_event_parse("cycles", &cycles) == PMS_OK && pms_event_probe(&cycles) == PMS_OK;
    return pmu ? DEFAULT_SOFTWARE DEFAULT_HARDWARE : DEFAULT_SOFTWARE;
}

static void destroy_thread_set(void *p);
static void write_at_exit(void);
static void forget_in_child(void);

/* The events of PMS_REGION_EVENTS (or the default), each checked on this machine: one it
 * cannot count is kept as <not supported> with its reason; one refused in kernel mode counts
 * user mode (NAME:u), as perf does for an unprivileged user. */
static int prepare_events(const char *spec)
{
    pms_event *ev;
    size_t n;
    int r = pms_event_list_parse(spec, &ev, &n);
    if (r) return r;
    pms__markers.unsupported = calloc(n ? n : 1, sizeof *pms__markers.unsupported);
    if (!pms__markers.unsupported) r = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; r == PMS_OK && i < n; i++) {
        int user_only;
        r = pms_event_probe_user_fallback(&ev[i], &user_only);
        if (r == PMS_ENOTSUP) {
            r = (pms__markers.unsupported[i] = strdup(pms_strerror())) ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
        }
    }
    if (r) {
        free(ev);
        return r;
    }
    group_alone(ev, n, fit_together(ev, n));
    pms__markers.events = ev;
    pms__markers.nevents = n;
    return PMS_OK;
}

static void init(void)
{
    const char *spec = getenv("PMS_REGION_EVENTS");
    if (!spec || !*spec) spec = default_events();
    init_status = prepare_events(spec);
    if (init_status) {
        snprintf(init_message, sizeof init_message, "PMS_REGION_EVENTS: %s", pms_strerror());
        pms__markers_error("%s", init_message);
    }
    pthread_key_create(&thread_key, destroy_thread_set);
    pthread_atfork(NULL, NULL, forget_in_child);
    atexit(write_at_exit);
}

/* The calling thread's state, made at its first region: its counter set opened and started. */
static int thread_begin(thread_state **out)
{
    pthread_once(&init_once, init);
    if (init_status) return pms__fail(init_status, "%s", init_message);
    size_t n = pms__markers.nevents;
    thread_state *t = calloc(1, sizeof *t);
    if (!t) return pms__fail(PMS_ENOMEM, "out of memory");
    t->n = n;
    t->names = calloc(n, sizeof *t->names);
    t->user = calloc(n, sizeof *t->user);
    t->now = calloc(n, sizeof *t->now);
    int r = t->names && t->user && t->now ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (r == PMS_OK)
        r = pms_counterset_create(&t->set, pms__markers.events, n, PMS_COUNTERSET_SKIP_UNSUPPORTED);
    if (r == PMS_OK) r = pms_counterset_start(t->set);
    if (r) {
        pms__markers_error("thread %ld: %s", (long)gettid(), pms_strerror());
        pms_counterset_destroy(t->set);
        free(t->names), free(t->user), free(t->now), free(t);
        return r;
    }
    for (size_t i = 0; i < n; i++) memcpy(t->names[i], pms_counterset_event(t->set, i)->name, sizeof t->names[i]);
    t->tid = gettid();
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_lock(&pms__markers.lock);
    t->next = pms__markers.threads;
    pms__markers.threads = t;
    pthread_mutex_unlock(&pms__markers.lock);
    pthread_setspecific(thread_key, t);
    *out = self = t;
    return PMS_OK;
}

/* At a thread's end: its counters close; its regions stay for the report. */
static void destroy_thread_set(void *p)
{
    thread_state *t = p;
    const char *open = t->depth ? t->regions[t->stack[t->depth - 1].stats].name : NULL;
    if (open) pms__markers_error("thread %lld ended with region '%s' open", (long long)t->tid, open);
    pthread_mutex_lock(&t->lock);
    t->depth = 0;
    pms_counterset_destroy(t->set);
    t->set = NULL;
    pthread_mutex_unlock(&t->lock);
    if (self == t) self = NULL;
}

/* The region's index on thread t, added at its first begin (under the lock: a report may be
 * reading the array). */
static int find_region(thread_state *t, const char *name, size_t *k)
{
    for (size_t i = 0; i < t->nregions; i++)
        if (strcmp(t->regions[i].name, name) == 0) {
            *k = i;
            return PMS_OK;
        }
    region_stats r = {.name = strdup(name), .sum = calloc(t->n, sizeof *r.sum), .win = calloc(t->n, sizeof *r.win),
                      .backwards = calloc(t->n, sizeof *r.backwards)};
    pthread_mutex_lock(&t->lock);
    int ok = r.name && r.sum && r.win && r.backwards && !pms__grow(&t->regions, &t->cap, t->nregions + 1, sizeof r);
    if (ok) t->regions[t->nregions++] = r;
    pthread_mutex_unlock(&t->lock);
    if (!ok) {
        free(r.name), free(r.sum), free(r.win), free(r.backwards);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    *k = t->nregions - 1;
    return PMS_OK;
}

static int push(thread_state *t, size_t k)
{
    if (t->depth == t->stack_cap) {
        size_t cap = t->stack_cap ? 2 * t->stack_cap : 8;
        open_region *stack = realloc(t->stack, cap * sizeof *stack);
        if (stack) t->stack = stack;
        counter_reading *starts = realloc(t->starts, cap * t->n * sizeof *starts);
        if (starts) t->starts = starts;
        if (!stack || !starts) return pms__fail(PMS_ENOMEM, "out of memory");
        t->stack_cap = cap;
    }
    /* The time spans the counted span: taken before the counters at a begin, after them at
     * an end (so a thread's task-clock in a region never exceeds its time). */
    t->stack[t->depth] = (open_region){.stats = k, .t0_ns = now_ns()};
    int r = pms__counterset_snapshot(t->set, t->starts + t->depth * t->n);
    if (r) return r;
    t->depth++;
    return PMS_OK;
}

int pms_region_begin(const char *name)
{
    if (!name || !*name) return pms__fail(PMS_EINVAL, "a region needs a name");
    thread_state *t = self;
    size_t k = 0;
    int r = t ? PMS_OK : thread_begin(&t);
    if (r == PMS_OK) r = find_region(t, name, &k);
    return r ? r : push(t, k);
}

/* Why name cannot end now: not open at all, or open outside the innermost region. */
static int not_innermost(const thread_state *t, const char *name)
{
    const char *inner = t->regions[t->stack[t->depth - 1].stats].name;
    for (size_t d = 0; d + 1 < t->depth; d++)
        if (strcmp(t->regions[t->stack[d].stats].name, name) == 0)
            return pms__fail(PMS_EINVAL, "region '%s' ends while '%s', begun inside it, is open", name, inner);
    return pms__fail(PMS_EINVAL, "region '%s' ends but is not open on this thread (the innermost open one is '%s')",
                     name, inner);
}

int pms_region_end(const char *name)
{
    thread_state *t = self;
    if (!name) return pms__fail(PMS_EINVAL, "a region needs a name");
    if (!t || t->depth == 0) return pms__fail(PMS_EINVAL, "region '%s' ends but no region is open on this thread", name);
    const open_region *o = &t->stack[t->depth - 1];
    region_stats *rs = &t->regions[o->stats];
    if (strcmp(rs->name, name) != 0) return not_innermost(t, name);
    int r = pms__counterset_snapshot(t->set, t->now);
    if (r) return r;
    uint64_t t1 = now_ns();
    const counter_reading *start = t->starts + (t->depth - 1) * t->n;
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->n; i++) {
        const counter_reading *a = &t->now[i], *b = &start[i];
        if (a->raw < b->raw || a->enabled < b->enabled || a->running < b->running) {
            rs->backwards[i] = true;
            continue;
        }
        counter_reading d = {a->raw - b->raw, a->enabled - b->enabled, a->running - b->running};
        rs->sum[i].raw += d.raw;
        rs->sum[i].enabled += d.enabled;
        rs->sum[i].running += d.running;
        pms_mux_windows_add(&rs->win[i], d.raw, d.running);
        t->user[i] = pms_counterset_read_in_user_space(t->set, i);
    }
    rs->calls++;
    rs->time_ns += t1 - o->t0_ns;
    pthread_mutex_unlock(&t->lock);
    t->depth--;
    return PMS_OK;
}

int pms_region_report(FILE *out)
{
    pms_region_results *rep;
    int r = pms_region_results_take(&rep);
    if (r == PMS_OK) r = pms_region_results_write_json(out, rep);
    pms_region_results_free(rep);
    return r;
}

static int write_report(FILE *f, void *ctx)
{
    (void)ctx;
    return pms_region_report(f);
}

/* The exit's report: to PMS_REGION_OUT (its .PID in a child made by fork()), through the
 * output primitive (a regular file replaced atomically, a device or FIFO written in place). */
static int write_report_file(const char *path) { return pms__output_save(path, 0, write_report, NULL); }

static void write_at_exit(void)
{
    const char *out = getenv("PMS_REGION_OUT");
    if (out && !*out) return;
    if (!out) out = "pmuscope-regions.json";
    char path[4096];
    if (!pms__markers.forked)
        snprintf(path, sizeof path, "%s", out);
    else if (pms__markers.threads)
        snprintf(path, sizeof path, "%s.%ld", out, (long)getpid());
    else
        return;
    if (write_report_file(path) != PMS_OK) {
        const char *verbose = getenv("PMS_REGION_VERBOSE");
        if (verbose && strcmp(verbose, "1") == 0) fprintf(stderr, "pmuscope regions: %s\n", pms_strerror());
    }
}

/* In a child made by fork(): the parent's counters count the parent's threads, and its
 * regions are the parent's to report. The child starts with none. */
static void forget_in_child(void)
{
    thread_state *t = pms__markers.threads;
    while (t) {
        thread_state *next = t->next;
        pms_counterset_destroy(t->set);
        for (size_t k = 0; k < t->nregions; k++) {
            free(t->regions[k].name), free(t->regions[k].sum), free(t->regions[k].win);
            free(t->regions[k].backwards);
        }
        free(t->regions), free(t->stack), free(t->starts), free(t->names), free(t->user), free(t->now);
        free(t);
        t = next;
    }
    for (size_t k = 0; k < pms__markers.nerrors; k++) free(pms__markers.errors[k]);
    free(pms__markers.errors);
    pms__markers.errors = NULL;
    pms__markers.nerrors = 0;
    pms__markers.threads = NULL;
    pms__markers.forked = true;
    pthread_mutex_init(&pms__markers.lock, NULL);
    pthread_setspecific(thread_key, NULL);
    self = NULL;
}
