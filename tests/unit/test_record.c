/* pmuscope/record.h: a whole recording as a library call, with a tap on the stream.
 * Checked against the file read back and against perf script's sample count. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *workload(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", getenv("PMS_WORKLOADS") ? getenv("PMS_WORKLOADS") : "workloads", name);
    return path;
}

typedef struct tap_seen {
    size_t starts, nattrs;
    uint64_t samples, records, rounds;
    int drop_samples;
    volatile sig_atomic_t *stop_after; /* set *stop_after after 20 samples */
} tap_seen;

static int on_start(void *ctx, const pms_perfdata_attr *attrs, size_t nattrs)
{
    tap_seen *t = ctx;
    (void)attrs;
    t->starts++;
    t->nattrs = nattrs;
    return PMS_OK;
}

static int on_record(void *ctx, const struct perf_event_header *h, bool *keep)
{
    tap_seen *t = ctx;
    assert_true(*keep);
    t->records++;
    if (h->type != PERF_RECORD_SAMPLE) return PMS_OK;
    t->samples++;
    if (t->drop_samples) *keep = false;
    if (t->stop_after && t->samples == 20) *t->stop_after = 1;
    return PMS_OK;
}

static int on_round(void *ctx)
{
    ((tap_seen *)ctx)->rounds++;
    return PMS_OK;
}

static int count_sample(const pms_sample *s, void *ctx)
{
    (void)s;
    (*(uint64_t *)ctx)++;
    return 0;
}

static uint64_t samples_in(const char *path)
{
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    uint64_t n = 0;
    pms_perfdata_handlers h = {.sample = count_sample, .ctx = &n};
    assert_int_equal(pms_perfdata_read(r, &h), PMS_OK);
    pms_perfdata_close(r);
    return n;
}

static pms_sampling_event cpu_clock(void)
{
    pms_sampling_event ev = {.period = 250000};
    assert_int_equal(pms_event_parse("cpu-clock", &ev.event), PMS_OK);
    return ev;
}

/* A launched command to its end: every sample the tap saw is in the file, and perf agrees. */
static void test_record_command(void **state)
{
    (void)state;
    const char *out = pms_test_write_temp(".data", "", 0);
    pms_sampling_event ev = cpu_clock();
    char *argv[] = {(char *)workload("hotspots"), "--scale", "1", NULL};
    tap_seen seen = {0};
    pms_record_tap tap = {on_start, on_record, on_round, &seen};
    pms_record_config cfg = {.events = &ev, .nevents = 1, .argv = argv, .output = out, .tap = &tap};
    pms_record_result r;
    assert_int_equal(pms_record_run(&r, &cfg), PMS_OK);
    assert_true(r.exited);
    assert_false(r.stopped);
    assert_true(WIFEXITED(r.wait_status) && WEXITSTATUS(r.wait_status) == 0);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(seen.starts, 1);
    assert_int_equal(seen.nattrs, 1);
    assert_true(seen.rounds >= 1);
    assert_true(seen.samples > 10);
    assert_int_equal(r.samples, seen.samples);
    assert_int_equal(r.stats.samples, seen.samples);
    assert_int_equal(samples_in(out), seen.samples);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test \"$(perf script -i '%s' -F ip 2>/dev/null | wc -l)\" -eq %llu", out,
             (unsigned long long)seen.samples);
    assert_int_equal(pms_test_system("%s", cmd), 0);
    remove(out);
}

/* The tap leaves the samples out; the stop flag ends the recording and the command. */
static void test_record_tap_drops_and_stop(void **state)
{
    (void)state;
    const char *out = pms_test_write_temp(".data", "", 0);
    pms_sampling_event ev = cpu_clock();
    char *argv[] = {(char *)workload("hotspots"), "--scale", "1000", NULL}; /* far longer than 20 samples */
    volatile sig_atomic_t stop = 0;
    tap_seen seen = {.drop_samples = 1, .stop_after = &stop};
    pms_record_tap tap = {NULL, on_record, NULL, &seen};
    pms_record_config cfg = {.events = &ev, .nevents = 1, .argv = argv, .output = out, .tap = &tap, .stop = &stop};
    pms_record_result r;
    assert_int_equal(pms_record_run(&r, &cfg), PMS_OK);
    assert_true(r.stopped);
    assert_false(r.exited);
    assert_true(WIFSIGNALED(r.wait_status) && WTERMSIG(r.wait_status) == SIGTERM);
    assert_int_equal(r.exit_code, 128 + SIGTERM); /* as perf record returns it */
    assert_true(seen.samples >= 20);
    assert_int_equal(r.samples, 0);
    assert_int_equal(samples_in(out), 0);
    assert_true(seen.records > seen.samples); /* COMM, MMAP2 ... still went to the file */
    remove(out);
}

/* A command that cannot run: PMS_ECHILD naming it, and no file left. */
static void test_record_bad_command(void **state)
{
    (void)state;
    char out[] = "/tmp/pms-test-record-XXXXXX";
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    remove(out);
    pms_sampling_event ev = cpu_clock();
    char *argv[] = {"/nonexistent/program", NULL};
    pms_record_config cfg = {.events = &ev, .nevents = 1, .argv = argv, .output = out};
    pms_record_result r;
    assert_int_equal(pms_record_run(&r, &cfg), PMS_ECHILD);
    assert_non_null(strstr(pms_strerror(), "/nonexistent/program"));
    assert_int_equal(access(out, F_OK), -1);
    /* an output that was there is left as it was, and no temporary file beside it */
    FILE *f = fopen(out, "w");
    assert_non_null(f);
    fputs("kept", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(pms_record_run(&r, &cfg), PMS_ECHILD);
    char kept[8] = {0};
    f = fopen(out, "r");
    assert_non_null(f);
    assert_int_equal(fread(kept, 1, sizeof kept - 1, f), 4);
    fclose(f);
    assert_string_equal(kept, "kept");
    assert_int_equal(pms_test_system("! ls '%s'.* >/dev/null 2>&1", out), 0);
    remove(out);
    /* neither a command nor a pid */
    cfg.argv = NULL;
    assert_int_equal(pms_record_run(&r, &cfg), PMS_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_command),
        cmocka_unit_test(test_record_tap_drops_and_stop),
        cmocka_unit_test(test_record_bad_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
