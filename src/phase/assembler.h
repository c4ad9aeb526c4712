/* Internal: cutting one thread's stream of parsed samples into intervals for its engine.
 * Shared by the perf.data replay and the live monitor, so that both cut intervals the
 * same way. */
#ifndef PMS_PHASE_ASSEMBLER_H
#define PMS_PHASE_ASSEMBLER_H
#include "phase/maps.h"
#include "pmuscope/phase.h"

/* The last value a counter (by sample id) was read with: counts read in samples run from
 * the start, per thread and, where events are per CPU, per CPU, so an interval's count is
 * the sum of the differences. */
typedef struct pms_counter_seen {
    uint64_t id, value;
} pms_counter_seen;

typedef struct pms_assembler {
    pms_phase_engine *engine;
    pms_phase_event_fn fn;
    void *ctx;
    pid_t tid;                         /* the thread whose samples these are (0: any) */
    const pms_maps *maps;              /* run-independent addresses (NULL: raw ones) */
    size_t maps_hint;                  /* the mapping the last sample fell in */
    const pms_perfdata_attr *attrs;    /* to name the counters of PERF_SAMPLE_READ values */
    size_t nattrs;
    const pms_perfdata_attr *interval; /* the interval event, or NULL: fixed sample counts */
    uint64_t samples_per_interval;
    int cut_by_samples;                /* the interval event's counts are not this thread's alone
                                          (one per CPU, or inherited by other threads): its marks
                                          are left out and every samples_per_interval IP samples
                                          (times the dynamic multiple) make an interval, whose
                                          size is the sum of their periods */
    uint64_t *ips, *times;             /* each sample's address and time */
    size_t n, cap, times_cap;
    unsigned marks;
    uint64_t size, start_time, last_time;
    const pms_perfdata_attr *cycles_counter, *instructions_counter; /* the CPI's (NULL: none
                                          read yet), of one group: other events' counts of the
                                          same kinds in samples are left out */
    pms_counter_seen *seen;            /* their ids (one per CPU where they are) and last values */
    size_t nseen, seen_cap;
    uint64_t cycles, instructions;     /* counted in the interval so far */
    int have_counts;
    uint64_t dropped_empty;            /* intervals without samples, not classified */
} pms_assembler;

void pms__assembler_init(pms_assembler *a, pms_phase_engine *e, const pms_phase_source *src,
                        const pms_perfdata_attr *attrs, size_t nattrs, pms_phase_event_fn fn, void *ctx);
/* Finds the interval event among attrs by name (with or without modifiers). */
const pms_perfdata_attr *pms__assembler_find_event(const pms_perfdata_attr *attrs, size_t nattrs, const char *name);
/* Intervals end on the interval event's overflows (as many as the engine's multiple asks
 * for); with per_thread_counts 0 (its counts are per CPU, or shared with inherited copies),
 * every interval-period/sample_period samples of this thread instead (sample_period 0: not
 * known, the overflows still end them). */
void pms__assembler_set_interval_event(pms_assembler *a, const pms_perfdata_attr *interval, uint64_t sample_period,
                                       int per_thread_counts);
int pms__assembler_sample(pms_assembler *a, const pms_sample *s);
/* The counts at the end of the run (the interval event's group, read after the target
 * stopped), so that the last, partial interval gets its CPI: no sample reads the counts
 * after its last one. Ignored unless samples read cycles and instructions too. */
void pms__assembler_final_counts(pms_assembler *a, const pms_read_value *values, size_t n);
/* Classifies what is left as a last, partial interval (if it has samples). */
int pms__assembler_finish(pms_assembler *a);
void pms__assembler_free(pms_assembler *a);

#endif
