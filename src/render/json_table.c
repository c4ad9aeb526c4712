/* A table's rows as JSON objects (pmuscope/json.h). */
#include "pmuscope/json.h"

#include <math.h>

void pms_json_table_rows(pms_json *j, const pms_table *t, const char *columns, size_t max_rows)
{
    size_t col[PMS_TABLE_MAX_PICKED], nc = pms_table_pick_columns(t, columns, col, PMS_TABLE_MAX_PICKED);
    size_t rows = pms_table_rows(t);
    if (max_rows && rows > max_rows) rows = max_rows;
    pms_json_array_begin(j);
    for (size_t r = 0; r < rows; r++) {
        pms_json_object_begin(j);
        for (size_t c = 0; c < nc; c++) {
            const double *v;
            pms_json_key(j, pms_table_col_name(t, col[c]));
            if (pms_table_col_type(t, col[c]) == PMS_COLUMN_STRING) pms_json_string(j, pms_table_string(t, r, col[c]));
            else if (pms_table_numeric(t, col[c], true, &v) < 0 || isnan(v[r])) pms_json_null(j);
            else pms_json_double(j, v[r]);
        }
        pms_json_object_end(j);
    }
    pms_json_array_end(j);
}
