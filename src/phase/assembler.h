/* Internal: cutting a stream of parsed samples into intervals for the engine. Shared by
 * the perf.data replay and the live monitor, so that both cut intervals the same way. */
#ifndef PMS_PHASE_ASSEMBLER_H
#define PMS_PHASE_ASSEMBLER_H
#include "pmuscope/phase.h"

typedef struct pms_assembler {
    pms_phase_engine *engine;
    pms_phase_event_fn fn;
    void *ctx;
    const pms_perfdata_attr *attrs;    /* to name the counters of PERF_SAMPLE_READ values */
    size_t nattrs;
    const pms_perfdata_attr *interval; /* the interval event, or NULL: fixed sample counts */
    uint64_t samples_per_interval;
    int one_mark_per_interval;         /* live: the interval event's period already follows
                                          the dynamic size; replay: merge marks */
    int cut_by_samples;                /* per-CPU (or per-thread) interval counts, live or
                                          recorded: each counts one CPU's share, so their marks
                                          fall anywhere in the merged stream. The interval event's
                                          samples are left out and every samples_per_interval IP
                                          samples (times the dynamic multiple in a replay) make an
                                          interval, whose size is the sum of their periods */
    uint64_t *ips;
    size_t n, cap;
    unsigned marks;
    uint64_t size, start_time, last_time;
    uint64_t cycles, instructions;     /* cumulative values at the last interval end */
    uint64_t seen_cycles, seen_instructions; /* the latest values read by any sample */
    int have_counts;
    uint64_t dropped_empty;            /* intervals without samples, not classified */
} pms_assembler;

void pms__assembler_init(pms_assembler *a, pms_phase_engine *e, const pms_phase_source *src,
                        const pms_perfdata_attr *attrs, size_t nattrs, pms_phase_event_fn fn, void *ctx);
/* Finds the interval event among attrs by name (with or without modifiers). */
const pms_perfdata_attr *pms__assembler_find_event(const pms_perfdata_attr *attrs, size_t nattrs, const char *name);
/* Intervals end on the interval event's overflows; when it has one count per CPU (or
 * thread), every interval-period/sample_period samples of the time-ordered stream instead
 * (sample_period 0: not known, the overflows still end them). */
void pms__assembler_set_interval_event(pms_assembler *a, const pms_perfdata_attr *interval, uint64_t sample_period);
int pms__assembler_sample(pms_assembler *a, const pms_sample *s);
/* The cumulative counts at the end of the run (the interval event's group, read after the
 * target stopped), so that the last, partial interval gets its CPI: no sample reads the
 * counts after its last one. Ignored unless samples read cycles and instructions too. */
void pms__assembler_final_counts(pms_assembler *a, const pms_read_value *values, size_t n);
/* Classifies what is left as a last, partial interval (if it has samples). */
int pms__assembler_finish(pms_assembler *a);
void pms__assembler_free(pms_assembler *a);

#endif
