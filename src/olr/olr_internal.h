/* Internal state of the olr module: one fitter per counter (wm or opt) and the
 * bookkeeping that measures errors. See include/pmuscope/olr.h. */
#ifndef PMS_OLR_INTERNAL_H
#define PMS_OLR_INTERNAL_H
#include "pmuscope/olr.h"

#include <stdbool.h>

/* ---- wm: the paper's online regression, in scaled units ---- */
typedef struct olr_wm {
    uint64_t n;                      /* points on the current line */
    double ox, oy;                   /* the line's first point (scaled); sums are relative to it */
    double sx, sy, sxx, syy, sxy;    /* running sums of u = x - ox, v = y - oy */
    double lx, ly;                   /* the last point added (scaled) */
    uint64_t first, last;            /* sample indexes of the line's first and last points */
    uint64_t x_first, x_last;        /* raw x of those */
} olr_wm;

/* Does (x, y) (scaled) end the current line? alpha and nsigma as in the options. */
bool pms__olr_wm_breaks(const olr_wm *w, double x, double y, double alpha, double nsigma);
void pms__olr_wm_add(olr_wm *w, double x, double y, uint64_t index, uint64_t raw_x);
/* Fills the line (slope, values at the ends, sigma) in raw units. */
void pms__olr_wm_segment(const olr_wm *w, double scale_x, double scale_y, pms_olr_segment *s);
/* Starts a new line at the last point of the current one. */
void pms__olr_wm_restart(olr_wm *w);

/* ---- opt: O'Rourke's online convex-hull PLA, exact integers ---- */
typedef struct olr_pt {
    int64_t x, y;
} olr_pt;

typedef struct olr_opt {
    int64_t eps;
    int monotone;
    uint64_t n;                  /* points in the current segment */
    uint64_t first;              /* sample index of its first point */
    uint64_t x0;                 /* origin: the first point; hull coordinates are relative */
    uint64_t y0;
    uint64_t x_last;
    int64_t y_last;              /* relative */
    olr_pt rect[4];              /* PGM's rectangle: the two extreme lines are 0-2 and 1-3 */
    olr_pt *upper, *lower;       /* hulls of (x, y + eps) and (x, y - eps) */
    size_t nup, nlo, up_start, lo_start, cap;
} olr_opt;

int pms__olr_opt_init(olr_opt *p, int64_t eps, int monotone, size_t max_hull);
void pms__olr_opt_free(olr_opt *p);
/* Can (x, y) join the current segment? May compact the hulls (no change of meaning). */
bool pms__olr_opt_fits(olr_opt *p, uint64_t x, uint64_t y);
void pms__olr_opt_add(olr_opt *p, uint64_t x, uint64_t y, uint64_t index);
/* Fills the segment (exact line and its double view) and empties the fitter. */
void pms__olr_opt_segment(olr_opt *p, pms_olr_segment *s);

/* Exact value of an opt line at x, rounded to the nearest count (ties upward). */
__int128 pms__olr_exact_eval(const pms_olr_exact *e, uint64_t x);
long double pms__olr_exact_eval_real(const pms_olr_exact *e, uint64_t x);
/* The line's values at xa < xb as whole counts whose straight line stays within 1/2 (less,
 * between them) of the exact line: a sample within eps of the exact line decodes within
 * eps from them (docs/olr-format.md). */
void pms__olr_exact_ends(const pms_olr_exact *e, uint64_t xa, uint64_t xb, __int128 *ya, __int128 *yb);

#endif
