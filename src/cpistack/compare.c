/* The CPI stack under four reasonable models side by side (pmuscope/cpistack.h): the stack is
 * a reading of coefficients, and collinear events move it while the model CPI stays. */
#include "pmuscope/cpistack.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int pms_cpistack_compare(const pms_table *t, const pms_cpistack_options *opt, pms_cpistack_comparison *out)
{
    memset(out, 0, sizeof *out);
    static const char *const names[PMS_CPISTACK_MODELS] = {"OLS", "NNLS", "per interval", "normalised"};
    size_t fitted = 0;
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++) {
        pms_cpistack_options o = *opt;
        o.method = m == 1 ? PMS_LM_NNLS : PMS_LM_OLS;
        o.per_interval = m == 2;
        o.normalize = m == 3;
        o.bootstrap.replicates = 0, o.newey_west = false;
        out->names[m] = names[m];
        int rc = pms_cpistack_compute(t, &o, &out->stacks[m]);
        if (rc == PMS_ENOMEM) {
            pms_cpistack_comparison_free(out);
            return rc;
        }
        if (rc == PMS_OK) fitted++;
        else out->stacks[m] = NULL, snprintf(out->why[m], sizeof out->why[m], "%s", pms_strerror());
    }
    if (fitted == 0) return pms__fail(PMS_EINVAL, "no model of the comparison could be fitted: %s", out->why[0]);
    return PMS_OK;
}

void pms_cpistack_comparison_free(pms_cpistack_comparison *c)
{
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++) pms_cpistack_free(c->stacks[m]);
    memset(c, 0, sizeof *c);
}

static const pms_cpistack *any_stack(const pms_cpistack_comparison *c)
{
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++)
        if (c->stacks[m]) return c->stacks[m];
    return NULL;
}

/* One row: a label and the value of each model ("-" where it was not fitted). */
static void row(FILE *out, const pms_cpistack_comparison *c, const char *label, double (*value)(const pms_cpistack *, size_t),
                size_t arg)
{
    fprintf(out, "  %-20.20s", label);
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++) {
        double v = c->stacks[m] ? value(c->stacks[m], arg) : NAN;
        if (isfinite(v)) fprintf(out, " %12.4f", v);
        else fprintf(out, " %12s", "-");
    }
    fputc('\n', out);
}

static double base_of(const pms_cpistack *s, size_t a) { (void)a; return s->base; }
static double component_of(const pms_cpistack *s, size_t a) { return s->component[a]; }
static double model_cpi_of(const pms_cpistack *s, size_t a) { (void)a; return s->model_cpi; }
static double true_cpi_of(const pms_cpistack *s, size_t a) { (void)a; return s->true_cpi; }
static double r2_of(const pms_cpistack *s, size_t a) { (void)a; return s->model->r_squared; }
static double rmse_of(const pms_cpistack *s, size_t a) { (void)a; return s->test_rmse; }

int pms_cpistack_write_comparison(const pms_cpistack_comparison *c, FILE *out)
{
    const pms_cpistack *first = any_stack(c);
    if (!first) return pms__fail(PMS_EINVAL, "no model of the comparison was fitted");
    fprintf(out, "\nThe stack under four models (the same intervals and split):\n  %-20s", "");
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++) fprintf(out, " %12s", c->names[m]);
    fputc('\n', out);
    row(out, c, "base", base_of, 0);
    for (size_t a = 0; a < first->nevents; a++) row(out, c, first->events[a], component_of, a);
    row(out, c, "model CPI", model_cpi_of, 0);
    row(out, c, "true CPI", true_cpi_of, 0);
    row(out, c, "R2", r2_of, 0);
    row(out, c, "test RMSE", rmse_of, 0);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++)
        if (c->stacks[m]) lo = fmin(lo, c->stacks[m]->base), hi = fmax(hi, c->stacks[m]->base);
    fprintf(out, "  base CPI from %.4f to %.4f across the models%s\n", lo, hi,
            hi - lo > 0.1 * fabs(first->true_cpi) ? ": the stack moves with the model by more than a tenth of the CPI" : "");
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++)
        if (!c->stacks[m]) fprintf(out, "  %s: not fitted: %s\n", c->names[m], c->why[m]);
    if (ferror(out)) return pms__fail(PMS_EIO, "error writing the CPI stacks");
    return PMS_OK;
}

void pms_cpistack_write_comparison_json(const pms_cpistack_comparison *c, pms_json *j)
{
    pms_json_array_begin(j);
    for (size_t m = 0; m < PMS_CPISTACK_MODELS; m++) {
        const pms_cpistack *s = c->stacks[m];
        pms_json_object_begin(j);
        pms_json_kv_string(j, "model", c->names[m]);
        pms_json_kv_bool(j, "fitted", s != NULL);
        if (!s) {
            pms_json_kv_string(j, "reason", c->why[m]);
            pms_json_object_end(j);
            continue;
        }
        pms_json_kv_double(j, "base", s->base);
        pms_json_key(j, "components");
        pms_json_object_begin(j);
        for (size_t a = 0; a < s->nevents; a++) pms_json_kv_double(j, s->events[a], s->component[a]);
        pms_json_object_end(j);
        pms_json_kv_double(j, "model_cpi", s->model_cpi);
        pms_json_kv_double(j, "true_cpi", s->true_cpi);
        pms_json_kv_double(j, "r_squared", s->model->r_squared);
        pms_json_kv_number(j, "test_rmse", s->test_rmse, "no test intervals");
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}
