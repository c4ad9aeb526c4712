/* pmuscope: online linear regression of recorded sample series (Wu & Mencer, "Online
 * Linear Regression of Sampling Data from Performance Event Counters").
 *
 * The steps `pmuscope olr` runs, as library calls: load a series (x and cumulative
 * counters) from a perf.data file with read values or from a CSV/TSV table, fit it with
 * line segments (pmuscope/olr.h), and write the segments, the decoded samples, SVG
 * charts and the summary (plain or JSON) to streams the caller opened. */
#ifndef PMUSCOPE_OLR_SERIES_H
#define PMUSCOPE_OLR_SERIES_H
#include "pmuscope/olr.h"
#include "pmuscope/olr_store.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_olr_series {
    size_t n, cap, k;      /* samples, room, counters */
    uint64_t *x;           /* n */
    uint64_t *y;           /* n x k, row-major */
    char *source;          /* the path it was loaded from */
    char *xname;
    char **names;          /* k */
    size_t *lines;         /* source line of each sample (tables), or NULL */
    long tid;              /* perf.data: the thread whose samples these are */
    uint64_t skipped;      /* perf.data: samples of other threads left out */
    size_t line;           /* pms_olr_series_stream, tables: the line of the row handed over */
} pms_olr_series;

typedef struct pms_olr_input_options {
    const char *x;         /* perf.data: "time" or an event name (default: the sampling event);
                            * table: a column name (default: the first column) */
    const char *counters;  /* comma-separated names, or NULL for all others */
    long tid;              /* perf.data: this thread's samples (-1: the first sample's thread) */
} pms_olr_input_options;

/* x and counters by default, the first sample's thread. */
void pms_olr_input_options_init(pms_olr_input_options *o);
/* Loads PATH (perf.data if it starts with perf's magic, else a table). Errors name the
 * file (and line for tables). */
int pms_olr_series_load(pms_olr_series *out, const char *path, const pms_olr_input_options *opt);
void pms_olr_series_free(pms_olr_series *s);

/* The same input a row at a time, never whole (memory flat in the number of rows): META
 * gets the names, x name, source, tid and skipped as pms_olr_series_load sets them, and n
 * counts the rows handed over (x and y stay NULL); FN gets each row in order, x and the k
 * counters (a perf.data's samples are put in time order as perf's rounds allow). A
 * non-zero return of FN stops and is returned. Free META with pms_olr_series_free. */
typedef int (*pms_olr_row_fn)(uint64_t x, const uint64_t *y, void *ctx);
int pms_olr_series_stream(pms_olr_series *meta, const char *path, const pms_olr_input_options *opt,
                          pms_olr_row_fn fn, void *ctx);

/* An error bound for one counter (name) or for all (name NULL), as --eps gives it. */
typedef struct pms_olr_eps_spec {
    const char *name;
    pms_olr_counter_options c;
} pms_olr_eps_spec;

/* A fitted series: the options used (each counter's eps resolved to counts), the
 * segments in the order they closed and each counter's summary. */
typedef struct pms_olr_fit {
    pms_olr_options opt;
    pms_olr_counter_options *counters; /* k; opt.counters points here */
    pms_olr_segment *seg;
    size_t nseg, cap;
    pms_olr_summary *sums;             /* k */
} pms_olr_fit;

/* Fits series S with the method and caps of OPT (its ncounters and counters are set
 * from S). Each counter's eps is the last spec naming it or naming none (default 0.1%
 * of its range), resolved from its extent; monotone: a decrease is an error. A spec
 * naming no counter of S is an error. Errors name `where` (and the line for tables). */
int pms_olr_fit_series(pms_olr_fit *out, const pms_olr_series *s, const pms_olr_options *opt,
                       const pms_olr_eps_spec *specs, size_t nspecs, int monotone, const char *where);
void pms_olr_fit_free(pms_olr_fit *f);
/* The same on the input at PATH read a row at a time (pms_olr_series_stream; twice when an
 * eps is relative to the range or the step): memory flat in the number of rows. SEG_FN gets
 * each segment as it closes (OUT keeps none: nseg 0), ROW_FN (or NULL) each row of the
 * fitting pass, both with CTX. META as for pms_olr_series_stream. */
int pms_olr_fit_stream(pms_olr_fit *out, pms_olr_series *meta, const char *path, const pms_olr_input_options *in,
                       const pms_olr_options *opt, const pms_olr_eps_spec *specs, size_t nspecs, int monotone,
                       pms_olr_segment_fn seg_fn, pms_olr_row_fn row_fn, void *ctx);

typedef struct pms_olr_chart_data pms_olr_chart_data;
/* The outputs of a streamed fit, each written as the rows and segments come; every
 * FILE is opened (and closed) by the caller, NULL for none. */
typedef struct pms_olr_stream_outputs {
    FILE *segments;   /* the segment CSV (pms_olr_write_segment), its header first */
    FILE *samples;    /* the input series as CSV (pms_olr_write_series_row) */
    FILE *store;      /* the segment file (pmuscope/olr_store.h) */
    const char *store_path;                      /* names store in messages */
    const pms_olr_store_options *store_options;  /* NULL: the defaults */
    FILE *decoded;    /* the samples decoded back from the segments, as CSV */
    bool charts;      /* gather the charts into the result */
} pms_olr_stream_outputs;

typedef struct pms_olr_stream_result {
    pms_olr_chart_data *charts; /* with outputs.charts (pms_olr_chart_data_write_svg); the caller
                                   destroys it, on failure too */
    bool has_store;             /* store written: its bytes by part in store */
    pms_olr_store_stats store;
} pms_olr_stream_result;

/* pms_olr_fit_stream with every output of `outputs` written as the stream goes (the segment
 * file finished at the end). */
int pms_olr_fit_stream_outputs(pms_olr_fit *out, pms_olr_series *meta, pms_olr_stream_result *res, const char *path,
                               const pms_olr_input_options *in, const pms_olr_options *opt,
                               const pms_olr_eps_spec *specs, size_t nspecs, int monotone,
                               const pms_olr_stream_outputs *outputs);
/* The segment file's line of the summary: its bytes by part, PATH naming it. */
int pms_olr_write_store_stats(FILE *out, const char *path, const pms_olr_store_stats *st);

/* The segment CSV (a header, then one row per segment as it closes). */
void pms_olr_write_segment_header(FILE *out);
void pms_olr_write_segment(FILE *out, const char *counter, const pms_olr_segment *s);
/* All segments of a fit, with the header. */
int pms_olr_write_segments(FILE *out, const pms_olr_series *s, const pms_olr_fit *f);
/* The segment file (pmuscope/olr_store.h, docs/olr-format.md) of a fit; WHERE names OUT in
 * messages; so NULL: the defaults; stats (or NULL): its bytes by part. */
int pms_olr_write_store(FILE *out, const char *where, const pms_olr_store_options *so, const pms_olr_series *s,
                        const pms_olr_fit *f, pms_olr_store_stats *stats);
/* The samples decoded back from the segments, through the segment file, each at its own x:
 * a CSV as pms_olr_write_series writes the input (x, then one column per counter). */
int pms_olr_write_decoded(FILE *out, const pms_olr_series *s, const pms_olr_fit *f);
/* The input series as CSV: x and one column per counter. */
int pms_olr_write_series(FILE *out, const pms_olr_series *s);
/* The same a row at a time (for pms_olr_series_stream): the header, then each row. */
void pms_olr_write_series_header(FILE *out, const pms_olr_series *s);
void pms_olr_write_series_row(FILE *out, uint64_t x, const uint64_t *y, size_t k);
/* One chart per counter: the samples as points, the lines over them (every n-th of each
 * beyond 8000 points, the title says when lines were left out). */
int pms_olr_write_svg(FILE *out, const pms_olr_series *s, const pms_olr_fit *f);
/* The same gathered as a stream goes (memory flat in its length): create for k counters,
 * add every sample and every segment as it closes, then write with the stream's names
 * (META) and the fit's summaries. */
int pms_olr_chart_data_create(pms_olr_chart_data **c, size_t k);
void pms_olr_chart_data_add_sample(pms_olr_chart_data *c, uint64_t x, const uint64_t *y);
void pms_olr_chart_data_add_segment(pms_olr_chart_data *c, const pms_olr_segment *s);
int pms_olr_chart_data_write_svg(const pms_olr_chart_data *c, FILE *out, const pms_olr_series *meta,
                                 const pms_olr_fit *f);
void pms_olr_chart_data_destroy(pms_olr_chart_data *c);
/* The summary: a table (per counter: eps, segments, reduction, bytes ratio, MNESD, errors)
 * or the same as JSON. */
int pms_olr_write_summary(FILE *out, const pms_olr_series *s, const pms_olr_fit *f);
int pms_olr_write_json(FILE *out, const pms_olr_series *s, const pms_olr_fit *f);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
