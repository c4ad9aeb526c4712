/* `pmuscope olr` and `record --olr`: which read values of a sample are x and the
 * counters, chosen from the first sample (by sample id), for files and live rings. */
#ifndef PMS_CLI_OLR_COLUMNS_H
#define PMS_CLI_OLR_COLUMNS_H
#include "pmuscope/perfdata.h"

#include <stddef.h>
#include <stdint.h>

typedef struct olr_columns {
    const pms_perfdata_attr *leader; /* the sampling event whose samples are used */
    int x_is_time;
    uint64_t x_id;
    size_t k;
    uint64_t *ids;                   /* k: the sample id of each counter */
    char **names;                    /* k */
    char *xname;
} olr_columns;

/* The event of a sample id, or NULL. */
typedef const pms_perfdata_attr *(*olr_attr_lookup)(uint64_t id, void *ctx);

/* Fixes the columns from a first sample: x is "time", an event name, or (NULL) the
 * sampling event; counters is a comma-separated list or NULL for all other values.
 * where names the source in messages. */
int olr_columns_choose(olr_columns *c, const pms_sample *smp, const char *x, const char *counters,
                       olr_attr_lookup lookup, void *ctx, const char *where);
/* A sample's x and counters: 1 when filled, 0 when it is not the leader's or lacks x. */
int olr_columns_row(const olr_columns *c, const pms_sample *smp, uint64_t *x, uint64_t *y);
void olr_columns_free(olr_columns *c);

#endif
