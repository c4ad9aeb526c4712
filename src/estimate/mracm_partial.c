/* MRACM's partial-correlation criterion: the counter that explains most of the
 * cycles left unexplained by the instructions counter, as the partial correlation
 * r(cycles, E | inst) = (r_ce - r_ci r_ei) / sqrt((1 - r_ci^2)(1 - r_ei^2)). */
#include "estimate/mracm_internal.h"
#include "pmuscope/stats.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

size_t pms__mracm_instructions(const char *const *names, size_t n, const char *want)
{
    static const char *const usual[] = {"instructions", "inst_retired", "inst"};
    if (!names) return PMS_MRACM_NONE;
    for (size_t k = 0; k < (want ? 1 : sizeof usual / sizeof *usual); k++)
        for (size_t i = 0; i < n; i++)
            if (strcasecmp(names[i], want ? want : usual[k]) == 0) return i;
    return PMS_MRACM_NONE;
}

int pms__mracm_partial(const double *cycles, const double *events, size_t m, size_t n, size_t inst,
                       double *partial)
{
    double *x = malloc(m * 3 * sizeof *x), r[9];
    if (!x) return pms__fail(PMS_ENOMEM, "MRACM: out of memory");
    for (size_t i = 0; i < n; i++) {
        partial[i] = NAN;
        if (i == inst) continue;
        for (size_t j = 0; j < m; j++)
            x[3 * j] = cycles[j], x[3 * j + 1] = events[j * n + i], x[3 * j + 2] = events[j * n + inst];
        /* a constant column has no correlation: left NaN */
        if (pms_correlation(x, m, 3, NULL, r) != PMS_OK) continue;
        double rce = r[1], rci = r[2], rei = r[5];
        double den = sqrt((1 - rci * rci) * (1 - rei * rei));
        partial[i] = den > 0 ? (rce - rci * rei) / den : NAN;
    }
    free(x);
    return PMS_OK;
}

size_t pms__mracm_partial_best(const double *partial, size_t n)
{
    size_t best = PMS_MRACM_NONE;
    for (size_t i = 0; i < n; i++)
        if (!isnan(partial[i]) && (best == PMS_MRACM_NONE || fabs(partial[i]) > fabs(partial[best]))) best = i;
    return best;
}
