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
 * cycles_col, counters from the k columns cols; a count that is missing, not a
 * number or negative fails with file:line:column, or with drop leaves its run out. */
int pms__runs_from_columns(const pms_table *t, size_t label_col, size_t cycles_col, const size_t *cols, size_t k,
                          bool drop, pms_runs **out);

/* Rows left out for a bad count: the line of each and why. */
typedef struct pms__runs_drops {
    size_t n, cap_lines, cap_why;
    size_t *lines;
    char **why;
} pms__runs_drops;
void pms__runs_drops_free(pms__runs_drops *drops);
/* Hands the list to r (dropped_*), leaving drops empty. */
void pms__runs_take_drops(pms_runs *r, pms__runs_drops *drops);

/* A text column whose cells are numbers but for some: a counter with bad cells. */
bool pms__runs_mixed_column(const pms_table *t, size_t col);
/* The k count columns cols of t into values[i][row] (rows of t each). A cell that is not a
 * count (missing, text, inf, negative) fails naming file:line:column, or with drop marks its
 * row in bad (rows entries, false on entry) and records the row in drops; a count of 2^53 or
 * more always fails. */
int pms__runs_counts(const pms_table *t, const size_t *cols, size_t k, bool drop, double **values, bool *bad,
                     pms__runs_drops *drops);
/* The same as the public readers, with drop_missing. */
int pms__runs_read(const char *path, const char *cycles_col, const char *const *ignore, bool drop, pms_runs **out);
int pms__runs_sum_intervals(const char *path, const char *const *group, const char *const *ignore,
                            const char *cycles_col, bool drop, pms_runs **out);
#endif
