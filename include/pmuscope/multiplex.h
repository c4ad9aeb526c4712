/* pmuscope: how far to trust a multiplexed count.
 *
 * When a PMU has fewer counters than events, the kernel takes turns ("multiplexing"): an
 * event is on a counter for `running` ns of the `enabled` ns it was asked to count, and its
 * value is scaled to raw x enabled / running, as perf does. What it did in the (enabled -
 * running) ns it was off the counters is inferred from what it did while it was on them, so
 * the scaled value is an estimate. This module gives that estimate its standard uncertainty
 * (docs/stat.md, "Multiplexed counts and their uncertainty", states it in full):
 *
 *   model     the event's count over any span of t ns has mean lambda t and variance
 *             sigma2 t (increments that are independent from one span to the next: true of
 *             a Poisson stream, and of any event whose rate changes faster than the windows
 *             below; an event whose rate drifts slowly makes sigma2, and so the uncertainty,
 *             larger: conservative);
 *   error     raw x (E - R) / R estimates the unseen count U of the E - R ns off the
 *             counters, so the scaled value's error has variance
 *             sigma2 (E - R)^2 / R + sigma2 (E - R) = sigma2 (E - R) E / R;
 *   sigma2    from the windows between successive reads of the same event (the reads of
 *             stat, every 100 ms and at each -I interval; the calls of a region): with
 *             count c_k in running time r_k, lambda = sum c_k / sum r_k and
 *             sigma2 = sum_k (c_k - lambda r_k)^2 / r_k / (m - 1) over the m windows in
 *             which the event ran (Pearson's dispersion of a quasi-Poisson fit);
 *   result    uncertainty = sqrt(sigma2 (E - R) E / R): one standard deviation, in the
 *             count's unit; 0 for an event that ran all its enabled time. With fewer than two
 *             windows nothing is known of the spread, and the uncertainty is the whole unseen
 *             part, raw (E - R) / R: the count could be anything from raw to twice that much
 *             more (a Poisson spread would claim far more than is known: an event's rate
 *             changes with what the program does, and one window cannot show by how much).
 *
 * A count that multiplexing (or a reader) made impossible is flagged, not scaled: one that
 * went backwards between two reads (a negative difference), one whose running time exceeds
 * its enabled time, and a clock (task-clock, cpu-clock) above its enabled time, the most a
 * clock can count in it. */
#ifndef PMUSCOPE_MULTIPLEX_H
#define PMUSCOPE_MULTIPLEX_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* The windows of one event seen so far: sums from which pms_mux_dispersion estimates sigma2.
 * Zero-initialise; add each window's count and running time. */
typedef struct pms_mux_windows {
    uint64_t n;                /* windows in which the event ran (running > 0) */
    double count, running;     /* sum of c_k, of r_k (ns) */
    double count2_per_running; /* sum of c_k^2 / r_k */
} pms_mux_windows;

/* Adds one window: the event's count and running time (ns) between two reads. A window in
 * which it did not run (running 0) tells nothing and is left out. */
void pms_mux_windows_add(pms_mux_windows *w, uint64_t count, uint64_t running);

/* sigma2 (counts^2 per ns) from the windows; -1 when fewer than two windows are known. */
double pms_mux_dispersion(const pms_mux_windows *w);

/* The standard uncertainty of raw x enabled / running, with dispersion sigma2 (counts^2 per
 * ns; negative: unknown, and the uncertainty is the unseen part raw (E - R) / R): 0 when
 * running >= enabled (not multiplexed), NAN when running is 0 (nothing to scale). */
double pms_mux_uncertainty(double dispersion, uint64_t raw, uint64_t enabled, uint64_t running);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
