/* olr on a loaded series: each counter's eps resolved from its extent, the fit, the
 * segments kept in the order they close (see pmuscope/olr_series.h). */
#include "pmuscope/olr_series.h"
#include "io/input_spool.h"
#include "olr/series_internal.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int keep_segment(const pms_olr_segment *s, void *ctx)
{
    pms_olr_fit *f = ctx;
    if (pms__grow(&f->seg, &f->cap, f->nseg + 1, sizeof *f->seg)) return pms__fail(PMS_ENOMEM, "out of memory");
    f->seg[f->nseg++] = *s;
    return 0;
}

/* Each counter's eps spec: the last naming it or naming none (default 0.1% of the range).
 * A spec naming no counter is an error. */
static int pick_specs(const pms_olr_series *s, const pms_olr_eps_spec *specs, size_t nspecs, int monotone,
                      pms_olr_counter_options *copt)
{
    for (size_t j = 0; j < s->k; j++) {
        pms_olr_counter_options c;
        pms_olr_counter_options_init(&c);
        c.eps = 0.001;
        c.unit = PMS_OLR_EPS_RANGE;
        for (size_t i = 0; i < nspecs; i++)
            if (!specs[i].name || strcmp(specs[i].name, s->names[j]) == 0) c = specs[i].c;
        c.monotone = monotone;
        copt[j] = c;
    }
    for (size_t i = 0; i < nspecs; i++) {
        size_t j = 0;
        while (specs[i].name && j < s->k && strcmp(specs[i].name, s->names[j]) != 0) j++;
        if (j == s->k) return pms__fail(PMS_ENOENT, "eps %s=...: no counter of that name", specs[i].name);
    }
    return PMS_OK;
}

/* Each counter's least and greatest values and the rows, for eps relative to them. */
typedef struct extents {
    uint64_t *lo, *hi, n;
    size_t k;
} extents;

static int extend(uint64_t x, const uint64_t *y, void *ctx)
{
    (void)x;
    extents *e = ctx;
    for (size_t j = 0; j < e->k; j++) {
        if (y[j] < e->lo[j]) e->lo[j] = y[j];
        if (y[j] > e->hi[j]) e->hi[j] = y[j];
    }
    e->n++;
    return 0;
}

static int extents_init(extents *e, size_t k)
{
    e->k = k;
    e->n = 0;
    e->lo = malloc((k ? k : 1) * sizeof *e->lo);
    e->hi = calloc(k ? k : 1, sizeof *e->hi);
    if (!e->lo || !e->hi) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; j < k; j++) e->lo[j] = UINT64_MAX;
    return PMS_OK;
}

static void extents_free(extents *e)
{
    free(e->lo);
    free(e->hi);
}

static void resolve_eps(pms_olr_counter_options *copt, const extents *e)
{
    for (size_t j = 0; j < e->k; j++) {
        copt[j].eps = pms_olr_eps_resolve(&copt[j], (double)e->lo[j], (double)e->hi[j], e->n);
        copt[j].unit = PMS_OLR_EPS_ABS;
    }
}

static int fit_begin(pms_olr_fit *out, const pms_olr_options *opt, size_t k)
{
    memset(out, 0, sizeof *out);
    out->opt = *opt;
    out->counters = calloc(k ? k : 1, sizeof *out->counters);
    out->sums = calloc(k ? k : 1, sizeof *out->sums);
    out->opt.ncounters = k;
    out->opt.counters = out->counters;
    return out->counters && out->sums ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
}

static int fit_end(pms_olr_fit *f, pms_olr *o, int rc)
{
    if (rc == 0) rc = pms_olr_finish(o);
    for (size_t j = 0; rc == 0 && j < f->opt.ncounters; j++) rc = pms_olr_get_summary(o, j, &f->sums[j]);
    pms_olr_destroy(o);
    return rc;
}

int pms_olr_fit_series(pms_olr_fit *out, const pms_olr_series *s, const pms_olr_options *opt,
                       const pms_olr_eps_spec *specs, size_t nspecs, int monotone, const char *where)
{
    int rc = fit_begin(out, opt, s->k);
    if (rc == 0) rc = pick_specs(s, specs, nspecs, monotone, out->counters);
    extents e = {0};
    if (rc == 0) rc = extents_init(&e, s->k);
    for (size_t i = 0; rc == 0 && i < s->n; i++) extend(s->x[i], &s->y[i * s->k], &e);
    if (rc == 0) resolve_eps(out->counters, &e);
    extents_free(&e);
    pms_olr *o = NULL;
    if (rc == 0) rc = pms_olr_create(&o, &out->opt, keep_segment, out);
    if (rc) {
        pms_olr_fit_free(out);
        return rc;
    }
    size_t i = 0;
    for (; rc == 0 && i < s->n; i++) rc = pms_olr_push(o, s->x[i], &s->y[i * s->k]);
    if (rc && s->lines && i > 0) {
        pms_olr_destroy(o);
        pms_olr_fit_free(out);
        return pms__fail_context(rc, "%s:%zu", where, s->lines[i - 1]);
    }
    if ((rc = fit_end(out, o, rc))) {
        pms_olr_fit_free(out);
        return pms__fail_context(rc, "%s", where);
    }
    return PMS_OK;
}

/* The fitting pass of a stream: the fitter starts at the first row (the counters are
 * known then), each row is pushed, then handed to the caller's row function. */
typedef struct fitting {
    pms_olr_fit *f;
    const pms_olr_options *opt;
    pms_olr_series *meta;
    const char *path;     /* the caller's, for messages */
    const pms_olr_eps_spec *specs;
    size_t nspecs;
    int monotone;
    extents *e;           /* NULL: eps in counts, no first pass */
    pms_olr *o;
    pms_olr_segment_fn seg_fn;
    pms_olr_row_fn row_fn;
    void *ctx;
} fitting;

static int fit_row(uint64_t x, const uint64_t *y, void *ctx)
{
    fitting *F = ctx;
    int rc = PMS_OK;
    if (!F->o) {
        rc = fit_begin(F->f, F->opt, F->meta->k);
        if (rc == 0) rc = pick_specs(F->meta, F->specs, F->nspecs, F->monotone, F->f->counters);
        if (rc == 0 && F->e) resolve_eps(F->f->counters, F->e);
        for (size_t j = 0; rc == 0 && !F->e && j < F->meta->k; j++)
            if (F->f->counters[j].unit != PMS_OLR_EPS_ABS) { /* wm: no eps */
                F->f->counters[j].unit = PMS_OLR_EPS_ABS;
                F->f->counters[j].eps = 0;
            }
        if (rc == 0 && (rc = pms_olr_create(&F->o, &F->f->opt, F->seg_fn, F->ctx))) pms__fail_context(rc, "%s", F->path);
        if (rc) return rc;
    }
    rc = pms_olr_push(F->o, x, y);
    if (rc) return F->meta->line ? pms__fail_context(rc, "%s:%zu", F->path, F->meta->line)
                                 : pms__fail_context(rc, "%s", F->path);
    return F->row_fn ? F->row_fn(x, y, F->ctx) : PMS_OK;
}

typedef struct probing {
    extents *e;
    pms_olr_series *meta;
    int rc;
} probing;

static int probe_row(uint64_t x, const uint64_t *y, void *ctx)
{
    probing *P = ctx;
    if (!P->e->lo && (P->rc = extents_init(P->e, P->meta->k))) return P->rc;
    return extend(x, y, P->e);
}

static int first_pass(extents *e, pms_olr_series *meta, const char *path, const pms_olr_input_options *in,
                      const pms_olr_eps_spec *specs, size_t nspecs, bool *needed)
{
    /* eps in counts for every counter: no pass needed (the names are not known yet, so
     * only specs naming all counters, or all of them absolute, can tell) */
    bool all_abs = nspecs > 0;
    for (size_t i = 0; i < nspecs; i++)
        if (specs[i].c.unit != PMS_OLR_EPS_ABS) all_abs = false;
    bool default_covered = false;
    for (size_t i = 0; i < nspecs; i++)
        if (!specs[i].name) default_covered = true;
    *needed = !(all_abs && default_covered);
    if (!*needed) return PMS_OK;
    probing P = {e, meta, 0};
    int rc = pms_olr_series_stream(meta, path, in, probe_row, &P);
    pms_olr_series_free(meta);
    return rc;
}

int pms_olr_fit_stream(pms_olr_fit *out, pms_olr_series *meta, const char *path, const pms_olr_input_options *in,
                       const pms_olr_options *opt, const pms_olr_eps_spec *specs, size_t nspecs, int monotone,
                       pms_olr_segment_fn seg_fn, pms_olr_row_fn row_fn, void *ctx)
{
    memset(out, 0, sizeof *out);
    memset(meta, 0, sizeof *meta);
    out->opt = *opt;
    extents e = {0};
    bool needed = false;
    pms__input input; /* a pipe is copied once, so that it can be read twice */
    int rc = pms__input_open(&input, path, pms__olr_head_check, (void *)in);
    if (rc) return rc;
    const char *source = input.path;
    if (opt->method == PMS_OLR_OPT) rc = first_pass(&e, meta, source, in, specs, nspecs, &needed);
    fitting F = {out, opt, meta, path, specs, nspecs, monotone, needed ? &e : NULL, NULL, seg_fn, row_fn, ctx};
    if (rc == 0) rc = pms_olr_series_stream(meta, source, in, fit_row, &F);
    rc = pms__input_status(&input, rc);
    pms__input_close(&input);
    if (meta->source && strcmp(meta->source, path) != 0) { /* name the caller's path, not the copy */
        free(meta->source);
        meta->source = strdup(path);
    }
    if (F.o) {
        int before = rc;
        rc = fit_end(out, F.o, rc);
        if (rc && !before) pms__fail_context(rc, "%s", path);
    }
    extents_free(&e);
    if (rc) pms_olr_fit_free(out);
    return rc;
}

void pms_olr_fit_free(pms_olr_fit *f)
{
    free(f->counters);
    free(f->sums);
    free(f->seg);
    memset(f, 0, sizeof *f);
}
