/* Profiles compared row by row (pmuscope/diff.h): the two-proportion test on the samples,
 * or with runs on both sides Welch's test of the runs' shares; Benjamini-Hochberg over the
 * rows; the smallest change each row's test would find. */
#include "diff/diff_internal.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"
#include "util/error.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The runs of both sides as dense counts, samples[side][run * nkeys + key], and room for
 * one row's shares over a side's runs. */
typedef struct dense {
    size_t nkeys;
    uint64_t *samples[2];
    uint64_t total[2]; /* the event's samples over the side's runs */
    double *shares[2];
} dense;

static int densify(const pms_diff *d, dense *m)
{
    m->nkeys = d->nwhere;
    for (int s = 0; s < 2; s++) {
        m->samples[s] = calloc(d->nruns[s] * m->nkeys + 1, sizeof *m->samples[s]);
        m->shares[s] = calloc(d->nruns[s] + 1, sizeof *m->shares[s]);
        if (!m->samples[s] || !m->shares[s]) return pms__fail(PMS_ENOMEM, "out of memory");
        m->total[s] = 0;
        for (size_t r = 0; r < d->nruns[s]; r++) {
            const diff_run *run = &d->runs[s][r];
            m->total[s] += run->total;
            for (size_t c = 0; c < run->ncells; c++) m->samples[s][r * m->nkeys + run->cells[c].key] += run->cells[c].samples;
        }
    }
    return PMS_OK;
}

static void dense_free(dense *m)
{
    for (int s = 0; s < 2; s++) free(m->samples[s]), free(m->shares[s]);
}

static double mean(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s / (double)n;
}

/* Row key's two-proportion test on the side's pooled samples; the smallest change it could
 * find with the power asked at level alpha (set later, once the rows tested are known) is
 * (z_{1 - alpha/2} + z_power) times the standard error under no change, plus the continuity
 * correction: *se and *extra get those two. */
static int two_proportions(const pms_diff *d, const dense *m, pms_diff_row *row, double *se, double *extra)
{
    uint64_t bt = m->total[PMS_DIFF_BASE], nt = m->total[PMS_DIFF_NEW];
    pms_test_result t;
    int rc = pms_prop_test2(&t, row->new_samples, nt, row->base_samples, bt, d->opt.confidence, !d->opt.no_continuity);
    if (rc) return rc;
    row->base_share = (double)row->base_samples / (double)bt;
    row->new_share = (double)row->new_samples / (double)nt;
    row->delta = t.estimate;
    row->ci_low = t.ci_low, row->ci_high = t.ci_high;
    row->p_value = t.p_value;
    double pooled = ((double)row->base_samples + (double)row->new_samples) / ((double)bt + (double)nt);
    double inv = 1 / (double)bt + 1 / (double)nt;
    *se = sqrt(pooled * (1 - pooled) * inv);
    *extra = d->opt.no_continuity ? 0 : 0.5 * inv;
    return PMS_OK;
}

/* The variance of the mean of a side's shares were they binomial draws of the pooled share
 * p alone: p (1 - p) / m^2 x sum over its m runs of 1 / n_run. */
static double sampling_variance(const pms_diff *d, int side, double p)
{
    double sum = 0;
    size_t m = d->nruns[side];
    for (size_t r = 0; r < m; r++) sum += 1 / (double)d->runs[side][r].total;
    return p * (1 - p) * sum / ((double)m * (double)m);
}

/* Row key's Welch test of the runs' shares (a row absent from a run has a share of 0 there),
 * each side's variance at least the sampling variance of its shares: few samples a run vary
 * in steps, and a spread of runs that happen to agree would pass for certainty; *se and *df
 * for its detectable change. */
static int welch_runs(const pms_diff *d, dense *m, size_t key, pms_diff_row *row, double *se, double *df)
{
    for (int s = 0; s < 2; s++)
        for (size_t r = 0; r < d->nruns[s]; r++)
            m->shares[s][r] = (double)m->samples[s][r * m->nkeys + key] / (double)d->runs[s][r].total;
    row->base_share = mean(m->shares[PMS_DIFF_BASE], d->nruns[PMS_DIFF_BASE]);
    row->new_share = mean(m->shares[PMS_DIFF_NEW], d->nruns[PMS_DIFF_NEW]);
    double pooled = ((double)row->base_samples + (double)row->new_samples) /
                    ((double)m->total[PMS_DIFF_BASE] + (double)m->total[PMS_DIFF_NEW]);
    pms_test_result t;
    int rc = pms_welch_test_floored(&t, m->shares[PMS_DIFF_NEW], d->nruns[PMS_DIFF_NEW], m->shares[PMS_DIFF_BASE],
                                    d->nruns[PMS_DIFF_BASE], d->opt.confidence,
                                    sampling_variance(d, PMS_DIFF_NEW, pooled),
                                    sampling_variance(d, PMS_DIFF_BASE, pooled));
    if (rc == PMS_ENUMERIC) { /* every sample of every run in the row: the same share, 1, throughout */
        row->delta = row->new_share - row->base_share;
        row->ci_low = row->ci_high = row->delta;
        row->p_value = *se = *df = NAN;
        return PMS_OK;
    }
    if (rc) return rc;
    row->delta = t.estimate;
    row->ci_low = t.ci_low, row->ci_high = t.ci_high;
    row->p_value = t.p_value;
    *se = t.std_error;
    *df = t.df;
    return PMS_OK;
}

/* Changed rows first, by the size of the change; then the others by their larger share;
 * then by their names. */
static int by_significance_and_size(const void *a, const void *b)
{
    const pms_diff_row *x = a, *y = b;
    bool cx = x->verdict != PMS_DIFF_NONE, cy = y->verdict != PMS_DIFF_NONE;
    if (cx != cy) return cx ? -1 : 1;
    double sx = cx ? fabs(x->delta) : fmax(x->base_share, x->new_share);
    double sy = cy ? fabs(y->delta) : fmax(y->base_share, y->new_share);
    if (sx != sy) return sx > sy ? -1 : 1;
    int c = strcmp(x->where.binary, y->where.binary);
    if (c) return c;
    c = strcmp(x->where.symbol ? x->where.symbol : "", y->where.symbol ? y->where.symbol : "");
    if (c) return c;
    if (x->where.file_offset != y->where.file_offset) return x->where.file_offset < y->where.file_offset ? -1 : 1;
    return strcmp(x->where.comm ? x->where.comm : "", y->where.comm ? y->where.comm : "");
}

/* q-values, verdicts and the detectable changes of the rows, from their p-values and
 * standard errors. */
static int judge(const pms_diff *d, pms_diff_result *r, const double *se, const double *extra_or_df)
{
    size_t n = r->nrows;
    double *p = malloc((n ? n : 1) * sizeof *p), *q = malloc((n ? n : 1) * sizeof *q);
    if (!p || !q) {
        free(p), free(q);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) p[i] = r->rows[i].p_value;
    int rc = pms_p_adjust_bh(q, p, n);
    r->tested = r->changed = 0;
    for (size_t i = 0; i < n; i++) r->tested += !isnan(p[i]);
    /* were a row the only change, BH would find it at p <= fdr / m (Bonferroni) */
    double alpha = d->opt.fdr / (double)(r->tested ? r->tested : 1);
    for (size_t i = 0; i < n && rc == PMS_OK; i++) {
        pms_diff_row *row = &r->rows[i];
        row->q_value = q[i];
        bool changed = q[i] <= d->opt.fdr && row->delta != 0;
        row->verdict = !changed ? PMS_DIFF_NONE : row->delta > 0 ? PMS_DIFF_UP : PMS_DIFF_DOWN;
        r->changed += changed;
        if (r->method == PMS_DIFF_TWO_PROPORTION)
            row->detectable = (gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(d->opt.power)) * se[i] +
                              extra_or_df[i];
        else if (isinf(extra_or_df[i])) /* both sides' variances at their sampling floor: normal */
            row->detectable = (gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(d->opt.power)) * se[i];
        else
            row->detectable = isnan(se[i]) ? NAN
                                           : (gsl_cdf_tdist_Qinv(alpha / 2, extra_or_df[i]) +
                                              gsl_cdf_tdist_Pinv(d->opt.power, extra_or_df[i])) * se[i];
    }
    free(p), free(q);
    return rc;
}

int pms__diff_compare_profiles(pms_diff *d, pms_diff_result *r)
{
    size_t nb = d->nruns[PMS_DIFF_BASE], nn = d->nruns[PMS_DIFF_NEW];
    r->base_runs = nb, r->new_runs = nn;
    r->method = nb >= 2 && nn >= 2 ? PMS_DIFF_WELCH_RUNS : PMS_DIFF_TWO_PROPORTION;
    int rc = PMS_OK;
    if (r->method == PMS_DIFF_TWO_PROPORTION && (nb > 1 || nn > 1))
        rc = pms__diff_note(d, "%s has %zu runs and %s %zu: their samples are pooled and the variation between runs "
                            "is not tested; give 2 or more runs a side to compare the runs",
                            nb > 1 ? "BASE" : "NEW", nb > 1 ? nb : nn, nb > 1 ? "NEW" : "BASE", nb > 1 ? nn : nb);
    dense m = {0};
    if (rc == PMS_OK) rc = densify(d, &m);
    r->base_total = m.total[PMS_DIFF_BASE], r->new_total = m.total[PMS_DIFF_NEW];
    if (rc == PMS_OK && (!r->base_total || !r->new_total))
        rc = pms__fail(PMS_EINVAL, "%s has no samples", r->base_total ? "NEW" : "BASE");
    double *se = calloc(m.nkeys + 1, sizeof *se), *extra = calloc(m.nkeys + 1, sizeof *extra);
    r->rows = calloc(m.nkeys + 1, sizeof *r->rows);
    if (rc == PMS_OK && (!se || !extra || !r->rows)) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < m.nkeys && rc == PMS_OK; k++) {
        pms_diff_row *row = &r->rows[k];
        row->where = d->where[k];
        for (int s = 0; s < 2; s++) {
            uint64_t sum = 0;
            for (size_t run = 0; run < d->nruns[s]; run++) sum += m.samples[s][run * m.nkeys + k];
            *(s == PMS_DIFF_BASE ? &row->base_samples : &row->new_samples) = sum;
        }
        row->base_total = r->base_total, row->new_total = r->new_total;
        rc = r->method == PMS_DIFF_TWO_PROPORTION ? two_proportions(d, &m, row, &se[k], &extra[k])
                                                   : welch_runs(d, &m, k, row, &se[k], &extra[k]);
    }
    r->nrows = m.nkeys;
    if (rc == PMS_OK) rc = judge(d, r, se, extra);
    if (rc == PMS_OK) qsort(r->rows, r->nrows, sizeof *r->rows, by_significance_and_size);
    free(se), free(extra);
    dense_free(&m);
    return rc;
}
