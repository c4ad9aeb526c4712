/* `pmuscope olr`: what it writes (segments, decoded samples, SVG, summary, JSON). */
#ifndef PMS_CLI_OLR_OUTPUT_H
#define PMS_CLI_OLR_OUTPUT_H
#include "cli/olr_input.h"
#include "pmuscope/olr.h"

#include <stdio.h>

typedef struct olr_report {
    const olr_series *series;
    const pms_olr_options *opt;
    const pms_olr_segment *seg;
    size_t nseg;
    const pms_olr_summary *sums; /* one per counter */
    const char *input;
} olr_report;

/* The segment CSV, also written by `pmuscope record --olr` as segments close. */
void olr_csv_segment_header(FILE *out);
void olr_csv_segment(FILE *out, const char *counter, const pms_olr_segment *s);

/* Writes the segment CSV and the optional files (NULL: not wanted). Prints errors; 0 or CLI_FAIL. */
int olr_write_outputs(const olr_report *r, const char *segments, const char *decode, const char *samples,
                      const char *svg);
void olr_print_summary(const olr_report *r, FILE *out);
void olr_print_json(const olr_report *r, FILE *out);

#endif
