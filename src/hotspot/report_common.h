/* Internal: what the hotspot writers share (report.c: one recording; sweep_report.c: a
 * sweep): the truth's lines, the measures in JSON, where the samples outside the truth are. */
#ifndef PMS_HOTSPOT_REPORT_COMMON_H
#define PMS_HOTSPOT_REPORT_COMMON_H
#include "pmuscope/hotspot.h"
#include "pmuscope/json.h"
#include <stdio.h>

const char *pms__hotspot_period_unit(int time_based);
/* What a stream's writes came to. */
int pms__hotspot_stream_status(FILE *out);

/* A document: {"truth": {...}, ... members follow */
void pms__hotspot_json_open(pms_json *j, FILE *out, const pms_hotspot_truth *t);
/* Ends the last member (an array) and the document. */
void pms__hotspot_json_close_array(pms_json *j);
/* The measures of a result; null (with why) for every one when r is NULL. */
void pms__hotspot_json_measures(pms_json *j, const pms_hotspot_result *r, const char *why);
/* Where the samples outside the truth are: the functions valgrind never ran code of and the
 * files it never ran. */
void pms__hotspot_json_outside(pms_json *j, const pms_hotspot_result *r);
void pms__hotspot_text_truth(FILE *out, const pms_hotspot_truth *t);

/* A function's samples at instructions valgrind never ran. */
typedef struct pms__unexecuted_fn {
    const char *function;
    uint64_t samples;
} pms__unexecuted_fn;
/* The functions with most samples at instructions valgrind never ran, the most first
 * (top[0..return)). */
size_t pms__hotspot_unexecuted_functions(const pms_hotspot_result *r, pms__unexecuted_fn *top, size_t cap);
/* "__strcmp_evex (120), __memchr_evex (8)" into buf: the top functions, or "" */
void pms__hotspot_unexecuted_text(const pms_hotspot_result *r, char *buf, size_t size);

#endif
