/* Merging interval tables of event groups measured in separate runs. */
#include "pmuscope/perfstat.h"
#include "io/table_internal.h"
#include "util/error.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_key_column(const char *name)
{
    return strcmp(name, "interval") == 0 || strcmp(name, "time") == 0 || strcmp(name, "timestamp_ns") == 0;
}

/* For each row of the first table, the matching row of table t, or SIZE_MAX. */
static int match_rows(const pms_table *first, const pms_table *t, pms_merge_key key, double tol, size_t *match)
{
    size_t n0 = pms_table_rows(first), n = pms_table_rows(t);
    if (key == PMS_MERGE_BY_INTERVAL) {
        for (size_t i = 0; i < n0; i++) match[i] = i < n ? i : SIZE_MAX;
        return PMS_OK;
    }
    size_t c0, c;
    int rc = pms_table_require(first, "time", &c0);
    if (rc == PMS_OK) rc = pms_table_require(t, "time", &c);
    const double *t0, *t1;
    if (rc == PMS_OK) rc = pms_table_numeric(first, c0, false, &t0);
    if (rc == PMS_OK) rc = pms_table_numeric(t, c, false, &t1);
    if (rc < 0) return pms__fail_context(rc, "merging by time");
    size_t j = 0;
    for (size_t i = 0; i < n0; i++) {
        /* times increase in both: walk forward to the nearest */
        while (j + 1 < n && fabs(t1[j + 1] - t0[i]) <= fabs(t1[j] - t0[i])) j++;
        match[i] = n && fabs(t1[j] - t0[i]) <= tol ? j : SIZE_MAX;
    }
    return PMS_OK;
}

/* Appends the chosen rows of t's columns to out: every column of the first run
 * (text ones too, such as a Benchmark column to group by), the numeric event
 * columns of the others. */
static int append_columns(pms_table *out, const pms_table *t, size_t run, const size_t *rows, size_t nrows)
{
    double *v = malloc((nrows ? nrows : 1) * sizeof *v);
    const char **s = malloc((nrows ? nrows : 1) * sizeof *s);
    if (!v || !s) {
        free(v);
        free(s);
        return pms__fail(PMS_ENOMEM, "out of memory merging runs");
    }
    int rc = PMS_OK;
    for (size_t j = 0; j < pms_table_cols(t) && rc == PMS_OK; j++) {
        const char *name = pms_table_col_name(t, j);
        if (run > 0 && is_key_column(name)) continue;
        if (pms_table_col_type(t, j) != PMS_COLUMN_NUMERIC) {
            if (run > 0 || pms_table_find(out, name) >= 0) continue; /* a grouped merge's group column is in */
            for (size_t i = 0; i < nrows; i++) s[i] = pms_table_string(t, rows[i], j);
            rc = pms_table_add_string(out, name, s, nrows);
            if (rc == PMS_OK) pms__table_set_col_source(out, pms_table_cols(out) - 1, run + 1);
            continue;
        }
        const double *col;
        if ((rc = pms_table_numeric(t, j, true, &col)) < 0) break;
        for (size_t i = 0; i < nrows; i++) v[i] = col[rows[i]];
        char label[300];
        if (pms_table_find(out, name) >= 0)
            snprintf(label, sizeof label, "%s@%zu", name, run + 1);
        else
            snprintf(label, sizeof label, "%s", name);
        rc = pms_table_add_numeric(out, label, v, nrows);
        /* each column remembers its run: CPI must divide the cycles and instructions of one */
        if (rc == PMS_OK) pms__table_set_col_source(out, pms_table_cols(out) - 1, run + 1);
    }
    free(v);
    free(s);
    return rc;
}

int pms_table_merge_runs(const pms_table *const *tables, size_t ntables, pms_merge_key key, double tol, pms_table **out)
{
    if (ntables == 0) return pms__fail(PMS_EINVAL, "no tables to merge");
    const pms_table *first = tables[0];
    size_t n0 = pms_table_rows(first);
    size_t *match = malloc((n0 ? n0 : 1) * ntables * sizeof *match), *kept = malloc((n0 ? n0 : 1) * sizeof *kept);
    size_t *col_rows = malloc((n0 ? n0 : 1) * sizeof *col_rows);
    pms_table *m = pms_table_new(pms_table_name(first));
    int rc = match && kept && col_rows && m ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory merging runs");
    for (size_t r = 0; r < ntables && rc == PMS_OK; r++) rc = match_rows(first, tables[r], key, tol, match + r * n0);
    size_t nk = 0;
    for (size_t i = 0; i < n0 && rc == PMS_OK; i++) {
        bool all = true;
        for (size_t r = 1; r < ntables; r++) all &= match[r * n0 + i] != SIZE_MAX;
        if (all) kept[nk++] = i;
    }
    if (rc == PMS_OK && nk == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: no interval is present in all %zu runs (merged by %s)", pms_table_name(first),
                      ntables, key == PMS_MERGE_BY_TIME ? "time" : "interval");
    for (size_t r = 0; r < ntables && rc == PMS_OK; r++) {
        for (size_t i = 0; i < nk; i++) col_rows[i] = match[r * n0 + kept[i]];
        rc = append_columns(m, tables[r], r, col_rows, nk);
    }
    free(match);
    free(kept);
    free(col_rows);
    if (rc < 0) {
        pms_table_free(m);
        return rc;
    }
    *out = m;
    return PMS_OK;
}

/* Positions of the rows of t whose group column equals value. */
static size_t group_rows(const pms_table *t, size_t col, const char *value, size_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < pms_table_rows(t); i++)
        if (strcmp(pms_table_string(t, i, col), value) == 0) rows[n++] = i;
    return n;
}

int pms_table_merge_runs_grouped(const pms_table *const *tables, size_t ntables, const char *group_col,
                                 pms_table **out)
{
    if (ntables == 0) return pms__fail(PMS_EINVAL, "no tables to merge");
    size_t *gcol = calloc(ntables, sizeof *gcol), maxrows = 0;
    int rc = gcol ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory merging runs");
    for (size_t r = 0; r < ntables && rc == PMS_OK; r++) {
        if ((rc = pms_table_require(tables[r], group_col, &gcol[r])) < 0) break;
        if (pms_table_col_type(tables[r], gcol[r]) != PMS_COLUMN_STRING)
            rc = pms__fail(PMS_EFORMAT, "%s: column '%s' holds numbers, expected group names", pms_table_name(tables[r]),
                          group_col);
        if (pms_table_rows(tables[r]) > maxrows) maxrows = pms_table_rows(tables[r]);
    }
    char **groups = NULL;
    size_t ngroups = 0, total = 0;
    size_t *pos = malloc((maxrows ? maxrows : 1) * ntables * sizeof *pos);
    size_t *rows = malloc((maxrows ? maxrows : 1) * ntables * sizeof *rows);
    const char **labels = calloc(maxrows ? maxrows : 1, sizeof *labels);
    if (rc == PMS_OK && (!pos || !rows || !labels)) rc = pms__fail(PMS_ENOMEM, "out of memory merging runs");
    if (rc == PMS_OK) rc = pms_table_distinct(tables[0], gcol[0], &groups, &ngroups);
    for (size_t g = 0; g < ngroups && rc == PMS_OK; g++) {
        if (!groups[g][0]) continue; /* intervals outside every group */
        size_t count = (size_t)-1;
        for (size_t r = 0; r < ntables; r++) {
            size_t c = group_rows(tables[r], gcol[r], groups[g], pos + r * maxrows);
            if (c == 0) {
                rc = pms__fail(PMS_EFORMAT, "%s: no interval of %s '%s', which %s has", pms_table_name(tables[r]),
                              group_col, groups[g], pms_table_name(tables[0]));
                break;
            }
            if (c < count) count = c;
        }
        for (size_t k = 0; rc == PMS_OK && k < count; k++) {
            for (size_t r = 0; r < ntables; r++) rows[r * maxrows + total] = pos[r * maxrows + k];
            labels[total++] = groups[g];
        }
    }
    pms_table *m = rc == PMS_OK ? pms_table_new(pms_table_name(tables[0])) : NULL;
    if (rc == PMS_OK && !m) rc = pms__fail(PMS_ENOMEM, "out of memory merging runs");
    if (rc == PMS_OK && total == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: no interval belongs to a %s", pms_table_name(tables[0]), group_col);
    if (rc == PMS_OK) rc = pms_table_add_string(m, group_col, labels, total);
    for (size_t r = 0; r < ntables && rc == PMS_OK; r++) rc = append_columns(m, tables[r], r, rows + r * maxrows, total);
    for (size_t g = 0; g < ngroups; g++) free(groups[g]);
    free(groups);
    free(gcol);
    free(pos);
    free(rows);
    free(labels);
    if (rc < 0) {
        pms_table_free(m);
        return rc;
    }
    *out = m;
    return PMS_OK;
}
