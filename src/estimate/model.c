/* The fitted linear cycle model shared by LP, MRA and MRACM, and input checks. */
#include "estimate/model.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pms__estimate_check(const double *cycles, const double *events, size_t m, size_t n,
                       const char *const *names, size_t min_runs)
{
    if (m < min_runs || m == 0)
        return pms__fail(PMS_EINVAL, "%zu runs given: at least %zu needed", m, min_runs ? min_runs : 1);
    if (n == 0) return pms__fail(PMS_EINVAL, "no counters to estimate cycles from");
    for (size_t j = 0; j < m; j++) {
        if (!isfinite(cycles[j]))
            return pms__fail(PMS_EINVAL, "run %zu: cycles is missing or not a finite number", j + 1);
        if (cycles[j] <= 0)
            return pms__fail(PMS_EINVAL, "run %zu: cycles is %g: measured cycles must be positive", j + 1,
                            cycles[j]);
        for (size_t i = 0; i < n; i++)
            if (!isfinite(events[j * n + i])) {
                if (names)
                    return pms__fail(PMS_EINVAL, "run %zu: counter %s is missing or not a finite number", j + 1,
                                    names[i]);
                return pms__fail(PMS_EINVAL, "run %zu: counter %zu is missing or not a finite number", j + 1, i + 1);
            }
    }
    return PMS_OK;
}

int pms__cycle_model_alloc(pms_cycle_model *model, size_t n)
{
    memset(model, 0, sizeof *model);
    model->coef = calloc(n ? n : 1, sizeof *model->coef);
    model->used = calloc(n ? n : 1, sizeof *model->used);
    if (!model->coef || !model->used) {
        pms_cycle_model_free(model);
        return pms__fail(PMS_ENOMEM, "out of memory for a model of %zu counters", n);
    }
    model->n_counters = n;
    return PMS_OK;
}

void pms_cycle_model_free(pms_cycle_model *m)
{
    if (!m) return;
    free(m->coef);
    free(m->used);
    memset(m, 0, sizeof *m);
}

double pms_cycle_model_predict(const pms_cycle_model *m, const double *events_row)
{
    double c = m->intercept;
    for (size_t i = 0; i < m->n_counters; i++)
        if (m->used[i]) c += m->coef[i] * events_row[i];
    return c;
}

double pms_estimate_error_pct(double estimate, double measured)
{
    return (estimate - measured) / measured * 100.0;
}

double *pms__estimate_columns(const double *events, size_t m, size_t n, const size_t *cols, size_t k)
{
    double *x = malloc((m * k > 0 ? m * k : 1) * sizeof *x);
    if (!x) return NULL;
    for (size_t j = 0; j < m; j++)
        for (size_t c = 0; c < k; c++) x[j * k + c] = events[j * n + cols[c]];
    return x;
}

const char **pms__estimate_names(const char *const *names, const size_t *cols, size_t k)
{
    const char **out = malloc((k ? k : 1) * sizeof *out);
    if (!out) return NULL;
    for (size_t c = 0; c < k; c++) out[c] = names ? names[cols[c]] : NULL;
    return out;
}

int pms__cycle_model_from_lm(pms_cycle_model *model, size_t n, const pms_lm *lm, const size_t *cols, size_t k)
{
    int rc = pms__cycle_model_alloc(model, n);
    if (rc < 0) return rc;
    model->intercept = lm->coef[0];
    for (size_t c = 0; c < k; c++) {
        model->coef[cols[c]] = lm->coef[c + 1];
        model->used[cols[c]] = true;
    }
    model->n_used = k;
    return PMS_OK;
}
