/* libFuzzer target: runs tables from arbitrary table text (read as a runs table,
 * and summed as an interval table grouped by its first column), run lists, and
 * the methods (LP, MRA, MRACM, forward, NNLS, lasso) on whatever runs come out. */
#include "pmuscope/error.h"
#include "pmuscope/estimate.h"
#include "pmuscope/table.h"

#include <stdint.h>
#include <stdlib.h>

static void exercise(const pms_runs *r)
{
    if (r->n_runs == 0 || r->n_counters == 0) __builtin_trap(); /* such tables must be refused */
    size_t *idx = NULL, n = 0;
    static const char *const specs[] = {"1-3,5", "1", "2-1", "0", "50"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
        for (int by_index = 0; by_index < 2; by_index++) {
            if (pms_runs_select(r, specs[s], by_index, &idx, &n) == PMS_OK)
                for (size_t k = 0; k < n; k++)
                    if (idx[k] >= r->n_runs || (k && idx[k] <= idx[k - 1])) __builtin_trap();
            free(idx);
            idx = NULL;
        }
    size_t m = r->n_runs < 12 ? r->n_runs : 12, c = r->n_counters < 4 ? r->n_counters : 4;
    double *ev = malloc(m * c * sizeof *ev);
    if (!ev) return;
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < c; i++) ev[j * c + i] = r->events[j * r->n_counters + i];
    const char *const *names = (const char *const *)r->counters;
    pms_lp_fit lp;
    if (pms_lp_fit_runs(r->cycles, ev, m, c, &lp) == PMS_OK) {
        for (size_t j = 0; j < m; j++)
            if (lp.eps[j] < 0) __builtin_trap(); /* one-sided residuals */
        pms_lp_fit_free(&lp);
    }
    pms_mra_fit mra;
    if (pms_mra_fit_runs(r->cycles, ev, m, c, names, NULL, &mra) == PMS_OK) pms_mra_fit_free(&mra);
    pms_mracm_fit mracm;
    if (pms_mracm_fit_runs(r->cycles, ev, m, c, names, NULL, &mracm) == PMS_OK) pms_mracm_fit_free(&mracm);
    pms_mra_options fo = {.select = PMS_MRA_FORWARD_AIC};
    if (pms_mra_fit_runs(r->cycles, ev, m, c, names, &fo, &mra) == PMS_OK) pms_mra_fit_free(&mra);
    pms_nnls_fit nn;
    if (pms_nnls_fit_runs(r->cycles, ev, m, c, &nn) == PMS_OK) {
        for (size_t i = 0; i < c; i++)
            if (nn.model.coef[i] < 0) __builtin_trap(); /* non-negative */
        pms_nnls_fit_free(&nn);
    }
    pms_lasso_fit la;
    if (pms_lasso_fit_runs(r->cycles, ev, m, c, NULL, &la) == PMS_OK) pms_lasso_fit_free(&la);
    free(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pms_table *t = NULL;
    if (pms_table_parse((const char *)data, size, "fuzz", NULL, &t) != PMS_OK) return 0;
    pms_runs *r = NULL;
    if (pms_runs_from_table(t, NULL, NULL, &r) == PMS_OK) {
        exercise(r);
        pms_runs_destroy(r);
    }
    if (pms_table_cols(t) > 0) {
        const char *group[] = {pms_table_col_name(t, 0), NULL};
        if (pms_runs_sum_table(t, group, NULL, NULL, &r) == PMS_OK) {
            exercise(r);
            pms_runs_destroy(r);
        }
    }
    pms_table_free(t);
    return 0;
}
