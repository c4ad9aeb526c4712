/* pmuscope: did it really change? Two profiles, or two sets of runs, or two sets of counts
 * compared row by row with a test, a confidence interval of the change, Benjamini-Hochberg
 * q-values over the rows (a false discovery rate) and a verdict (`pmuscope diff`).
 *
 * Profiles: one row per function (or by any of report's sort keys but pid), matched between
 * the files by binary base name and function (perf diff's way: two builds in two folders
 * meet). With one run a side (or runs pooled where a side has one), the samples are
 * independent draws and the row's share is tested as two proportions (R's prop.test, with
 * Yates' continuity correction unless told not to). With two or more runs a side, the run
 * is the unit: Welch's t test of the runs' shares (R's t.test), so the variation between
 * runs, not only the sampling, decides. Each row also gets the smallest change its test
 * would find with the given power were it the only change: "no change" is read against it.
 *
 * Counts: per event, the runs' values of `pmuscope stat -r N --json` (run_values) on each
 * side, compared with the Wilcoxon rank sum (Mann-Whitney) test, as Go's benchstat does;
 * the ratio NEW/BASE is the Hodges-Lehmann estimate on the logarithms (the median of the
 * runs' pairwise ratios) with its interval (R's wilcox.test(log(new), log(base),
 * conf.int = TRUE)).
 *
 * The library reads the files and makes the rows; the writers put them on streams the
 * caller opened. */
#ifndef PMUSCOPE_DIFF_H
#define PMUSCOPE_DIFF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmuscope/profile.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_diff pms_diff;

typedef enum pms_diff_side { PMS_DIFF_BASE = 0, PMS_DIFF_NEW = 1 } pms_diff_side;

typedef enum pms_diff_verdict {
    PMS_DIFF_NONE = 0, /* no significant change at the FDR */
    PMS_DIFF_UP = 1,   /* NEW above BASE */
    PMS_DIFF_DOWN = 2,
} pms_diff_verdict;

typedef enum pms_diff_method {
    PMS_DIFF_TWO_PROPORTION = 0, /* profiles: each sample an independent draw (R's prop.test) */
    PMS_DIFF_WELCH_RUNS = 1,     /* profiles with 2+ runs a side: Welch's t test of the runs' shares */
    PMS_DIFF_RANK_SUM = 2,       /* counts: the Wilcoxon rank sum (Mann-Whitney) test of the runs' values */
} pms_diff_method;

typedef struct pms_diff_options {
    double fdr;         /* the false discovery rate of the verdicts, in (0, 1); 0: 0.05 */
    double confidence;  /* of the intervals, in (0, 1); 0: 0.95 */
    double power;       /* of the detectable change, in (0, 1); 0: 0.8 */
    bool no_continuity; /* the two-proportion test without Yates' correction (R's correct = FALSE) */
    /* Profiles (the caller keeps these strings while d lives): */
    const char *sort;   /* report's sort keys (pms_profile_report_sort) but pid; NULL: "sym" */
    const char *event;  /* the event (a pprof profile's sample type) compared; NULL: the first
                         * event of the first file with samples, which every file must have */
    const char *symfs;  /* read the binaries of perf.data files under this folder */
    /* NULL, or told the bytes of a perf.data's data section read and in all, as it is read */
    pms_progress_fn progress;
    void *progress_ctx;
} pms_diff_options;

/* One row of a profile diff. */
typedef struct pms_diff_row {
    /* The row's keys as report gives them (binary, symbol, ip, offsets, comm), from the
     * first run that has the row; its counts are that run's alone. */
    pms_profile_row where;
    uint64_t base_samples, new_samples; /* the row's samples over the side's runs */
    uint64_t base_total, new_total;     /* the event's samples over the side's runs */
    double base_share, new_share;       /* samples / total; by runs: the mean of the runs' shares */
    double delta;                       /* new_share - base_share */
    double ci_low, ci_high;             /* its interval at the confidence level */
    double p_value;                     /* the test's; NaN where it cannot test (no variation) */
    double q_value;                     /* Benjamini-Hochberg over the rows with a p-value */
    double detectable;                  /* the smallest |delta| the row's test would find with the power
                                         * asked, were it the only change (level fdr / rows tested) */
    pms_diff_verdict verdict;           /* q_value <= fdr: up or down by the sign of delta */
} pms_diff_row;

/* One event of a counts diff. */
typedef struct pms_diff_count {
    const char *event;              /* as stat names it (" CPU<n>" added for a CPU's value of -A) */
    const char *unit;               /* "msec", "" ... */
    size_t base_runs, new_runs;     /* the runs that counted it */
    double base_median, new_median;
    double ratio;                   /* NEW/BASE: the Hodges-Lehmann estimate (median of the pairwise
                                     * ratios); with a value <= 0, new_median / base_median */
    double ci_low, ci_high;         /* its interval (NaN with a value <= 0: no logarithm) */
    double p_value, q_value;        /* the rank sum test's, and BH over the events */
    bool exact;                     /* p from the exact distribution (no ties, under 50 runs a side) */
    pms_diff_verdict verdict;
} pms_diff_count;

typedef struct pms_diff_result {
    bool counts;                    /* rows are counts (count_rows), else profile rows (rows) */
    pms_diff_method method;
    const char *event;              /* profiles: the event compared */
    const char *sort;               /* profiles: the sort keys */
    const char *const *base_files, *const *new_files;
    size_t nbase_files, nnew_files;
    size_t base_runs, new_runs;
    uint64_t base_total, new_total; /* profiles: the event's samples a side */
    double fdr, confidence, power;
    bool continuity;                /* Yates' correction in the two-proportion test */
    size_t tested;                  /* rows with a p-value (BH's m) */
    size_t changed;                 /* rows with a verdict */
    /* Sorted by significance and size: the changed rows by |change|, largest first, then
     * the others by their larger share (counts: in the order first read). */
    pms_diff_row *rows;
    size_t nrows;
    pms_diff_count *count_rows;
    size_t ncount_rows;
    const char *const *notes;       /* what the reader should know: runs pooled, events on one side only... */
    size_t nnotes;
} pms_diff_result;

int pms_diff_create(pms_diff **out, const pms_diff_options *options);
void pms_diff_destroy(pms_diff *d);

/* Reads one file into a side, told by its content: a perf.data (one run), a pprof profile
 * (one run) or what `pmuscope stat --json` wrote (its runs). A diff holds profiles or
 * counts, not both (PMS_EINVAL names the file). Errors name the file. */
int pms_diff_add_file(pms_diff *d, pms_diff_side side, const char *path);
/* One profile run from plain rows (a table of pms_profile_table or report): the event's
 * samples in all (total) and the rows' keys and samples; strings are copied. name names
 * the run in the output. */
int pms_diff_add_profile_run(pms_diff *d, pms_diff_side side, const char *name, const char *event,
                             const pms_profile_row *rows, size_t nrows, uint64_t total);
/* Runs of one event's count (NaN: a run that did not count it); strings are copied. */
int pms_diff_add_count_runs(pms_diff *d, pms_diff_side side, const char *name, const char *event, const char *unit,
                            const double *values, size_t nruns);

/* Compares the sides. Needs a run on each. out's strings belong to d; free out with
 * pms_diff_result_free. */
int pms_diff_compute(pms_diff_result *out, pms_diff *d);
void pms_diff_result_free(pms_diff_result *r);
/* Whether a row changed significantly by more than pct: percentage points of share
 * (profiles) or percent of the base (counts: |ratio - 1| x 100). */
bool pms_diff_changed_by(const pms_diff_result *r, double pct);

/* The writers (PMS_EIO if the stream failed; it stays open). */
/* A header naming the test, then the rows (limit of them; 0: all) as a table. */
int pms_diff_write_text(FILE *out, const pms_diff_result *r, size_t limit);
/* Profiles: event,binary,function,ip,file_offset,symbol_offset,comm,base_samples,new_samples,
 * base_total,new_total,base_share,new_share,delta,ci_low,ci_high,p_value,q_value,detectable,
 * verdict; counts: event,unit,base_runs,new_runs,base_median,new_median,ratio,ci_low,
 * ci_high,p_value,q_value,exact,verdict. */
int pms_diff_write_csv(FILE *out, const pms_diff_result *r);
/* One object: the test, the sides and every row with the CSV's fields. */
int pms_diff_write_json(FILE *out, const pms_diff_result *r);
/* A self-contained page: a two-sided bar chart of the changed rows (up above zero, down
 * below) each ending at its interval, and the table (limit rows; 0: all). */
int pms_diff_write_html(FILE *out, const pms_diff_result *r, size_t limit);
/* Profiles: a gzipped pprof profile whose NEW samples count up and whose BASE samples
 * count down (labelled pprof::base, as `go tool pprof -diff_base BASE NEW` combines them),
 * so that `go tool pprof -top FILE` shows the raw deltas; each row's samples labelled with
 * its verdict, change and q-value. Written through a temporary file. */
int pms_diff_write_pprof(const char *path, const pms_diff_result *r);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
