/* NRMSE_SR, SC and OD exactly as Wu & Mencer's hotspot paper (section 3.2) defines them. */
#include "hotspot/order_level.h"
#include "pmuscope/hotspot.h"
#include "util/error.h"
#include <math.h>
#include <stdlib.h>

static int check_input(const pms_hotspot_ip *ips, size_t m, uint64_t ni, size_t nblocks)
{
    if (m == 0)
        return pms__fail(PMS_EINVAL, "hotspot measures: no sampled IP (m = 0)");
    if (ni == 0)
        return pms__fail(PMS_EINVAL, "hotspot measures: the number of executed instructions NI is 0");
    if (nblocks == 0)
        return pms__fail(PMS_EINVAL, "hotspot measures: no basic block counts");
    for (size_t i = 0; i < m; i++)
        if (ips[i].sampled == 0)
            return pms__fail(PMS_EINVAL, "hotspot measures: IP %zu has a sampled count of 0", i);
    return PMS_OK;
}

static double nrmse_sr(const pms_hotspot_ip *ips, size_t m, uint64_t ns, uint64_t ni)
{
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        double s = (double)ips[i].sampled / (double)ns, r = (double)ips[i].executed / (double)ni;
        sum += s * (s - r) * (s - r);
        lo = fmin(lo, fmin(s, r));
        hi = fmax(hi, fmax(s, r));
    }
    /* A single IP with equal fractions has a zero range: no error to normalise. */
    return hi > lo ? sqrt(sum) / (hi - lo) : 0.0;
}

/* OD over the IPs that count (all, or those with r_i > 0): their share of the samples
 * weighs each, and SOLevels are ranks among them; ROLevels are ranks in ro. */
static int order_deviation(const pms_hotspot_ip *ips, size_t all, int covered_only, const pms_level_table *ro,
                           double *od)
{
    uint64_t *sampled = malloc((all ? all : 1) * sizeof *sampled), ns = 0;
    if (!sampled)
        return pms__fail(PMS_ENOMEM, "order deviation: out of memory for %zu IPs", all);
    size_t m = 0;
    for (size_t i = 0; i < all; i++)
        if (!covered_only || ips[i].executed) {
            sampled[m++] = ips[i].sampled;
            ns += ips[i].sampled;
        }
    *od = NAN;
    if (m == 0) {
        free(sampled);
        return PMS_OK;
    }
    pms_level_table so;
    int rc = pms__level_table_build(&so, sampled, m);
    free(sampled);
    if (rc < 0)
        return rc;
    double sum = 0;
    for (size_t i = 0; i < all && rc == PMS_OK; i++) {
        if (covered_only && !ips[i].executed)
            continue;
        size_t rl = pms__level_of(ro, ips[i].block_count);
        if (rl == 0) {
            rc = pms__fail(PMS_EINVAL, "order deviation: IP %zu lies in a block with count %llu, which is not among "
                          "the basic block counts", i, (unsigned long long)ips[i].block_count);
            break;
        }
        double d = (double)pms__level_of(&so, ips[i].sampled) - (double)rl;
        sum += (double)ips[i].sampled / (double)ns * d * d;
    }
    pms__level_table_free(&so);
    *od = sqrt(sum) / (double)m;
    return rc;
}

int pms__hotspot_measure_levels(const pms_hotspot_ip *ips, size_t m, uint64_t ni, const pms_level_table *ro,
                                pms_hotspot_measures *out)
{
    uint64_t ns = 0, covered = 0;
    for (size_t i = 0; i < m; i++) {
        ns += ips[i].sampled;
        covered += ips[i].executed;
    }
    out->m = m;
    out->ns = ns;
    out->ni = ni;
    out->nrmse_sr = nrmse_sr(ips, m, ns, ni);
    out->sc = (double)covered / (double)ni;
    int rc = order_deviation(ips, m, 0, ro, &out->od);
    if (rc == PMS_OK)
        rc = order_deviation(ips, m, 1, ro, &out->od_covered);
    if (rc < 0)
        return rc;
    out->m_covered = 0;
    out->ns_uncovered = 0;
    for (size_t i = 0; i < m; i++) {
        out->m_covered += ips[i].executed > 0;
        out->ns_uncovered += ips[i].executed ? 0 : ips[i].sampled;
    }
    uint64_t *c = malloc(2 * m * sizeof *c);
    if (!c)
        return pms__fail(PMS_ENOMEM, "kendall tau: out of memory for %zu IPs", m);
    for (size_t i = 0; i < m; i++) {
        c[i] = ips[i].sampled;
        c[m + i] = ips[i].executed;
    }
    out->kendall_tau = pms_kendall_tau_b(c, c + m, m);
    free(c);
    return PMS_OK;
}

int pms_hotspot_measure(const pms_hotspot_ip *ips, size_t m, uint64_t ni, const uint64_t *block_counts,
                        size_t nblocks, pms_hotspot_measures *out)
{
    int rc = check_input(ips, m, ni, nblocks);
    if (rc < 0)
        return rc;
    pms_level_table ro;
    if ((rc = pms__level_table_build(&ro, block_counts, nblocks)) < 0)
        return rc;
    rc = pms__hotspot_measure_levels(ips, m, ni, &ro, out);
    pms__level_table_free(&ro);
    return rc;
}
