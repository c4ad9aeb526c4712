/* What an ideal random sampler gives against a truth: NS samples, each at an executed
 * instruction drawn with probability r_i / sum r (what a period in instructions does on
 * average, with no skid and no bias), measured as a recording is; the mean and the central
 * 95% of the measures over seeded draws. Few samples against many instructions are drawn
 * one by one (a binary search in the cumulative counts); many, as one multinomial draw
 * over all instructions (GSL), whichever costs less. */
#include "hotspot/order_level.h"
#include "hotspot/truth_blocks.h"
#include "pmuscope/hotspot.h"
#include "util/error.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_DRAWS 200

/* The truth's executed instructions as the draws need them. */
typedef struct population {
    size_t n;
    uint64_t *count;      /* r_i */
    uint64_t *block;      /* bc_i */
    size_t *site;         /* where a sample of instruction i lands (i, or its block's start) */
    uint64_t *cumulative; /* r_0 + ... + r_i */
    double *p;            /* r_i, for the multinomial */
    pms_level_table ro;   /* the ROLevels */
} population;

static void population_free(population *pop)
{
    free(pop->count);
    free(pop->block);
    free(pop->site);
    free(pop->cumulative);
    free(pop->p);
    pms__level_table_free(&pop->ro);
}

static int population_make(population *pop, const pms_hotspot_truth *t, int at_block_start)
{
    memset(pop, 0, sizeof *pop);
    size_t n = pms_hotspot_truth_ninstructions(t), nb;
    const uint64_t *blocks = pms_hotspot_truth_block_counts(t, &nb);
    pop->n = n;
    pop->count = malloc((n + 1) * sizeof *pop->count);
    pop->block = malloc((n + 1) * sizeof *pop->block);
    pop->site = malloc((n + 1) * sizeof *pop->site);
    pop->cumulative = malloc((n + 1) * sizeof *pop->cumulative);
    pop->p = malloc((n + 1) * sizeof *pop->p);
    if (!pop->count || !pop->block || !pop->site || !pop->cumulative || !pop->p)
        return pms__fail(PMS_ENOMEM, "ideal sampler: out of memory for %zu instructions", n);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        size_t object;
        uint64_t offset;
        pms_hotspot_fact f;
        pms_hotspot_truth_instruction(t, i, &object, &offset, &pop->count[i]);
        pms_hotspot_truth_lookup(t, object, offset, &f);
        pop->block[i] = f.block_count;
        pop->site[i] = at_block_start ? pms__truth_block_start(t, i) : i;
        sum += pop->count[i];
        pop->cumulative[i] = sum;
        pop->p[i] = (double)pop->count[i];
    }
    if (!n || !sum)
        return pms__fail(PMS_EINVAL, "ideal sampler: the truth has no executed instruction");
    return pms__level_table_build(&pop->ro, blocks, nb);
}

/* The instruction of the x-th execution (0 <= x < sum r). */
static size_t instruction_at(const population *pop, uint64_t x)
{
    size_t lo = 0, hi = pop->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pop->cumulative[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* One draw of ns samples into hits[] (the sites hit listed in sampled[0..*m)). */
static void draw(const population *pop, gsl_rng *rng, uint64_t ns, int by_search, uint64_t *hits, unsigned *multi,
                 size_t *sampled, size_t *m)
{
    *m = 0;
    uint64_t total = pop->cumulative[pop->n - 1];
    if (by_search) {
        for (uint64_t k = 0; k < ns; k++) {
            /* uniform in [0, total): two 32-bit draws, then the remainder (a bias below 2^-30 for
             * totals under 2^34, far under the draws' own noise) */
            uint64_t x = ((uint64_t)gsl_rng_get(rng) << 32 | gsl_rng_get(rng)) % total;
            size_t i = pop->site[instruction_at(pop, x)];
            if (hits[i]++ == 0) sampled[(*m)++] = i;
        }
        return;
    }
    gsl_ran_multinomial(rng, pop->n, (unsigned)ns, pop->p, multi);
    for (size_t i = 0; i < pop->n; i++) {
        if (!multi[i]) continue;
        size_t s = pop->site[i];
        if (hits[s] == 0) sampled[(*m)++] = s;
        hits[s] += multi[i];
    }
}

static void spread_of(double *v, size_t n, pms_hotspot_spread *out)
{
    if (!n) {
        *out = (pms_hotspot_spread){NAN, NAN, NAN};
        return;
    }
    gsl_sort(v, 1, n);
    out->mean = gsl_stats_mean(v, 1, n);
    out->low = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.025);
    out->high = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.975);
}

int pms_hotspot_ideal_sampler(pms_hotspot_ideal *out, const pms_hotspot_truth *t, uint64_t ns,
                              const pms_hotspot_ideal_config *cfg)
{
    size_t draws = cfg && cfg->draws ? cfg->draws : DEFAULT_DRAWS;
    *out = (pms_hotspot_ideal){.ns = ns, .draws = draws};
    if (ns == 0 || ns > UINT_MAX)
        return pms__fail(PMS_EINVAL, "ideal sampler: %llu samples: expected 1 to %u", (unsigned long long)ns, UINT_MAX);
    population pop;
    int rc = population_make(&pop, t, cfg && cfg->at_block_start);
    size_t cap = ns < pop.n ? (size_t)ns : pop.n;
    uint64_t *hits = calloc(pop.n + 1, sizeof *hits);
    unsigned *multi = malloc((pop.n + 1) * sizeof *multi);
    size_t *sampled = malloc((cap + 1) * sizeof *sampled);
    pms_hotspot_ip *ips = malloc((cap + 1) * sizeof *ips);
    double *v = malloc(4 * draws * sizeof *v);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (rc == PMS_OK && (!hits || !multi || !sampled || !ips || !v || !rng))
        rc = pms__fail(PMS_ENOMEM, "ideal sampler: out of memory");
    if (rc == PMS_OK) {
        gsl_rng_set(rng, (unsigned long)(cfg ? cfg->seed : 0));
        /* one by one: ns binary searches; multinomial: a binomial per instruction */
        int by_search = (double)ns * log2((double)pop.n + 1) < 4.0 * (double)pop.n;
        size_t ntau = 0;
        double *nrmse = v, *sc = v + draws, *od = v + 2 * draws, *tau = v + 3 * draws;
        for (size_t d = 0; d < draws && rc == PMS_OK; d++) {
            size_t m;
            draw(&pop, rng, ns, by_search, hits, multi, sampled, &m);
            for (size_t k = 0; k < m; k++) {
                size_t i = sampled[k];
                ips[k] = (pms_hotspot_ip){hits[i], pop.count[i], pop.block[i]};
                hits[i] = 0;
            }
            pms_hotspot_measures r;
            rc = pms__hotspot_measure_levels(ips, m, pms_hotspot_truth_instructions(t), &pop.ro, &r);
            nrmse[d] = r.nrmse_sr;
            sc[d] = r.sc;
            od[d] = r.od;
            if (isfinite(r.kendall_tau)) tau[ntau++] = r.kendall_tau;
        }
        if (rc == PMS_OK) {
            spread_of(nrmse, draws, &out->nrmse_sr);
            spread_of(sc, draws, &out->sc);
            spread_of(od, draws, &out->od);
            spread_of(tau, ntau, &out->kendall_tau);
        }
    }
    gsl_rng_free(rng);
    free(hits);
    free(multi);
    free(sampled);
    free(ips);
    free(v);
    population_free(&pop);
    return rc;
}
