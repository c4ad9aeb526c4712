/* Internal: valgrind's run for a truth directory, started and finished apart, so that a
 * sweep's recordings run beside it (pms_hotspot_truth_record is start, then finish). */
#ifndef PMS_HOTSPOT_TRUTH_RECORD_H
#define PMS_HOTSPOT_TRUTH_RECORD_H
#include "pmuscope/target.h"

typedef struct pms__truth_job {
    pms_child child;    /* valgrind; pid -1 once reaped */
    const char *dir;    /* the truth directory (kept by the caller until finish) */
    char *const *argv;  /* the command (likewise) */
} pms__truth_job;

/* Creates dir and starts valgrind (callgrind, following children) on argv, set up as
 * setup says (may be NULL); with branches, callgrind records them (--collect-jumps=yes),
 * which give the basic blocks, else only the counts. */
int pms__truth_record_start(pms__truth_job *job, const char *dir, char *const argv[], int branches,
                            const pms_child_setup *setup);
/* Waits for valgrind (its exit status must be 0) and writes dir/objects and dir/run. A
 * non-zero *interrupted (may be NULL) during the wait kills valgrind (PMS_EIO). */
int pms__truth_record_finish(pms__truth_job *job, volatile int *interrupted);
/* Kills and reaps a valgrind still running (a sweep that failed meanwhile). */
void pms__truth_record_abort(pms__truth_job *job);

#endif
