/* pmuscope: the hotspot tables of one recording (pmuscope/profile.h) as a self-contained
 * HTML page, each with a bar chart of the top shares and their confidence intervals
 * (`pmuscope report --html`). Written to a stream the caller opened and closes. */
#ifndef PMUSCOPE_PROFILE_HTML_H
#define PMUSCOPE_PROFILE_HTML_H
#include "pmuscope/html.h"
#include "pmuscope/profile.h"
#include "pmuscope/profile_report.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_profile_html {
    pms_html html;
    double confidence;
    bool by_ip;
    bool by_period; /* shares of the period, not of the samples */
} pms_profile_html;

/* Writes the page's head: input names the recording, lost its lost samples. */
int pms_profile_html_begin(pms_profile_html *h, FILE *out, const char *input, double confidence, bool by_ip,
                           bool by_period, uint64_t lost);
/* One event: the first `shown` rows in a table with the text report's columns (with
 * children, the children share and interval before the row's own), the first 10 of them in
 * a chart of the share the rows are sorted by (children when the table has them). */
int pms_profile_html_event(pms_profile_html *h, const pms_profile_event_table *t, size_t shown);
/* Ends the page; PMS_EIO if anything failed to write (the stream stays open). */
int pms_profile_html_end(pms_profile_html *h);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
