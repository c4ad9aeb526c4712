/* Phase metrics with hand-computed values, dynamic intervals, the engine's summary and
 * its determinism. */
#include "test_support.h"
#include "pmuscope/phase.h"

#include <math.h>
#include <string.h>

static void test_adjusted_rand_index(void **state)
{
    (void)state;
    const int a[] = {0, 0, 1, 1}, b[] = {7, 7, 3, 3}, c[] = {0, 1, 0, 1};
    assert_close(pms_adjusted_rand_index(a, b, 4), 1.0, 1e-12);  /* renaming does not matter */
    assert_close(pms_adjusted_rand_index(a, c, 4), -0.5, 1e-12); /* hand-computed */
    /* The example of scikit-learn's adjusted_rand_score documentation: 0.24242424... */
    const int t[] = {0, 0, 0, 1, 1, 1}, p[] = {0, 0, 1, 1, 2, 2};
    assert_close(pms_adjusted_rand_index(t, p, 6), 0.24242424242424243, 1e-12);
    assert_true(isnan(pms_adjusted_rand_index(a, b, 1)));
}

static void test_run_length_and_cov(void **state)
{
    (void)state;
    const int labels[] = {1, 1, 2, 2, 2, 1};
    assert_close(pms_mean_run_length(labels, 6), 2.0, 1e-12);
    const int l2[] = {1, 1, 2, 2};
    const double v[] = {1, 3, 10, 10};
    /* phase 1: mean 2, sd 1, CoV 0.5; phase 2: CoV 0; weighted by 2 and 2 intervals */
    assert_close(pms_intra_phase_cov(l2, v, 4), 0.25, 1e-12);
    /* whole: mean 6, sd sqrt(((25+9+16+16)/4)) */
    assert_close(pms_whole_cov(v, 4), sqrt(66.0 / 4) / 6, 1e-12);
    const double vn[] = {1, NAN, 10, 10};
    assert_close(pms_intra_phase_cov(l2, vn, 4), 0.0, 1e-12);
}

static pms_phase_engine *engine(double multiplier, unsigned maximum)
{
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    cfg.classifier.signature_size = 4;
    cfg.classifier.threshold = 10;
    cfg.classifier.transition_threshold = 1;
    cfg.dynamic.multiplier = multiplier;
    cfg.dynamic.maximum = maximum;
    cfg.predictor = PMS_PREDICT_RUN_LENGTH; /* test_summary checks its predictions in the events */
    pms_phase_engine *e;
    assert_int_equal(pms_phase_engine_create(&e, &cfg, 1000), 0);
    return e;
}

static int push(pms_phase_engine *e, char which, pms_phase_event *ev)
{
    double sig[4] = {0};
    sig[which - 'A'] = 5; /* not normalised: the engine does it */
    pms_phase_interval iv = {.metric = which == 'A' ? 1.0 : 2.0};
    assert_int_equal(pms_phase_engine_push_signature(e, sig, &iv, ev), 0);
    return ev->phase;
}

static void test_dynamic_intervals(void **state)
{
    (void)state;
    pms_phase_engine *e = engine(2, 8);
    pms_phase_event ev;
    const char *seq = "AAAAABBAB";
    const unsigned expect[] = {1, 2, 4, 8, 8, 1, 2, 8, 2};
    for (size_t i = 0; seq[i]; i++) {
        push(e, seq[i], &ev);
        assert_int_equal(ev.next_multiple, expect[i]);
        assert_int_equal(ev.next_size, 1000 * expect[i]);
    }
    pms_phase_engine_destroy(e);
}

static void test_summary(void **state)
{
    (void)state;
    pms_phase_engine *e = engine(1, 1);
    pms_phase_event ev;
    const char *seq = "AAABAAAB";
    for (size_t i = 0; seq[i]; i++) push(e, seq[i], &ev);
    pms_phase_summary s;
    pms_phase_engine_summary(e, &s);
    assert_int_equal(s.intervals, 8);
    assert_int_equal(s.phases, 2);
    assert_close(s.transition_share, 0.0, 1e-12);
    assert_close(s.mean_run_length, 2.0, 1e-12);
    /* last value misses the 3 changes of 7 predictions and never predicts a change */
    assert_close(s.accuracy[PMS_PREDICT_LAST], 4.0 / 7, 1e-12);
    assert_close(s.false_change_rate[PMS_PREDICT_LAST], 0.0, 1e-12);
    /* predicted metric = mean so far of the predicted phase (A 1, B 2): off by 1 at each
     * of the 3 changes */
    assert_close(s.metric_error[PMS_PREDICT_LAST], 3.0 / 7, 1e-12);
    size_t n;
    const int *labels = pms_phase_engine_labels(e, &n);
    assert_int_equal(n, 8);
    assert_int_equal(labels[3], 2);
    const int *pred = pms_phase_engine_predictions(e, PMS_PREDICT_LAST, &n);
    assert_int_equal(pred[0], -1);
    assert_int_equal(pred[4], 2);
    /* metric 1 for A, 2 for B: phases are homogeneous */
    assert_close(s.intra_phase_cov, 0.0, 1e-12);
    assert_close(s.whole_cov, sqrt(1.5 / 8) / 1.25, 1e-12);
    /* Run length has seen (B,1) -> A once: an entry seen once has confidence 1/3, below the
     * default least confidence of 0.5, so after the last B it falls back to last value
     * (with the old default of 0.3, which every entry passes, it used the entry). */
    assert_int_equal(ev.phase, 2);
    assert_int_equal(ev.prediction.phase, 2);
    assert_int_equal(ev.prediction.from_table, 0);
    /* A ran 3 intervals last time: one interval into A again, 2 are expected to follow. */
    push(e, 'A', &ev);
    assert_close(ev.intervals_to_change, 2.0, 1e-12);
    assert_close(ev.time_to_change, 2000.0, 1e-12);
    push(e, 'A', &ev);
    push(e, 'A', &ev);
    assert_true(isnan(ev.intervals_to_change)); /* longer than ever: unknown */
    pms_phase_engine_destroy(e);
}

/* A long pseudo-random interval stream: two engines must agree exactly. */
static void test_determinism(void **state)
{
    (void)state;
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    cfg.dynamic.multiplier = 2;
    pms_phase_engine *e[2];
    for (int k = 0; k < 2; k++) assert_int_equal(pms_phase_engine_create(&e[k], &cfg, 100), 0);
    uint64_t x = 12345;
    uint64_t ips[512];
    for (int i = 0; i < 500; i++) {
        int phase = (i / 7) % 3;
        for (int j = 0; j < 512; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            ips[j] = 0x400000 + (uint64_t)phase * 0x1000 + (x % 8) * 24; /* 8 hot addresses per phase */
        }
        pms_phase_interval iv = {.addresses = ips, .n = 512, .metric = phase};
        pms_phase_event ev[2];
        double sig[2][PMS_PHASE_MAX_SIGNATURE];
        for (int k = 0; k < 2; k++) {
            assert_int_equal(pms_phase_engine_push(e[k], &iv, &ev[k]), 0);
            memcpy(sig[k], ev[k].signature, ev[k].signature_size * sizeof(double));
            ev[k].signature = NULL;
        }
        assert_memory_equal(&ev[0], &ev[1], sizeof ev[0]);
        assert_memory_equal(sig[0], sig[1], 32 * sizeof(double));
    }
    pms_phase_summary s[2];
    pms_phase_engine_summary(e[0], &s[0]);
    pms_phase_engine_summary(e[1], &s[1]);
    assert_memory_equal(&s[0], &s[1], sizeof s[0]);
    assert_int_equal(s[0].phases, 3); /* the three address ranges */
    for (int k = 0; k < 2; k++) pms_phase_engine_destroy(e[k]);
}

/* A run's last interval, cut short: it takes the nearest known phase, however far, and
 * founds none (its few samples cannot tell one); the classifier learns nothing from it. */
static void test_partial_interval(void **state)
{
    (void)state;
    pms_phase_engine *e = engine(1, 1);
    pms_phase_event ev;
    push(e, 'A', &ev);
    push(e, 'B', &ev);
    double sig[4] = {0, 0, 1, 3}; /* C and D: far from A and B (distance 2) */
    pms_phase_interval iv = {.metric = NAN, .partial = 1};
    assert_int_equal(pms_phase_engine_push_signature(e, sig, &iv, &ev), 0);
    assert_true(ev.phase == 1 || ev.phase == 2);
    assert_close(ev.distance, 2.0, 1e-12);
    pms_phase_summary s;
    pms_phase_engine_summary(e, &s);
    assert_int_equal(s.phases, 2);
    /* the same signature as a whole interval founds a phase of its own */
    double again[4] = {0, 0, 1, 3};
    iv.partial = 0;
    assert_int_equal(pms_phase_engine_push_signature(e, again, &iv, &ev), 0);
    assert_int_equal(ev.phase, 3);
    pms_phase_engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjusted_rand_index), cmocka_unit_test(test_run_length_and_cov),
        cmocka_unit_test(test_dynamic_intervals),   cmocka_unit_test(test_summary),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_partial_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
