/* The olr stream: checks each sample, runs one fitter per counter (wm or opt),
 * closes segments together or per counter, and measures the fit. */
#include "olr/olr_internal.h"
#include "olr/olr_stats.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One counter's error statistics: the open segment's (olr_stats.h) and the totals. */
typedef struct olr_stats {
    olr_resid r;
    olr_hulls h;         /* wm's largest error (opt reads its own hulls) */
    bool open;           /* r (and h) hold the open segment's samples */
    uint64_t segments, capped;
    double max_err, sse, max_sigma;
    uint64_t measured;
    uint64_t y_min, y_max;
} olr_stats;

struct pms_olr {
    pms_olr_options opt;
    pms_olr_counter_options *copt;
    pms_olr_segment_fn fn;
    void *ctx;
    uint64_t nsamples, last_x;
    uint64_t *last_y;
    uint8_t *breaks;           /* per counter: OLR_FITS or why the sample does not join */
    double scale_x, *scale_y;  /* wm: first non-zero values (1 until one is seen) */
    olr_wm *wm;
    olr_opt *op;
    olr_stats *st;
    bool finished;
};

void pms_olr_counter_options_init(pms_olr_counter_options *c)
{
    memset(c, 0, sizeof *c);
    c->unit = PMS_OLR_EPS_ABS;
    c->monotone = 1;
}

void pms_olr_options_init(pms_olr_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = PMS_OLR_WM;
    o->ncounters = 1;
    o->alpha = 0.01;
    o->nsigma = 3.0;
    o->stats = 1;
}

double pms_olr_eps_resolve(const pms_olr_counter_options *c, double y_min, double y_max, uint64_t n)
{
    double range = y_max > y_min ? y_max - y_min : 0;
    switch (c->unit) {
    case PMS_OLR_EPS_RANGE: return c->eps * range;
    case PMS_OLR_EPS_STEP: return n > 1 ? c->eps * range / (double)(n - 1) : 0;
    default: return c->eps;
    }
}

const char *pms_olr_method_name(pms_olr_method m) { return m == PMS_OLR_OPT ? "opt" : "wm"; }

int pms_olr_method_parse(const char *name, pms_olr_method *out)
{
    if (strcmp(name, "wm") == 0) *out = PMS_OLR_WM;
    else if (strcmp(name, "opt") == 0) *out = PMS_OLR_OPT;
    else return pms__fail(PMS_EINVAL, "unknown olr method '%s': expected wm or opt", name);
    return PMS_OK;
}

static int check_options(const pms_olr_options *o)
{
    if (o->ncounters == 0 || o->ncounters > PMS_OLR_MAX_COUNTERS)
        return pms__fail(PMS_EINVAL, "olr: %zu counters: expected 1 to %d", o->ncounters, PMS_OLR_MAX_COUNTERS);
    if (o->method != PMS_OLR_WM && o->method != PMS_OLR_OPT)
        return pms__fail(PMS_EINVAL, "olr: unknown method %d", (int)o->method);
    if (!(o->alpha >= 0 && o->alpha < 1))
        return pms__fail(PMS_EINVAL, "olr: alpha %g: expected a value in [0, 1)", o->alpha);
    if (!(o->nsigma > 0 && isfinite(o->nsigma)))
        return pms__fail(PMS_EINVAL, "olr: nsigma %g: expected a positive number", o->nsigma);
    if (o->max_len == 1) return pms__fail(PMS_EINVAL, "olr: max_len 1: a line needs 2 samples (0 for no cap)");
    if (o->method == PMS_OLR_OPT && o->max_hull && o->max_hull < 8)
        return pms__fail(PMS_EINVAL, "olr: max_hull %zu: expected 0 (no cap) or at least 8", o->max_hull);
    for (size_t j = 0; o->counters && j < o->ncounters; j++) {
        const pms_olr_counter_options *c = &o->counters[j];
        if (c->unit != PMS_OLR_EPS_ABS)
            return pms__fail(PMS_EINVAL, "olr: counter %zu: eps relative to the range or the step must be "
                                        "converted with pms_olr_eps_resolve() first", j);
        if (!(c->eps >= 0 && c->eps <= 0x1p60))
            return pms__fail(PMS_EINVAL, "olr: counter %zu: eps %g: expected a count in [0, 2^60]", j, c->eps);
    }
    return PMS_OK;
}

int pms_olr_create(pms_olr **out, const pms_olr_options *opt, pms_olr_segment_fn fn, void *ctx)
{
    *out = NULL;
    int rc = check_options(opt);
    if (rc) return rc;
    size_t k = opt->ncounters;
    pms_olr *o = calloc(1, sizeof *o);
    if (!o) return pms__fail(PMS_ENOMEM, "olr: out of memory");
    o->opt = *opt;
    o->fn = fn;
    o->ctx = ctx;
    o->scale_x = 1;
    o->copt = calloc(k, sizeof *o->copt);
    o->last_y = calloc(k, sizeof *o->last_y);
    o->breaks = calloc(k, sizeof *o->breaks);
    o->scale_y = calloc(k, sizeof *o->scale_y);
    o->st = calloc(k, sizeof *o->st);
    if (opt->method == PMS_OLR_WM) o->wm = calloc(k, sizeof *o->wm);
    else o->op = calloc(k, sizeof *o->op);
    bool ok = o->copt && o->last_y && o->breaks && o->scale_y && o->st && (o->wm || o->op);
    for (size_t j = 0; ok && j < k; j++) {
        if (opt->counters) o->copt[j] = opt->counters[j];
        else pms_olr_counter_options_init(&o->copt[j]);
        o->scale_y[j] = 1;
        if (o->op) ok = pms__olr_opt_init(&o->op[j], (int64_t)floor(o->copt[j].eps), o->copt[j].monotone,
                                     opt->max_hull) == 0;
    }
    o->opt.counters = o->copt;
    if (!ok) {
        pms_olr_destroy(o);
        return pms__fail(PMS_ENOMEM, "olr: out of memory");
    }
    *out = o;
    return PMS_OK;
}

void pms_olr_destroy(pms_olr *o)
{
    if (!o) return;
    for (size_t j = 0; j < o->opt.ncounters; j++) {
        if (o->op) pms__olr_opt_free(&o->op[j]);
        if (o->st) pms__olr_hulls_free(&o->st[j].h);
    }
    free(o->copt);
    free(o->last_y);
    free(o->breaks);
    free(o->scale_y);
    free(o->wm);
    free(o->op);
    free(o->st);
    free(o);
}

const pms_olr_options *pms_olr_get_options(const pms_olr *o) { return &o->opt; }

/* ---- measuring ---- */

/* Counter j's sample joined its open segment: into the sums (and wm's hulls). */
static int measure_sample(pms_olr *o, size_t j, uint64_t x, uint64_t y)
{
    olr_stats *s = &o->st[j];
    if (!s->open) {
        s->open = true;
        pms__olr_resid_start(&s->r, x, y);
        if (o->wm) pms__olr_hulls_start(&s->h, x, y);
        return PMS_OK;
    }
    if (pms__olr_resid_add(&s->r, x, y)) {
        double a, b;
        if (o->wm) pms__olr_wm_line(&o->wm[j], o->scale_x, o->scale_y[j], s->r.xo, s->r.yo, &a, &b);
        else pms__olr_opt_line(&o->op[j], &a, &b);
        pms__olr_resid_rebase(&s->r, a, b);
    }
    if (o->wm && pms__olr_hulls_add(&s->h, x, y)) return pms__fail(PMS_ENOMEM, "olr: out of memory");
    return PMS_OK;
}

/* wm: the largest |y - line(x)| over the hull vertices of the segment's samples. */
static double wm_max_error(const olr_hulls *h, const pms_olr_segment *seg)
{
    double max = 0;
    for (int side = 0; side < 2; side++) {
        const olr_hull_pt *pt = side ? h->up : h->lo;
        size_t n = side ? h->nup : h->nlo;
        for (size_t i = 0; i < n; i++) {
            double e = (double)(h->yo + (uint64_t)pt[i].v) - pms_olr_segment_eval(seg, h->xo + (uint64_t)pt[i].u);
            if (fabs(e) > max) max = fabs(e);
        }
    }
    return max;
}

/* The closing segment's errors (each sample once: wm's shared boundary belongs to the
 * line that ends there, and the next line's sums start after it), and sigma for opt. */
static void measure(pms_olr *o, size_t j, pms_olr_segment *seg)
{
    olr_stats *s = &o->st[j];
    if (!s->open) return;
    s->open = false;
    /* the segment's line in the sums' coordinates */
    double a, b = seg->slope;
    if (seg->exact_valid) a = (double)(pms__olr_exact_eval_real(&seg->exact, s->r.xo) - (long double)s->r.yo);
    else a = (double)((long double)seg->y_first + (long double)seg->slope * (long double)(s->r.xo - seg->x_first) -
                      (long double)s->r.yo);
    double sse = pms__olr_resid_sse(&s->r, a, b);
    double err = o->wm ? wm_max_error(&s->h, seg) : pms__olr_opt_max_error(&o->op[j], seg);
    if (err > s->max_err) s->max_err = err;
    s->sse += sse;
    s->measured += s->r.n;
    if (seg->exact_valid && s->r.n > 2) seg->sigma = sqrt(sse / (double)(s->r.n - 2));
    if (seg->sigma > s->max_sigma) s->max_sigma = seg->sigma;
}

static int emit(pms_olr *o, size_t j, pms_olr_segment *seg, bool capped)
{
    olr_stats *s = &o->st[j];
    seg->counter = j;
    seg->capped = capped;
    s->capped += capped;
    if (o->opt.stats) measure(o, j, seg);
    s->segments++;
    return o->fn ? o->fn(seg, o->ctx) : 0;
}

/* ---- the fitters ---- */

static int close_wm(pms_olr *o, size_t j, bool restart, bool capped)
{
    pms_olr_segment seg = {0};
    pms__olr_wm_segment(&o->wm[j], o->scale_x, o->scale_y[j], &seg);
    if (restart) pms__olr_wm_restart(&o->wm[j]);
    return emit(o, j, &seg, capped);
}

static int close_opt(pms_olr *o, size_t j, bool capped)
{
    pms_olr_segment seg = {0};
    pms__olr_opt_segment(&o->op[j], &seg); /* its hulls stay readable until the next sample */
    return emit(o, j, &seg, capped);
}

/* OLR_FITS, or why (x, y) does not join counter j's open segment. */
static int counter_breaks(pms_olr *o, size_t j, uint64_t x, uint64_t y)
{
    if (o->wm) {
        olr_wm *w = &o->wm[j];
        if (o->opt.max_len && w->n >= o->opt.max_len) return OLR_CUT_LEN;
        return pms__olr_wm_breaks(w, (double)x / o->scale_x, (double)y / o->scale_y[j], o->opt.alpha, o->opt.nsigma)
                   ? OLR_BREAK
                   : OLR_FITS;
    }
    olr_opt *p = &o->op[j];
    if (o->opt.max_len && p->n >= o->opt.max_len) return OLR_CUT_LEN;
    return pms__olr_opt_fits(p, x, y);
}

static int close_segment(pms_olr *o, size_t j, bool capped)
{
    return o->wm ? close_wm(o, j, true, capped) : close_opt(o, j, capped);
}

static void add_sample(pms_olr *o, size_t j, uint64_t x, uint64_t y)
{
    if (o->wm) pms__olr_wm_add(&o->wm[j], (double)x / o->scale_x, (double)y / o->scale_y[j], o->nsamples, x);
    else pms__olr_opt_add(&o->op[j], x, y, o->nsamples);
}

static int check_sample(const pms_olr *o, uint64_t x, const uint64_t *y)
{
    if (o->finished) return pms__fail(PMS_EINVAL, "olr: sample %llu pushed after finish", (unsigned long long)o->nsamples);
    if (o->nsamples && x <= o->last_x)
        return pms__fail(PMS_EINVAL, "olr: sample %llu: x = %llu after x = %llu: x must increase strictly",
                        (unsigned long long)o->nsamples, (unsigned long long)x, (unsigned long long)o->last_x);
    for (size_t j = 0; j < o->opt.ncounters; j++) {
        if (o->nsamples && o->copt[j].monotone && y[j] < o->last_y[j])
            return pms__fail(PMS_EINVAL,
                            "olr: sample %llu: counter %zu fell from %llu to %llu, but it was declared monotone",
                            (unsigned long long)o->nsamples, j, (unsigned long long)o->last_y[j],
                            (unsigned long long)y[j]);
    }
    return PMS_OK;
}

int pms_olr_push(pms_olr *o, uint64_t x, const uint64_t *y)
{
    int rc = check_sample(o, x, y);
    if (rc) return rc;
    size_t k = o->opt.ncounters;
    /* wm scaling: the first non-zero value of each series (see olr.h) */
    if (o->wm && x != 0 && (o->nsamples == 0 || o->last_x == 0)) o->scale_x = (double)x;
    bool any = false, any_data = false;
    for (size_t j = 0; j < k; j++) {
        if (o->wm && y[j] != 0 && o->st[j].y_max == 0)
            o->scale_y[j] = (double)y[j];
        int why = o->nsamples > 0 ? counter_breaks(o, j, x, y[j]) : OLR_FITS;
        if (why == OLR_NOMEM) return pms__fail(PMS_ENOMEM, "olr: out of memory");
        o->breaks[j] = (uint8_t)why;
        any |= why != OLR_FITS;
        any_data |= why == OLR_BREAK;
    }
    for (size_t j = 0; j < k; j++) {
        int why = o->breaks[j];
        if (why != OLR_FITS || (any && !o->opt.per_counter)) {
            /* cut by a cap: its own, or (breaking together) one no data break came with */
            rc = close_segment(o, j, why >= OLR_CUT_LEN || (why == OLR_FITS && !any_data));
            if (rc) return rc;
        }
        add_sample(o, j, x, y[j]);
        olr_stats *s = &o->st[j];
        if (o->opt.stats && (rc = measure_sample(o, j, x, y[j]))) return rc;
        if (o->nsamples == 0 || y[j] < s->y_min) s->y_min = y[j];
        if (y[j] > s->y_max) s->y_max = y[j];
        o->last_y[j] = y[j];
    }
    o->last_x = x;
    o->nsamples++;
    return PMS_OK;
}

int pms_olr_count_from_double(double v, uint64_t *out)
{
    if (isnan(v)) return pms__fail(PMS_EINVAL, "NaN: expected a count");
    if (!(v >= 0 && v < 0x1p63) || v != floor(v))
        return pms__fail(PMS_EINVAL, "%g: expected a whole count in [0, 2^63)", v);
    *out = (uint64_t)v;
    return PMS_OK;
}

int pms_olr_push_double(pms_olr *o, double x, const double *y)
{
    uint64_t ux = 0, buf[16], *uy = o->opt.ncounters <= 16 ? buf : malloc(o->opt.ncounters * sizeof *uy);
    if (!uy) return pms__fail(PMS_ENOMEM, "olr: out of memory");
    int rc = pms_olr_count_from_double(x, &ux);
    if (rc) pms__fail_context(rc, "olr: sample %llu: x", (unsigned long long)o->nsamples);
    for (size_t j = 0; rc == 0 && j < o->opt.ncounters; j++)
        if ((rc = pms_olr_count_from_double(y[j], &uy[j])))
            pms__fail_context(rc, "olr: sample %llu: counter %zu", (unsigned long long)o->nsamples, j);
    if (rc == 0) rc = pms_olr_push(o, ux, uy);
    if (uy != buf) free(uy);
    return rc;
}

int pms_olr_finish(pms_olr *o)
{
    if (o->finished) return pms__fail(PMS_EINVAL, "olr: finish called twice");
    if (o->nsamples == 0) return pms__fail(PMS_EINVAL, "olr: no samples: expected at least 2");
    if (o->nsamples == 1) return pms__fail(PMS_EINVAL, "olr: a single sample: a line needs at least 2");
    o->finished = true;
    for (size_t j = 0; j < o->opt.ncounters; j++) {
        int rc = o->wm ? close_wm(o, j, false, false) : close_opt(o, j, false);
        if (rc) return rc;
    }
    return PMS_OK;
}

int pms_olr_get_summary(const pms_olr *o, size_t j, pms_olr_summary *out)
{
    if (j >= o->opt.ncounters)
        return pms__fail(PMS_EINVAL, "olr: counter %zu: there are %zu", j, o->opt.ncounters);
    const olr_stats *s = &o->st[j];
    memset(out, 0, sizeof *out);
    out->samples = o->nsamples;
    out->segments = s->segments;
    out->capped = s->capped;
    out->reduction = s->segments ? (double)o->nsamples / (double)s->segments : 0;
    /* bytes: a sample is x and k counters; a line is x, slope, intercept (per counter),
     * or x and k slope/intercept pairs when all counters break together */
    double k = (double)o->opt.ncounters;
    double raw = (double)o->nsamples * (1 + k);
    double lines = o->opt.per_counter ? 0 : (double)s->segments * (1 + 2 * k);
    if (o->opt.per_counter)
        for (size_t i = 0; i < o->opt.ncounters; i++) lines += 3.0 * (double)o->st[i].segments;
    out->bytes_ratio = lines > 0 ? raw / lines : 0;
    out->y_min = s->y_min;
    out->y_max = s->y_max;
    double range = (double)(out->y_max - out->y_min);
    out->mnesd = range > 0 ? s->max_sigma / range : 0;
    if (o->opt.stats) {
        out->max_abs_error = s->max_err;
        out->rmse = s->measured ? sqrt(s->sse / (double)s->measured) : 0;
    } else {
        out->max_abs_error = out->rmse = NAN;
        if (o->op) out->mnesd = NAN;
    }
    return PMS_OK;
}
