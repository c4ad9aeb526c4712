/* Internal: what a truth's blocks are. With callgrind's branches (--collect-jumps=yes) they
 * are the basic blocks; without, the runs of executed instructions of equal count, which
 * have the same distinct counts (every instruction of a basic block runs as often as it),
 * so the same order levels and measures. */
#ifndef PMS_HOTSPOT_TRUTH_BLOCKS_H
#define PMS_HOTSPOT_TRUTH_BLOCKS_H
#include "pmuscope/hotspot.h"

int pms__truth_has_branches(const pms_hotspot_truth *t);
/* The executed instruction (an index as pms_hotspot_truth_instruction's) where the block of
 * instruction i starts. */
size_t pms__truth_block_start(const pms_hotspot_truth *t, size_t i);

#endif
