/* Top-N precision and recall of a sampled hotspot list against the exact one. */
#include "pmuscope/hotspot.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

static int cmp_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The N-th largest positive count (ties counted separately), or the smallest
 * positive one if fewer than N are positive; 0 if none is. */
static int threshold(const uint64_t *v, size_t n, size_t top, uint64_t *out)
{
    uint64_t *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        return pms__fail(PMS_ENOMEM, "top-N: out of memory for %zu counts", n);
    memcpy(s, v, n * sizeof *v);
    qsort(s, n, sizeof *s, cmp_desc);
    size_t positive = 0;
    while (positive < n && s[positive] > 0)
        positive++;
    *out = positive == 0 ? 0 : s[(top < positive ? top : positive) - 1];
    free(s);
    return PMS_OK;
}

int pms_hotspot_top_n(const uint64_t *sampled, const uint64_t *executed, size_t n, size_t top,
                      double *precision, double *recall)
{
    if (top == 0)
        return pms__fail(PMS_EINVAL, "top-N: N must be at least 1");
    uint64_t ts, te;
    int rc = threshold(sampled, n, top, &ts);
    if (rc == PMS_OK)
        rc = threshold(executed, n, top, &te);
    if (rc < 0)
        return rc;
    if (ts == 0 || te == 0)
        return pms__fail(PMS_EINVAL, "top-N: no %s count is positive", ts == 0 ? "sampled" : "executed");
    size_t ns = 0, ne = 0, both = 0;
    for (size_t i = 0; i < n; i++) {
        int in_s = sampled[i] >= ts, in_e = executed[i] >= te;
        ns += (size_t)in_s;
        ne += (size_t)in_e;
        both += (size_t)(in_s && in_e);
    }
    *precision = (double)both / (double)ns;
    *recall = (double)both / (double)ne;
    return PMS_OK;
}
