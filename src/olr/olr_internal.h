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
/* The current line (n >= 2) in counts, relative to (xo, yo): y - yo = a + b (x - xo). */
void pms__olr_wm_line(const olr_wm *w, double scale_x, double scale_y, uint64_t xo, uint64_t yo, double *a,
                      double *b);
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
    size_t max_hull;             /* 0: the hulls grow as needed */
    bool flat;                   /* the closed segment's line is the flat fallback (monotone) */
} olr_opt;

/* Whether a sample joins the open segment, and why not. */
enum {
    OLR_FITS = 0,
    OLR_BREAK,     /* the data: no line within the bound (opt) or an outlier (wm) */
    OLR_CUT_LEN,   /* caps: max_len samples */
    OLR_CUT_HULL,  /* max_hull hull points */
    OLR_CUT_SPAN,  /* the x or y span beyond which the exact arithmetic could overflow */
    OLR_NOMEM,
};

int pms__olr_opt_init(olr_opt *p, int64_t eps, int monotone, size_t max_hull);
void pms__olr_opt_free(olr_opt *p);
/* Can (x, y) join the current segment (OLR_FITS), or why not? Makes room in the hulls
 * for it (no change of meaning). */
int pms__olr_opt_fits(olr_opt *p, uint64_t x, uint64_t y);
void pms__olr_opt_add(olr_opt *p, uint64_t x, uint64_t y, uint64_t index);
/* Fills the segment (exact line and its double view) and empties the fitter; its hulls
 * stay readable (pms__olr_opt_max_error) until the next sample is added. */
void pms__olr_opt_segment(olr_opt *p, pms_olr_segment *s);
/* The open segment's current line v = a + b u relative to its first sample (n >= 2). */
void pms__olr_opt_line(const olr_opt *p, double *a, double *b);
/* The largest |y - decoded y| over the closed segment's samples, exactly. */
double pms__olr_opt_max_error(const olr_opt *p, const pms_olr_segment *s);

/* Exact value of an opt line at x, rounded to the nearest count (ties upward). */
__int128 pms__olr_exact_eval(const pms_olr_exact *e, uint64_t x);
long double pms__olr_exact_eval_real(const pms_olr_exact *e, uint64_t x);
/* The line's values at xa < xb as whole counts whose straight line stays within 1/2 (less,
 * between them) of the exact line: a sample within eps of the exact line decodes within
 * eps from them (docs/olr-format.md). */
void pms__olr_exact_ends(const pms_olr_exact *e, uint64_t xa, uint64_t xb, __int128 *ya, __int128 *yb);

#endif
