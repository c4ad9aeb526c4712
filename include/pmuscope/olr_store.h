/* pmuscope: the olr segment file (docs/olr-format.md): line segments stored as whole-count
 * end points, so that a reader gets every sample back within eps at its own x.
 *
 * Writing is incremental, for streams: create the writer, hand it every sample (x and the
 * k counters) and every segment as the fitter closes it (pmuscope/olr.h; a segment after
 * its samples), then finish. It keeps the samples of the open segments and at most one
 * chunk of encoded bytes per part before it compresses (zstd) and writes them.
 * Reading loads a whole file: x (unless it was left out), each counter's segments, and
 * decodes a counter's samples on request. */
#ifndef PMUSCOPE_OLR_STORE_H
#define PMUSCOPE_OLR_STORE_H
#include "pmuscope/error.h"
#include "pmuscope/olr.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

#define PMS_OLR_STORE_VERSION 4u /* the version written (5 with checkpoints); the reader reads 1 to 5 */
#define PMS_OLR_STORE_VERSION_CHECKPOINTS 5u /* a file with checkpoints (C chunks): a live recording's */

typedef struct pms_olr_store_options {
    int keep_x;     /* 1 (default): x stored (byte planes of its steps or of their changes);
                     * 0: left out, for a reader that has the samples' x elsewhere */
    int lossless;   /* 1: each sample's residual (y - decoded) too: decoding is exact */
    int level;      /* zstd level (default 19) */
    size_t chunk;   /* encoded bytes per part before a chunk is compressed (default 1 MiB) */
    int greedy_joints; /* 0 (default): opt's counters with eps <= 31 get the fewest end points
                     * of any joint/disjoint mix (Luo et al., ICDE 2015; docs/olr-format.md);
                     * 1: the fitter's segments, each joint where a line from the previous end
                     * point fits */
    uint64_t mixed_states_max; /* the optimal mix's memory guard, knot states per counter
                     * (16 bytes each; 0, the default: 4 Mi, 64 MiB); meeting it is counted
                     * in mixed_cut */
    int encoding;   /* how opt's counters are stored: PMS_OLR_ENCODING_AUTO (default: each
                     * counter the smaller of the two), _SEGMENTS or _PREDICTIVE */
    int checkpoints; /* 1: pms_olr_writer_checkpoint will be called (a version 5 file; x kept) */
} pms_olr_store_options;

/* A counter is stored as line segments (with residuals in a lossless file) or by
 * predictive coding: each sample as the difference from a prediction made from the values
 * already decoded, quantised to 2 eps + 1 counts (eps 0 in a lossless file; version 2,
 * docs/olr-format.md). wm's counters are always segments. With AUTO the writer compares
 * the two compressed, per counter, when it first writes the counter's data (at the end of
 * a stream shorter than a chunk) and keeps that choice. */
enum { PMS_OLR_ENCODING_AUTO = 0, PMS_OLR_ENCODING_SEGMENTS = 1, PMS_OLR_ENCODING_PREDICTIVE = 2 };

void pms_olr_store_options_init(pms_olr_store_options *o);

/* Bytes written, by part (the summary of `pmuscope olr --store`). */
typedef struct pms_olr_store_stats {
    uint64_t samples, segments, joint; /* joint: segments stored as continuing the previous one */
    uint64_t split;                    /* segments stored as several (end points not found) */
    uint64_t points;                   /* end points stored: joint or one-sample segments 1, others 2 */
    uint64_t mixed_cut;                /* samples where the optimal mix met a memory guard */
    uint64_t mixed_starts_peak;        /* the most line starts it kept awake at once, any counter */
    uint64_t mixed_states_peak;        /* the most knot states it held at once, any counter */
    uint64_t mixed_greedy;             /* opt's counters with eps above 31: the greedy choice */
    uint64_t predictive;               /* counters stored by predictive coding (the segment
                                        * counts above are those of the other counters) */
    uint64_t bytes_header, bytes_x, bytes_segments, bytes_residuals, bytes_predictive, bytes_total;
} pms_olr_store_stats;

typedef struct pms_olr_writer pms_olr_writer;

/* Writes to OUT (opened by the caller, binary; NULL: nothing written, for the decoded
 * samples alone); WHERE names it in messages. FIT gives the method, ncounters, per_counter
 * and each counter's eps; names: ncounters strings. */
int pms_olr_writer_create(pms_olr_writer **w, FILE *out, const char *where, const pms_olr_store_options *so,
                          const pms_olr_options *fit, const char *xname, const char *const *names);
/* Each sample decoded from the stored segments (the line values, without residuals), in
 * order, as soon as every counter's segment over it is stored: FN(x, y[0..k-1], CTX). A
 * non-zero return stops and is returned by the add_segment that handed the sample over.
 * Set it before the first sample. */
typedef int (*pms_olr_decoded_fn)(uint64_t x, const uint64_t *y, void *ctx);
int pms_olr_writer_set_decoded(pms_olr_writer *w, pms_olr_decoded_fn fn, void *ctx);
/* Every sample, in order (x strictly increasing). */
int pms_olr_writer_add_sample(pms_olr_writer *w, uint64_t x, const uint64_t *y);
/* Every segment, as it closes (after add_sample of its last sample). */
int pms_olr_writer_add_segment(pms_olr_writer *w, const pms_olr_segment *s);
/* Writes what is left and the end chunk; a write error names WHERE. */
int pms_olr_writer_finish(pms_olr_writer *w);
/* With so->checkpoints: writes every chunk of what is stored so far (the x of every sample,
 * each counter's closed segments or codes) and a checkpoint chunk, and flushes OUT: should
 * the writer be killed from here on, a reader decodes the file up to this checkpoint (the
 * samples every counter's chunks cover) and says that it stopped there. A counter of opt
 * whose encoding is not chosen yet and none of whose segments has closed waits for a later
 * checkpoint. A recording calls it at each of its perf.data's syncs (pmuscope/olr_live.h). */
int pms_olr_writer_checkpoint(pms_olr_writer *w);
void pms_olr_writer_get_stats(const pms_olr_writer *w, pms_olr_store_stats *out);
void pms_olr_writer_destroy(pms_olr_writer *w);

/* A stored segment of one counter: samples first .. first + count - 1, decoded on the line
 * from (x[first], y_start) to (x[first + count - 1], y_end), or, when joint, from the end of
 * the previous segment (x[first - 1], y_start) to (x[first + count - 1], y_end). */
typedef struct pms_olr_stored_segment {
    uint64_t first, count;
    int joint;
    uint64_t y_start, y_end;
} pms_olr_stored_segment;

typedef struct pms_olr_stored {
    unsigned version;
    int has_x, lossless, per_counter;
    pms_olr_method method;
    size_t k;
    char *xname;
    char **names;              /* k */
    uint64_t *eps;             /* k: the bound every decoded sample keeps (wm: 0, none) */
    uint64_t n;                /* samples */
    uint64_t *x;               /* n, or NULL when x was left out */
    pms_olr_stored_segment **seg; /* k arrays */
    size_t *nseg;              /* k */
    uint64_t **residual;       /* k arrays of n (lossless), as differences mod 2^64; NULL for a
                                * predictive counter */
    uint64_t **value;          /* k: a predictive counter's n decoded values (its nseg is 0), or
                                * NULL for a counter of segments */
    int stopped;               /* 1: the file has no end chunk, its writer stopped (was killed)
                                * after a checkpoint (version 5): n is the samples up to the last
                                * one, and the file's bytes from stopped_at on were not read */
    uint64_t stopped_at;
} pms_olr_stored;

/* Reads and checks a whole file (or SIZE bytes at DATA, named WHERE). Errors name the file,
 * the byte offset and what was expected there. */
int pms_olr_stored_read(pms_olr_stored *out, const char *path);
int pms_olr_stored_read_mem(pms_olr_stored *out, const void *data, size_t size, const char *where);
/* Counter j's samples into y[0..n-1], at x[0..n-1] (the stored x, or the caller's when the
 * file has none; NULL: the stored ones). */
int pms_olr_stored_decode(const pms_olr_stored *s, size_t j, const uint64_t *x, uint64_t *y);
void pms_olr_stored_free(pms_olr_stored *s);

/* The decoded samples as CSV: x and one column per counter (as `pmuscope olr --samples`
 * writes the input). x: as for pms_olr_stored_decode. */
int pms_olr_stored_write_csv(FILE *out, const pms_olr_stored *s, const uint64_t *x);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
