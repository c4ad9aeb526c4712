/* Phase classifiers on hand-built signatures with known answers (Sembrant's thesis, 3.2). */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/phase.h"

#include <math.h>

static pms_classifier *make(pms_classifier_kind kind, double threshold, unsigned transition, size_t cache)
{
    pms_classifier_config cfg;
    pms_classifier_config_default(&cfg);
    cfg.kind = kind;
    cfg.signature_size = 4;
    cfg.threshold = threshold;
    cfg.transition_threshold = transition;
    cfg.cache_size = cache;
    cfg.k = 2;
    pms_classifier *c;
    assert_int_equal(pms_classifier_create(&c, &cfg), 0);
    return c;
}

static const double A[4] = {1, 0, 0, 0}, B[4] = {0, 1, 0, 0}, C[4] = {0, 0, 1, 0};
static const double A2[4] = {0.95, 0.05, 0, 0}, AB[4] = {0.5, 0.5, 0, 0};

static void test_distance_threshold(void **state)
{
    (void)state;
    pms_classifier *c = make(PMS_CLASSIFIER_DISTANCE, 10, 1, 32); /* within 0.2 */
    double d;
    assert_int_equal(pms_classifier_classify(c, A, &d), 1);
    assert_int_equal(pms_classifier_classify(c, B, &d), 2);
    assert_close(d, 2.0, 1e-12);
    assert_int_equal(pms_classifier_classify(c, A2, &d), 1);
    assert_close(d, 0.1, 1e-12);
    /* The entry now holds the mean of A and A2, {0.975, 0.025, 0, 0}: AB is 0.95 from it
     * and 1.0 from B. */
    assert_int_equal(pms_classifier_classify(c, AB, &d), 3);
    assert_close(d, 0.95, 1e-12);
    assert_int_equal(pms_classifier_nphases(c), 3);
    pms_classifier_destroy(c);

    c = make(PMS_CLASSIFIER_DISTANCE, 100, 1, 32); /* everything is one phase */
    assert_int_equal(pms_classifier_classify(c, A, &d), 1);
    assert_int_equal(pms_classifier_classify(c, B, &d), 1);
    assert_int_equal(pms_classifier_classify(c, C, &d), 1);
    pms_classifier_destroy(c);
}

static void test_transition_threshold(void **state)
{
    (void)state;
    pms_classifier *c = make(PMS_CLASSIFIER_DISTANCE, 10, 2, 32);
    double d;
    assert_int_equal(pms_classifier_classify(c, A, &d), PMS_PHASE_TRANSITION);
    assert_int_equal(pms_classifier_classify(c, A, &d), 1); /* seen twice: its own id */
    assert_int_equal(pms_classifier_classify(c, B, &d), PMS_PHASE_TRANSITION);
    assert_int_equal(pms_classifier_classify(c, A, &d), 1);
    assert_int_equal(pms_classifier_classify(c, C, &d), PMS_PHASE_TRANSITION);
    assert_int_equal(pms_classifier_classify(c, B, &d), 2);
    assert_int_equal(pms_classifier_nphases(c), 2);
    pms_classifier_destroy(c);
}

static void test_lru_eviction(void **state)
{
    (void)state;
    pms_classifier *c = make(PMS_CLASSIFIER_DISTANCE, 10, 1, 2);
    double d;
    assert_int_equal(pms_classifier_classify(c, A, &d), 1);
    assert_int_equal(pms_classifier_classify(c, B, &d), 2);
    assert_int_equal(pms_classifier_classify(c, B, &d), 2); /* A is now the least recently used */
    assert_int_equal(pms_classifier_classify(c, C, &d), 3); /* evicts A */
    assert_int_equal(pms_classifier_classify(c, B, &d), 2);
    assert_int_equal(pms_classifier_classify(c, A, &d), 4); /* A was forgotten: a new id */
    pms_classifier_destroy(c);
}

static void test_sequential_kmeans(void **state)
{
    (void)state;
    /* K = 2: the distance classifier finds A and B, which become the means. */
    pms_classifier *c = make(PMS_CLASSIFIER_KMEANS, 10, 1, 32);
    double d;
    const double p[4] = {0.8, 0.2, 0, 0}, q[4] = {0.5, 0.5, 0, 0}, r[4] = {0.3, 0.7, 0, 0};
    assert_int_equal(pms_classifier_classify(c, A, &d), 1);
    assert_int_equal(pms_classifier_classify(c, B, &d), 2);
    /* p joins A (0.4 away): mean (1,0) + (p - mean)/2 = (0.9, 0.1). */
    assert_int_equal(pms_classifier_classify(c, p, &d), 1);
    assert_close(d, 0.4, 1e-12);
    /* q: 0.8 from (0.9,0.1), 1.0 from B; mean moves by 1/3 to (0.7667, 0.2333). */
    assert_int_equal(pms_classifier_classify(c, q, &d), 1);
    assert_close(d, 0.8, 1e-12);
    /* r: 0.9333 from mean 1, 0.6 from B. A distance classifier at 10% would make new phases. */
    assert_int_equal(pms_classifier_classify(c, r, &d), 2);
    assert_close(d, 0.6, 1e-12);
    const double m1[4] = {0.7 + 0.2 / 3, 0.3 - 0.2 / 3, 0, 0};
    assert_int_equal(pms_classifier_classify(c, m1, &d), 1);
    assert_true(fabs(d) < 1e-12);
    assert_int_equal(pms_classifier_nphases(c), 2);
    pms_classifier_destroy(c);

    /* A fixed learning rate of 0.5: after p the mean is (0.9,0.1), after q (0.7,0.3). */
    pms_classifier_config cfg;
    pms_classifier_config_default(&cfg);
    cfg.kind = PMS_CLASSIFIER_KMEANS;
    cfg.signature_size = 4;
    cfg.threshold = 10;
    cfg.transition_threshold = 1;
    cfg.k = 2;
    cfg.learning_rate = 0.5;
    assert_int_equal(pms_classifier_create(&c, &cfg), 0);
    pms_classifier_classify(c, A, &d);
    pms_classifier_classify(c, B, &d);
    pms_classifier_classify(c, p, &d);
    pms_classifier_classify(c, q, &d);
    const double m2[4] = {0.7, 0.3, 0, 0};
    assert_int_equal(pms_classifier_classify(c, m2, &d), 1);
    assert_true(fabs(d) < 1e-12);
    pms_classifier_destroy(c);
}

static void test_bad_settings(void **state)
{
    (void)state;
    pms_classifier_config cfg;
    pms_classifier_config_default(&cfg);
    pms_classifier *c;
    cfg.threshold = 150;
    assert_int_equal(pms_classifier_create(&c, &cfg), PMS_EINVAL);
    cfg.threshold = NAN;
    assert_int_equal(pms_classifier_create(&c, &cfg), PMS_EINVAL);
    pms_classifier_config_default(&cfg);
    cfg.kind = PMS_CLASSIFIER_KMEANS;
    cfg.k = 0;
    assert_int_equal(pms_classifier_create(&c, &cfg), PMS_EINVAL);
    pms_projection p;
    assert_int_equal(pms_projection_init(&p, 24, 1), PMS_EINVAL);
}

static void test_signature_projection(void **state)
{
    (void)state;
    pms_projection p, q;
    assert_int_equal(pms_projection_init(&p, 32, 7), 0);
    assert_int_equal(pms_projection_init(&q, 32, 7), 0);
    size_t hits[32] = {0};
    for (uint64_t ip = 0x401000; ip < 0x401000 + 4096; ip++) {
        size_t i = pms_projection_index(&p, ip);
        assert_true(i < 32);
        assert_int_equal(i, pms_projection_index(&q, ip)); /* same seed, same mapping */
        hits[i]++;
    }
    for (size_t i = 0; i < 32; i++) assert_int_equal(hits[i], 128); /* a linear map onto 5 bits is balanced */
    double sig[32] = {0};
    pms_signature_add(&p, sig, 0x401000, 3);
    pms_signature_add(&p, sig, 0x401001, 1);
    assert_close(pms_signature_normalize(sig, 32), 4.0, 1e-12);
    double sum = 0;
    for (size_t i = 0; i < 32; i++) sum += sig[i];
    assert_close(sum, 1.0, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_threshold), cmocka_unit_test(test_transition_threshold),
        cmocka_unit_test(test_lru_eviction),       cmocka_unit_test(test_sequential_kmeans),
        cmocka_unit_test(test_bad_settings),       cmocka_unit_test(test_signature_projection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
