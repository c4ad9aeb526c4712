/* Runs from interval tables: the intervals of one run (one program at one
 * frequency in one repetition, for the ARM cBench data) summed into one row. */
#include "estimate/runs.h"
#include "pmuscope/perfstat.h"
#include "util/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ARMPM_BUILDMODEL merged layout: group by program, frequency and
 * repetition; the sensor columns carry units in parentheses ("A15 Power(W)"),
 * PMU events do not. */
static int armpm_layout(const pms_table *t, size_t group[3])
{
    long b = pms_table_find(t, "Benchmark"), r = pms_table_find(t, "Run(#)"), f = -1;
    for (size_t c = 0; c < pms_table_cols(t); c++)
        if (strstr(pms_table_col_name(t, c), "Frequency")) f = (long)c;
    if (b < 0 || r < 0 || f < 0)
        return pms__with_option(pms__fail(PMS_EINVAL,
                                          "%s: not the ARM cBench merged layout (columns Benchmark, Run(#) and a "
                                          "Frequency column): name the columns that identify a run",
                                          pms_table_name(t)),
                                "group_by");
    group[0] = (size_t)b, group[1] = (size_t)f, group[2] = (size_t)r;
    return PMS_OK;
}

static bool is_group(size_t c, const size_t *group, size_t ng)
{
    for (size_t g = 0; g < ng; g++)
        if (group[g] == c) return true;
    return false;
}

/* The label of a row: its group cells joined by '/'. */
/* The run label of a row: its group cells joined by '/', of any length (malloc'ed; NULL
 * when out of memory). */
static char *row_label(const pms_table *t, size_t row, const size_t *group, size_t ng)
{
    char *label = NULL, num[64];
    size_t len = 0;
    FILE *f = open_memstream(&label, &len);
    if (!f) return NULL;
    for (size_t g = 0; g < ng; g++) {
        const char *cell = pms_table_string(t, row, group[g]);
        if (!cell) { /* a numeric cell: its text is short */
            pms_table_cell_text(t, row, group[g], num, sizeof num);
            cell = num;
        }
        fprintf(f, "%s%s", g ? "/" : "", cell);
    }
    if (fclose(f) != 0) {
        free(label);
        return NULL;
    }
    return label;
}

/* Sums the rows into one run per distinct label; cycles_at is the position of
 * the cycles column within cols. */
static int sum_rows(const pms_table *t, const size_t *group, size_t ng, const size_t *cols, size_t k, size_t cycles_at,
                    bool drop, pms_runs **out)
{
    size_t rows = pms_table_rows(t);
    if (rows == 0) return pms__fail(PMS_EFORMAT, "%s: no intervals: the table has a header and no rows", pms_table_name(t));
    double **val = calloc(k, sizeof *val);
    size_t *run_of = malloc(rows * sizeof *run_of), nruns = 0;
    char **labels = calloc(rows, sizeof *labels);
    bool *bad = calloc(rows, sizeof *bad);
    pms__runs_drops drops = {0};
    int rc = (val && run_of && labels && bad) ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; rc == PMS_OK && i < k; i++)
        if (!(val[i] = malloc(rows * sizeof *val[i]))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    /* every summed cell a count: an interval with one that is not fails, or is left out with drop */
    if (rc == PMS_OK) rc = pms__runs_counts(t, cols, k, drop, val, bad, &drops);
    for (size_t row = 0; rc == PMS_OK && row < rows; row++) {
        run_of[row] = SIZE_MAX;
        if (bad[row]) continue;
        char *label = row_label(t, row, group, ng);
        if (!label) {
            rc = pms__fail(PMS_ENOMEM, "out of memory");
            break;
        }
        size_t j = 0;
        while (j < nruns && strcmp(labels[j], label) != 0) j++;
        if (j == nruns) labels[nruns++] = label;
        else free(label);
        run_of[row] = j;
    }
    if (rc == PMS_OK && nruns == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: every one of the %zu intervals has a missing or bad count", pms_table_name(t), rows);
    pms_runs *r = rc == PMS_OK ? pms__runs_alloc(nruns, k - 1, pms_table_name(t)) : NULL;
    if (rc == PMS_OK && !r) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t row = rows; rc == PMS_OK && row-- > 0;) {
        size_t j = run_of[row];
        if (j == SIZE_MAX) continue; /* dropped */
        r->lines[j] = pms_table_row_line(t, row); /* ends as the run's first line */
        r->cycles[j] += val[cycles_at][row];
        for (size_t i = 0, o = 0; i < k; i++)
            if (i != cycles_at) r->events[j * (k - 1) + o++] += val[i][row];
    }
    /* each cell is below 2^53, a run's sum must be too: the models compute in double precision */
    for (size_t j = 0; rc == PMS_OK && j < nruns; j++)
        for (size_t i = 0, o = 0; rc == PMS_OK && i < k; i++) {
            double sum = i == cycles_at ? r->cycles[j] : r->events[j * (k - 1) + o++];
            if (sum >= PMS_TABLE_EXACT_LIMIT)
                rc = pms__fail(PMS_EFORMAT, "%s: run %s: column '%s' sums to 2^53 or more: this method computes in "
                                           "double precision, which holds counts exactly only below 2^53",
                               pms_table_name(t), labels[j], pms_table_col_name(t, cols[i]));
        }
    for (size_t i = 0, o = 0; rc == PMS_OK && i < k; i++) {
        char *name = strdup(pms_table_col_name(t, cols[i]));
        if (i == cycles_at)
            r->cycles_name = name;
        else
            r->counters[o++] = name;
    }
    for (size_t j = 0; rc == PMS_OK && j < nruns; j++) r->labels[j] = labels[j], labels[j] = NULL;
    if (rc == PMS_OK) rc = pms__runs_finish(r);
    if (rc == PMS_OK) pms__runs_take_drops(r, &drops);
    pms__runs_drops_free(&drops);
    for (size_t j = 0; labels && j < nruns; j++) free(labels[j]);
    for (size_t i = 0; val && i < k; i++) free(val[i]);
    free(labels);
    free(run_of);
    free(val);
    free(bad);
    if (rc < 0) {
        pms_runs_destroy(r);
        return rc;
    }
    *out = r;
    return PMS_OK;
}

static int sum_table(const pms_table *t, const char *const *group_names, const char *const *ignore,
                     const char *cycles_col, bool drop, pms_runs **out)
{
    *out = NULL;
    size_t ncol = pms_table_cols(t), ng = 0, k = 0, cyc = 0, cycles_at = SIZE_MAX;
    size_t *group = malloc((ncol + 3) * sizeof *group), *cols = malloc((ncol + 1) * sizeof *cols);
    int rc = group && cols ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    bool armpm = !group_names;
    if (rc == PMS_OK && armpm) rc = armpm_layout(t, group), ng = 3;
    for (size_t g = 0; rc == PMS_OK && !armpm && group_names[g]; g++) rc = pms_table_require(t, group_names[g], &group[ng++]);
    if (rc == PMS_OK) rc = pms_table_find_event(t, PMS_EVENT_CYCLES, cycles_col, &cyc);
    for (size_t c = 0; rc == PMS_OK && c < ncol; c++) {
        const char *name = pms_table_col_name(t, c);
        /* a text column whose cells are numbers but for some is a counter with bad cells */
        bool counts = pms_table_col_type(t, c) == PMS_COLUMN_NUMERIC || pms__runs_mixed_column(t, c);
        bool summed = c == cyc || (counts && !is_group(c, group, ng) &&
                                   !pms__runs_name_in(name, ignore) && pms_event_role_of(name) != PMS_EVENT_NOT_EVENT &&
                                   !(armpm && (strchr(name, '(') || strcmp(name, "Timestamp") == 0)));
        if (c == cyc) cycles_at = k;
        if (summed) cols[k++] = c;
    }
    if (rc == PMS_OK && k < 2)
        rc = pms__fail(PMS_EFORMAT, "%s: no counter columns to sum besides the cycles", pms_table_name(t));
    if (rc == PMS_OK) rc = sum_rows(t, group, ng, cols, k, cycles_at, drop, out);
    free(group);
    free(cols);
    return rc;
}

int pms_runs_sum_table(const pms_table *t, const char *const *group_names, const char *const *ignore,
                       const char *cycles_col, pms_runs **out)
{
    return sum_table(t, group_names, ignore, cycles_col, false, out);
}

int pms__runs_sum_intervals(const char *path, const char *const *group_names, const char *const *ignore,
                            const char *cycles_col, bool drop, pms_runs **out)
{
    *out = NULL;
    pms_table *t = NULL;
    int rc = pms_interval_table_read(path, &t);
    if (rc == PMS_OK) rc = sum_table(t, group_names, ignore, cycles_col, drop, out);
    pms_table_free(t);
    return rc;
}

int pms_runs_sum_intervals(const char *path, const char *const *group_names, const char *const *ignore,
                           const char *cycles_col, pms_runs **out)
{
    return pms__runs_sum_intervals(path, group_names, ignore, cycles_col, false, out);
}
