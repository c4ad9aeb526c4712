/* olr series from a CSV/TSV table: an x column and one column per counter,
 * cumulative counts (whole numbers). */
#include "olr/columns.h"
#include "olr/series_internal.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Column values as exact counts (up to 2^64 - 1, never through double); errors name the
 * file, line and column. */
static int column_counts(const pms_table *t, size_t col, uint64_t *out, size_t stride)
{
    const uint64_t *v;
    int rc = pms_table_counts(t, col, &v);
    if (rc) return rc;
    for (size_t i = 0; i < pms_table_rows(t); i++) out[i * stride] = v[i];
    return PMS_OK;
}

int pms__olr_series_load_table(pms_olr_series *s, const char *path, const pms_olr_input_options *opt)
{
    pms_table *t;
    int rc = pms_table_read(path, NULL, &t);
    if (rc) return rc;
    size_t xcol = 0, rows = pms_table_rows(t), cols = pms_table_cols(t);
    if (opt->x && (rc = pms_table_require(t, opt->x, &xcol))) goto out;
    s->names = calloc(cols, sizeof *s->names);
    size_t *ycol = calloc(cols, sizeof *ycol);
    s->lines = calloc(rows ? rows : 1, sizeof *s->lines);
    s->xname = strdup(pms_table_col_name(t, xcol));
    if (!s->names || !ycol || !s->lines || !s->xname) {
        free(ycol);
        rc = pms__fail(PMS_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t c = 0; c < cols; c++)
        if (c != xcol && pms__olr_name_selected(opt->counters, pms_table_col_name(t, c))) {
            ycol[s->k] = c;
            s->names[s->k++] = strdup(pms_table_col_name(t, c));
        }
    if (s->k == 0) {
        free(ycol);
        rc = pms__fail(PMS_ENOENT, "%s: no counter column to fit besides x (%s)%s", path, s->xname,
                      opt->counters ? ": none matches --counters" : "");
        goto out;
    }
    s->x = malloc((rows ? rows : 1) * sizeof *s->x);
    s->y = malloc((rows ? rows : 1) * s->k * sizeof *s->y);
    if (!s->x || !s->y) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == 0) rc = column_counts(t, xcol, s->x, 1);
    for (size_t j = 0; rc == 0 && j < s->k; j++) rc = column_counts(t, ycol[j], s->y + j, s->k);
    for (size_t i = 0; i < rows; i++) s->lines[i] = pms_table_row_line(t, i);
    s->n = s->cap = rows;
    free(ycol);
out:
    pms_table_free(t);
    return rc;
}
