/* The paper's claim on the order deviation (Wu & Mencer, "Evaluating Sampling Based
 * Hotspot Detection", section 4): OD rises as the sampling period grows, i.e. as the
 * samples thin out. A live sweep tests it through the machine's sampling (cpu-clock here,
 * with skid and the hypervisor's cpuid traps; tests/integration/hotspot_sweep.sh); this test
 * states it deterministically: the expectation of OD at fixed sample counts NS, for an
 * ideal sampler that draws each sample at an executed instruction with probability
 * r_i / NI (what a period in instructions does on average), estimated as the mean over
 * R seeded draws (pms_hotspot_ideal_sampler, the baseline hotspot --sweep prints beside
 * every measure): the same numbers on every run, whatever the machine's load.
 * ctest-labels: no-sanitize
 * (valgrind cannot run the ASan-built workloads of the sanitizer build)
 */
#include "pmuscope/error.h"
#include "pmuscope/hotspot.h"
#include "test_support.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLICATES 200

typedef struct truth_run {
    char dir[PATH_MAX];
    pms_hotspot_truth *truth;
} truth_run;

static void record(truth_run *tr, char *const argv[])
{
    snprintf(tr->dir, sizeof tr->dir, "/tmp/pms-od-XXXXXX");
    assert_non_null(mkdtemp(tr->dir));
    int rc = pms_hotspot_truth_record(tr->dir, argv);
    if (rc == PMS_OK)
        rc = pms_hotspot_truth_load(&tr->truth, tr->dir);
    if (rc)
        print_message("truth: %s\n", pms_strerror());
    assert_int_equal(rc, PMS_OK);
}

static void release(truth_run *tr)
{
    pms_hotspot_truth_free(tr->truth);
    pms_test_system("rm -rf '%s'", tr->dir);
}

/* The ideal sampler's mean measures over REPLICATES seeded draws of ns samples each (tau-b
 * over the draws where it is defined); by_block: a sample lands on the first instruction
 * of the block it drew. */
static pms_hotspot_ideal ideal(const truth_run *tr, size_t ns, int by_block, uint64_t seed)
{
    pms_hotspot_ideal_config cfg = {.draws = REPLICATES, .seed = seed, .at_block_start = by_block};
    pms_hotspot_ideal out;
    int rc = pms_hotspot_ideal_sampler(&out, tr->truth, ns, &cfg);
    if (rc)
        print_message("ideal sampler: %s\n", pms_strerror());
    assert_int_equal(rc, PMS_OK);
    assert_int_equal(out.draws, REPLICATES);
    /* a range, its ends among the draws' values (a mean may lie outside it: a skewed spread) */
    assert_true(out.od.low <= out.od.high && out.sc.low <= out.sc.high && out.nrmse_sr.low <= out.nrmse_sr.high);
    assert_true(out.sc.low > 0 && out.sc.high <= 1);
    return out;
}

static double mean_od(const truth_run *tr, size_t ns, int by_block, uint64_t seed)
{
    return ideal(tr, ns, by_block, seed).od.mean;
}

#define NPOINTS 5
static const size_t sample_counts[NPOINTS] = {4000, 1000, 250, 60, 15};

/* The two runs' truths, recorded once (valgrind) for all the tests. */
static truth_run runs[2];
enum { DEFAULT_RUN, SPREAD_RUN };
static const char *const run_names[2] = {"hotspots", "hotspots --spread"};

static int record_runs(void **state)
{
    (void)state;
    const char *w = getenv("PMS_WORKLOADS");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/hotspots", w ? w : "workloads");
    char *plain[] = {path, NULL}, *spread[] = {path, "--spread", NULL};
    record(&runs[DEFAULT_RUN], plain);
    record(&runs[SPREAD_RUN], spread);
    return 0;
}

static int release_runs(void **state)
{
    (void)state;
    release(&runs[DEFAULT_RUN]);
    release(&runs[SPREAD_RUN]);
    return 0;
}

/* Mean OD at each sample count, samples at instructions (instr) and at block starts (block). */
static void od_by_samples(int run, double instr[NPOINTS], double block[NPOINTS])
{
    for (int k = 0; k < NPOINTS; k++) { /* each point its own seeded series */
        instr[k] = mean_od(&runs[run], sample_counts[k], 0, 0x9e3779b97f4a7c15ULL + (uint64_t)k);
        block[k] = mean_od(&runs[run], sample_counts[k], 1, 0x9e3779b97f4a7c15ULL + (uint64_t)k);
        print_message("%s: NS %4zu  mean OD %.5f (samples at instructions)  %.5f (at block starts)\n",
                      run_names[run], sample_counts[k], instr[k], block[k]);
    }
}

static void test_od_expectation_default(void **state)
{
    (void)state;
    double instr[NPOINTS], block[NPOINTS];
    od_by_samples(DEFAULT_RUN, instr, block);
    /* block starts: OD rises as the samples thin out from 250 down (4000 and 1000 samples,
     * where the five loop blocks are always in order, differ by the few outer blocks hit) */
    assert_true(block[2] < block[3] && block[3] < block[4]);
    assert_true(block[4] > 2 * block[0]);
    /* instructions: OD falls from 4000 to 60 samples: the many sampled IPs of one block
     * get many SOLevels against one ROLevel, and that spread shrinks with the samples */
    assert_true(instr[0] > instr[1] && instr[1] > instr[2] && instr[2] > instr[3]);
}

static void test_od_expectation_spread(void **state)
{
    (void)state;
    double instr[NPOINTS], block[NPOINTS];
    od_by_samples(SPREAD_RUN, instr, block);
    /* block starts: the paper's trend at every step, from 4000 down to 15 samples */
    for (int k = 0; k + 1 < NPOINTS; k++)
        assert_true(block[k] < block[k + 1]);
    /* instructions: the spread again first (4000 to 250 samples), then the paper's rise */
    assert_true(instr[0] > instr[2] && instr[2] < instr[3] && instr[3] < instr[4]);
}

/* The trends that tests/integration/hotspot_sweep.sh once asserted on live sweeps of the
 * default run (2000, 500 and 25 samples, the counts its periods are set for), whose means
 * over three sweeps follow the scheduler (tau once came out 0.62 at 2000 samples and
 * 0.618 at 25): here on their expectations, samples at instructions as cpu-clock places
 * them. As the samples thin out NRMSE_SR rises, SC and Kendall's tau fall at each step,
 * and OD falls from 500 to 25 samples (the spread of one block's SOLevels collapses). */
#define NSWEEP 3
static const size_t sweep_counts[NSWEEP] = {2000, 500, 25};

static void test_measures_expectation_sweep(void **state)
{
    (void)state;
    pms_hotspot_ideal e[NSWEEP];
    for (int k = 0; k < NSWEEP; k++) {
        e[k] = ideal(&runs[DEFAULT_RUN], sweep_counts[k], 0, 0x2545f4914f6cdd1dULL + (uint64_t)k);
        print_message("hotspots: NS %4zu  NRMSE_SR %.4f  SC %.4f  OD %.4f  tau-b %.4f\n", sweep_counts[k],
                      e[k].nrmse_sr.mean, e[k].sc.mean, e[k].od.mean, e[k].kendall_tau.mean);
    }
    for (int k = 0; k + 1 < NSWEEP; k++) {
        assert_true(e[k].nrmse_sr.mean < e[k + 1].nrmse_sr.mean);
        assert_true(e[k].sc.mean > e[k + 1].sc.mean);
        assert_true(e[k].kendall_tau.mean > e[k + 1].kendall_tau.mean);
    }
    assert_true(e[1].od.mean > e[2].od.mean);
}

/* SC's expectation in closed form: instruction i is sampled at least once with probability
 * 1 - (1 - p_i)^NS, p_i = r_i / sum r, and then adds r_i / NI. The draws' mean lies within
 * four standard errors of it (the standard deviation read off the 95% range, 3.92 of them). */
static void test_ideal_sc_expectation(void **state)
{
    (void)state;
    const pms_hotspot_truth *t = runs[SPREAD_RUN].truth;
    size_t n = pms_hotspot_truth_ninstructions(t);
    double sum = 0, ni = (double)pms_hotspot_truth_instructions(t);
    for (size_t i = 0; i < n; i++) {
        size_t o;
        uint64_t off, r;
        pms_hotspot_truth_instruction(t, i, &o, &off, &r);
        sum += (double)r;
    }
    for (int k = 0; k < NPOINTS; k++) {
        double expect = 0;
        for (size_t i = 0; i < n; i++) {
            size_t o;
            uint64_t off, r;
            pms_hotspot_truth_instruction(t, i, &o, &off, &r);
            expect += (double)r / ni * -expm1((double)sample_counts[k] * log1p(-(double)r / sum));
        }
        pms_hotspot_ideal id = ideal(&runs[SPREAD_RUN], sample_counts[k], 0, 7 + (uint64_t)k);
        double se = (id.sc.high - id.sc.low) / 3.92 / sqrt(REPLICATES);
        print_message("hotspots --spread: NS %4zu  SC %.5f over the draws, %.5f expected (standard error %.5f)\n",
                      sample_counts[k], id.sc.mean, expect, se);
        assert_true(fabs(id.sc.mean - expect) <= 4 * se + 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ideal_sc_expectation),
        cmocka_unit_test(test_od_expectation_default),
        cmocka_unit_test(test_od_expectation_spread),
        cmocka_unit_test(test_measures_expectation_sweep),
    };
    return cmocka_run_group_tests(tests, record_runs, release_runs);
}
