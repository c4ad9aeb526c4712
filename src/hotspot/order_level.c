/* Order levels (Wu & Mencer, section 3.2): equal counts share a level, level 1 is the
 * largest count. A level is found by binary search in the distinct values sorted
 * in decreasing order. */
#include "hotspot/order_level.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

static int cmp_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

int pms__level_table_build(pms_level_table *t, const uint64_t *counts, size_t n)
{
    t->values = malloc((n ? n : 1) * sizeof *t->values);
    t->n = 0;
    if (!t->values)
        return pms__fail(PMS_ENOMEM, "order levels: out of memory for %zu counts", n);
    memcpy(t->values, counts, n * sizeof *counts);
    qsort(t->values, n, sizeof *t->values, cmp_desc);
    for (size_t i = 0; i < n; i++)
        if (t->n == 0 || t->values[t->n - 1] != t->values[i])
            t->values[t->n++] = t->values[i];
    return PMS_OK;
}

size_t pms__level_of(const pms_level_table *t, uint64_t count)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->values[mid] > count)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->values[lo] == count ? lo + 1 : 0;
}

void pms__level_table_free(pms_level_table *t)
{
    free(t->values);
    t->values = NULL;
    t->n = 0;
}

int pms_hotspot_order_levels(const uint64_t *counts, size_t n, size_t *levels)
{
    pms_level_table t;
    int rc = pms__level_table_build(&t, counts, n);
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        levels[i] = pms__level_of(&t, counts[i]);
    pms__level_table_free(&t);
    return PMS_OK;
}
