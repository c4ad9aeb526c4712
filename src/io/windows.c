/* Labelling intervals with the program that ran in them, from a list of time
 * windows (the ARM cBench benchmarks.data: "#Name Start(ns) End(ns)"). */
#include "pmuscope/perfstat.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

int pms_table_label_windows(pms_table *t, const char *windows_path, const char *column)
{
    pms_table *w = NULL;
    int rc = pms_table_read(windows_path, NULL, &w);
    if (rc < 0) return rc;
    const double *start = NULL, *end = NULL, *ts = NULL;
    size_t tcol = 0;
    if (pms_table_cols(w) < 3 || pms_table_col_type(w, 0) != PMS_COLUMN_STRING)
        rc = pms__fail(PMS_EFORMAT, "%s: expected the columns Name, Start(ns), End(ns)", windows_path);
    if (rc == PMS_OK) rc = pms_table_numeric(w, 1, false, &start);
    if (rc == PMS_OK) rc = pms_table_numeric(w, 2, false, &end);
    for (size_t j = 0; rc == PMS_OK && j < pms_table_rows(w); j++)
        if (!(end[j] > start[j]))
            rc = pms__fail(PMS_EFORMAT, "%s:%zu: the window of %s ends before it starts", windows_path,
                          pms_table_row_line(w, j), pms_table_string(w, j, 0));
    if (rc == PMS_OK && (rc = pms_table_require(t, "timestamp_ns", &tcol)) < 0)
        pms__fail_context(rc, "labelling intervals with %s needs their start time (a 'Start:' line)", windows_path);
    if (rc == PMS_OK) rc = pms_table_numeric(t, tcol, false, &ts);
    size_t n = pms_table_rows(t);
    const char **labels = calloc(n ? n : 1, sizeof *labels);
    if (rc == PMS_OK && !labels) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; rc == PMS_OK && i < n; i++) {
        /* an interval ends at ts[i] and began at the previous one (or half an interval before) */
        double mid = i ? (ts[i] + ts[i - 1]) / 2 : ts[i] - (n > 1 ? (ts[1] - ts[0]) / 2 : 0);
        labels[i] = "";
        for (size_t j = 0; j < pms_table_rows(w); j++)
            if (mid >= start[j] && mid < end[j]) {
                labels[i] = pms_table_string(w, j, 0);
                break;
            }
    }
    if (rc == PMS_OK) rc = pms_table_add_string(t, column, labels, n);
    free(labels);
    pms_table_free(w);
    return rc;
}
