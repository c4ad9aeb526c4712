/* Internal: how the replay and the monitor feed a pms_phase_threads (threads.c). */
#ifndef PMS_PHASE_THREADS_INTERNAL_H
#define PMS_PHASE_THREADS_INTERNAL_H
#include "phase/maps.h"
#include "pmuscope/phase.h"

/* How every thread's samples are cut into intervals, set before the first sample. */
typedef struct pms_cutting {
    const pms_perfdata_attr *attrs; /* the events, to find counters read in samples */
    size_t nattrs;
    const pms_perfdata_attr *interval; /* the interval event, or NULL: samples_per_interval samples */
    uint64_t samples_per_interval;  /* without an interval event */
    uint64_t sample_period;         /* of the IP samples (0: not one fixed period) */
    uint64_t by_samples;            /* non-zero: every this many samples of a thread make an
                                       interval (the interval event's records left out), whatever
                                       the interval event's period */
    int per_thread_counts;          /* the interval event counts each thread alone: its
                                       overflows end the thread's intervals */
    pms_phase_event_fn fn;
    void *ctx;
} pms_cutting;

/* Makes e (kept by the caller) the engine of every sample of t (created with per_thread 0),
 * before the first sample. */
int pms__phase_threads_adopt(pms_phase_threads *t, pms_phase_engine *e);
/* Sets the cutting and resolves PMS_PHASE_THRESHOLD_AUTO from the samples an interval
 * holds; the addresses of samples are made run-independent through maps (kept by the
 * caller). */
void pms__phase_threads_cut(pms_phase_threads *t, const pms_cutting *c, const pms_maps *maps);
/* Forgets the events and maps the cutting pointed at (a replay's, freed after it): the
 * threads' engines and the samples per interval stay. */
void pms__phase_threads_uncut(pms_phase_threads *t);
/* The samples an interval holds, as set by the cutting. */
uint64_t pms__phase_threads_samples_per_interval(const pms_phase_threads *t);
/* Passes a sample to its thread's intervals. */
int pms__phase_threads_sample(pms_phase_threads *t, const pms_sample *s);
/* Counts read once the target stopped, for the last interval of thread tid. */
void pms__phase_threads_final_counts(pms_phase_threads *t, pid_t tid, const pms_read_value *v, size_t n);
/* Classifies every thread's last, partial interval. */
int pms__phase_threads_finish(pms_phase_threads *t);
/* Intervals without samples, over all threads. */
uint64_t pms__phase_threads_dropped(const pms_phase_threads *t);
/* Samples each thread still needs to end its interval: the fewest over the threads cut by
 * samples (0 when none is). */
uint64_t pms__phase_threads_samples_to_go(const pms_phase_threads *t);

#endif
