/* perf.data replay on a file written by pmuscope's writer: IP samples of "branches",
 * intervals ended by "instructions" overflows that read cycles and instructions (so
 * the intervals' CPI is known exactly), and the fixed-sample-count mode. */
#include "test_support.h"
#include "pmuscope/phase.h"

#include <math.h>
#include <string.h>

enum { BRANCHES, INSTRUCTIONS, CYCLES, INSTR_COUNT, NATTRS };
static const uint64_t ids[NATTRS] = {11, 12, 13, 14};

/* A hardware event whose samples read their group (PERF_SAMPLE_READ); period 0: a counter
 * that never samples. */
static void set_attr(pms_perfdata_attr *at, const char *name, uint64_t config, uint64_t period, const uint64_t *id)
{
    memset(at, 0, sizeof *at);
    struct perf_event_attr *a = &at->attr;
    a->size = sizeof *a;
    a->type = PERF_TYPE_HARDWARE;
    a->config = config;
    a->sample_period = period;
    a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                     PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
    a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
    at->name = name;
    at->ids = id;
    at->nids = 1;
}

static void add_sample(pms_perfdata_writer *w, const pms_perfdata_attr *attr, const pms_sample *s)
{
    unsigned char buf[512];
    size_t n = pms_perfdata_encode_sample(buf, sizeof buf, attr, s);
    assert_true(n > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (const struct perf_event_header *)buf), 0);
}

/* The j-th IP sample of interval k: in loop X, or in loop Y in the second interval. */
static uint64_t loop_ip(int k, int j) { return (k == 1 ? 0x402000 : 0x401000) + (uint64_t)(j % 3) * 8; }

/* 3 intervals: 10 samples in loop X, 10 in loop Y, 10 in X, each closed by an
 * instructions overflow reading cumulative cycles 1000, 4000, 5000 and instructions
 * 1000, 2000, 3000: CPI 1, 3, 1. */
static const char *write_file(void)
{
    pms_perfdata_attr attrs[NATTRS];
    set_attr(&attrs[BRANCHES], "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100, &ids[BRANCHES]);
    set_attr(&attrs[INSTRUCTIONS], "instructions", PERF_COUNT_HW_INSTRUCTIONS, 1000, &ids[INSTRUCTIONS]);
    set_attr(&attrs[CYCLES], "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000, &ids[CYCLES]);
    set_attr(&attrs[INSTR_COUNT], "instructions:count", PERF_COUNT_HW_INSTRUCTIONS, 1000, &ids[INSTR_COUNT]);
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, attrs, NATTRS, 0, NULL), 0);
    const uint64_t cycles[3] = {1000, 4000, 5000}, instr[3] = {1000, 2000, 3000};
    uint64_t t = 1000000;
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 10; j++)
            add_sample(w, &attrs[BRANCHES], &(pms_sample){.ip = loop_ip(k, j), .pid = 7, .tid = 7, .time = t += 1000,
                                                          .id = ids[BRANCHES], .period = 100});
        pms_read_value v[2] = {{cycles[k], ids[CYCLES]}, {instr[k], ids[INSTR_COUNT]}};
        add_sample(w, &attrs[INSTRUCTIONS], &(pms_sample){.ip = 0x401000, .pid = 7, .tid = 7, .time = t += 1000,
                                                          .id = ids[INSTRUCTIONS], .period = 1000, .nvalues = 2,
                                                          .values = v});
    }
    assert_int_equal(pms_perfdata_writer_close(w), 0);
    return path;
}

/* The live monitor's events for one thread (`phase -e cycles:u --interval-event
 * instructions:u --no-inherit`): IP samples of cycles:u, each reading its own count (the
 * sampler gives every event PERF_SAMPLE_READ, a group of one too), and the interval event
 * instructions:u leading the counters cycles and instructions, whose group read holds the
 * leader's own count first, then the members' (as the kernel writes it). The CPI is the
 * members' alone: the cycles:u and instructions:u counts added in made it ~3 in the
 * emulated PMU, where it is 1. Cumulative counts at each interval's end: instructions:u
 * 1000, 2000, 3000; cycles 2400, 6000, 8400; instructions 1200, 2400, 3600: CPI 2, 3, 2;
 * cycles:u 150 a sample, 10 samples an interval. */
enum { LIVE_SAMPLE, LIVE_INTERVAL, LIVE_CYCLES, LIVE_INSTRUCTIONS, LIVE_NATTRS };
static const uint64_t live_ids[LIVE_NATTRS] = {21, 22, 23, 24};

static const char *write_live_layout(void)
{
    pms_perfdata_attr attrs[LIVE_NATTRS];
    set_attr(&attrs[LIVE_SAMPLE], "cycles:u", PERF_COUNT_HW_CPU_CYCLES, 150, &live_ids[LIVE_SAMPLE]);
    set_attr(&attrs[LIVE_INTERVAL], "instructions:u", PERF_COUNT_HW_INSTRUCTIONS, 1000, &live_ids[LIVE_INTERVAL]);
    set_attr(&attrs[LIVE_CYCLES], "cycles", PERF_COUNT_HW_CPU_CYCLES, 0, &live_ids[LIVE_CYCLES]);
    set_attr(&attrs[LIVE_INSTRUCTIONS], "instructions", PERF_COUNT_HW_INSTRUCTIONS, 0, &live_ids[LIVE_INSTRUCTIONS]);
    for (int i = LIVE_SAMPLE; i <= LIVE_INTERVAL; i++) attrs[i].attr.exclude_kernel = attrs[i].attr.exclude_hv = 1;
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, attrs, LIVE_NATTRS, 0, NULL), 0);
    const uint64_t cycles[3] = {2400, 6000, 8400}, instr[3] = {1200, 2400, 3600};
    uint64_t t = 1000000, user_cycles = 0;
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 10; j++) {
            pms_read_value own = {user_cycles += 150, live_ids[LIVE_SAMPLE]};
            add_sample(w, &attrs[LIVE_SAMPLE], &(pms_sample){.ip = loop_ip(k, j), .pid = 7, .tid = 7, .time = t += 1000,
                                                             .id = live_ids[LIVE_SAMPLE], .period = 150,
                                                             .nvalues = 1, .values = &own});
        }
        pms_read_value group[3] = {{1000 * (uint64_t)(k + 1), live_ids[LIVE_INTERVAL]},
                                   {cycles[k], live_ids[LIVE_CYCLES]},
                                   {instr[k], live_ids[LIVE_INSTRUCTIONS]}};
        add_sample(w, &attrs[LIVE_INTERVAL], &(pms_sample){.ip = 0x401000, .pid = 7, .tid = 7, .time = t += 1000,
                                                           .id = live_ids[LIVE_INTERVAL], .period = 1000,
                                                           .nvalues = 3, .values = group});
    }
    assert_int_equal(pms_perfdata_writer_close(w), 0);
    return path;
}

/* Counters inherited per CPU (the live monitor on Linux 6.12 and later): each CPU's copy
 * of cycles and instructions has its own id, and intervals are cut by the IP samples (10 of
 * 100 to an interval of 1000). Six intervals, the k-th begun by a read on CPU k, whose copies
 * are read there for the first time: cycles 1000 (k + 1), instructions 1000, so CPI k + 1. (The assembler once kept the ids of 4 CPUs: CPUs 4 and 5 had no CPI.) */
enum { CPUS = 6 };
static const uint64_t cpu_instr_ids[CPUS] = {31, 32, 33, 34, 35, 36}, cpu_cycles_ids[CPUS] = {41, 42, 43, 44, 45, 46},
                      cpu_count_ids[CPUS] = {51, 52, 53, 54, 55, 56};

static const char *write_per_cpu_layout(void)
{
    pms_perfdata_attr attrs[NATTRS];
    set_attr(&attrs[BRANCHES], "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100, &ids[BRANCHES]);
    set_attr(&attrs[INSTRUCTIONS], "instructions", PERF_COUNT_HW_INSTRUCTIONS, 1000, cpu_instr_ids);
    set_attr(&attrs[CYCLES], "cycles", PERF_COUNT_HW_CPU_CYCLES, 0, cpu_cycles_ids);
    set_attr(&attrs[INSTR_COUNT], "instructions:count", PERF_COUNT_HW_INSTRUCTIONS, 0, cpu_count_ids);
    for (int i = INSTRUCTIONS; i <= INSTR_COUNT; i++) attrs[i].nids = CPUS;
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, attrs, NATTRS, 0, NULL), 0);
    uint64_t t = 1000000;
    for (int k = 0; k < CPUS; k++) {
        pms_read_value v[3] = {{1000, cpu_instr_ids[k]}, {1000 * (uint64_t)(k + 1), cpu_cycles_ids[k]},
                               {1000, cpu_count_ids[k]}};
        add_sample(w, &attrs[INSTRUCTIONS], &(pms_sample){.ip = 0x401000, .pid = 7, .tid = 7, .time = t += 1000,
                                                          .id = cpu_instr_ids[k], .cpu = (uint32_t)k, .period = 1000,
                                                          .nvalues = 3, .values = v});
        for (int j = 0; j < 10; j++)
            add_sample(w, &attrs[BRANCHES], &(pms_sample){.ip = loop_ip(k % 3, j), .pid = 7, .tid = 7, .time = t += 1000,
                                                          .id = ids[BRANCHES], .period = 100});
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

/* Three intervals of 10 samples and 1000 events, with these CPIs. */
static void assert_three_intervals(const seen *s, const double *cpi)
{
    assert_int_equal(s->n, 3);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(s->ev[k].samples, 10);
        assert_int_equal(s->ev[k].size, 1000);
        assert_close(s->ev[k].metric, cpi[k], 1e-12);
        assert_int_equal(s->ev[k].metric_is_cpi, 1);
    }
}

static void test_interval_event_and_cpi(void **state)
{
    (void)state;
    const char *path = write_file();
    pms_phase_source src = {.interval_event = "instructions"};
    seen s;
    replay(path, &src, &s);
    assert_three_intervals(&s, (const double[3]){1, 3, 1});
    assert_int_equal(s.ev[0].phase, s.ev[2].phase);
    assert_int_not_equal(s.ev[0].phase, s.ev[1].phase);
    assert_int_equal(s.ev[1].start_time, s.ev[0].end_time);

    src.interval_event = "cycles"; /* in the file, but it never overflows: one interval */
    replay(path, &src, &s);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.ev[0].samples, 33);
}

static void test_cpi_from_the_read_counters_alone(void **state)
{
    (void)state;
    const char *path = write_live_layout();
    pms_phase_source src = {.interval_event = "instructions:u"};
    seen s;
    replay(path, &src, &s);
    assert_three_intervals(&s, (const double[3]){2, 3, 2});
}

static void test_cpi_of_every_cpu(void **state)
{
    (void)state;
    const char *path = write_per_cpu_layout();
    pms_phase_source src = {.interval_event = "instructions"};
    seen s;
    replay(path, &src, &s);
    assert_int_equal(s.n, CPUS);
    for (int k = 0; k < CPUS; k++) {
        assert_int_equal(s.ev[k].metric_is_cpi, 1);
        assert_close(s.ev[k].metric, k + 1, 1e-12);
    }
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
        cmocka_unit_test(test_cpi_from_the_read_counters_alone),
        cmocka_unit_test(test_cpi_of_every_cpu),
        cmocka_unit_test(test_missing_event_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
