/* pmuscope: the report of a recording (`pmuscope report`): one table per event of where
 * its samples fell (pmuscope/profile.h), made from a perf.data, a pprof profile or several
 * files merged (pmuscope/merge.h), and written as text, CSV, JSON or an HTML page to
 * streams the caller opened. */
#ifndef PMUSCOPE_PROFILE_REPORT_H
#define PMUSCOPE_PROFILE_REPORT_H
#include "pmuscope/merge.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "pmuscope/profile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One event's table. */
typedef struct pms_profile_event_table {
    const char *event;     /* the event's (or pprof sample type's) name */
    uint64_t samples;      /* all the event's samples */
    pms_profile_row *rows; /* sorted by share, largest first (malloc'd, freed with the report) */
    size_t nrows;
    int children;          /* rows carry children shares (PMS_PROFILE_CHILDREN) and are sorted by them */
    pms_profile_path *paths; /* with rep->call_paths: the rows' call paths, by row (freed with the report) */
    size_t npaths;
} pms_profile_event_table;

/* perf report's --children / --no-children. */
typedef enum pms_profile_children {
    PMS_CHILDREN_AUTO = 0, /* as perf: children for the events whose samples carry callchains */
    PMS_CHILDREN_ON = 1,   /* --children (without callchains a row's children are its own samples) */
    PMS_CHILDREN_OFF = 2,  /* --no-children */
} pms_profile_children;

#define PMS_PROFILE_MAX_SORT_KEYS 8

/* A column of the text table, one per sort key, in the order the keys were given (perf
 * report prints its columns so). */
typedef enum pms_profile_sort_key {
    PMS_SORT_COMM,   /* the command name at the samples */
    PMS_SORT_PID,    /* TID:comm */
    PMS_SORT_DSO,    /* the binary */
    PMS_SORT_SYM,    /* the function (with the binary when dso is not a key of its own) */
    PMS_SORT_IP,     /* run-time IP, binary, file offset and function+offset */
    PMS_SORT_SYMOFF, /* function+0xOFF, as perf script's sym,symoff fields */
} pms_profile_sort_key;

typedef struct pms_profile_report {
    /* Set by the caller (zero-initialise first; pms_profile_report_sort sets the keys). */
    const char *input;      /* names the recording in the text, JSON and HTML */
    const char *sort;       /* the sort keys as given, for the JSON (default "sym") */
    pms_profile_key key;    /* the rows */
    size_t nsort_keys;        /* the keys in the order given: the text columns */
    pms_profile_sort_key sort_keys[PMS_PROFILE_MAX_SORT_KEYS];
    pms_profile_weight weight;
    double confidence;      /* of the Wilson intervals, in (0, 1) */
    uint64_t limit;         /* rows written per table; 0: all */
    pms_profile_children children; /* of perf.data tables; of a pprof profile ON only (its cum
                                    * values, as pprof -top -cum: AUTO is flat, as pprof -top) */
    int call_paths;         /* perf.data tables also get their rows' call paths (perf report -g folded) */
    /* Made by the pms_profile_report_add_* calls. */
    uint64_t lost;          /* PERF_RECORD_LOST totals */
    pms_profile_event_table *tables;
    size_t ntables;
} pms_profile_report;

/* Sets rep's key, columns and sort from perf's comma-separated sort keys: sym (or symbol),
 * ip, symoff (rows by instruction, as ip), dso, comm, pid; rows by the finest location given, split by comm and pid
 * (dso,sym and sym give the same rows). PMS_EINVAL names the bad key. */
int pms_profile_report_sort(pms_profile_report *rep, const char *keys);

/* One table per event of the file that has samples, or of the event named `event` only
 * (PMS_ENOENT if the file has none); p has read r (pms_profile_read). */
int pms_profile_report_add_perfdata(pms_profile_report *rep, pms_profile *p, const pms_perfdata_reader *r,
                                    const char *event);
/* The table of the profile's default sample type, or of the one named `type`, by function. */
int pms_profile_report_add_pprof(pms_profile_report *rep, pms_pprof *p, const char *type);
/* One table per event of the merged files (or of `event` only), by function and samples. */
int pms_profile_report_add_merge(pms_profile_report *rep, const pms_merge *m, const char *event);
/* Frees the tables (not the strings the caller set). */
void pms_profile_report_free(pms_profile_report *rep);

/* The rows of t written: rep->limit of them, or all. */
size_t pms_profile_report_shown(const pms_profile_report *rep, const pms_profile_event_table *t);

/* The writers; each returns PMS_EIO if the stream failed (it stays open). */
/* A header line and the table of each event, the rows beyond the limit summed in a line. */
int pms_profile_report_write_text(FILE *out, const pms_profile_report *rep);
/* event,binary,function,ip,file_offset,symbol_offset,samples,period,share,ci_low,ci_high
 * (and comm,pid,thread_comm when rows are split by thread; and children_samples,
 * children_period,children_share,children_ci_low,children_ci_high when a table has
 * children), quoted as RFC 4180 says. */
int pms_profile_report_write_csv(FILE *out, const pms_profile_report *rep);
/* One object: the file, sort, weight, confidence, lost, and the events with their rows. */
int pms_profile_report_write_json(FILE *out, const pms_profile_report *rep);
/* A self-contained page (pmuscope/profile_html.h). */
int pms_profile_report_write_html(FILE *out, const pms_profile_report *rep);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
