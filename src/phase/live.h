/* Internal: a phase analysis of a live program (launched or attached), for input.c. */
#ifndef PMS_PHASE_LIVE_H
#define PMS_PHASE_LIVE_H
#include "pmuscope/phase_input.h"

/* Launches in->argv or attaches to in->pid; returns a pms_status. */
int pms__phase_live_run(pms_phase_input *in, pms_phase_run *run);

#endif
