/* The count cells of runs and interval tables: each a count (a number, finite, 0 or more,
 * below 2^53), or a refusal naming file:line:column, or with drop_missing its row left out
 * and listed. A column of text whose cells are numbers but for some is a counter with bad
 * cells, never a column left out unnoticed. */
#include "estimate/runs.h"
#include "io/table_internal.h"
#include "util/error.h"
#include "util/grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pms__runs_mixed_column(const pms_table *t, size_t col)
{
    if (pms_table_col_type(t, col) != PMS_COLUMN_STRING) return false;
    for (size_t row = 0; row < pms_table_rows(t); row++) {
        const char *s = pms_table_string(t, row, col);
        double v;
        bool missing;
        if (s && pms__parse_cell_number(s, strlen(s), &v, &missing) && !missing) return true;
    }
    return false;
}

/* The count in a cell, or false with what is there instead. */
static bool cell_count(const pms_table *t, const double *num, size_t row, size_t col, double *v, char *found,
                       size_t size)
{
    bool missing = false;
    if (num) {
        *v = num[row];
        missing = isnan(*v);
    } else {
        const char *s = pms_table_string(t, row, col);
        if (!s || !pms__parse_cell_number(s, strlen(s), v, &missing)) {
            snprintf(found, size, "'%.40s'", s ? s : "");
            return false;
        }
    }
    if (missing) snprintf(found, size, "an empty or NaN cell");
    else if (isinf(*v)) snprintf(found, size, "%s", *v > 0 ? "inf" : "-inf");
    else if (*v < 0) snprintf(found, size, "%.17g, a negative count", *v);
    else return true;
    return false;
}

static int note_drop(pms__runs_drops *drops, size_t line, const char *why)
{
    char *copy = strdup(why);
    if (!copy || pms__grow(&drops->lines, &drops->cap_lines, drops->n + 1, sizeof *drops->lines) ||
        pms__grow(&drops->why, &drops->cap_why, drops->n + 1, sizeof *drops->why)) {
        free(copy);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    drops->lines[drops->n] = line;
    drops->why[drops->n++] = copy;
    return PMS_OK;
}

int pms__runs_counts(const pms_table *t, const size_t *cols, size_t k, bool drop, double **values, bool *bad,
                     pms__runs_drops *drops)
{
    size_t rows = pms_table_rows(t);
    const double **num = calloc(k ? k : 1, sizeof *num);
    int rc = num ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; rc == PMS_OK && i < k; i++) /* a text column's cells are parsed one by one */
        if (pms_table_col_type(t, cols[i]) == PMS_COLUMN_NUMERIC) rc = pms_table_numeric(t, cols[i], true, &num[i]);
    for (size_t row = 0; rc == PMS_OK && row < rows; row++) /* in file order: the first bad cell of a row names it */
        for (size_t i = 0; rc == PMS_OK && i < k; i++) {
            char found[96], place[600];
            double v = NAN;
            bool ok = cell_count(t, num[i], row, cols[i], &v, found, sizeof found);
            values[i][row] = ok ? v : NAN;
            if (ok && v >= PMS_TABLE_EXACT_LIMIT) {
                char cell[64]; /* as written, when it is an integer: the double holding it is rounded */
                const uint64_t *cnt;
                if (!num[i]) snprintf(cell, sizeof cell, "%.40s", pms_table_string(t, row, cols[i]));
                else if (pms_table_counts(t, cols[i], &cnt) == PMS_OK) snprintf(cell, sizeof cell, "%llu", (unsigned long long)cnt[row]);
                else snprintf(cell, sizeof cell, "%.17g", v);
                pms__table_cell_place(t, row, cols[i], place, sizeof place);
                rc = pms__fail(PMS_EFORMAT, "%s: column '%s': %s is 2^53 or more: this method computes in double "
                                           "precision, which holds counts exactly only below 2^53 (9007199254740992)",
                               place, pms_table_col_name(t, cols[i]), cell);
            } else if (!ok && !drop) {
                pms__table_cell_place(t, row, cols[i], place, sizeof place);
                rc = pms__with_option(pms__fail(PMS_EFORMAT, "%s: column '%s': expected a count (0 or more), found %s; "
                                                            "such rows can be left out",
                                                place, pms_table_col_name(t, cols[i]), found),
                                      "drop_missing");
            } else if (!ok && !bad[row]) {
                char why[400];
                snprintf(why, sizeof why, "column '%s': %s", pms_table_col_name(t, cols[i]), found);
                bad[row] = true;
                rc = note_drop(drops, pms_table_row_line(t, row) ? pms_table_row_line(t, row) : row + 1, why);
            }
        }
    free(num);
    return rc;
}

void pms__runs_drops_free(pms__runs_drops *drops)
{
    for (size_t i = 0; i < drops->n; i++) free(drops->why[i]);
    free(drops->lines), free(drops->why);
    memset(drops, 0, sizeof *drops);
}

void pms__runs_take_drops(pms_runs *r, pms__runs_drops *drops)
{
    r->n_dropped = drops->n, r->dropped_lines = drops->lines, r->dropped_why = drops->why;
    memset(drops, 0, sizeof *drops);
}
