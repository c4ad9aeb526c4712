/* Internal: the distinct counts of a list, for order-level look-ups. */
#ifndef PMS_HOTSPOT_ORDER_LEVEL_H
#define PMS_HOTSPOT_ORDER_LEVEL_H
#include "pmuscope/hotspot.h"

typedef struct pms_level_table {
    uint64_t *values; /* distinct counts, decreasing */
    size_t n;
} pms_level_table;

int pms__level_table_build(pms_level_table *t, const uint64_t *counts, size_t n);
/* The order level of count (1 = largest), or 0 if count is not in the table. */
size_t pms__level_of(const pms_level_table *t, uint64_t count);
void pms__level_table_free(pms_level_table *t);

/* pms_hotspot_measure with the ROLevels' table built once (ro: the distinct counts of
 * every basic block): the input is not checked again. */
int pms__hotspot_measure_levels(const pms_hotspot_ip *ips, size_t m, uint64_t ni, const pms_level_table *ro,
                                pms_hotspot_measures *out);

#endif
