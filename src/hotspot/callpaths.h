/* Internal: the call paths of a table's rows (perf report -g folded): each distinct chain
 * of function names, leaf first, under the row of its sampled IP, with its samples. */
#ifndef PMS_HOTSPOT_CALLPATHS_H
#define PMS_HOTSPOT_CALLPATHS_H

#include "hotspot/chains.h"
#include "pmuscope/profile.h"
#include "util/keymap.h"
#include "util/strtab.h"

typedef struct pms__paths {
    pms_strtab names;  /* the folded paths, by content */
    pms_keymap index;  /* (row, path's string index) -> index in items */
    pms_profile_path *items;
    size_t n, cap;
    char *buf;         /* the path being folded */
    size_t len, buf_cap;
} pms__paths;

void pms__paths_init(pms__paths *ps);
void pms__paths_free(pms__paths *ps);
/* Adds `samples` samples of `period` whose leaf is in row `row` and whose chain of process
 * pid at time walks to walk[0..n) (leaf first, as pms__chain_walk gives it). */
int pms__paths_add(pms__paths *ps, pms_symbols *symbols, size_t row, uint32_t pid, uint64_t time,
                   const pms__chain_ip *walk, size_t n, uint64_t samples, uint64_t period);
/* Hands the paths over (*out, *n; the caller frees them with pms_profile_paths_free) with
 * rows renumbered by `row_at` (old index -> new), shares of `total`, sorted by row, then
 * share. The set is left empty. */
int pms__paths_take(pms__paths *ps, const size_t *row_at, pms_profile_weight weight, double total,
                    pms_profile_path **out, size_t *n);
#endif
