/* Where `pmuscope phase` gets its intervals: a file replayed, or a live program. */
#ifndef PMS_CLI_PHASE_INPUT_H
#define PMS_CLI_PHASE_INPUT_H
#include "cli/phase_report.h"
#include "pmuscope/phase.h"

typedef enum phase_format { FORMAT_AUTO, FORMAT_PERF, FORMAT_BBV, FORMAT_SIMPOINT } phase_format;

typedef struct phase_input {
    pms_phase_config cfg;
    pms_phase_monitor_config live;  /* its .phase is set from cfg */
    pms_phase_source source;        /* perf.data */
    phase_format format;
    const char *path, *pc_path;
    pid_t pid;
    char **argv;
    pms_phase_engine *engine;       /* replay: owned here */
    pms_phase_monitor *monitor;     /* live: owned here */
    pms_bbv *bbv;
} phase_input;

void phase_input_defaults(phase_input *in);
int phase_input_parse_format(const char *s, phase_format *out);
/* Runs the analysis into run (sets run->engine, source, units); returns a CLI exit code. */
int phase_input_run(phase_input *in, phase_run *run);
void phase_input_close(phase_input *in);

/* Live: launches in->argv or attaches to in->pid (cli/phase_live.c). */
int phase_live_run(phase_input *in, phase_run *run);

/* Labels each row of an exp-bbv replay with the function that ran most of its instructions. */
int phase_input_function_truth(const phase_input *in, phase_run *run);

/* The signatures as SimPoint .bb vectors (parts per million of each interval). */
int phase_write_bb(const phase_run *r, FILE *out);

#endif
