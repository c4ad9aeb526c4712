/* Internal: growing a malloc'ed array by doubling. */
#ifndef PMS_UTIL_GROW_H
#define PMS_UTIL_GROW_H
#include <stdint.h>
#include <stdlib.h>

/* Makes *array hold at least need elements of elem bytes; returns 0, or -1 when out
 * of memory (the array is left as it was). */
static inline int pms__grow(void *array, size_t *cap, size_t need, size_t elem)
{
    void **p = (void **)array;
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem) return -1;
        n *= 2;
    }
    void *q = realloc(*p, n * elem);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

#endif
