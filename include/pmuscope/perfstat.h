/* pmuscope: reading `perf stat -I` interval output into the wide table (one row
 * per interval, one column per event), merging groups measured in separate
 * runs, and recognising events by name.
 *
 * Accepted input (detected per file):
 *  - CSV from `perf stat -I MS -x SEP`: time,count,unit,event,run-time,pct,...
 *    (`<not counted>`, `<not supported>` and pmuscope's `<impossible>` counts become NaN);
 *  - the plain `perf stat -I MS` form: "<time> <count> [unit] <event> [# ...]",
 *    counts with or without thousands separators, with perf's "#  time  counts
 *    unit events" header lines, and the header of the ARM cBench files
 *    ("Start:<TAB>ns" and "Event N Label:<TAB>NAME<TAB><TAB>RAW Identifier:<TAB>rNNN",
 *    which renames column rNNN to NAME).
 * The table has the columns "interval" (1, 2, ...), "time" (seconds, as perf
 * printed it) and then one numeric column per event in order of first
 * appearance; when the file gives a start time, a column "timestamp_ns" (start +
 * time) follows "time". An event missing from an interval is NaN there. An event
 * that was multiplexed (perf's running share below 100%: the CSV's pct field, the
 * plain form's "(NN.NN%)") has a column "running_pct(EVENT)" after the events, its
 * share in each interval (100 where perf printed none). */
#ifndef PMUSCOPE_PERFSTAT_H
#define PMUSCOPE_PERFSTAT_H
#include <stddef.h>

#include "pmuscope/table.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

int pms_perfstat_read(const char *path, pms_table **out);
int pms_perfstat_parse(const char *data, size_t len, const char *name, pms_table **out);

/* Reads a table from a file of any interval form: perf stat -I output (CSV or
 * plain) or a wide CSV/TSV table with a header (pmuscope stat --wide, the ARM
 * merged TSV). */
int pms_interval_table_read(const char *path, pms_table **out);

typedef enum pms_merge_key {
    PMS_MERGE_BY_INTERVAL = 0, /* row i of every table is the same interval */
    PMS_MERGE_BY_TIME = 1,     /* rows matched on the nearest "time" within tolerance */
} pms_merge_key;

/* Merges tables measured in separate runs into one. The first table gives the
 * rows, the key columns and its text columns (a Benchmark column to group by);
 * the event columns of later tables are appended. An
 * event present in several tables (the anchor, e.g. cycles) is kept from the
 * first and its copies are appended as "NAME@2", "NAME@3", ... so that the
 * variation between runs can be checked. Every column keeps the run it came from
 * (pms_table_col_source: 1, 2, ...), the columns of one run side by side. BY_INTERVAL keeps min(rows) rows;
 * BY_TIME keeps the rows of the first table that have a partner in every other
 * table within tol seconds. */
int pms_table_merge_runs(const pms_table *const *tables, size_t ntables, pms_merge_key key, double tol,
                         pms_table **out);

/* Adds a string column `column` that names, for each interval, the program
 * whose time window holds the middle of the interval, or "" when none does.
 * windows_path is a table "Name Start(ns) End(ns)" (header, as the ARM cBench
 * benchmarks.data); t needs the "timestamp_ns" column (a perf stat file with a
 * Start: line). */
int pms_table_label_windows(pms_table *t, const char *windows_path, const char *column);

/* Merges runs program by program: rows whose string column group_col has the
 * same value are matched by their position within that group (the k-th
 * interval of a program in one run with its k-th interval in the other), each
 * group keeping as many rows as its shortest run; rows with an empty group are
 * dropped. Columns as pms_table_merge_runs, plus group_col. */
int pms_table_merge_runs_grouped(const pms_table *const *tables, size_t ntables, const char *group_col,
                                 pms_table **out);

/* ---- Event names ------------------------------------------------------ */

typedef enum pms_event_role {
    PMS_EVENT_OTHER = 0,    /* an event with no role below */
    PMS_EVENT_CYCLES,       /* cycles, cpu-cycles, CPU_CYCLES, cpu_clk_unhalted.thread, ... */
    PMS_EVENT_INSTRUCTIONS, /* instructions, INST_RETIRED, inst_retired.any, ... */
    PMS_EVENT_MISS,         /* a miss/refill/mispredict event: *-misses, *_REFILL, BRANCH_MISPRED,
                               *.MISS*, ... */
    PMS_EVENT_NOT_EVENT,    /* a bookkeeping column: interval, time, timestamp, run, ... */
} pms_event_role;

/* The role of a column name, generic perf names and vendor names alike; case
 * is ignored, as are modifiers (":u", ":k", ...) and a "pmu/.../" wrapper. */
pms_event_role pms_event_role_of(const char *name);

/* Finds the numeric column of a role: the column named by_hand when it is not
 * NULL (--cycles NAME), or where there is none, the one column named by_hand with
 * perf's modifiers after it ("task-clock" finds "task-clock:u", as stat names the
 * events of a user at perf_event_paranoid 2); otherwise the single column of that role. Fails with
 * PMS_ENOENT (listing the columns) when there is none, and with PMS_EINVAL
 * (naming them) when several match and by_hand does not choose. */
int pms_table_find_event(const pms_table *t, pms_event_role role, const char *by_hand, size_t *col);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
