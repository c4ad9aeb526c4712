/* Internal: the in-memory layout of basic block vectors, shared by the exp-bbv and
 * SimPoint readers. */
#ifndef PMS_IO_BBV_INTERNAL_H
#define PMS_IO_BBV_INTERNAL_H
#include "pmuscope/bbv.h"

typedef struct pms_bbv_slot {
    size_t first, n;       /* entries[first .. first+n) */
    uint64_t instructions;
    size_t line;
} pms_bbv_slot;

struct pms_bbv {
    pms_bbv_entry *entries;
    size_t nentries, entries_cap;
    pms_bbv_slot *intervals;
    size_t nintervals, intervals_cap;
    pms_bbv_block *blocks;
    size_t nblocks, blocks_cap;
    char *names;           /* function names of the blocks, NUL-separated */
    size_t names_len, names_cap;
    uint64_t interval_size;
};

/* Parses BB text (T: lines and # comments) into b, appending intervals. */
int pms_bbv_parse_text(pms_bbv *b, const char *name, const char *text, size_t len);

#endif
