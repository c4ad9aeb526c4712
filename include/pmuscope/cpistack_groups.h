/* pmuscope: CPI stacks of several interval files and of groups of intervals (one stack
 * per value of a column, such as the program of each interval), and their reports: the
 * text and --brief rows, one CSV table, JSON and the SVG charts (`pmuscope cpistack`). */
#ifndef PMUSCOPE_CPISTACK_GROUPS_H
#define PMUSCOPE_CPISTACK_GROUPS_H
#include "pmuscope/cpistack.h"
#include "pmuscope/perfstat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* Reads n interval files into one table. windows (NULL, or one program-window file per
 * input) labels each interval with its program in a "program" column and merges the
 * files by program; without windows several files are merged by key within tol. */
int pms_cpistack_load(pms_table **out, char *const *files, size_t n, const char *const *windows, pms_merge_key key,
                      double tol);

typedef struct pms_cpistack_groups {
    const char *by;          /* the grouping column, or NULL: one stack of the whole table */
    char **labels;           /* n group values (the table's name without by) */
    pms_cpistack **stacks;   /* n stacks; NULL for a group that could not be fitted */
    char **why;              /* n: why that group could not be fitted (NULL for the others) */
    size_t n, nfailed;
    pms_cpistack_comparison *compare; /* n, after pms_cpistack_groups_compare (NULL before) */
} pms_cpistack_groups;

/* One stack per distinct value of column by (NULL: one of the whole table), each with the
 * options c and the condition by=value added to c->where (c->nwhere at most 16). A group
 * that cannot be fitted (too few intervals, ...) is listed with why and the others are
 * fitted; the call fails only when none can be (naming the first group's reason). */
int pms_cpistack_groups_compute(pms_cpistack_groups *out, const pms_table *t, const char *by,
                                const pms_cpistack_options *c);
void pms_cpistack_groups_free(pms_cpistack_groups *g);
/* The stack of every fitted group under the four models of pms_cpistack_compare; the
 * writers then show them (text, JSON). */
int pms_cpistack_groups_compare(pms_cpistack_groups *g, const pms_table *t, const pms_cpistack_options *c);

/* Each group's full text (with a "== by = value" heading when grouped), or with brief one
 * row per group. */
int pms_cpistack_groups_write_text(FILE *out, const pms_cpistack_groups *g, bool brief);
/* One row per group: group,n,R2,test_RMSE,base,<events>,model_CPI,observed_CPI,true_CPI,
 * multiplexed,note (empty numbers and the reason in note for a group not fitted); every
 * fitted group must have the same events (PMS_EINVAL otherwise). */
int pms_cpistack_groups_write_csv(FILE *out, const pms_cpistack_groups *g);
/* {"groups": [{"group": ..., "result": ...}, ...]}. */
int pms_cpistack_groups_write_json(FILE *out, const pms_cpistack_groups *g);
/* The bootstrap replicates of every group (pms_cpistack_write_bootstrap_replicates, what = the group). */
int pms_cpistack_groups_write_bootstrap_replicates(FILE *out, const pms_cpistack_groups *g);
/* The stacks side by side, then the per-interval charts of the first max_groups groups. */
int pms_cpistack_groups_write_svg(FILE *out, const pms_cpistack_groups *g, size_t max_groups);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
