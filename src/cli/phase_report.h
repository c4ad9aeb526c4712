/* The outputs of `pmuscope phase`: per-interval table, timeline, summary, CSV, JSON, SVG. */
#ifndef PMS_CLI_PHASE_REPORT_H
#define PMS_CLI_PHASE_REPORT_H
#include "pmuscope/phase.h"
#include <stdio.h>

typedef struct phase_row {
    pms_phase_event ev;  /* ev.signature points at sig */
    double *sig;
    int truth;           /* label of the known schedule, -1 if none */
} phase_row;

typedef struct phase_run {
    phase_row *rows;
    size_t n, cap;
    const pms_phase_engine *engine;
    const pms_phase_config *cfg;
    int has_truth;           /* rows carry labels of a known schedule */
    char **truth_names;      /* label -> name */
    size_t ntruth;
    char source[512];     /* what was analysed, in words */
    const char *size_unit;   /* "instructions", "ns", "samples" */
    const char *metric_name; /* "CPI", "ns/sample" */
    const char *samples_name;/* "samples", or "blocks" for exact vectors */
} phase_run;

/* Keeps a copy of the event (callback of the replay and the monitor). */
int phase_run_add(phase_run *r, const pms_phase_event *ev);
void phase_run_free(phase_run *r);
/* Sets row i's known label by name (adding the name); NULL leaves it unknown. */
int phase_run_set_truth(phase_run *r, size_t i, const char *name);

void phase_print_table(const phase_run *r, FILE *out);
void phase_print_summary(const phase_run *r, FILE *out);
int phase_write_csv(const phase_run *r, FILE *out);
void phase_write_json(const phase_run *r, FILE *out);
int phase_write_svg(const phase_run *r, FILE *out);

#endif
