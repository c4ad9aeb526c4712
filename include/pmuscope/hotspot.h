/* pmuscope: how well sampled hotspots match the real ones (seed 002, Wu & Mencer).
 *
 * S = {(IP_i, c_i)}: the sampled IP histogram, m distinct IPs, NS = sum c_i samples.
 * R = {(IP_i, r_i)}: the exact execution count of the instruction at each sampled IP.
 * B: the execution counts of all basic blocks of the run; bc(IP_i) is the count of
 * the block that IP_i falls in. NI: all instructions executed.
 *
 *   NRMSE_SR = sqrt(sum c_i/NS (c_i/NS - r_i/NI)^2) / (max - min of {c_i/NS} u {r_i/NI})
 *   SC       = sum r_i / NI
 *   OD       = sqrt(sum c_i/NS (SOLevel(IP_i) - ROLevel(IP_i))^2) / m
 *
 * Order levels: equal counts share a level; level 1 is the largest count, level k the
 * k-th largest distinct count. SOLevel ranks c_i among the sampled counts, ROLevel
 * ranks bc(IP_i) among the counts of ALL basic blocks of B.
 *
 * Extras: top-N precision and recall (the N most sampled IPs against the N most
 * executed instructions; IPs tied with the N-th count are included in each set) and
 * Kendall's tau-b between c_i and r_i. */
#ifndef PMUSCOPE_HOTSPOT_H
#define PMUSCOPE_HOTSPOT_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One sampled IP. */
typedef struct pms_hotspot_ip {
    uint64_t sampled;     /* c_i */
    uint64_t executed;    /* r_i: exact count of the instruction at IP_i */
    uint64_t block_count; /* bc of the basic block that IP_i falls in */
} pms_hotspot_ip;

typedef struct pms_hotspot_measures {
    size_t m;             /* distinct sampled IPs */
    uint64_t ns;          /* samples */
    uint64_t ni;          /* instructions executed */
    double nrmse_sr;
    double sc;
    double od;
    double kendall_tau;   /* tau-b of (c_i, r_i); NaN when m < 2 or one side is constant */
} pms_hotspot_measures;

/* Computes NRMSE_SR, SC, OD and Kendall's tau-b. block_counts holds the execution
 * count of every basic block of the run (any order, repeats allowed, nblocks >= 1);
 * every ips[i].block_count must be one of them. Fails (PMS_EINVAL, with the reason)
 * on m == 0, ni == 0, a zero sampled count, or a block count not in block_counts. */
int pms_hotspot_measure(const pms_hotspot_ip *ips, size_t m, uint64_t ni, const uint64_t *block_counts,
                        size_t nblocks, pms_hotspot_measures *out);

/* Order levels as the paper defines them: levels[i] = 1 + the number of distinct
 * values in counts[] larger than counts[i]. */
int pms_hotspot_order_levels(const uint64_t *counts, size_t n, size_t *levels);

/* Kendall's tau-b of two paired sequences (ties handled); NaN if undefined. */
double pms_kendall_tau_b(const uint64_t *x, const uint64_t *y, size_t n);

/* Top-N precision and recall. sampled[i] and executed[i] describe the same key i
 * (an instruction; 0 where it was never sampled); the sampled top set is the keys
 * whose sampled count is >= the N-th largest positive sampled count, the true top set
 * likewise on executed. precision = |both| / |sampled top|, recall = |both| / |true top|. */
int pms_hotspot_top_n(const uint64_t *sampled, const uint64_t *executed, size_t n, size_t top,
                      double *precision, double *recall);

#ifdef __cplusplus
}
#endif
#endif
