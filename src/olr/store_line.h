/* The stored form of a line segment: whole-count end points, evaluated exactly at the
 * samples' own x (docs/olr-format.md). Shared by the writer, which picks end points that
 * keep every sample within eps, and the reader. */
#ifndef PMS_OLR_STORE_LINE_H
#define PMS_OLR_STORE_LINE_H
#include <stdbool.h>
#include <stdint.h>

typedef __int128 pms__i128;

/* The line from (x0, y0) to (x1, y1), x0 < x1, at x in [x0, x1], rounded to the nearest
 * count (ties upward) and clamped to [0, 2^64 - 1]. Exact for any 64-bit operands. */
uint64_t pms__olr_line_at(uint64_t x0, uint64_t y0, uint64_t x1, uint64_t y1, uint64_t x);

/* Values of the samples whose x is in xs[0..n-1], decoded by the line from (x0, y0) to
 * (x1, y1) (or y0 when n is one sample at x0 == x1): true when every one is within eps of
 * ys[0..n-1]. */
bool pms__olr_line_holds(uint64_t x0, uint64_t y0, uint64_t x1, uint64_t y1, const uint64_t *xs,
                         const uint64_t *ys, uint64_t n, uint64_t eps);

/* The whole end values ye (as ye - yp) of lines from (xp, yp) to (xe, ye) that decode each
 * sample (xs[i], ys[i]), xp < xs[i] <= xe, within eps: [*lo, *hi]. False when the span is
 * too wide for exact 128-bit arithmetic (then no joint line is tried) or nothing fits. */
bool pms__olr_joint_range(uint64_t xp, uint64_t yp, const uint64_t *xs, const uint64_t *ys, uint64_t n,
                          uint64_t eps, pms__i128 *lo, pms__i128 *hi);

#endif
