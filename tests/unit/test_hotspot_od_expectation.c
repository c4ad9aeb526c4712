/* The paper's claim on the order deviation (Wu & Mencer, "Evaluating Sampling Based
 * Hotspot Detection", section 4): OD rises as the sampling period grows, i.e. as the
 * samples thin out. A live sweep tests it through the machine's sampling (cpu-clock here,
 * with skid and the hypervisor's cpuid traps; tests/integration/hotspot_sweep.sh); this test
 * states it deterministically: the expectation of OD at fixed sample counts NS, for an
 * ideal sampler that draws each sample at an executed instruction with probability
 * r_i / NI (what a period in instructions does on average), estimated as the mean over
 * R seeded draws: the same numbers on every run, whatever the machine's load.
 * ctest-labels: no-sanitize
 * (valgrind cannot run the ASan-built workloads of the sanitizer build)
 */
#include "pmuscope/error.h"
#include "pmuscope/hotspot.h"
#include "splitmix.h"
#include "test_support.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLICATES 200

typedef struct truth_run {
    char dir[PATH_MAX];
    pms_hotspot_truth *truth;
    size_t n;            /* executed instructions */
    uint64_t *cumulative; /* cumulative[i]: executions of instructions 0..i */
    pms_hotspot_sample *at; /* each instruction as a sample site */
    size_t *block_site;  /* the first instruction of instruction i's block */
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
    tr->n = pms_hotspot_truth_ninstructions(tr->truth);
    tr->cumulative = malloc(tr->n * sizeof *tr->cumulative);
    tr->at = malloc(tr->n * sizeof *tr->at);
    tr->block_site = malloc(tr->n * sizeof *tr->block_site);
    assert_non_null(tr->block_site);
    assert_non_null(tr->cumulative);
    assert_non_null(tr->at);
    uint64_t sum = 0;
    for (size_t i = 0; i < tr->n; i++) {
        size_t o;
        uint64_t off, count;
        pms_hotspot_truth_instruction(tr->truth, i, &o, &off, &count);
        sum += count;
        tr->cumulative[i] = sum;
        tr->at[i] = (pms_hotspot_sample){pms_hotspot_truth_object_path(tr->truth, o), NULL, off, 0};
        pms_hotspot_fact f;
        pms_hotspot_truth_lookup(tr->truth, o, off, &f);
        size_t j = i; /* the block's first instruction: at or before i, in the same object */
        while (j > 0 && tr->at[j].offset != f.block_offset)
            j--;
        tr->block_site[i] = j;
    }
}

static void release(truth_run *tr)
{
    pms_hotspot_truth_free(tr->truth);
    free(tr->cumulative);
    free(tr->at);
    free(tr->block_site);
    pms_test_system("rm -rf '%s'", tr->dir);
}

/* The instruction of the x-th execution (0 <= x < NI). */
static size_t instruction_at(const truth_run *tr, uint64_t x)
{
    size_t lo = 0, hi = tr->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tr->cumulative[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Mean OD over REPLICATES draws of ns samples each; by_block: a sample lands on the first
 * instruction of the block it drew. */
static double mean_od(const truth_run *tr, size_t ns, int by_block)
{
    uint64_t ni = tr->cumulative[tr->n - 1];
    uint64_t *hits = calloc(tr->n, sizeof *hits);
    size_t *sampled = malloc(ns * sizeof *sampled);
    pms_hotspot_sample *s = malloc(ns * sizeof *s);
    assert_non_null(hits);
    assert_non_null(sampled);
    assert_non_null(s);
    double sum = 0;
    for (int r = 0; r < REPLICATES; r++) {
        size_t m = 0;
        for (size_t k = 0; k < ns; k++) {
            size_t i = instruction_at(tr, below(ni));
            i = by_block ? tr->block_site[i] : i;
            if (hits[i]++ == 0)
                sampled[m++] = i;
        }
        for (size_t k = 0; k < m; k++) {
            s[k] = tr->at[sampled[k]];
            s[k].count = hits[sampled[k]];
            hits[sampled[k]] = 0;
        }
        pms_hotspot_result res;
        assert_int_equal(pms_hotspot_evaluate(tr->truth, s, m, 10, &res), 0);
        assert_int_equal(res.unexecuted_samples, 0);
        sum += res.measures.od;
        pms_hotspot_result_free(&res);
    }
    free(hits);
    free(sampled);
    free(s);
    return sum / REPLICATES;
}

#define NPOINTS 5
static const size_t sample_counts[NPOINTS] = {4000, 1000, 250, 60, 15};

/* Mean OD at each sample count, samples at instructions (instr) and at block starts (block). */
static void od_by_samples(const char *name, char *const argv[], double instr[NPOINTS], double block[NPOINTS])
{
    truth_run tr;
    record(&tr, argv);
    for (int k = 0; k < NPOINTS; k++) {
        rng_state = 0x9e3779b97f4a7c15ULL + (uint64_t)k; /* each point its own seeded series */
        instr[k] = mean_od(&tr, sample_counts[k], 0);
        block[k] = mean_od(&tr, sample_counts[k], 1);
        print_message("%s: NS %4zu  mean OD %.5f (samples at instructions)  %.5f (at block starts)\n", name,
                      sample_counts[k], instr[k], block[k]);
    }
    release(&tr);
}

static void test_od_expectation_default(void **state)
{
    (void)state;
    const char *w = getenv("PMS_WORKLOADS");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/hotspots", w ? w : "workloads");
    char *argv[] = {path, NULL};
    double instr[NPOINTS], block[NPOINTS];
    od_by_samples("hotspots", argv, instr, block);
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
    const char *w = getenv("PMS_WORKLOADS");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/hotspots", w ? w : "workloads");
    char *argv[] = {path, "--spread", NULL};
    double instr[NPOINTS], block[NPOINTS];
    od_by_samples("hotspots --spread", argv, instr, block);
    /* block starts: the paper's trend at every step, from 4000 down to 15 samples */
    for (int k = 0; k + 1 < NPOINTS; k++)
        assert_true(block[k] < block[k + 1]);
    /* instructions: the spread again first (4000 to 250 samples), then the paper's rise */
    assert_true(instr[0] > instr[2] && instr[2] < instr[3] && instr[3] < instr[4]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_od_expectation_default),
        cmocka_unit_test(test_od_expectation_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
