/* pmuscope: the online line-segment fit of a recording while it runs (Wu & Mencer,
 * "Online Linear Regression of Sampling Data from Performance Event Counters").
 *
 * A tap on pms_record_run (pmuscope/record.h): the counters the first sampling event
 * reads at every sample (PERF_SAMPLE_READ) are fitted against its own count with line
 * segments (pmuscope/olr.h) as the samples arrive; the samples of the first thread seen
 * are used, those of others counted and skipped. Segments go to a stream the caller
 * opened, as they close. Should the stream be unusable (x not increasing, no read
 * values), the fit stops, the recording goes on, and pms_olr_live_finish says why. */
#ifndef PMUSCOPE_OLR_LIVE_H
#define PMUSCOPE_OLR_LIVE_H
#include "pmuscope/olr.h"
#include "pmuscope/record.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_olr_live_options {
    pms_olr_method method;
    double eps;          /* opt: the error bound in counts */
    bool segments_only;  /* leave the samples out of perf.data (the segments stand for them) */
    bool csv;            /* the segments as CSV rows (pms_olr_write_segment); default: the
                          * segment file of pmuscope/olr_store.h, which keeps every sample's x */
} pms_olr_live_options;

typedef struct pms_olr_live pms_olr_live;

/* segments: where the segments go, opened by the caller: the segment file (written as
 * segments close, finished by pms_olr_live_finish), or with opt->csv the CSV (header now,
 * then one row per closed segment). At each checkpoint of the recording the segment file
 * gets its checkpoint (pms_olr_writer_checkpoint) and the stream is flushed. */
int pms_olr_live_create(pms_olr_live **out, const pms_olr_live_options *opt, FILE *segments);
/* The same into the file at path, which the fit writes itself as the recording writes its
 * perf.data: beside path until the first checkpoint that holds a sample, then in place
 * (a file that was there kept as path.old), its checkpoints flushed every second, so that
 * a recording killed leaves path readable up to its last checkpoint (pmuscope olr --decode
 * says where it stopped); pms_olr_live_finish completes it. A fit that fails before its
 * first checkpoint leaves path as it was. A device or FIFO is written in place. */
int pms_olr_live_open(pms_olr_live **out, const pms_olr_live_options *opt, const char *path);
/* The tap to put in pms_record_config (its ctx is l). */
int pms_olr_live_tap(pms_record_tap *out, pms_olr_live *l);
/* After the recording: fits the samples still waiting, closes the last segments and (with
 * pms_olr_live_open) puts the file in place. PMS_OK, or the status the fit stopped with
 * (the message says why: "cannot write PATH: reason", the regression stopped, or there
 * were no samples to fit). */
int pms_olr_live_finish(pms_olr_live *l);

typedef struct pms_olr_live_stats {
    uint64_t samples;   /* fitted */
    uint64_t skipped;   /* of other threads, or lacking a counter */
    uint32_t tid;       /* the thread fitted */
    size_t ncounters;   /* counters fitted (0 before the first sample) */
    double seconds;     /* spent in the regression: time stamps around the fit of every
                         * sample, summed (the paper's measure of its cost) */
} pms_olr_live_stats;

int pms_olr_live_get_stats(pms_olr_live_stats *out, const pms_olr_live *l);
/* Counter i's summary (pmuscope/olr.h) and name. */
int pms_olr_live_get_summary(pms_olr_summary *out, const char **name, const pms_olr_live *l, size_t i);
void pms_olr_live_destroy(pms_olr_live *l);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
