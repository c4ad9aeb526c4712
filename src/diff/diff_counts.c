/* Counts compared event by event (pmuscope/diff.h): the Wilcoxon rank sum test of the runs'
 * values, the ratio NEW/BASE with its interval from the same test on their logarithms, and
 * Benjamini-Hochberg over the events. */
#include "diff/diff_internal.h"
#include "pmuscope/error.h"
#include "pmuscope/stats.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The values that are numbers (the runs that counted), sorted, into out; how many. */
static size_t counted(const double *v, size_t n, double *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) out[k++] = v[i];
    qsort(out, k, sizeof *out, by_double);
    return k;
}

static double median(const double *sorted, size_t n)
{
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* One event: the rank sum test of NEW against BASE, on the logarithms when every value is
 * positive (the shift is then the log of the ratio), else on the values (the same p: ranks
 * do not change) with the ratio of the medians. */
static int compare_event(const diff_series *s, double confidence, pms_diff_count *row, double *direction,
                         double *scratch)
{
    double *base = scratch;
    size_t nb = counted(s->values[PMS_DIFF_BASE], s->n[PMS_DIFF_BASE], base);
    double *new_ = scratch + nb;
    size_t nn = counted(s->values[PMS_DIFF_NEW], s->n[PMS_DIFF_NEW], new_);
    *row = (pms_diff_count){.event = s->event, .unit = s->unit ? s->unit : "", .base_runs = nb, .new_runs = nn,
                            .base_median = nb ? median(base, nb) : NAN, .new_median = nn ? median(new_, nn) : NAN,
                            .ratio = NAN, .ci_low = NAN, .ci_high = NAN, .p_value = NAN};
    if (!nb || !nn) return PMS_OK; /* counted on one side only: nothing to test */
    bool positive = base[0] > 0 && new_[0] > 0;
    for (size_t i = 0; positive && i < nb + nn; i++) scratch[i] = log(scratch[i]);
    pms_test_result t;
    int rc = pms_rank_sum_test(&t, new_, nn, base, nb, confidence);
    if (rc) return rc;
    row->p_value = t.p_value;
    row->exact = t.exact;
    *direction = positive ? t.estimate : row->new_median - row->base_median;
    if (positive) {
        row->ratio = exp(t.estimate);
        row->ci_low = exp(t.ci_low), row->ci_high = exp(t.ci_high);
    } else {
        row->ratio = row->base_median ? row->new_median / row->base_median : NAN;
    }
    return PMS_OK;
}

/* The smallest two-sided p the rank sum can give with m and n runs: 2 / C(m + n, m). */
static double smallest_p(size_t m, size_t n) { return fmin(1, 2 * pms_wilcoxon_cdf(0, m, n)); }

int pms__diff_compare_counts(pms_diff *d, pms_diff_result *r)
{
    r->method = PMS_DIFF_RANK_SUM;
    size_t most = 0;
    for (size_t i = 0; i < d->nseries; i++) {
        size_t n = d->series[i].n[0] + d->series[i].n[1];
        most = n > most ? n : most;
    }
    double *scratch = malloc((most + 1) * sizeof *scratch), *p = calloc(d->nseries + 1, sizeof *p),
           *q = calloc(d->nseries + 1, sizeof *q), *direction = calloc(d->nseries + 1, sizeof *direction);
    r->count_rows = calloc(d->nseries + 1, sizeof *r->count_rows);
    int rc = scratch && p && q && direction && r->count_rows ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < d->nseries && rc == PMS_OK; i++) {
        pms_diff_count *row = &r->count_rows[r->ncount_rows];
        if ((rc = compare_event(&d->series[i], d->opt.confidence, row, &direction[r->ncount_rows], scratch))) break;
        if (!row->base_runs || !row->new_runs) {
            rc = pms__diff_note(d, "%s: counted on one side only (%s): not compared", row->event,
                                row->base_runs ? "BASE" : "NEW");
            continue;
        }
        p[r->ncount_rows++] = row->p_value;
        r->base_runs = row->base_runs > r->base_runs ? row->base_runs : r->base_runs;
        r->new_runs = row->new_runs > r->new_runs ? row->new_runs : r->new_runs;
    }
    if (rc == PMS_OK) rc = pms_p_adjust_bh(q, p, r->ncount_rows);
    for (size_t i = 0; i < r->ncount_rows && rc == PMS_OK; i++) {
        pms_diff_count *row = &r->count_rows[i];
        row->q_value = q[i];
        bool changed = q[i] <= d->opt.fdr && direction[i] != 0;
        row->verdict = !changed ? PMS_DIFF_NONE : direction[i] > 0 ? PMS_DIFF_UP : PMS_DIFF_DOWN;
        r->changed += changed;
        r->tested += !isnan(p[i]);
    }
    if (rc == PMS_OK && r->ncount_rows && smallest_p(r->base_runs, r->new_runs) > d->opt.fdr)
        rc = pms__diff_note(d, "with %zu and %zu runs the rank sum test cannot give a p-value below %.3g, above the "
                            "FDR %g: no change can be found (run more: stat -r 5 or more a side)",
                            r->base_runs, r->new_runs, smallest_p(r->base_runs, r->new_runs), d->opt.fdr);
    free(scratch), free(p), free(q), free(direction);
    return rc;
}
