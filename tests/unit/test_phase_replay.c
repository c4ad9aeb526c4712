/* Replay of exact basic block vectors and scoring against a known schedule. */
#include "test_support.h"
#include "pmuscope/phase.h"

#include <math.h>
#include <string.h>

typedef struct seen {
    int phase[64];
    uint64_t size[64];
    size_t n;
} seen;

static int record(const pms_phase_event *ev, void *ctx)
{
    seen *s = ctx;
    if (s->n < 64) {
        s->phase[s->n] = ev->phase;
        s->size[s->n] = ev->size;
    }
    s->n++;
    return 0;
}

static pms_bbv *load_fixture(void)
{
    char bb[1024];
    snprintf(bb, sizeof bb, "%s", pms_test_fixture("bbv/two.bb"));
    pms_bbv *b;
    assert_int_equal(pms_bbv_load(&b, bb, pms_test_fixture("bbv/two.pc")), 0);
    return b;
}

static void test_bbv_replay_finds_the_two_loops(void **state)
{
    (void)state;
    pms_bbv *b = load_fixture();
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    cfg.classifier.transition_threshold = 1;
    seen s[2] = {0};
    for (int run = 0; run < 2; run++) {
        pms_phase_engine *e;
        assert_int_equal(pms_phase_engine_create(&e, &cfg, pms_bbv_interval_size(b)), 0);
        assert_int_equal(pms_phase_replay_bbv(e, b, record, &s[run]), 0);
        pms_phase_engine_destroy(e);
    }
    assert_int_equal(s[0].n, 10);
    assert_memory_equal(&s[0], &s[1], sizeof s[0]); /* deterministic */
    /* Vectors 1-7 run only first()'s loop, vector 9 only second()'s. */
    for (int i = 2; i <= 7; i++) assert_int_equal(s[0].phase[i], s[0].phase[1]);
    assert_int_not_equal(s[0].phase[9], s[0].phase[1]);
    assert_int_equal(s[0].size[1], 500000);
    pms_bbv_free(b);
}

static void test_bbv_replay_merges_for_dynamic_intervals(void **state)
{
    (void)state;
    pms_bbv *b = load_fixture();
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    cfg.classifier.transition_threshold = 1;
    cfg.dynamic.multiplier = 2;
    cfg.dynamic.maximum = 4;
    pms_phase_engine *e;
    assert_int_equal(pms_phase_engine_create(&e, &cfg, 500000), 0);
    seen s = {0};
    assert_int_equal(pms_phase_replay_bbv(e, b, record, &s), 0);
    /* Vector 0 (start-up and first) and vector 1 (first) match within 35%, so the
     * intervals grow 1, 1, 2, 4: vectors 0 | 1 | 2-3 | 4-7 | 8-9 (size 2 or 4). */
    assert_int_equal(s.n, 5);
    assert_int_equal(s.size[2], 1000000);
    assert_int_equal(s.size[3], 2000000);
    uint64_t total = 0;
    for (size_t i = 0; i < s.n; i++) total += s.size[i];
    assert_int_equal(total, 5000001); /* every vector used once */
    pms_phase_engine_destroy(e);
    pms_bbv_free(b);
}

static void test_truth_schedule(void **state)
{
    (void)state;
    const char text[] = "# start end phase\n100 200 A\n200 300 B\n300 400 A\n";
    const char *path = pms_test_write_temp(".trace", text, sizeof text - 1);
    pms_phase_truth *t;
    assert_int_equal(pms_phase_truth_load(&t, path), 0);
    assert_int_equal(pms_phase_truth_nlabels(t), 2);
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_label(t, 100, 200)), "A");
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_label(t, 150, 260)), "B"); /* 60 of B > 50 of A */
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_label(t, 180, 320)), "B"); /* 100 of B > 20 + 20 of A */
    assert_int_equal(pms_phase_truth_label(t, 0, 50), -1);
    pms_phase_truth_free(t);
    const char bad[] = "100 200 A\n300 x B\n";
    path = pms_test_write_temp(".trace", bad, sizeof bad - 1);
    assert_int_equal(pms_phase_truth_load(&t, path), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "line 2: expected \"start_ns end_ns label [tid]\""));
    const char zero_tid[] = "100 200 A 0\n";
    path = pms_test_write_temp(".trace", zero_tid, sizeof zero_tid - 1);
    assert_int_equal(pms_phase_truth_load(&t, path), PMS_EFORMAT);
}

/* Two threads with opposite schedules (phases --threads 2 --trace): each interval is
 * labelled by its own thread's spans; an instant by the span that holds it. */
static void test_truth_per_thread(void **state)
{
    (void)state;
    const char text[] = "100 200 A 7\n200 300 B 7\n100 200 B 8\n200 300 A 8\n400 500 C\n";
    const char *path = pms_test_write_temp(".trace", text, sizeof text - 1);
    pms_phase_truth *t;
    assert_int_equal(pms_phase_truth_load(&t, path), 0);
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_thread_label(t, 7, 100, 190)), "A");
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_thread_label(t, 8, 100, 190)), "B");
    /* without a thread: every span counts, A and B tie over [100, 200): the first label */
    assert_int_equal(pms_phase_truth_thread_label(t, 0, 100, 200), pms_phase_truth_thread_label(t, 7, 100, 200));
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_label_at(t, 8, 250, NULL)), "A");
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_label_at(t, 7, 250, NULL)), "B");
    assert_int_equal(pms_phase_truth_label_at(t, 7, 300, NULL), -1); /* spans are [start, end) */
    size_t span = 99;
    assert_int_equal(pms_phase_truth_label_at(t, 8, 150, &span), pms_phase_truth_label_at(t, 7, 250, NULL));
    assert_int_equal(span, 2);
    assert_int_equal(pms_phase_truth_nspans(t), 5);
    /* a span without a thread id holds for every thread */
    assert_string_equal(pms_phase_truth_name(t, pms_phase_truth_label_at(t, 9, 450, NULL)), "C");
    pms_phase_truth_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bbv_replay_finds_the_two_loops),
        cmocka_unit_test(test_bbv_replay_merges_for_dynamic_intervals),
        cmocka_unit_test(test_truth_schedule),
        cmocka_unit_test(test_truth_per_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
