/* Internal: building runs tables from tables. */
#ifndef PMS_ESTIMATE_RUNS_H
#define PMS_ESTIMATE_RUNS_H
#include "pmuscope/estimate.h"
#include "pmuscope/table.h"

/* An empty runs table of the given shape (labels and names NULL), or NULL. */
pms_runs *pms__runs_alloc(size_t n_runs, size_t n_counters, const char *source);
/* True if name is one of the NULL-terminated list (which may be NULL). */
bool pms__runs_name_in(const char *name, const char *const *list);
/* Checks a filled runs table: fails on a name left NULL (out of memory), names
 * the line of a run whose cycles are not positive, and names both lines of a
 * run label that repeats. */
int pms__runs_finish(const pms_runs *r);
/* Runs from a table with one row per run: labels from label_col, cycles from
 * cycles_col, counters from the k columns cols; missing values fail with
 * file:line:column. */
int pms__runs_from_columns(const pms_table *t, size_t label_col, size_t cycles_col, const size_t *cols, size_t k,
                          pms_runs **out);
#endif
