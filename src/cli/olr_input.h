/* `pmuscope olr`: loading the sample series (x and counters) from a perf.data file
 * with read values or from a CSV/TSV table. */
#ifndef PMS_CLI_OLR_INPUT_H
#define PMS_CLI_OLR_INPUT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct olr_series {
    size_t n, cap, k;      /* samples, room, counters */
    uint64_t *x;           /* n */
    uint64_t *y;           /* n x k, row-major */
    char *xname;
    char **names;          /* k */
    size_t *lines;         /* source line of each sample (tables), or NULL */
    long tid;              /* perf.data: the thread whose samples these are */
    uint64_t skipped;      /* perf.data: samples of other threads left out */
} olr_series;

typedef struct olr_input_options {
    const char *x;         /* perf.data: "time" or an event name (default: the sampling event);
                            * table: a column name (default: the first column) */
    const char *counters;  /* comma-separated names, or NULL for all others */
    long tid;              /* perf.data: this thread's samples (-1: the first sample's thread) */
} olr_input_options;

/* Loads PATH (perf.data if it starts with perf's magic, else a table). Library errors. */
int olr_series_load(olr_series *s, const char *path, const olr_input_options *opt);
void olr_series_free(olr_series *s);
/* Writes the series as CSV: x and one column per counter. */
void olr_series_write_csv(const olr_series *s, FILE *out);

/* Internal to the loaders: room for one more sample (y row returned). */
uint64_t *olr_series_append(olr_series *s, uint64_t x);
/* Is NAME selected by the comma-separated list (NULL selects all)? */
int olr_name_selected(const char *list, const char *name);

int olr_series_load_perfdata(olr_series *s, const char *path, const olr_input_options *opt);
int olr_series_load_table(olr_series *s, const char *path, const olr_input_options *opt);

#endif
