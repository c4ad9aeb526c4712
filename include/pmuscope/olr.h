/* pmuscope: online linear regression of sample streams (Wu & Mencer's OLR paper),
 * and an optimal bounded-error variant.
 *
 * A stream of samples (x, y[0..k-1]) -- x the cumulative count of the sampling
 * event (or a time stamp), y[j] the cumulative count of counter j -- is replaced
 * by line segments. Samples are pushed one at a time; each segment is handed to
 * a callback when it closes; pms_olr_finish() closes the last ones. Work per
 * sample is O(1) amortised; memory, see below.
 *
 * Methods:
 *  - PMS_OLR_WM, the paper's procedure exactly: values scaled by the first value
 *    of their series (the first NON-ZERO value: samples before it are all 0, so
 *    any divisor gives them 0 and none divides by zero; an all-zero series keeps
 *    divisor 1); running sums; slope and intercept by equations 3 and 4; sigma by
 *    equations 7 and 8; a sample whose residual exceeds nsigma (3) sigma starts a
 *    new line at the last point of the old one; while the line has 2 points the
 *    sample joins only if |y - yhat| < alpha |yhat| (alpha = 0.01). Sums are kept
 *    relative to the line's first point (same equations, no cancellation), and a
 *    residual at the level of floating-point rounding (1e-12 relative) is not an
 *    outlier: otherwise an exactly linear series would break on rounding noise at
 *    sigma = 0, and a counter that stays 0 would fail the alpha test (yhat = 0) at
 *    every sample.
 *  - PMS_OLR_OPT: O'Rourke's online optimal piecewise-linear approximation, as in
 *    the PGM-index: every sample is within eps (absolute) of its segment's line,
 *    and no method gives fewer segments for that eps (segments are disjoint: a new
 *    one starts at the sample that did not fit). The hull tests are exact integer
 *    arithmetic (128-bit cross products); the line is the mean of the two extreme
 *    feasible lines, kept exactly (pms_olr_exact), so decoding to whole counts
 *    never exceeds eps, even for counts near 2^63. A segment also closes when its
 *    x span reaches 2^62 or its y span 2^61, which keeps every product below 2^126.
 *
 * Values are whole counts in [0, 2^64 - 1]; x must increase strictly. */
#ifndef PMUSCOPE_OLR_H
#define PMUSCOPE_OLR_H
#include "pmuscope/error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef enum pms_olr_method { PMS_OLR_WM = 0, PMS_OLR_OPT = 1 } pms_olr_method;

/* The most counters one fit takes (and a segment file holds). */
#define PMS_OLR_MAX_COUNTERS 4096

/* How a counter's eps is given (opt). RANGE and STEP need the stream's extent:
 * convert them with pms_olr_eps_resolve() before pms_olr_create(). */
typedef enum pms_olr_eps_unit {
    PMS_OLR_EPS_ABS = 0, /* counts */
    PMS_OLR_EPS_RANGE,   /* fraction of (y_max - y_min) */
    PMS_OLR_EPS_STEP,    /* multiples of the mean per-sample increment (y_max - y_min) / (n - 1) */
} pms_olr_eps_unit;

typedef struct pms_olr_counter_options {
    double eps;             /* opt: largest absolute error allowed; used as floor(eps) counts,
                             * since samples are whole counts (the bound still holds) */
    pms_olr_eps_unit unit;
    int monotone;           /* the counter never decreases: a decrease is an error, and opt
                             * never gives a segment a negative slope */
} pms_olr_counter_options;

typedef struct pms_olr_options {
    pms_olr_method method;
    size_t ncounters;       /* k: 1 to PMS_OLR_MAX_COUNTERS */
    int per_counter;        /* 0: all counters break together when any breaks (the paper's
                             * extension); 1: each counter has its own segments */
    double alpha;           /* wm: relative test while a line has 2 points (0.01) */
    double nsigma;          /* wm: outlier threshold in sigmas (3) */
    uint64_t max_len;       /* samples per segment at most (0, the default: no cap). A capped
                             * segment closes and the next starts as after a break; the
                             * reduction ratio can then not exceed max_len. */
    size_t max_hull;        /* opt: points per convex hull at most (0, the default: the hulls
                             * grow as needed; else >= 8). When a hull is full the segment
                             * closes early, error bound unchanged. */
    int stats;              /* measure errors and sigma (max error exactly, from the open
                             * segment's convex hulls; squared errors from running sums).
                             * Default 1. */
    /* ncounters entries, or NULL: eps 0 absolute, monotone (defaults of pms_olr_options_init) */
    const pms_olr_counter_options *counters;
} pms_olr_options;

/* opt's line, exactly, relative to the origin (x0, y0), the segment's first sample:
 * y(x) = y0 + (L0(x - x0) + L1(x - x0)) / 2 with Li(u) = y[i] + (u - x[i]) * dy[i] / dx[i],
 * dx[i] > 0; all integers. L0 and L1 are the extreme feasible lines (least and greatest
 * slope), each through two hull points; their mean is the PGM-index's choice. */
typedef struct pms_olr_exact {
    uint64_t x0;
    uint64_t y0;
    int64_t x[2], y[2], dx[2], dy[2];
} pms_olr_exact;

typedef struct pms_olr_segment {
    size_t counter;
    uint64_t first;         /* index of its first sample (0-based) */
    uint64_t count;         /* samples on the line (wm: neighbours share their boundary sample) */
    uint64_t x_first, x_last;
    double y_first, y_last; /* the line at x_first and x_last, in counts */
    double slope;           /* counts of y per unit of x */
    double sigma;           /* equation 7 for the line (wm: from the running sums, eq. 8; opt:
                             * from the samples when stats are on); 0 for lines of <= 2 samples */
    int capped;             /* closed by a cap (max_len, max_hull, or the 2^62 x / 2^61 y span
                             * of opt's exact arithmetic), not by the data: without the cap it
                             * might have gone on */
    int exact_valid;        /* opt: `exact` holds the line */
    pms_olr_exact exact;
} pms_olr_segment;

/* Returning non-zero stops: the push or finish that closed the segment returns it. */
typedef int (*pms_olr_segment_fn)(const pms_olr_segment *seg, void *ctx);

typedef struct pms_olr_summary {
    uint64_t samples;
    uint64_t segments;
    double reduction;       /* samples / segments (the paper's measure) */
    double bytes_ratio;     /* raw sample bytes / segment bytes (see PMS_OLR_*_BYTES) */
    double mnesd;           /* max sigma / (y_max - y_min) (the paper's MNESD); 0 if y is constant */
    double max_abs_error;   /* over all samples, each against the first line that holds it */
    double rmse;
    uint64_t y_min, y_max;  /* exact counts (a double would round those above 2^53) */
    uint64_t capped;        /* segments closed by a cap (see pms_olr_segment.capped) */
} pms_olr_summary;

/* Bytes per stored record, as the paper counts them: a sample is x and k counters,
 * a line is its start x, slope and intercept (per counter; with all counters breaking
 * together a line record is x and k slope/intercept pairs). 8 bytes per number. */
#define PMS_OLR_VALUE_BYTES 8u

typedef struct pms_olr pms_olr;

/* Defaults: wm, 1 counter, breaks together, alpha 0.01, 3 sigma, no caps (max_len and
 * max_hull 0), stats on. */
void pms_olr_options_init(pms_olr_options *o);
void pms_olr_counter_options_init(pms_olr_counter_options *c);

/* Converts eps given in RANGE or STEP units to counts, from the stream's extent. */
double pms_olr_eps_resolve(const pms_olr_counter_options *c, double y_min, double y_max, uint64_t n);

int pms_olr_create(pms_olr **out, const pms_olr_options *opt, pms_olr_segment_fn fn, void *ctx);
void pms_olr_destroy(pms_olr *o);

/* One sample: x and y[0..k-1]. Errors (stream left unchanged): x not above the previous
 * x, a monotone counter that decreased. */
int pms_olr_push(pms_olr *o, uint64_t x, const uint64_t *y);
/* The same from doubles (CSV input): NaN, infinities, negative or fractional values are errors. */
int pms_olr_push_double(pms_olr *o, double x, const double *y);
/* A double as a whole count in [0, 2^63); NaN, infinities, negative or fractional values
 * are errors ("NaN: expected a count"; callers add where it was). */
int pms_olr_count_from_double(double v, uint64_t *out);
/* Closes the open segments. An empty stream or a single sample is an error. */
int pms_olr_finish(pms_olr *o);

/* Statistics of counter j so far (complete after pms_olr_finish). */
int pms_olr_get_summary(const pms_olr *o, size_t j, pms_olr_summary *out);
const pms_olr_options *pms_olr_get_options(const pms_olr *o);

/* Decoding. The line of a segment at x, in counts. */
double pms_olr_segment_eval(const pms_olr_segment *s, uint64_t x);
/* The same rounded to the nearest whole count (a tie upward), clamped to [0, 2^64 - 1]; exact for opt segments (|y - result| <= eps) over the
 * whole range of counts, 2^64 - 1 included. */
uint64_t pms_olr_segment_eval_count(const pms_olr_segment *s, uint64_t x);
/* The segment's samples: the line at each of their own x values x[0..n-1] (a segment's
 * samples are x[first .. first + count - 1] of the stream), rounded to whole counts, into
 * y[0..n-1]. The samples' own x, not evenly spaced ones: with randomised periods only
 * they keep every sample within eps. */
void pms_olr_segment_decode(const pms_olr_segment *s, const uint64_t *x, size_t n, uint64_t *y);

const char *pms_olr_method_name(pms_olr_method m);
int pms_olr_method_parse(const char *name, pms_olr_method *out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
