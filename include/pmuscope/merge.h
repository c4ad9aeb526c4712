/* pmuscope: many recordings as one hotspot table (a fleet's profiles merged).
 *
 * Files are added one at a time, perf.data and pprof profiles alike (told by their
 * content), and their rows merged by event and by (binary, function): a binary is known
 * by its build-id where the file gives one (so the same build at different paths on
 * different machines meets), else by its file name. One file is read at a time and only
 * the merged rows are kept, so memory grows with the distinct (event, binary, function)
 * rows, not with the number of files or samples. A perf.data gives one table per event
 * (shares of samples by function, as `pmuscope report`); a pprof profile its default sample
 * type, named as the event ("cpu-clock_samples" of a pmuscope profile merges with the
 * perf.data's "cpu-clock"; Go's "cpu" stays "cpu"). */
#ifndef PMUSCOPE_MERGE_H
#define PMUSCOPE_MERGE_H
#include <stddef.h>
#include <stdint.h>

#include "pmuscope/profile.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_merge pms_merge;

int pms_merge_create(pms_merge **out);
void pms_merge_destroy(pms_merge *m);
/* Reads one perf.data or pprof profile into the merge. */
int pms_merge_add_file(pms_merge *m, const char *path);
size_t pms_merge_nfiles(const pms_merge *m);
/* The merged events, in the order first seen. */
size_t pms_merge_nevents(const pms_merge *m);
const char *pms_merge_event(const pms_merge *m, size_t event);
uint64_t pms_merge_samples(const pms_merge *m, size_t event);
/* The event's merged table by function, rows by share (largest first), with Wilson
 * intervals at `confidence`; *rows is malloc'd (free it), strings belong to m. */
int pms_merge_table(const pms_merge *m, size_t event, double confidence, pms_profile_row **rows, size_t *nrows);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
