/* Internal: what every run of a sweep is given (the same input, the CPU mask) and what it
 * leaves (its standard output, compared with the other runs'). */
#ifndef PMS_HOTSPOT_SWEEP_RUNS_H
#define PMS_HOTSPOT_SWEEP_RUNS_H
#include "pmuscope/hotspot_report.h"
#include "pmuscope/target.h"
#include <limits.h>

typedef struct pms__sweep_runs {
    char dir[PATH_MAX];      /* where the outputs go: the scratch file's directory */
    char env_mask[1100];     /* "GLIBC_TUNABLES=..." for the native runs, "" for none */
    char *env[2];
    char out[PATH_MAX + 32]; /* the output file of the run being set up */
    pms_child_setup setup;
    size_t nruns;            /* native runs set up so far */
} pms__sweep_runs;

/* Probes the CPU mask (unless sw->no_cpu_mask) into sw->cpu_mask, in the scratch file's
 * directory. */
int pms__sweep_runs_init(pms__sweep_runs *r, pms_hotspot_sweep *sw, const char *scratch);
/* The setup of valgrind's run (its output: stdout.valgrind). */
const pms_child_setup *pms__sweep_runs_valgrind(pms__sweep_runs *r, const pms_hotspot_sweep *sw);
/* The setup of the next native run (stdout.K, the CPU mask). */
const pms_child_setup *pms__sweep_runs_native(pms__sweep_runs *r, const pms_hotspot_sweep *sw);
/* Compares every native run's output with valgrind's (with_valgrind) or with the first
 * native run's, into sw->runs_differ; then removes the output files. */
void pms__sweep_runs_finish(pms__sweep_runs *r, pms_hotspot_sweep *sw, int with_valgrind);

#endif
