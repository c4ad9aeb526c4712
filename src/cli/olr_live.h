/* `pmuscope record --olr`: the online regression of seed 000 run while samples arrive;
 * segments go to a CSV as they close, beside the samples or instead of them. */
#ifndef PMS_CLI_OLR_LIVE_H
#define PMS_CLI_OLR_LIVE_H
#include "pmuscope/olr.h"
#include "pmuscope/perfdata.h"

#include <stdio.h>

typedef struct olr_live_config {
    int enabled;
    pms_olr_method method;
    double eps;        /* opt: the bound in counts */
    int instead;       /* keep the segments only, not the samples (--olr-only) */
    const char *path;  /* segments CSV; NULL: "<perf.data path>.olr.csv" */
} olr_live_config;

typedef struct olr_live olr_live;

/* The argument of --olr: "wm", "opt" (eps 0) or "opt:EPS" (EPS in counts). 0 or -1. */
int olr_live_parse(const char *arg, olr_live_config *cfg);
/* attrs: the recorded events (pms_sampler_attrs); perfdata_path names the default CSV. */
int olr_live_open(olr_live **out, const olr_live_config *cfg, const char *perfdata_path,
                  const pms_perfdata_attr *attrs, size_t nattrs);
/* One ring-buffer record: samples of the first thread seen are kept for fitting, the rest
 * ignored.
 * Should the stream be unusable (x not increasing, no read values), the regression stops
 * with a warning at the end and the recording goes on. */
void olr_live_record(olr_live *l, const struct perf_event_header *h);
/* After each drain of the ring buffers: fits the samples now known to be in time order. */
void olr_live_round(olr_live *l);
/* Whether the record should still be written to perf.data. */
int olr_live_keeps(const olr_live *l, const struct perf_event_header *h);
/* Closes the last segments, prints the summary lines (with the share of run_seconds spent
 * in the regression, timed as the paper timed it: time stamps around the regression of
 * each sample, summed, over the run) and frees; 0, or CLI_FAIL (with a warning) if the
 * regression stopped. out NULL: the recording failed, the CSV is removed. */
int olr_live_close(olr_live *l, double run_seconds, FILE *out);

#endif
