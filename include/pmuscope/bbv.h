/* pmuscope: exact basic block vectors, as valgrind's exp-bbv and SimPoint write them.
 *
 * `valgrind --tool=exp-bbv --bb-out-file=BB --pc-out-file=PC --interval-size=N prog`
 * writes BB with one line per interval of N instructions,
 *     T:12:3400   :57:812   :913:97
 * (":block:count" pairs; count is the number of instructions executed in that block
 * during the interval), '#' comment lines at the end (one says "Interval Size N"),
 * and PC with one line per block,
 *     F:12:109a40:main
 * (block number, run-time address in hex, function name; a PIE is loaded at
 * 0x108000 under valgrind, so subtract 0x108000 to get the ELF's virtual address).
 * SimPoint's .bb files (its -loadFVFile input) use the same T: lines, with dimensions
 * numbered from 1.
 *
 * The whole file is loaded into memory; every malformed line is reported with the
 * file name and line number and what was expected. */
#ifndef PMUSCOPE_BBV_H
#define PMUSCOPE_BBV_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* Offset at which valgrind loads a position-independent executable. */
#define PMS_VALGRIND_PIE_BASE 0x108000u

typedef struct pms_bbv_entry {
    uint64_t block; /* block number (exp-bbv) or dimension (SimPoint), as in the file */
    uint64_t count; /* instructions executed in the block during the interval */
} pms_bbv_entry;

typedef struct pms_bbv_interval {
    const pms_bbv_entry *entries; /* in file order */
    size_t nentries;
    uint64_t instructions;        /* sum of the counts */
    size_t line;                  /* line number in the file (1-based; 0 if built in memory) */
} pms_bbv_interval;

/* A block from the PC file (F: line) with its total over all intervals. */
typedef struct pms_bbv_block {
    uint64_t block;        /* block number */
    uint64_t address;      /* run-time address of the block's first instruction */
    const char *function;  /* function name ("" when valgrind knew none) */
    uint64_t instructions; /* instructions executed in the block over the whole run */
} pms_bbv_block;

typedef struct pms_bbv pms_bbv;

/* Loads an exp-bbv BB file and, if pc_path is not NULL, its PC file. */
int pms_bbv_load(pms_bbv **out, const char *bb_path, const char *pc_path);
/* The same from memory; name is used in messages in place of a file name. */
int pms_bbv_parse(pms_bbv **out, const char *name, const char *text, size_t len);
int pms_bbv_parse_pc(pms_bbv *b, const char *name, const char *text, size_t len);
/* An empty set of vectors, filled with pms_bbv_add_interval (e.g. to write SimPoint input). */
int pms_bbv_create(pms_bbv **out);
int pms_bbv_add_interval(pms_bbv *b, const pms_bbv_entry *entries, size_t n);
void pms_bbv_free(pms_bbv *b);

size_t pms_bbv_nintervals(const pms_bbv *b);
/* Interval i (0-based); the pointers stay valid until pms_bbv_free. */
int pms_bbv_get_interval(const pms_bbv *b, size_t i, pms_bbv_interval *out);
/* The "Interval Size N" of the file's comment lines, 0 if absent. */
uint64_t pms_bbv_interval_size(const pms_bbv *b);

/* Blocks of the PC file, sorted by block number; 0 without a PC file. */
size_t pms_bbv_nblocks(const pms_bbv *b);
const pms_bbv_block *pms_bbv_get_block(const pms_bbv *b, size_t i);
/* The block with this number, or NULL (no PC file, or not listed in it). */
const pms_bbv_block *pms_bbv_find_block(const pms_bbv *b, uint64_t block);

/* The function that executed the most instructions in vectors first .. first+count-1
 * (by the PC file's names), or NULL without a PC file or when no block is listed. */
const char *pms_bbv_dominant_function(const pms_bbv *b, size_t first, size_t count);

/* SimPoint .bb files (src/io/simpoint.c): T: lines, dimensions from 1. Reading
 * accepts what pms_bbv_load accepts and checks that no dimension is 0. Writing
 * emits one T: line per interval, entries in the order given. */
int pms_simpoint_load(pms_bbv **out, const char *path);
int pms_simpoint_write(const pms_bbv *b, FILE *out, const char *name);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
