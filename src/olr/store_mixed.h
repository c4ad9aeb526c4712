/* The fewest stored end points for one counter of the olr segment file: the optimal mix of
 * joint and disjoint segments (Luo, Yi, Cheng, Li, Wu, Wang, "Piecewise Linear Approximation
 * of Streaming Time Series Data with Max-error Guarantees", ICDE 2015), over the file's own
 * lines (docs/olr-format.md): knots at the samples' x with whole-count values, decoded by
 * rounding, every sample within eps.
 *
 * A solution is a chain of knots, each a point (x[i], v) costing one: a knot is either fresh
 * (the sample before it is a knot too: a break, a disjoint segment starts here) or linked to
 * the previous knot by a line that decodes every sample between them within eps (a joint
 * segment, or the second end of a disjoint one). The dynamic program keeps, for each sample,
 * the least cost of a knot there at each of its 2 eps + 1 values, and for each still
 * feasible start knot the interval of slopes (exact rationals) that keeps every sample since
 * within eps: the feasible region of Luo et al., per whole-count start. Knots are handed out
 * once every open start descends from them (bounded delay). */
#ifndef PMS_OLR_STORE_MIXED_H
#define PMS_OLR_STORE_MIXED_H
#include <stdint.h>

/* The largest eps the exact program takes (2 eps + 1 values a sample); the writer keeps the
 * greedy choice above it. */
#define PMS__OLR_MIXED_EPS_MAX 31u
/* Open start knots kept at most (or the starts of 8 samples, if more); beyond, those of
 * one sample in the middle go (counted: the result may then not be the least). */
#define PMS__OLR_MIXED_STARTS_MAX 64u
/* Samples the program looks back at most; beyond, it commits to the best knot (counted). */
#define PMS__OLR_MIXED_WINDOW 4096u

typedef struct pms__olr_mixed pms__olr_mixed;

/* A decided knot: sample index i, value y[i] - eps + off, fresh (1) or linked to the
 * previous knot (0). */
typedef int (*pms__olr_knot_fn)(uint64_t i, uint64_t off, int fresh, void *ctx);

pms__olr_mixed *pms__olr_mixed_create(uint64_t eps);
void pms__olr_mixed_destroy(pms__olr_mixed *m);
/* Sample j (the next one, j = 0, 1, ...): x[i - base] and y[i - base] hold the samples from
 * pms__olr_mixed_oldest(m) to j. Knots decided are handed to FN in order; its non-zero
 * return is returned. -1: out of memory. */
int pms__olr_mixed_add(pms__olr_mixed *m, const uint64_t *x, const uint64_t *y, uint64_t base, uint64_t j,
                       pms__olr_knot_fn fn, void *ctx);
/* The stream ended after sample j: the rest of the best chain. */
int pms__olr_mixed_finish(pms__olr_mixed *m, pms__olr_knot_fn fn, void *ctx);
/* The first sample the program still reads. */
uint64_t pms__olr_mixed_oldest(const pms__olr_mixed *m);
/* Samples at which the cap dropped starts, and commits forced by the look-back. */
uint64_t pms__olr_mixed_cut(const pms__olr_mixed *m);

#endif
