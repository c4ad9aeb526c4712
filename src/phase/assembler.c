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

void pms__assembler_set_interval_event(pms_assembler *a, const pms_perfdata_attr *interval, uint64_t sample_period)
{
    a->interval = interval;
    uint64_t size = interval->attr.freq ? 0 : interval->attr.sample_period;
    if (interval->nids > 1 && sample_period && size) {
        a->cut_by_samples = 1;
        a->samples_per_interval = size / sample_period ? size / sample_period : 1;
    }
}

static const pms_perfdata_attr *attr_of_id(const pms_assembler *a, uint64_t id)
{
    return pms_attr_by_id(a->attrs, a->nattrs, id);
}

/* Cumulative cycles and instructions from a PERF_SAMPLE_READ group, if both are there. */
static int read_counts(const pms_assembler *a, const pms_read_value *values, size_t n, uint64_t *cycles,
                       uint64_t *instructions)
{
    uint64_t c = 0, ins = 0;
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        const pms_perfdata_attr *at = attr_of_id(a, values[i].id);
        if (!at || at->attr.type != PERF_TYPE_HARDWARE) continue;
        if (at->attr.config == PERF_COUNT_HW_CPU_CYCLES) c = values[i].value, found |= 1;
        if (at->attr.config == PERF_COUNT_HW_INSTRUCTIONS) ins = values[i].value, found |= 2;
    }
    if (found != 3) return 0;
    *cycles = c;
    *instructions = ins;
    return 1;
}

static int end_interval(pms_assembler *a, const pms_sample *mark)
{
    uint64_t end = mark ? mark->time : a->last_time;
    double metric = NAN;
    if (a->have_counts) {
        /* The counts run from the start: the interval's share is the difference. */
        if (a->seen_instructions > a->instructions && a->seen_cycles >= a->cycles)
            metric = (double)(a->seen_cycles - a->cycles) / (double)(a->seen_instructions - a->instructions);
        a->cycles = a->seen_cycles;
        a->instructions = a->seen_instructions;
    } else if (a->n && end > a->start_time) {
        metric = (double)(end - a->start_time) / (double)a->n; /* ns per sample */
    }
    int rc = PMS_OK;
    if (a->n) {
        pms_phase_interval iv = {.addresses = a->ips, .n = a->n, .size = a->size, .start_time = a->start_time,
                                 .end_time = end, .metric = metric, .metric_is_cpi = a->have_counts};
        pms_phase_event ev;
        rc = pms_phase_engine_push(a->engine, &iv, &ev);
        if (!rc && a->fn) rc = a->fn(&ev, a->ctx);
    } else {
        a->dropped_empty++;
    }
    a->n = 0;
    a->marks = 0;
    a->size = 0;
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
    if (s->nvalues && read_counts(a, s->values, s->nvalues, &a->seen_cycles, &a->seen_instructions))
        a->have_counts = 1;
    unsigned want = pms_phase_engine_next_multiple(a->engine);
    if (a->interval && s->attr == a->interval) {
        if (a->cut_by_samples) return PMS_OK;
        a->size += period_of(s);
        if (++a->marks >= (a->one_mark_per_interval ? 1 : want)) return end_interval(a, s);
        return PMS_OK;
    }
    if (pms__grow(&a->ips, &a->cap, a->n + 1, sizeof *a->ips))
        return pms__fail(PMS_ENOMEM, "out of memory for the interval's samples");
    a->ips[a->n++] = s->ip;
    if (a->cut_by_samples) {
        a->size += period_of(s);
        /* Live, the sample period follows the dynamic size; a recording's does not. */
        uint64_t n = a->samples_per_interval * (a->one_mark_per_interval ? 1 : want);
        return a->n >= n ? end_interval(a, s) : PMS_OK;
    }
    if (!a->interval && a->n >= a->samples_per_interval * want) {
        a->size = a->n;
        return end_interval(a, s);
    }
    return PMS_OK;
}

void pms__assembler_final_counts(pms_assembler *a, const pms_read_value *values, size_t n)
{
    uint64_t c, ins;
    /* only where samples read them too: the counts of every interval are then differences
     * of the same counters */
    if (a->have_counts && read_counts(a, values, n, &c, &ins) && c >= a->seen_cycles && ins >= a->seen_instructions) {
        a->seen_cycles = c;
        a->seen_instructions = ins;
    }
}

int pms__assembler_finish(pms_assembler *a)
{
    if (!a->n) return PMS_OK;
    if (!a->interval && !a->cut_by_samples) a->size = a->n;
    return end_interval(a, NULL);
}

void pms__assembler_free(pms_assembler *a) { free(a->ips); }
