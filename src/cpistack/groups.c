/* CPI stacks of several files and of groups of intervals, and their reports
 * (pmuscope/cpistack_groups.h). */
#include "pmuscope/cpistack_groups.h"
#include "util/error.h"

#include <errno.h>
#include <math.h>
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

/* The options of group k: c with by=label added to the row conditions (cond and where hold them). */
static pms_cpistack_options group_options(const pms_cpistack_options *c, const char *by, const char *label,
                                          const char **where, char *cond, size_t size)
{
    pms_cpistack_options one = *c;
    memcpy(where, c->where, c->nwhere * sizeof *where);
    snprintf(cond, size, "%s=%s", by, label);
    where[one.nwhere++] = cond;
    one.where = where;
    return one;
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
    out->stacks = calloc(out->n, sizeof *out->stacks);
    out->why = calloc(out->n, sizeof *out->why);
    if (!out->stacks || !out->why) return pms__fail(PMS_ENOMEM, "out of memory");
    if (c->nwhere > 16) return pms__fail(PMS_EINVAL, "more than 16 row conditions besides the group");
    int first_rc = PMS_OK;
    for (size_t k = 0; k < out->n; k++) {
        const char *where[17];
        char cond[512];
        pms_cpistack_options one = group_options(c, by, out->labels[k], where, cond, sizeof cond);
        if ((rc = pms_cpistack_compute(t, &one, &out->stacks[k])) == PMS_OK) continue;
        if (rc == PMS_ENOMEM) return rc;
        /* a group too small to fit does not take the others with it: it is listed with why */
        out->stacks[k] = NULL;
        if (!(out->why[k] = strdup(pms_strerror()))) return pms__fail(PMS_ENOMEM, "out of memory");
        if (!out->nfailed++) first_rc = rc;
    }
    if (out->nfailed == out->n) {
        char why[512];
        snprintf(why, sizeof why, "%s", out->why[0]);
        return pms__fail(first_rc, "no %s could be fitted; %s %s: %s", by, by, out->labels[0], why);
    }
    return PMS_OK;
}

int pms_cpistack_groups_compare(pms_cpistack_groups *g, const pms_table *t, const pms_cpistack_options *c)
{
    if (!(g->compare = calloc(g->n, sizeof *g->compare))) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < g->n; k++) {
        if (!g->stacks[k]) continue;
        const char *where[17];
        char cond[512];
        pms_cpistack_options one = g->by ? group_options(c, g->by, g->labels[k], where, cond, sizeof cond) : *c;
        int rc = pms_cpistack_compare(t, &one, &g->compare[k]);
        if (rc < 0) return g->by ? pms__fail_context(rc, "%s %s", g->by, g->labels[k]) : rc;
    }
    return PMS_OK;
}

void pms_cpistack_groups_free(pms_cpistack_groups *g)
{
    for (size_t k = 0; g->compare && k < g->n; k++) pms_cpistack_comparison_free(&g->compare[k]);
    free(g->compare);
    for (size_t k = 0; k < g->n; k++) {
        if (g->labels) free(g->labels[k]);
        if (g->stacks) pms_cpistack_free(g->stacks[k]);
        if (g->why) free(g->why[k]);
    }
    free(g->labels);
    free(g->stacks);
    free(g->why);
    *g = (pms_cpistack_groups){0};
}

static int stream_status(FILE *out)
{
    if (fflush(out) || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "cannot write the CPI stacks");
    return PMS_OK;
}

int pms_cpistack_groups_write_text(FILE *out, const pms_cpistack_groups *g, bool brief)
{
    bool header = true;
    for (size_t k = 0; k < g->n; k++) {
        int rc = PMS_OK;
        if (brief && g->stacks[k]) {
            rc = pms_cpistack_write_row(g->stacks[k], g->labels[k], header, out);
            header = false;
        } else if (!brief) {
            if (g->by) fprintf(out, "%s== %s = %s\n", k ? "\n" : "", g->by, g->labels[k]);
            if (g->stacks[k]) rc = pms_cpistack_write_text(g->stacks[k], out);
            else fprintf(out, "not fitted: %s\n", g->why[k]);
            if (rc == PMS_OK && g->compare && g->stacks[k]) rc = pms_cpistack_write_comparison(&g->compare[k], out);
        }
        if (rc < 0) return rc;
    }
    for (size_t k = 0; brief && g->compare && k < g->n; k++) { /* the comparisons after the table */
        if (!g->stacks[k]) continue;
        if (g->by) fprintf(out, "\n== %s = %s", g->by, g->labels[k]);
        int rc = pms_cpistack_write_comparison(&g->compare[k], out);
        if (rc < 0) return rc;
    }
    if (g->nfailed) { /* every group not fitted, with why (in brief after the table) */
        fprintf(out, "\n%zu of %zu %s groups not fitted:\n", g->nfailed, g->n, g->by);
        for (size_t k = 0; k < g->n; k++)
            if (!g->stacks[k]) fprintf(out, "  %s: %s\n", g->labels[k], g->why[k]);
    }
    return stream_status(out);
}

/* The first fitted stack: the events and bootstrap columns every fitted group shares. */
static const pms_cpistack *first_fitted(const pms_cpistack_groups *g, size_t *at)
{
    for (size_t k = 0; k < g->n; k++)
        if (g->stacks[k]) {
            if (at) *at = k;
            return g->stacks[k];
        }
    return NULL;
}

int pms_cpistack_groups_write_csv(FILE *out, const pms_cpistack_groups *g)
{
    size_t k0 = 0;
    const pms_cpistack *first = first_fitted(g, &k0);
    if (!first) return pms__fail(PMS_EINVAL, "no CPI stack to write");
    size_t ne = first->nevents, ncols = 8 + ne, nboot = first->boot.replicates ? 2 * (ne + 1) : 0;
    for (size_t k = 0; k < g->n; k++)
        if (g->stacks[k] && g->stacks[k]->nevents != ne)
            return pms__fail(PMS_EINVAL, "group %s has %zu events, group %s has %zu: one CSV table needs "
                                         "the same events", g->labels[k0], ne, g->labels[k], g->stacks[k]->nevents);
    double *v = malloc(g->n * (ncols + nboot) * sizeof *v);
    const char **note = calloc(g->n, sizeof *note);
    pms_table *t = pms_table_new("cpistack");
    int rc = v && note && t ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < g->n && rc == PMS_OK; k++) {
        const pms_cpistack *s = g->stacks[k];
        double *row = v + k; /* column c of row k is v[c * n + k] */
        note[k] = s ? s->cpi_note : g->why[k];
        if (!s) {
            for (size_t c = 0; c < ncols + nboot; c++) row[c * g->n] = NAN;
            continue;
        }
        row[0] = (double)s->nrows, row[g->n] = s->model->r_squared, row[2 * g->n] = s->test_rmse;
        row[3 * g->n] = s->base;
        for (size_t j = 0; j < ne; j++) row[(4 + j) * g->n] = s->component[j];
        row[(4 + ne) * g->n] = s->model_cpi, row[(5 + ne) * g->n] = s->observed_cpi;
        row[(6 + ne) * g->n] = s->true_cpi, row[(7 + ne) * g->n] = (double)s->nmultiplexed;
        for (size_t c = 0; c < nboot; c++) /* lower, upper of base, then of each event's coefficient */
            row[(ncols + c) * g->n] = !s->boot.replicates ? NAN : c % 2 ? s->boot.upper[c / 2] : s->boot.lower[c / 2];
    }
    if (rc == PMS_OK) rc = pms_table_add_string(t, "group", (const char *const *)g->labels, g->n);
    for (size_t c = 0; c < ncols && rc == PMS_OK; c++) {
        static const char *const fixed[] = {"n", "R2", "test_RMSE", "base"};
        const char *name = c < 4 ? fixed[c] : c < 4 + ne ? first->events[c - 4] : c == 4 + ne ? "model_CPI"
                         : c == 5 + ne ? "observed_CPI" : c == 6 + ne ? "true_CPI" : "multiplexed";
        rc = pms_table_add_numeric(t, name, v + c * g->n, g->n);
    }
    for (size_t c = 0; c < nboot && rc == PMS_OK; c++) {
        char name[512];
        snprintf(name, sizeof name, "%s_coef_%s", c % 2 ? "upper" : "lower", c < 2 ? "base" : first->events[c / 2 - 1]);
        rc = pms_table_add_numeric(t, name, v + (ncols + c) * g->n, g->n);
    }
    if (rc == PMS_OK) rc = pms_table_add_string(t, "note", note, g->n);
    if (rc == PMS_OK) rc = pms_table_write(t, out, ',');
    pms_table_free(t);
    free(v);
    free(note);
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
        pms_json_kv_bool(&j, "fitted", g->stacks[k] != NULL);
        if (g->stacks[k]) {
            pms_json_key(&j, "result");
            pms_cpistack_write_json(g->stacks[k], &j);
            if (g->compare) {
                pms_json_key(&j, "compare");
                pms_cpistack_write_comparison_json(&g->compare[k], &j);
            }
        } else {
            pms_json_kv_string(&j, "reason", g->why[k]);
        }
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return stream_status(out);
}

int pms_cpistack_groups_write_svg(FILE *out, const pms_cpistack_groups *g, size_t max_groups)
{
    /* the fitted groups only */
    const pms_cpistack **fitted = calloc(g->n ? g->n : 1, sizeof *fitted);
    const char **labels = calloc(g->n ? g->n : 1, sizeof *labels);
    size_t nf = 0;
    for (size_t k = 0; fitted && labels && k < g->n; k++)
        if (g->stacks[k]) fitted[nf] = g->stacks[k], labels[nf++] = g->labels[k];
    size_t shown = nf < max_groups ? nf : max_groups, nc = 0;
    pms_chart **charts = calloc(1 + 2 * shown, sizeof *charts);
    int rc = fitted && labels && charts ? pms_cpistack_bar_chart(fitted, labels, nf, &charts[0])
                                        : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) nc++;
    for (size_t k = 0; k < shown && rc == PMS_OK; k++) {
        rc = pms_cpistack_charts(fitted[k], g->by ? labels[k] : NULL, &charts[nc], &charts[nc + 1]);
        if (rc == PMS_OK) nc += 2;
    }
    free(fitted), free(labels);
    if (rc == PMS_OK) rc = pms_chart_write_svg(charts, nc, 900, out);
    for (size_t i = 0; i < nc; i++) pms_chart_free(charts[i]);
    free(charts);
    return rc < 0 ? rc : stream_status(out);
}

int pms_cpistack_groups_write_bootstrap_replicates(FILE *out, const pms_cpistack_groups *g)
{
    int rc = PMS_OK;
    bool header = true;
    for (size_t k = 0; k < g->n && rc == PMS_OK; k++) {
        if (!g->stacks[k]) continue;
        rc = pms_cpistack_write_bootstrap_replicates(g->stacks[k], g->labels[k], header, out);
        header = false;
    }
    return rc ? rc : stream_status(out);
}
