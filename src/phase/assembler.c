#include "phase/assembler.h"
#include "util/error.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pms__assembler_init(pms_assembler *a, pms_phase_engine *e, const pms_phase_source *src,
                        const pms_perfdata_attr *attrs, size_t nattrs, pms_phase_event_fn fn, void *ctx)
{
    memset(a, 0, sizeof *a);
    a->engine = e;
    a->fn = fn;
    a->ctx = ctx;
    a->attrs = attrs;
    a->nattrs = nattrs;
    a->samples_per_interval = src && src->samples_per_interval ? src->samples_per_interval : 100;
}

static int same_name(const char *have, const char *want)
{
    if (!have) return 0;
    if (!strcmp(have, want)) return 1;
    /* "task-clock:u", or perf's "task-clock/period=10000000/u" */
    size_t n = strcspn(have, ":/");
    return strlen(want) == n && !strncmp(have, want, n);
}

const pms_perfdata_attr *pms__assembler_find_event(const pms_perfdata_attr *attrs, size_t nattrs, const char *name)
{
    for (size_t i = 0; i < nattrs; i++)
        if (same_name(attrs[i].name, name)) return &attrs[i];
    return NULL;
}

void pms__assembler_set_interval_event(pms_assembler *a, const pms_perfdata_attr *interval, uint64_t sample_period,
                                       int per_thread_counts)
{
    a->interval = interval;
    uint64_t size = interval->attr.freq ? 0 : interval->attr.sample_period;
    if (!per_thread_counts && sample_period && size) {
        a->cut_by_samples = 1;
        a->samples_per_interval = size / sample_period ? size / sample_period : 1;
    }
}

static int is_hw(const pms_perfdata_attr *at, uint64_t config)
{
    return at && at->attr.type == PERF_TYPE_HARDWARE && at->attr.config == config;
}

/* Picks the counters of the CPI from the first group read that holds a cycles and an
 * instructions counter; the members over the leader, whose count the kernel puts first
 * (the last value of each kind wins). A sample can read counts of the same kinds that are
 * not the CPI's: the live monitor's interval event (instructions:u, or cycles:u) leads the
 * counters cycles and instructions, and in perf's files (and pmuscope's before it gave reads
 * only to the events that lead counters) IP samples of cycles:u read their own count (a
 * group of one). Those were summed with the counters' once: the CPI came out ~3 where
 * every instruction is one cycle. */
static void choose_counters(pms_assembler *a, const pms_read_value *values, size_t n)
{
    const pms_perfdata_attr *cycles = NULL, *instructions = NULL;
    for (size_t i = 0; i < n; i++) {
        const pms_perfdata_attr *at = pms_attr_by_id(a->attrs, a->nattrs, values[i].id);
        if (is_hw(at, PERF_COUNT_HW_CPU_CYCLES)) cycles = at;
        if (is_hw(at, PERF_COUNT_HW_INSTRUCTIONS)) instructions = at;
    }
    if (cycles && instructions) {
        a->cycles_counter = cycles;
        a->instructions_counter = instructions;
    }
}

/* Adds to the interval's cycles and instructions what the CPI's counters say ran since
 * they were read last (each copy of them, per thread or CPU, by its id). */
static int add_counts(pms_assembler *a, const pms_read_value *values, size_t n)
{
    if (!a->cycles_counter) choose_counters(a, values, n);
    for (size_t i = 0; a->cycles_counter && i < n; i++) {
        const pms_perfdata_attr *at = pms_attr_by_id(a->attrs, a->nattrs, values[i].id);
        if (at != a->cycles_counter && at != a->instructions_counter) continue;
        size_t k = 0;
        while (k < a->nseen && a->seen[k].id != values[i].id) k++;
        if (k == a->nseen) { /* a counter not read before: inherited ones have a copy per CPU */
            if (pms__grow(&a->seen, &a->seen_cap, a->nseen + 1, sizeof *a->seen))
                return pms__fail(PMS_ENOMEM, "out of memory for the counters of the CPI");
            a->seen[a->nseen++] = (pms_counter_seen){values[i].id, 0};
        }
        uint64_t delta = values[i].value >= a->seen[k].value ? values[i].value - a->seen[k].value : 0;
        a->seen[k].value = values[i].value;
        if (at == a->cycles_counter) a->cycles += delta;
        else a->instructions += delta;
        a->have_counts = 1;
    }
    return PMS_OK;
}

static int end_interval(pms_assembler *a, const pms_sample *mark, int partial)
{
    uint64_t end = mark ? mark->time : a->last_time;
    double metric = NAN;
    if (a->have_counts) {
        if (a->instructions) metric = (double)a->cycles / (double)a->instructions;
    } else if (a->n && end > a->start_time) {
        metric = (double)(end - a->start_time) / (double)a->n; /* ns per sample */
    }
    int rc = PMS_OK;
    if (a->n) {
        pms_phase_interval iv = {.addresses = a->ips, .times = a->times, .n = a->n, .size = a->size, .start_time = a->start_time,
                                 .end_time = end, .metric = metric, .metric_is_cpi = a->have_counts,
                                 .tid = a->tid, .partial = partial};
        pms_phase_event ev;
        rc = pms_phase_engine_push(a->engine, &iv, &ev);
        if (!rc && a->fn) rc = a->fn(&ev, a->ctx);
    } else {
        a->dropped_empty++;
    }
    a->n = 0;
    a->marks = 0;
    a->size = 0;
    a->cycles = a->instructions = 0;
    a->start_time = end;
    return rc;
}

/* perf record leaves PERIOD out of fixed-period samples: the attr has it then. */
static uint64_t period_of(const pms_sample *s)
{
    return s->period ? s->period : s->attr->attr.freq ? 0 : s->attr->attr.sample_period;
}

int pms__assembler_sample(pms_assembler *a, const pms_sample *s)
{
    if (!a->n && !a->marks && !a->start_time) a->start_time = s->time;
    a->last_time = s->time;
    int rc = s->nvalues ? add_counts(a, s->values, s->nvalues) : PMS_OK;
    if (rc) return rc;
    unsigned want = pms_phase_engine_next_multiple(a->engine);
    if (a->interval && s->attr == a->interval) {
        if (a->cut_by_samples) return PMS_OK;
        a->size += period_of(s);
        return ++a->marks >= want ? end_interval(a, s, 0) : PMS_OK;
    }
    if (pms__grow(&a->ips, &a->cap, a->n + 1, sizeof *a->ips) ||
        pms__grow(&a->times, &a->times_cap, a->n + 1, sizeof *a->times))
        return pms__fail(PMS_ENOMEM, "out of memory for the interval's samples");
    a->times[a->n] = s->time;
    a->ips[a->n++] = a->maps ? pms__maps_relocate(a->maps, s->pid, s->ip, &a->maps_hint) : s->ip;
    if (a->cut_by_samples) {
        a->size += period_of(s);
        return a->n >= a->samples_per_interval * want ? end_interval(a, s, 0) : PMS_OK;
    }
    if (!a->interval && a->n >= a->samples_per_interval * want) {
        a->size = a->n;
        return end_interval(a, s, 0);
    }
    return PMS_OK;
}

void pms__assembler_final_counts(pms_assembler *a, const pms_read_value *values, size_t n)
{
    /* only where samples read them too; out of memory, the last counts are left out */
    if (a->have_counts) (void)add_counts(a, values, n);
}

int pms__assembler_finish(pms_assembler *a)
{
    if (!a->n) return PMS_OK;
    if (!a->interval && !a->cut_by_samples) a->size = a->n;
    /* fewer samples than half an interval (where an interval's samples are known: cut by
     * them, not by marks) */
    int partial = (a->cut_by_samples || !a->interval) &&
                  a->n * 2 < a->samples_per_interval * pms_phase_engine_next_multiple(a->engine);
    return end_interval(a, NULL, partial);
}

void pms__assembler_free(pms_assembler *a)
{
    free(a->ips);
    free(a->times);
    free(a->seen);
}
