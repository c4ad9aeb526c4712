/* A table as aligned text for a terminal (pmuscope/table.h). */
#include "pmuscope/error.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CELL = 160 };

size_t pms_table_pick_columns(const pms_table *t, const char *names, size_t *cols, size_t max)
{
    size_t n = 0;
    if (!names) {
        for (; n < pms_table_cols(t) && n < max; n++) cols[n] = n;
        return n;
    }
    for (const char *p = names; *p && n < max; p += *p == ',') {
        size_t len = strcspn(p, ",");
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        long k = pms_table_find(t, name);
        if (k >= 0) cols[n++] = (size_t)k;
        p += len;
    }
    return n;
}

/* A cell as the terminal shows it: a whole number in full, others to 4 digits, a path by
 * its file name, "-" for a missing value. */
static void cell(const pms_table *t, size_t r, size_t c, char *buf)
{
    const double *v;
    if (pms_table_col_type(t, c) == PMS_COLUMN_STRING) {
        const char *text = pms_table_string(t, r, c);
        if (text[0] == '/') text = strrchr(text, '/') + 1;
        snprintf(buf, CELL, "%s", text);
    } else if (pms_table_numeric(t, c, true, &v) < 0 || isnan(v[r])) {
        snprintf(buf, CELL, "-");
    } else if (v[r] == floor(v[r]) && fabs(v[r]) < 1e15) {
        snprintf(buf, CELL, "%.0f", v[r]);
    } else {
        snprintf(buf, CELL, "%.4g", v[r]);
    }
}

int pms_table_write_aligned(FILE *out, const pms_table *t, const char *columns, size_t max_rows, const char *indent)
{
    size_t col[PMS_TABLE_MAX_PICKED], nc = pms_table_pick_columns(t, columns, col, PMS_TABLE_MAX_PICKED);
    size_t rows = pms_table_rows(t);
    if (max_rows && rows > max_rows) rows = max_rows;
    int width[PMS_TABLE_MAX_PICKED];
    char buf[CELL];
    for (size_t c = 0; c < nc; c++) {
        width[c] = (int)strlen(pms_table_col_name(t, col[c]));
        for (size_t r = 0; r < rows; r++) {
            cell(t, r, col[c], buf);
            if ((int)strlen(buf) > width[c]) width[c] = (int)strlen(buf);
        }
    }
    fputs(indent, out);
    for (size_t c = 0; c < nc; c++) fprintf(out, " %*s", width[c], pms_table_col_name(t, col[c]));
    fputc('\n', out);
    for (size_t r = 0; r < rows; r++) {
        fputs(indent, out);
        for (size_t c = 0; c < nc; c++) {
            cell(t, r, col[c], buf);
            fprintf(out, " %*s", width[c], buf);
        }
        fputc('\n', out);
    }
    if (rows < pms_table_rows(t)) fprintf(out, "%s (%zu more rows)\n", indent, pms_table_rows(t) - rows);
    return ferror(out) ? pms__fail(PMS_EIO, "cannot write the table of %s", pms_table_name(t)) : PMS_OK;
}
