/* Seed 002's measures against examples computed by hand (and Kendall's tau by R). */
#include "pmuscope/hotspot.h"
#include "test_support.h"
#include <math.h>
#include <string.h>
#include "pmuscope/error.h"

/* NS = 10 samples over 3 IPs, NI = 200 instructions, 5 basic blocks.
 *   c = 4, 3, 3   -> c/NS = .4 .3 .3     SOLevel 1 2 2 (the two 3s tie)
 *   r = 50, 30, 20 -> r/NI = .25 .15 .10
 *   bc = 50, 30, 20 among blocks {50, 30, 30, 20, 10}: ROLevel 1 2 3
 * NRMSE_SR = sqrt(.4*.15^2 + .3*.15^2 + .3*.2^2) / (.4 - .10) = sqrt(.02775)/.3
 * SC = 100/200; OD = sqrt(.3 * (2-3)^2) / 3. */
static const pms_hotspot_ip example[] = {{4, 50, 50}, {3, 30, 30}, {3, 20, 20}};
static const uint64_t example_blocks[] = {30, 50, 10, 30, 20};

static void test_example_by_hand(void **state)
{
    (void)state;
    pms_hotspot_measures m;
    assert_int_equal(pms_hotspot_measure(example, 3, 200, example_blocks, 5, &m), 0);
    assert_int_equal(m.m, 3);
    assert_int_equal(m.ns, 10);
    assert_close(m.nrmse_sr, 0.555277708298589, 1e-12);
    assert_close(m.sc, 0.5, 1e-12);
    assert_close(m.od, 0.182574185835055, 1e-12);
    assert_close(m.kendall_tau, 0.816496580927726, 1e-12); /* R: cor(c(4,3,3), c(50,30,20), method="kendall") */
}

/* A perfect sample: fractions equal, levels equal -> NRMSE 0, OD 0, SC = covered share. */
static void test_perfect_sample(void **state)
{
    (void)state;
    const pms_hotspot_ip ips[] = {{6, 60, 60}, {3, 30, 30}, {1, 10, 10}};
    const uint64_t blocks[] = {60, 30, 10};
    pms_hotspot_measures m;
    assert_int_equal(pms_hotspot_measure(ips, 3, 100, blocks, 3, &m), 0);
    assert_close(m.nrmse_sr, 0.0, 1e-12);
    assert_close(m.od, 0.0, 1e-12);
    assert_close(m.sc, 1.0, 1e-12);
    assert_close(m.kendall_tau, 1.0, 1e-12);
}

/* ROLevel ranks among all blocks, not among sampled ones: a single sample in the
 * third hottest block is 2 levels off: OD = sqrt(1 * 2^2) / 1 = 2. */
static void test_rolevel_counts_unsampled_blocks(void **state)
{
    (void)state;
    const pms_hotspot_ip ips[] = {{5, 7, 7}};
    const uint64_t blocks[] = {9, 8, 8, 7, 1};
    pms_hotspot_measures m;
    assert_int_equal(pms_hotspot_measure(ips, 1, 40, blocks, 5, &m), 0);
    assert_close(m.od, 2.0, 1e-12);
    /* one IP: s = 1, r = 7/40; sqrt(1 * (1 - .175)^2) / (1 - .175) = 1 */
    assert_close(m.nrmse_sr, 1.0, 1e-12);
    assert_true(isnan(m.kendall_tau));
}

/* OD beside the paper's: over the covered IPs alone. Example plus 2 samples at an IP
 * valgrind never ran (r = 0, block count 0, the last of the 5 distinct block counts):
 *   all (NS 12): SOLevel 1 2 2 3, ROLevel 1 2 3 5:
 *     OD = sqrt(3/12 * 1^2 + 2/12 * 2^2) / 4 = sqrt(11/12) / 4
 *   covered (NS 10): the example's OD, sqrt(.3) / 3; m_covered 3, 2 samples with no truth. */
static void test_od_over_covered_ips(void **state)
{
    (void)state;
    const pms_hotspot_ip ips[] = {{4, 50, 50}, {3, 30, 30}, {3, 20, 20}, {2, 0, 0}};
    const uint64_t blocks[] = {30, 50, 10, 30, 20, 0};
    pms_hotspot_measures m;
    assert_int_equal(pms_hotspot_measure(ips, 4, 200, blocks, 6, &m), 0);
    assert_close(m.od, sqrt(11.0 / 12) / 4, 1e-12);
    assert_close(m.od_covered, sqrt(0.3) / 3, 1e-12);
    assert_int_equal(m.m_covered, 3);
    assert_int_equal(m.ns_uncovered, 2);
}

static void test_order_levels_share_ties(void **state)
{
    (void)state;
    const uint64_t counts[] = {5, 7, 5, 1, 7};
    size_t levels[5];
    assert_int_equal(pms_hotspot_order_levels(counts, 5, levels), 0);
    const size_t want[] = {2, 1, 2, 3, 1};
    for (int i = 0; i < 5; i++)
        assert_int_equal(levels[i], want[i]);
}

static void test_kendall_matches_r_with_ties(void **state)
{
    (void)state;
    const uint64_t x[] = {5, 3, 3, 8, 1, 1, 1, 9, 2, 5, 7, 7};
    const uint64_t y[] = {10, 4, 6, 8, 1, 2, 1, 12, 2, 9, 7, 3};
    assert_close(pms_kendall_tau_b(x, y, 12), 0.693909516195495, 1e-12); /* R cor(x, y, method="kendall") */
    const uint64_t c[] = {2, 2, 2};
    assert_true(isnan(pms_kendall_tau_b(c, y, 3)));
}

/* sampled {4,3,3,0,0}, executed {50,30,20,60,10}, N = 2: sampled top = keys 0,1,2 (the
 * 3s tie with the 2nd), true top = keys 3,0; both = key 0 -> precision 1/3, recall 1/2. */
static void test_top_n(void **state)
{
    (void)state;
    const uint64_t s[] = {4, 3, 3, 0, 0}, e[] = {50, 30, 20, 60, 10};
    double p, r;
    assert_int_equal(pms_hotspot_top_n(s, e, 5, 2, &p, &r), 0);
    assert_close(p, 1.0 / 3, 1e-12);
    assert_close(r, 0.5, 1e-12);
    assert_int_equal(pms_hotspot_top_n(s, e, 5, 0, &p, &r), PMS_EINVAL);
}

static void test_bad_input_refused(void **state)
{
    (void)state;
    pms_hotspot_measures m;
    assert_int_equal(pms_hotspot_measure(example, 0, 200, example_blocks, 5, &m), PMS_EINVAL);
    assert_int_equal(pms_hotspot_measure(example, 3, 0, example_blocks, 5, &m), PMS_EINVAL);
    const pms_hotspot_ip stray[] = {{1, 5, 5}};
    assert_int_equal(pms_hotspot_measure(stray, 1, 10, example_blocks, 5, &m), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "count 5"));
    const pms_hotspot_ip zero[] = {{0, 5, 50}};
    assert_int_equal(pms_hotspot_measure(zero, 1, 10, example_blocks, 5, &m), PMS_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_by_hand),
        cmocka_unit_test(test_perfect_sample),
        cmocka_unit_test(test_od_over_covered_ips),
        cmocka_unit_test(test_rolevel_counts_unsampled_blocks),
        cmocka_unit_test(test_order_levels_share_ties),
        cmocka_unit_test(test_kendall_matches_r_with_ties),
        cmocka_unit_test(test_top_n),
        cmocka_unit_test(test_bad_input_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
