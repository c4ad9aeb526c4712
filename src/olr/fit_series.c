/* olr on a loaded series: each counter's eps resolved from its extent, the fit, the
 * segments kept in the order they close (see pmuscope/olr_series.h). */
#include "pmuscope/olr_series.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static int keep_segment(const pms_olr_segment *s, void *ctx)
{
    pms_olr_fit *f = ctx;
    if (pms__grow(&f->seg, &f->cap, f->nseg + 1, sizeof *f->seg)) return pms__fail(PMS_ENOMEM, "out of memory");
    f->seg[f->nseg++] = *s;
    return 0;
}

/* Each counter's eps in counts, from the specs and the series' extent. */
static int resolve_eps(const pms_olr_series *s, const pms_olr_eps_spec *specs, size_t nspecs, int monotone,
                       pms_olr_counter_options *copt)
{
    for (size_t j = 0; j < s->k; j++) {
        pms_olr_counter_options c;
        pms_olr_counter_options_init(&c);
        c.eps = 0.001;
        c.unit = PMS_OLR_EPS_RANGE;
        for (size_t i = 0; i < nspecs; i++)
            if (!specs[i].name || strcmp(specs[i].name, s->names[j]) == 0) c = specs[i].c;
        uint64_t lo = UINT64_MAX, hi = 0;
        for (size_t i = 0; i < s->n; i++) {
            uint64_t v = s->y[i * s->k + j];
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        c.eps = pms_olr_eps_resolve(&c, (double)lo, (double)hi, s->n);
        c.unit = PMS_OLR_EPS_ABS;
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

static int run(pms_olr_fit *f, const pms_olr_series *s, const char *where)
{
    pms_olr *o;
    int rc = pms_olr_create(&o, &f->opt, keep_segment, f);
    size_t i = 0;
    for (; rc == 0 && i < s->n; i++) rc = pms_olr_push(o, s->x[i], &s->y[i * s->k]);
    if (rc && s->lines && i > 0) {
        pms_olr_destroy(o);
        return pms__fail_context(rc, "%s:%zu", where, s->lines[i - 1]);
    }
    if (rc == 0) rc = pms_olr_finish(o);
    for (size_t j = 0; rc == 0 && j < s->k; j++) rc = pms_olr_get_summary(o, j, &f->sums[j]);
    pms_olr_destroy(o);
    return rc ? pms__fail_context(rc, "%s", where) : PMS_OK;
}

int pms_olr_fit_series(pms_olr_fit *out, const pms_olr_series *s, const pms_olr_options *opt,
                       const pms_olr_eps_spec *specs, size_t nspecs, int monotone, const char *where)
{
    memset(out, 0, sizeof *out);
    out->opt = *opt;
    out->counters = calloc(s->k ? s->k : 1, sizeof *out->counters);
    out->sums = calloc(s->k ? s->k : 1, sizeof *out->sums);
    int rc = out->counters && out->sums ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == 0) rc = resolve_eps(s, specs, nspecs, monotone, out->counters);
    out->opt.ncounters = s->k;
    out->opt.counters = out->counters;
    if (rc == 0) rc = run(out, s, where);
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
