/* Internal to the olr series loaders (see pmuscope/olr_series.h). */
#ifndef PMS_OLR_SERIES_INTERNAL_H
#define PMS_OLR_SERIES_INTERNAL_H
#include "pmuscope/olr_series.h"

/* Room for one more sample with this x; returns its y row, NULL when out of memory. */
uint64_t *pms__olr_series_append(pms_olr_series *s, uint64_t x);

int pms__olr_series_stream_perfdata(pms_olr_series *s, const char *path, const pms_olr_input_options *opt,
                                    pms_olr_row_fn fn, void *ctx);
int pms__olr_series_stream_table(pms_olr_series *s, const char *path, const pms_olr_input_options *opt,
                                 pms_olr_row_fn fn, void *ctx);
/* A pipe's head, before it is copied (a pms__head_check; opt a const
 * pms_olr_input_options *): a perf.data's magic and header, or the complete lines of a
 * table as the table reader reads them (its failure there is final). */
int pms__olr_head_check(const unsigned char *head, size_t len, const char *name, void *opt);
/* The table reader on the complete lines of a pipe's head (text, len bytes; opt a
 * const pms_olr_input_options *): a pms__text_head_check parser (io/text_lines.h). */
int pms__olr_table_head(const char *text, size_t len, const char *name, void *opt);

/* The header row of the samples CSV: x's name, then each counter's. */
void pms__olr_csv_header(FILE *out, const char *xname, const char *const *names, size_t k);

#endif
