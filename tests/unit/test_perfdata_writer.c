/* The perf.data writer, checked by perf itself: a synthetic recording of the hotspots
 * workload (COMM + MMAP2 of the real binary + samples at the addresses nm gives for
 * hot_a..hot_e) must be read by `perf script` and `perf report` with the event name, the
 * workload's symbol names and the exact sample counts, after a sync and after close. */
#include "test_support.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/error.h"
#include "binary_helpers.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x555555554000ull
#define PID 4242

static const char *names[] = {"hot_a", "hot_b", "hot_c", "hot_d", "hot_e"};
static const int counts[] = {40, 25, 20, 10, 5};
static uint64_t sym_addr[5];
static char binary[PATH_MAX];
static const uint64_t ids[] = {101};

static pms_perfdata_attr cpu_clock_attr(void)
{
    pms_perfdata_attr a = {.name = "cpu-clock", .ids = ids, .nids = 1};
    a.attr.size = sizeof a.attr;
    a.attr.type = PERF_TYPE_SOFTWARE;
    a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
    a.attr.sample_period = 100000;
    a.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
    a.attr.sample_id_all = 1;
    a.attr.mmap = a.attr.mmap2 = a.attr.comm = 1;
    return a;
}

/* Symbol addresses from nm: an independent source. */
static int setup(void **state)
{
    (void)state;
    snprintf(binary, sizeof binary, "%s", pms_test_workload("hotspots"));
    for (int i = 0; i < 5; i++) sym_addr[i] = pms_test_nm_address(binary, names[i]);
    return 0;
}

static void add(pms_perfdata_writer *w, const void *rec, size_t size)
{
    assert_true(size > 0);
    assert_int_equal(pms_perfdata_writer_add(w, rec), PMS_OK);
}

static void add_samples(pms_perfdata_writer *w, const pms_perfdata_attr *a, int from_round, int to_round)
{
    unsigned char rec[256];
    for (int round = from_round; round < to_round; round++)
        for (int f = 0; f < 5; f++)
            for (int k = 0; k < counts[f] / 5; k++) {
                pms_sample s = {.ip = BASE + sym_addr[f] + 8, .pid = PID, .tid = PID, .period = 100000};
                s.time = 1000000ull + (uint64_t)round * 1000 + (uint64_t)f * 100 + (uint64_t)k;
                add(w, rec, pms_perfdata_encode_sample(rec, sizeof rec, a, &s));
            }
}

static void check_perf_script(const char *file, int rounds)
{
    for (int f = 0; f < 5; f++) {
        int expect = counts[f] / 5 * rounds;
        int rc = pms_test_system("n=$(perf script -i '%s' -F event,ip,sym 2>/dev/null | grep -c 'cpu-clock:.* %s$');"
                                 " test \"$n\" -eq %d || { echo \"%s: perf script shows $n samples, expected %d\"; exit 1; }",
                                 file, names[f], expect, names[f], expect);
        assert_int_equal(rc, 0);
    }
}

static void test_perf_reads_written_file(void **state)
{
    (void)state;
    const char *file = pms_test_write_temp(".data", "", 0);
    pms_perfdata_attr a = cpu_clock_attr();
    char *argv[] = {"pmuscope", "record", binary};
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, file, &a, 1, 3, argv), PMS_OK);

    unsigned char rec[512];
    pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = PID, .tid = PID, .comm = "hotspots", .time = 999999};
    add(w, rec, pms_perfdata_encode_task(rec, sizeof rec, &a, &comm));
    pms_mmap_event m = {.pid = PID, .tid = PID, .start = BASE, .len = 0x5000, .pgoff = 0, .executable = 1,
                        .filename = binary, .time = 999999};
    add(w, rec, pms_perfdata_encode_mmap2(rec, sizeof rec, &a, &m));
    add_samples(w, &a, 0, 4);
    assert_int_equal(pms_perfdata_writer_sync(w), PMS_OK);
    check_perf_script(file, 4); /* valid after a sync, while still open */

    /* Unsynced records, more than the writer buffers (so some reach the file over the
     * old feature sections), must not break the synced file. */
    add_samples(w, &a, 4, 300);
    assert_true(pms_perfdata_writer_data_size(w) > 256 * 1024);
    check_perf_script(file, 4);

    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
    check_perf_script(file, 300);
    assert_int_equal(pms_test_system("perf report -i '%s' --header-only 2>/dev/null | grep -q 'event : name = cpu-clock'", file), 0);
    assert_int_equal(pms_test_system("perf report -i '%s' --header-only 2>/dev/null | grep -q 'cmdline : pmuscope record'", file), 0);
    /* perf report's shares: exactly the synthetic 40/25/20/10/5 split. */
    for (int f = 0; f < 5; f++)
        assert_int_equal(pms_test_system("perf report -i '%s' --stdio --sort sym 2>/dev/null | grep -E -q '^ +%d\\.00%% .*%s$'",
                                         file, counts[f], names[f]),
                         0);
    remove(file);
}

static void test_rejects_bad_arguments(void **state)
{
    (void)state;
    pms_perfdata_writer *w;
    pms_perfdata_attr a = cpu_clock_attr();
    assert_int_equal(pms_perfdata_writer_open(&w, "/nonexistent-dir/x.data", &a, 1, 0, NULL), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "/nonexistent-dir/x.data"));
    assert_int_equal(pms_perfdata_writer_open(&w, "/tmp/x.data", &a, 0, 0, NULL), PMS_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perf_reads_written_file),
        cmocka_unit_test(test_rejects_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
