/* Presentation of `pmuscope hotspot`: text tables, JSON and the sweep's SVG. */
#ifndef PMS_CLI_HOTSPOT_OUTPUT_H
#define PMS_CLI_HOTSPOT_OUTPUT_H
#include "pmuscope/hotspot.h"
#include <stdio.h>

#define HOTSPOT_MAX_PERIODS 64

typedef struct hotspot_sweep_point {
    uint64_t period;
    uint64_t samples;
    int valid;
    pms_hotspot_result result;
} hotspot_sweep_point;

typedef struct hotspot_sweep {
    char event[128];
    int time_based;  /* periods in nanoseconds */
    int randomized;
    int od_covered;  /* the table's OD column over covered instructions (--od covered) */
    double valgrind_seconds;
    size_t nperiods;
    hotspot_sweep_point points[HOTSPOT_MAX_PERIODS];
} hotspot_sweep;

void hotspot_print_one(FILE *out, const pms_hotspot_truth *t, const pms_hotspot_recording *rec,
                       const pms_hotspot_result *r, size_t rows, int json);
void hotspot_print_sweep(FILE *out, const hotspot_sweep *sw, const pms_hotspot_truth *t, int json);
/* One CSV row per period: period,samples,m,NRMSE_SR,SC,OD,tau_b,top_precision,top_recall.
 * Returns CLI_OK or CLI_FAIL (message printed). */
int hotspot_write_sweep_csv(const char *path, const hotspot_sweep *sw);
/* Returns CLI_OK or CLI_FAIL (message printed). */
int hotspot_write_sweep_svg(const char *path, const hotspot_sweep *sw);

#endif
