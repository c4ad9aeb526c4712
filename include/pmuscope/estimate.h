/* pmuscope: estimating the CPU cycles of a run from its event counts (seed 004,
 * Hattori & Takeuchi): linear programming (LP), multiple regression (MRA) and
 * multiple regression considering multicollinearity (MRACM).
 *
 * Every method fits the model  c^ = x_I + sum_i x_i * E_i  on a set of runs
 * (measured cycles c_j and event totals E_ij) and is judged on other runs by
 * error % = (c^ - c) / c * 100.
 *
 * Data is passed as plain arrays: cycles[m] and events[m * n] (row-major, run j
 * at events[j * n .. j * n + n - 1]); names[n] label the counters in messages. */
#ifndef PMUSCOPE_ESTIMATE_H
#define PMUSCOPE_ESTIMATE_H
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the data: a runs table ------------------------------------------------ */

/* One row per run: a label ("TEST7", "bzip2d/1000MHz/1"), the measured cycles,
 * and the totals of the counters. Read-only for callers; pms_runs_destroy frees it. */
typedef struct pms_runs {
    size_t n_runs;
    size_t n_counters;
    char **labels;   /* n_runs */
    char **counters; /* n_counters column names */
    char *cycles_name;
    double *cycles;  /* n_runs */
    double *events;  /* n_runs x n_counters, row-major */
    size_t *lines;   /* line of each run in its source file (1-based), for messages */
    char *source;    /* the file the runs came from */
} pms_runs;

void pms_runs_destroy(pms_runs *r);

/* Reads a runs table (CSV or TSV with a header; see pms_table): the first column
 * is the run label, `cycles_col` (NULL: "cycles", then "CPU_CYCLES") the measured
 * cycles, every other numeric column a counter except `size` and the names in
 * `ignore` (NULL-terminated, may be NULL). A column whose values are not all
 * numbers is left out unless it is the cycles column (an error there).
 * Fails with the file and line of a missing or non-finite value, of zero or
 * negative cycles, and on a table with no runs or no counters. */
int pms_runs_read(const char *path, const char *cycles_col, const char *const *ignore, pms_runs **out);

/* Builds runs by summing the rows of an interval table (one row per interval)
 * that share the values of the `group` columns (NULL-terminated); the label is
 * those values joined by '/'. Summed are the numeric columns other than the group
 * columns and `ignore`. Runs keep the order of their first interval.
 * With group NULL the table must be the ARM cBench merged TSV (ARMPM_BUILDMODEL
 * layout: Timestamp, Benchmark, Run(#), frequency, temperature, voltage, current,
 * power, then the PMU events), which is grouped by (Benchmark, frequency, Run)
 * with only the PMU event columns summed. */
int pms_runs_sum_intervals(const char *path, const char *const *group, const char *const *ignore,
                           const char *cycles_col, pms_runs **out);

/* Writes the runs as CSV: run,<cycles>,<counters...> with integers where exact. */
int pms_runs_write_csv(const pms_runs *r, const char *path);

/* Picks rows of the runs: `spec` is a list like "1-10,50". When every label ends
 * in a distinct number (TEST1 .. TEST50), the numbers select labels; otherwise
 * (or with by_index) they are 1-based row numbers. Fills idx (allocated,
 * *n_idx entries) in the order of the table. Fails naming the number that
 * matches no run. */
int pms_runs_select(const pms_runs *r, const char *spec, bool by_index, size_t **idx, size_t *n_idx);

/* True if pms_runs_select would match spec numbers against label numbers. */
bool pms_runs_numbered(const pms_runs *r);

/* ---- a fitted model --------------------------------------------------------- */

typedef struct pms_cycle_model {
    size_t n_counters; /* as in the data it was fitted on */
    double intercept;
    double *coef;      /* n_counters; 0 for counters not in the model */
    bool *used;        /* n_counters; counters in the model */
    size_t n_used;     /* "No. of counters" of the paper's TABLE X */
} pms_cycle_model;

void pms_cycle_model_free(pms_cycle_model *m);
/* Estimated cycles of one run (row of n_counters event values). */
double pms_cycle_model_predict(const pms_cycle_model *m, const double *events_row);
/* (estimate - measured) / measured * 100. */
double pms_estimate_error_pct(double estimate, double measured);

/* ---- LP --------------------------------------------------------------------- */

/* minimise sum_j eps_j  s.t.  eps_j = c_j - (x_I + sum_i x_i E_ij) >= 0,
 * x_I >= 0, x_i >= 0 (seed 004, B.1), solved with GLPK's simplex. */
typedef struct pms_lp_fit {
    pms_cycle_model model; /* counters with x_i > 0 are "used" */
    double objective;      /* sum of eps_j */
    size_t n_runs;
    double *eps;           /* n_runs residuals c_j - c^_j, all >= 0 */
    bool *tight;           /* n_runs: eps_j = 0 (the model touches that run) */
    size_t n_tight;
} pms_lp_fit;

int pms_lp_fit_runs(const double *cycles, const double *events, size_t m, size_t n, pms_lp_fit *out);
void pms_lp_fit_free(pms_lp_fit *f);

/* Writes the same model in CPLEX LP format (what glpsol --lp reads). Columns are
 * named x_I, x_<counter> (characters other than letters, digits and '_' become
 * '_'; x<i> when names collide) and eps_<j> (j = 1..m); rows run_<j>. */
int pms_lp_write(const double *cycles, const double *events, size_t m, size_t n,
                 const char *const *names, const char *path);

#ifdef __cplusplus
}
#endif
#endif
