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
 * the least cost of a knot there at each of its 2 eps + 1 values. A knot costing c is a
 * start of lines that can only help once a break costs more (c < the least cost at the
 * sample before): until then it is dormant and costs nothing per sample. When that least
 * cost rises, the knots it wakes get their interval of slopes (exact rationals) that keeps
 * every sample since within eps, from tangents to the convex hulls of those samples'
 * bounds; an awake start's interval narrows with each sample until it is empty (Luo et
 * al.'s feasible region, per whole-count start). Knots are handed out once every knot that
 * may still start a line descends from them (bounded delay). Only a cap on memory can
 * make the result not the least, and it is counted. */
#ifndef PMS_OLR_STORE_MIXED_H
#define PMS_OLR_STORE_MIXED_H
#include <stdint.h>

/* The largest eps the exact program takes (2 eps + 1 values a sample); the writer keeps the
 * greedy choice above it (and says so). */
#define PMS__OLR_MIXED_EPS_MAX 31u
/* Memory guards, some 9x beyond any stream seen (the most awake starts on the recorded test
 * streams is some 115,000): knot states kept at most (16 bytes each: rows of 2 eps + 1 since
 * the oldest knot that may still start a line), 64 MiB, and awake starts at most (80 bytes
 * each), 80 MiB. Beyond the first, the best knot at the sample is decided and the rest go;
 * beyond the second, every other start goes. Each is counted: the result may then not be
 * the least. */
#define PMS__OLR_MIXED_STATES_MAX (1u << 22)
#define PMS__OLR_MIXED_STARTS_MAX (1u << 20)

typedef struct pms__olr_mixed pms__olr_mixed;

/* A decided knot: sample index i, value y[i] - eps + off, fresh (1) or linked to the
 * previous knot (0). */
typedef int (*pms__olr_knot_fn)(uint64_t i, uint64_t off, int fresh, void *ctx);

pms__olr_mixed *pms__olr_mixed_create(uint64_t eps);
/* Lower guards than the defaults (0: the default), for tests of what a guard does. */
void pms__olr_mixed_set_caps(pms__olr_mixed *m, uint64_t states_max, uint64_t starts_max);
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
/* Samples at which a memory guard dropped knots or starts (see PMS__OLR_MIXED_STATES_MAX). */
uint64_t pms__olr_mixed_cut(const pms__olr_mixed *m);
/* The most awake starts at once. */
uint64_t pms__olr_mixed_peak(const pms__olr_mixed *m);
/* The most knot states held at once (after a guard has cut them). */
uint64_t pms__olr_mixed_states_peak(const pms__olr_mixed *m);

#endif
