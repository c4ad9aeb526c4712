/* CPI stacks of several files and of groups of intervals, and their reports
 * (pmuscope/cpistack_groups.h). */
#include "pmuscope/cpistack_groups.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pms_cpistack_load(pms_table **out, char *const *files, size_t n, const char *const *windows, pms_merge_key key,
                      double tol)
{
    pms_table **t = calloc(n ? n : 1, sizeof *t);
    if (!t) return pms__fail(PMS_ENOMEM, "out of memory");
    int rc = PMS_OK;
    for (size_t i = 0; i < n && rc == PMS_OK; i++) {
        rc = pms_interval_table_read(files[i], &t[i]);
        if (rc == PMS_OK && windows) rc = pms_table_label_windows(t[i], windows[i], "program");
    }
    if (rc == PMS_OK && n == 1) {
        *out = t[0];
        t[0] = NULL;
    } else if (rc == PMS_OK && windows) {
        rc = pms_table_merge_runs_grouped((const pms_table *const *)t, n, "program", out);
    } else if (rc == PMS_OK) {
        rc = pms_table_merge_runs((const pms_table *const *)t, n, key, tol, out);
    }
    for (size_t i = 0; i < n; i++) pms_table_free(t[i]);
    free(t);
    return rc;
}

int pms_cpistack_groups_compute(pms_cpistack_groups *out, const pms_table *t, const char *by,
                                const pms_cpistack_options *c)
{
    *out = (pms_cpistack_groups){.by = by};
    if (!by) {
        out->labels = calloc(1, sizeof *out->labels);
        out->stacks = calloc(1, sizeof *out->stacks);
        if (!out->labels || !out->stacks || !(out->labels[0] = strdup(pms_table_name(t))))
            return pms__fail(PMS_ENOMEM, "out of memory");
        out->n = 1;
        return pms_cpistack_compute(t, c, &out->stacks[0]);
    }
    size_t col;
    int rc = pms_table_require(t, by, &col);
    if (rc == PMS_OK) rc = pms_table_distinct(t, col, &out->labels, &out->n);
    if (rc) return rc;
    if (!(out->stacks = calloc(out->n, sizeof *out->stacks))) return pms__fail(PMS_ENOMEM, "out of memory");
    if (c->nwhere > 16) return pms__fail(PMS_EINVAL, "more than 16 row conditions besides the group");
    for (size_t k = 0; k < out->n; k++) {
        pms_cpistack_options one = *c;
        const char *where[17];
        char cond[512];
        memcpy(where, c->where, c->nwhere * sizeof *where);
        snprintf(cond, sizeof cond, "%s=%s", by, out->labels[k]);
        where[one.nwhere++] = cond;
        one.where = where;
        if ((rc = pms_cpistack_compute(t, &one, &out->stacks[k]))) {
            char why[512];
            snprintf(why, sizeof why, "%s", pms_strerror());
            return pms__fail(rc, "%s %s: %s", by, out->labels[k], why);
        }
    }
    return PMS_OK;
}

void pms_cpistack_groups_free(pms_cpistack_groups *g)
{
    for (size_t k = 0; k < g->n; k++) {
        if (g->labels) free(g->labels[k]);
        if (g->stacks) pms_cpistack_free(g->stacks[k]);
    }
    free(g->labels);
    free(g->stacks);
    *g = (pms_cpistack_groups){0};
}

static int stream_status(FILE *out)
{
    if (fflush(out) || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "cannot write the CPI stacks");
    return PMS_OK;
}

int pms_cpistack_groups_write_text(FILE *out, const pms_cpistack_groups *g, bool brief)
{
    for (size_t k = 0; k < g->n; k++) {
        int rc;
        if (brief) {
            rc = pms_cpistack_write_row(g->stacks[k], g->labels[k], k == 0, out);
        } else {
            if (g->by) fprintf(out, "%s== %s = %s\n", k ? "\n" : "", g->by, g->labels[k]);
            rc = pms_cpistack_write_text(g->stacks[k], out);
        }
        if (rc < 0) return rc;
    }
    return stream_status(out);
}

int pms_cpistack_groups_write_csv(FILE *out, const pms_cpistack_groups *g)
{
    const pms_cpistack *first = g->stacks[0];
    size_t ne = first->nevents, ncols = 7 + ne, nboot = first->boot.replicates ? 2 * (ne + 1) : 0;
    for (size_t k = 1; k < g->n; k++)
        if (g->stacks[k]->nevents != ne)
            return pms__fail(PMS_EINVAL, "group %s has %zu events, group %s has %zu: one CSV table needs "
                                         "the same events", g->labels[0], ne, g->labels[k], g->stacks[k]->nevents);
    double *v = malloc(g->n * (ncols + nboot) * sizeof *v);
    pms_table *t = pms_table_new("cpistack");
    int rc = v && t ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < g->n && rc == PMS_OK; k++) {
        const pms_cpistack *s = g->stacks[k];
        double *row = v + k; /* column c of row k is v[c * n + k] */
        row[0] = (double)s->nrows, row[g->n] = s->model->r_squared, row[2 * g->n] = s->test_rmse;
        row[3 * g->n] = s->base;
        for (size_t j = 0; j < ne; j++) row[(4 + j) * g->n] = s->component[j];
        row[(4 + ne) * g->n] = s->model_cpi, row[(5 + ne) * g->n] = s->observed_cpi;
        row[(6 + ne) * g->n] = s->true_cpi;
        for (size_t c = 0; c < nboot; c++) /* lower, upper of base, then of each event's coefficient */
            row[(ncols + c) * g->n] = c % 2 ? s->boot.upper[c / 2] : s->boot.lower[c / 2];
    }
    if (rc == PMS_OK) rc = pms_table_add_string(t, "group", (const char *const *)g->labels, g->n);
    for (size_t c = 0; c < ncols && rc == PMS_OK; c++) {
        static const char *const fixed[] = {"n", "R2", "test_RMSE", "base"};
        const char *name = c < 4 ? fixed[c] : c < 4 + ne ? first->events[c - 4] : c == 4 + ne ? "model_CPI"
                         : c == 5 + ne ? "observed_CPI" : "true_CPI";
        rc = pms_table_add_numeric(t, name, v + c * g->n, g->n);
    }
    for (size_t c = 0; c < nboot && rc == PMS_OK; c++) {
        char name[512];
        snprintf(name, sizeof name, "%s_coef_%s", c % 2 ? "upper" : "lower", c < 2 ? "base" : first->events[c / 2 - 1]);
        rc = pms_table_add_numeric(t, name, v + (ncols + c) * g->n, g->n);
    }
    if (rc == PMS_OK) rc = pms_table_write(t, out, ',');
    pms_table_free(t);
    free(v);
    return rc ? rc : stream_status(out);
}

int pms_cpistack_groups_write_json(FILE *out, const pms_cpistack_groups *g)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_key(&j, "groups");
    pms_json_array_begin(&j);
    for (size_t k = 0; k < g->n; k++) {
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "group", g->labels[k]);
        pms_json_key(&j, "result");
        pms_cpistack_write_json(g->stacks[k], &j);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return stream_status(out);
}

int pms_cpistack_groups_write_svg(FILE *out, const pms_cpistack_groups *g, size_t max_groups)
{
    size_t shown = g->n < max_groups ? g->n : max_groups, nc = 0;
    pms_chart **charts = calloc(1 + 2 * shown, sizeof *charts);
    if (!charts) return pms__fail(PMS_ENOMEM, "out of memory");
    int rc = pms_cpistack_bar_chart((const pms_cpistack *const *)g->stacks, (const char *const *)g->labels, g->n,
                                    &charts[0]);
    if (rc == PMS_OK) nc++;
    for (size_t k = 0; k < shown && rc == PMS_OK; k++) {
        rc = pms_cpistack_charts(g->stacks[k], g->by ? g->labels[k] : NULL, &charts[nc], &charts[nc + 1]);
        if (rc == PMS_OK) nc += 2;
    }
    if (rc == PMS_OK) rc = pms_chart_write_svg(charts, nc, 900, out);
    for (size_t i = 0; i < nc; i++) pms_chart_free(charts[i]);
    free(charts);
    return rc < 0 ? rc : stream_status(out);
}

int pms_cpistack_groups_write_bootstrap_replicates(FILE *out, const pms_cpistack_groups *g)
{
    int rc = PMS_OK;
    for (size_t k = 0; k < g->n && rc == PMS_OK; k++)
        rc = pms_cpistack_write_bootstrap_replicates(g->stacks[k], g->labels[k], k == 0, out);
    return rc ? rc : stream_status(out);
}
