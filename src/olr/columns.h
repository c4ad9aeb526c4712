/* olr series from perf.data and `record --olr`: which read values of a sample are x and the
 * counters, chosen from the first sample, for files and live rings.
 *
 * A command is sampled with one group of events per CPU (as perf record and pmuscope
 * record open them), and each group counts only while the thread runs on its CPU: a
 * sample reads its own group. The thread's count is the sum over the groups of the
 * last value each one read, taken in time order: the groups' ring buffers are drained
 * one after another, so files and live records interleave them out of order and rows
 * are sorted by time first (olr_pending). */
#ifndef PMS_OLR_COLUMNS_H
#define PMS_OLR_COLUMNS_H
#include "pmuscope/perfdata.h"

#include <stddef.h>
#include <stdint.h>

/* Is NAME selected by the comma-separated list (NULL selects all)? */
int pms__olr_name_selected(const char *list, const char *name);

/* The event of a sample id, or NULL. */
typedef const pms_perfdata_attr *(*olr_attr_lookup)(uint64_t id, void *ctx);

typedef struct olr_group {
    uint64_t id;                     /* the sample id of the group's sampling event */
    uint64_t *last;                  /* 1 + k: the last values read of x and the counters */
} olr_group;

typedef struct olr_columns {
    const pms_perfdata_attr *leader; /* the sampling event whose samples are used */
    int x_is_time;
    const pms_perfdata_attr *xattr;
    size_t k;
    const pms_perfdata_attr **attrs; /* k: the event of each counter */
    char **names;                    /* k */
    char *xname;
    olr_attr_lookup lookup;
    void *ctx;
    olr_group *groups;
    size_t ngroups, groups_cap;
    uint64_t *total;                 /* 1 + k: sums over the groups */
} olr_columns;

/* Fixes the columns from a first sample: x is "time", an event name, or (NULL) the
 * sampling event; counters is a comma-separated list or NULL for all other values.
 * where names the source in messages. */
int pms__olr_columns_choose(olr_columns *c, const pms_sample *smp, const char *x, const char *counters,
                       olr_attr_lookup lookup, void *ctx, const char *where);
/* A sample's raw values: x and the counters of its own group (1 + k; x is the time when
 * x is time). 1 when filled, 0 when it is not the leader's or lacks a column. */
int pms__olr_columns_extract(const olr_columns *c, const pms_sample *smp, uint64_t *vals);
/* In time order: the thread's x and counters, summed over the groups. 0 or PMS_ENOMEM. */
int pms__olr_columns_accumulate(olr_columns *c, uint64_t group, const uint64_t *vals, uint64_t *x, uint64_t *y);
void pms__olr_columns_free(olr_columns *c);

/* Samples waiting to be put in time order: records of (time, sequence, group, 1 + k values). */
typedef struct olr_pending {
    uint64_t *rec;
    size_t n, cap, stride;
    uint64_t seq;
} olr_pending;

void pms__olr_pending_init(olr_pending *p, size_t k);
int pms__olr_pending_add(olr_pending *p, uint64_t time, uint64_t group, const uint64_t *vals);
/* Hands the records with time <= limit to fn in time order (ties in arrival order) and
 * keeps the rest. fn gets the group and the 1 + k values; its non-zero return stops. */
typedef int (*olr_pending_fn)(uint64_t group, const uint64_t *vals, void *ctx);
int pms__olr_pending_flush(olr_pending *p, uint64_t limit, olr_pending_fn fn, void *ctx);
void pms__olr_pending_free(olr_pending *p);

#endif
