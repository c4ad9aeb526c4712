/* perf.data replay on a file written by pmuscope's writer: IP samples of "branches",
 * intervals ended by "instructions" overflows that read cycles and instructions (so
 * the intervals' CPI is known exactly), and the fixed-sample-count mode. */
#include "test_support.h"
#include "pmuscope/phase.h"

#include <math.h>
#include <string.h>

enum { BRANCHES, INSTRUCTIONS, CYCLES, INSTR_COUNT, NATTRS };
static const uint64_t ids[NATTRS] = {11, 12, 13, 14};

static void make_attrs(pms_perfdata_attr *attrs)
{
    static const char *const names[NATTRS] = {"branches", "instructions", "cycles", "instructions:count"};
    static const uint64_t configs[NATTRS] = {PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_INSTRUCTIONS,
                                             PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS};
    memset(attrs, 0, NATTRS * sizeof *attrs);
    for (int i = 0; i < NATTRS; i++) {
        struct perf_event_attr *a = &attrs[i].attr;
        a->size = sizeof *a;
        a->type = PERF_TYPE_HARDWARE;
        a->config = configs[i];
        a->sample_period = i == BRANCHES ? 100 : 1000;
        a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                         PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
        a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
        attrs[i].name = names[i];
        attrs[i].ids = &ids[i];
        attrs[i].nids = 1;
    }
}

/* 3 intervals: 10 samples in loop X, 10 in loop Y, 10 in X, each closed by an
 * instructions overflow reading cumulative cycles 1000, 4000, 5000 and instructions
 * 1000, 2000, 3000: CPI 1, 3, 1. */
static const char *write_file(void)
{
    pms_perfdata_attr attrs[NATTRS];
    make_attrs(attrs);
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, attrs, NATTRS, 0, NULL), 0);
    const uint64_t cycles[3] = {1000, 4000, 5000}, instr[3] = {1000, 2000, 3000};
    uint64_t t = 1000000;
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 10; j++) {
            pms_sample s = {.ip = (k == 1 ? 0x402000 : 0x401000) + (uint64_t)(j % 3) * 8, .pid = 7, .tid = 7,
                            .time = t += 1000, .id = ids[BRANCHES], .period = 100};
            unsigned char buf[512];
            size_t n = pms_perfdata_encode_sample(buf, sizeof buf, &attrs[BRANCHES], &s);
            assert_true(n > 0);
            assert_int_equal(pms_perfdata_writer_add(w, (const struct perf_event_header *)buf), 0);
        }
        pms_read_value v[2] = {{cycles[k], ids[CYCLES]}, {instr[k], ids[INSTR_COUNT]}};
        pms_sample s = {.ip = 0x401000, .pid = 7, .tid = 7, .time = t += 1000, .id = ids[INSTRUCTIONS],
                        .period = 1000, .nvalues = 2, .values = v};
        unsigned char buf[512];
        size_t n = pms_perfdata_encode_sample(buf, sizeof buf, &attrs[INSTRUCTIONS], &s);
        assert_true(n > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (const struct perf_event_header *)buf), 0);
    }
    assert_int_equal(pms_perfdata_writer_close(w), 0);
    return path;
}

typedef struct seen {
    pms_phase_event ev[8];
    size_t n;
} seen;

static int record(const pms_phase_event *ev, void *ctx)
{
    seen *s = ctx;
    if (s->n < 8) s->ev[s->n] = *ev;
    s->n++;
    return 0;
}

static void replay(const char *path, const pms_phase_source *src, seen *s)
{
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    cfg.classifier.transition_threshold = 1;
    pms_phase_engine *e;
    assert_int_equal(pms_phase_engine_create(&e, &cfg, 0), 0);
    memset(s, 0, sizeof *s);
    if (pms_phase_replay_perfdata(e, path, src, record, s)) fail_msg("replay: %s", pms_strerror());
    pms_phase_engine_destroy(e);
}

static void test_interval_event_and_cpi(void **state)
{
    (void)state;
    const char *path = write_file();
    pms_phase_source src = {.interval_event = "instructions"};
    seen s;
    replay(path, &src, &s);
    assert_int_equal(s.n, 3);
    const double cpi[3] = {1, 3, 1};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(s.ev[k].samples, 10);
        assert_int_equal(s.ev[k].size, 1000);
        assert_close(s.ev[k].metric, cpi[k], 1e-12);
        assert_int_equal(s.ev[k].metric_is_cpi, 1);
    }
    assert_int_equal(s.ev[0].phase, s.ev[2].phase);
    assert_int_not_equal(s.ev[0].phase, s.ev[1].phase);
    assert_int_equal(s.ev[1].start_time, s.ev[0].end_time);

    src.interval_event = "cycles"; /* in the file, but it never overflows: one interval */
    replay(path, &src, &s);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.ev[0].samples, 33);
}

static void test_fixed_sample_count(void **state)
{
    (void)state;
    const char *path = write_file();
    pms_phase_source src = {.samples_per_interval = 15}; /* 33 samples, marks included */
    seen s;
    replay(path, &src, &s);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.ev[0].samples, 15);
    assert_int_equal(s.ev[1].samples, 15);
    assert_int_equal(s.ev[2].samples, 3);
    /* CPI from the latest counts read before each end: marks at samples 11, 22, 33 */
    assert_close(s.ev[0].metric, 1.0, 1e-12);
    assert_close(s.ev[1].metric, 3.0, 1e-12);
    assert_close(s.ev[2].metric, 1.0, 1e-12);
}

static void test_missing_event_is_named(void **state)
{
    (void)state;
    const char *path = write_file();
    pms_phase_source src = {.interval_event = "task-clock"};
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    pms_phase_engine *e;
    assert_int_equal(pms_phase_engine_create(&e, &cfg, 0), 0);
    assert_int_equal(pms_phase_replay_perfdata(e, path, &src, NULL, NULL), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "no event named 'task-clock' to end the intervals (the file has: branches, "
                                           "instructions, cycles, instructions:count)"));
    pms_phase_engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interval_event_and_cpi),
        cmocka_unit_test(test_fixed_sample_count),
        cmocka_unit_test(test_missing_event_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
