/* Internal: what the text summary (report_summary.c) and the other outputs (report.c)
 * both compute from a run's rows. */
#ifndef PMS_PHASE_REPORT_INTERNAL_H
#define PMS_PHASE_REPORT_INTERNAL_H
#include "pmuscope/phase_report.h"

#include <stdio.h>

/* Why a summary number is unknown: the text prints "-" and this, the JSON null and this. */
#define WHY_NO_PREDICTION "fewer than 2 intervals: nothing was predicted"
#define WHY_NO_LABELS "fewer than 2 intervals carry a label of the known schedule"
#define WHY_NO_PAIRS "no two consecutive intervals carry labels of the known schedule"
#define WHY_NO_INTERVALS "no intervals"

/* A number, or "-" when it is unknown, in width characters after a blank. */
void pms__phase_print_num(FILE *out, int width, const char *fmt, double v);
/* The phase predictor k had predicted for row i (-1 for a thread's first interval). */
int pms__phase_row_prediction(const pms_phase_run *r, size_t i, int k);
/* Adjusted Rand index of the rows' phases against their known labels, over thread tid's
 * rows (0: every thread's; a phase and a known label are then a thread's own, unless the
 * threads share a table); *used: the labelled rows. */
double pms__phase_truth_ari(const pms_phase_run *r, pid_t tid, size_t *used);
/* Last value on the known labels (each row against its thread's previous one): the
 * baseline a predictor must beat. */
double pms__phase_truth_last_value(const pms_phase_run *r);
/* When the run looks as if its phases were shorter than its intervals (most intervals
 * start a new run of phases, or stay in the transition phase): what to do, in words;
 * NULL otherwise. */
const char *pms__phase_short_phases_advice(const pms_phase_run *r, const pms_phase_summary *s, char *buf,
                                           size_t size);

#endif
