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

/* Reads a file of T: lines and # comments (exp-bbv's BB file, SimPoint's .bb). */
int pms__bbv_read_file(pms_bbv **out, const char *path);
/* pms_bbv_parse on the head of a pipe, the vectors not kept: a pms__text_parser. */
int pms__bbv_head(const char *text, size_t len, const char *name, void *ctx);

#endif
