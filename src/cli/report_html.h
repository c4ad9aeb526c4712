/* pmuscope report --html: the hotspot tables of one recording as a self-contained page,
 * each with a bar chart of the top shares and their confidence intervals. */
#ifndef PMS_CLI_REPORT_HTML_H
#define PMS_CLI_REPORT_HTML_H
#include "pmuscope/html.h"
#include "pmuscope/profile.h"

#include <stdint.h>
#include <stdio.h>

typedef struct report_html {
    pms_html html;
    FILE *file;
    const char *path;
    double confidence;
    int by_ip;
} report_html;

/* Creates the page and writes its head. Returns CLI_OK or CLI_FAIL (message printed). */
int report_html_open(report_html *h, const char *path, const char *input, double confidence, int by_ip,
                     uint64_t lost);
/* One event: the first `shown` rows in a table, the first 10 of them in the chart. */
int report_html_event(report_html *h, const char *event, uint64_t samples, const pms_profile_row *rows,
                      size_t nrows, size_t shown);
/* Ends the page and closes the file. */
int report_html_close(report_html *h);

#endif
