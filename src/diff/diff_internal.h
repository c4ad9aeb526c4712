/* Internal: what a diff holds before it compares (pmuscope/diff.h). Every string lives in
 * the diff's string table; rows and events are known by a key (an index into the key
 * table), so that the runs of both sides meet on the same keys. */
#ifndef PMS_DIFF_INTERNAL_H
#define PMS_DIFF_INTERNAL_H
#include "pmuscope/diff.h"
#include "pmuscope/profile_report.h"
#include "util/strtab.h"

enum diff_kind { DIFF_NOTHING_YET, DIFF_PROFILES, DIFF_COUNTS };

/* A profile row of one run: its key and samples. */
typedef struct diff_cell {
    size_t key;
    uint64_t samples;
} diff_cell;

typedef struct diff_run {
    uint64_t total; /* the event's samples in the run */
    diff_cell *cells;
    size_t ncells;
} diff_run;

/* One event's values over the runs of both sides (NaN: not counted in that run). */
typedef struct diff_series {
    const char *event, *unit;
    double *values[2];
    size_t n[2], cap[2];
} diff_series;

struct pms_diff {
    pms_diff_options opt;     /* defaults filled in */
    pms_profile_report layout;/* the sort keys (its tables unused) */
    enum diff_kind kind;
    const char *event;        /* profiles: the event compared, once known */
    pms_strtab strings;       /* every string the rows point to */
    pms_strtab keys;          /* row (or event) keys -> index */
    pms_profile_row *where;   /* profiles: per key, the row's names */
    size_t nwhere, where_cap;
    diff_run *runs[2];
    size_t nruns[2], runs_cap[2];
    diff_series *series;      /* counts: per key */
    size_t nseries, series_cap;
    const char **files[2];    /* the inputs' names a side */
    size_t nfiles[2], files_cap[2];
    char **notes;
    size_t nnotes, notes_cap;
};

/* The copy of s in d's strings (NULL stays NULL); NULL with the message set when out of memory. */
const char *pms__diff_string(pms_diff *d, const char *s);
/* The key's index, added if new; -1 when out of memory. */
int64_t pms__diff_key(pms_diff *d, const char *key);
/* Adds a note for the reader (printf format). */
int pms__diff_note(pms_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Makes the diff of that kind, or fails naming the file that would mix two kinds. */
int pms__diff_set_kind(pms_diff *d, enum diff_kind kind, const char *file);
/* Records a file's name on a side. */
int pms__diff_add_name(pms_diff *d, pms_diff_side side, const char *name);

/* Reads a perf.data or pprof profile into a run of the side (diff_profile_files.c). */
int pms__diff_read_profile(pms_diff *d, pms_diff_side side, const char *path, bool pprof);
/* Reads what `pmuscope stat --json` wrote into the side's count runs (diff_count_files.c). */
int pms__diff_read_counts(pms_diff *d, pms_diff_side side, const char *path);

/* The comparisons (diff_profiles.c, diff_counts.c); r's header is filled by the caller. */
int pms__diff_compare_profiles(pms_diff *d, pms_diff_result *r);
int pms__diff_compare_counts(pms_diff *d, pms_diff_result *r);

/* The name of a verdict: "up", "down" or "none". */
const char *pms__diff_verdict_name(pms_diff_verdict v);
/* The method in words, as the outputs name it. */
const char *pms__diff_method_name(const pms_diff_result *r);
#endif
