/* Phase predictors on hand-built phase sequences with known answers (Sembrant's thesis, 3.3). */
#include "test_support.h"
#include "pmuscope/phase.h"

static pms_predictor *make(pms_predictor_kind kind, unsigned history, double threshold)
{
    pms_predictor_config cfg;
    pms_predictor_config_default(&cfg, kind);
    if (history) cfg.history = history;
    cfg.confidence_threshold = threshold;
    pms_predictor *p;
    assert_int_equal(pms_predictor_create(&p, &cfg), 0);
    return p;
}

/* Feeds seq and stores the prediction made after each element. */
static void run(pms_predictor *p, const int *seq, size_t n, int *pred, int *from_table)
{
    for (size_t i = 0; i < n; i++) {
        pms_prediction next;
        pms_predictor_update(p, seq[i], &next);
        pred[i] = next.phase;
        if (from_table) from_table[i] = next.from_table;
    }
}

/* Correct predictions of seq[i+1] among positions from .. n-2. */
static size_t hits(const int *seq, const int *pred, size_t n, size_t from)
{
    size_t h = 0;
    for (size_t i = from; i + 1 < n; i++) h += pred[i] == seq[i + 1];
    return h;
}

static void test_last_value(void **state)
{
    (void)state;
    pms_predictor *p = make(PMS_PREDICT_LAST, 0, 0.3);
    const int seq[] = {1, 1, 2, 2, 0};
    int pred[5];
    run(p, seq, 5, pred, NULL);
    for (int i = 0; i < 5; i++) assert_int_equal(pred[i], seq[i]);
    pms_predictor_destroy(p);
}

static void test_markov1_learns_a_cycle(void **state)
{
    (void)state;
    pms_predictor *p = make(PMS_PREDICT_MARKOV, 1, 0.3);
    const int seq[] = {1, 2, 3, 1, 2, 3, 1, 2, 3};
    int pred[9], table[9];
    run(p, seq, 9, pred, table);
    /* Nothing learnt for the first cycle: last value. */
    assert_int_equal(pred[0], 1);
    assert_int_equal(pred[1], 2);
    assert_int_equal(pred[2], 3);
    assert_int_equal(table[2], 0);
    /* [3] -> 1 was learnt at the 4th interval; from then on every guess is right. */
    assert_int_equal(pred[3], 2);
    assert_int_equal(table[3], 1);
    assert_int_equal(hits(seq, pred, 9, 3), 5);
    pms_predictor_destroy(p);
}

static void test_markov2_sees_what_markov1_cannot(void **state)
{
    (void)state;
    /* 1 1 2 repeated: after a 1, the next is 1 or 2 depending on the one before. */
    int seq[30];
    for (int i = 0; i < 30; i++) seq[i] = i % 3 == 2 ? 2 : 1;
    int p1[30], p2[30];
    pms_predictor *m1 = make(PMS_PREDICT_MARKOV, 1, 0.3), *m2 = make(PMS_PREDICT_MARKOV, 2, 0.3);
    run(m1, seq, 30, p1, NULL);
    run(m2, seq, 30, p2, NULL);
    assert_int_equal(hits(seq, p2, 30, 5), 24); /* all right once [1,1],[1,2],[2,1] are known */
    assert_true(hits(seq, p1, 30, 5) < 24);
    pms_predictor_destroy(m1);
    pms_predictor_destroy(m2);
}

static void test_confidence_threshold_and_replacement(void **state)
{
    (void)state;
    /* Threshold 0.5 needs the 2-bit counter at 2: an entry seen once is not trusted. */
    pms_predictor *p = make(PMS_PREDICT_MARKOV, 1, 0.5);
    const int seq[] = {1, 2, 3, 1, 2, 3, 1};
    int pred[7], table[7];
    run(p, seq, 7, pred, table);
    assert_int_equal(table[3], 0); /* [1]->2 seen once: last value */
    assert_int_equal(pred[3], 1);
    assert_int_equal(table[6], 1); /* [1]->2 seen twice */
    assert_int_equal(pred[6], 2);
    pms_predictor_destroy(p);

    /* A mismatch at confidence 1 replaces the entry. */
    p = make(PMS_PREDICT_MARKOV, 1, 0.3);
    const int seq2[] = {5, 6, 5, 7, 5};
    run(p, seq2, 5, pred, table);
    assert_int_equal(pred[2], 6); /* [5]->6 */
    assert_int_equal(pred[4], 7); /* replaced by [5]->7 */
    pms_predictor_destroy(p);
}

static void test_ppm_falls_back_to_shorter_histories(void **state)
{
    (void)state;
    const int seq[] = {5, 1, 2, 7, 1};
    int pred[5], table[5];
    /* [7,1] was never seen, but [1] -> 2 was: PPM predicts 2, Markov-2 only last value. */
    pms_predictor *ppm = make(PMS_PREDICT_PPM, 2, 0.3), *m2 = make(PMS_PREDICT_MARKOV, 2, 0.3);
    run(ppm, seq, 5, pred, table);
    assert_int_equal(pred[4], 2);
    assert_int_equal(table[4], 1);
    run(m2, seq, 5, pred, table);
    assert_int_equal(pred[4], 1);
    assert_int_equal(table[4], 0);
    pms_predictor_destroy(ppm);
    pms_predictor_destroy(m2);
}

static void test_run_length(void **state)
{
    (void)state;
    /* A A A B repeated: last value misses every change; run length learns (A,3) -> B. */
    int seq[40];
    for (int i = 0; i < 40; i++) seq[i] = i % 4 == 3 ? 2 : 1;
    int rl[40], lv[40];
    pms_predictor *r = make(PMS_PREDICT_RUN_LENGTH, 0, 0.3), *l = make(PMS_PREDICT_LAST, 0, 0.3);
    run(r, seq, 40, rl, NULL);
    run(l, seq, 40, lv, NULL);
    assert_int_equal(hits(seq, rl, 40, 4), 35);
    assert_int_equal(hits(seq, lv, 40, 4), 35 - 17); /* wrong at 9 entries into B and 8 exits */
    pms_predictor_destroy(r);
    pms_predictor_destroy(l);
}

static void test_bad_settings(void **state)
{
    (void)state;
    pms_predictor_config cfg;
    pms_predictor_config_default(&cfg, PMS_PREDICT_MARKOV);
    cfg.history = 0;
    pms_predictor *p;
    assert_int_equal(pms_predictor_create(&p, &cfg), PMS_EINVAL);
    pms_predictor_config_default(&cfg, PMS_PREDICT_PPM);
    cfg.cache_size = 0;
    assert_int_equal(pms_predictor_create(&p, &cfg), PMS_EINVAL);
    assert_string_equal(pms_predictor_name(PMS_PREDICT_RUN_LENGTH), "run-length");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_last_value),
        cmocka_unit_test(test_markov1_learns_a_cycle),
        cmocka_unit_test(test_markov2_sees_what_markov1_cannot),
        cmocka_unit_test(test_confidence_threshold_and_replacement),
        cmocka_unit_test(test_ppm_falls_back_to_shorter_histories),
        cmocka_unit_test(test_run_length),
        cmocka_unit_test(test_bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
