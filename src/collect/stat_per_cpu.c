/* perf stat -A: every CPU's value of every event, each event's CPUs together, as perf
 * prints them. */
#include "pmuscope/stat.h"
#include "util/error.h"

#include <stdlib.h>

int pms_stat_values_per_cpu(pms_stat_value **out, size_t *nout, pms_counter *c, const pms_event *events, size_t n)
{
    *out = NULL;
    *nout = 0;
    size_t nu = pms_counter_units(c), total = nu * n;
    pms_count *units = calloc(total ? total : 1, sizeof *units);
    pms_stat_value *v = calloc(total ? total : 1, sizeof *v);
    int rc = units && v ? pms_counter_read_units(c, units) : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; rc == PMS_OK && i < n; i++)
        for (size_t u = 0; u < nu; u++) {
            pms_stat_value *x = &v[i * nu + u];
            pms_stat_value_set(x, &events[i], &units[u * n + i]);
            x->per_cpu = true;
            x->cpu = pms_counter_unit_cpu(c, u);
        }
    free(units);
    if (rc != PMS_OK) {
        free(v);
        return rc;
    }
    *out = v;
    *nout = total;
    return PMS_OK;
}
