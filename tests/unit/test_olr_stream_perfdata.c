/* pmuscope olr reads a perf.data a record at a time: on files written as perf record
 * writes them (group reads of a sampling event and a counter, perf's FINISHED_ROUND
 * records between drains of the buffers), the largest resident set of `pmuscope olr`
 * (getrusage of the child) at 2 million samples stays within a small margin of the one at
 * 200,000; and a streamed fit equals the fit of the loaded series. */
#include "test_support.h"
#include "pmuscope/olr_series.h"
#include "pmuscope/perfdata.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum { CLOCK, FAULTS, NATTRS };
static const uint64_t ids[NATTRS] = {21, 22};

static void make_attrs(pms_perfdata_attr *attrs)
{
    static const char *const names[NATTRS] = {"cpu-clock", "page-faults"};
    static const uint64_t configs[NATTRS] = {PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_PAGE_FAULTS};
    memset(attrs, 0, NATTRS * sizeof *attrs);
    for (int i = 0; i < NATTRS; i++) {
        struct perf_event_attr *a = &attrs[i].attr;
        a->size = sizeof *a;
        a->type = PERF_TYPE_SOFTWARE;
        a->config = configs[i];
        a->sample_period = i == CLOCK ? 20000 : 0;
        a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ;
        a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
        attrs[i].name = names[i];
        attrs[i].ids = &ids[i];
        attrs[i].nids = 1;
    }
}

/* n samples of one thread, a FINISHED_ROUND after every 4096 (as perf writes them). */
static const char *write_file(size_t n)
{
    pms_perfdata_attr attrs[NATTRS];
    make_attrs(attrs);
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, attrs, NATTRS, 0, NULL), 0);
    uint64_t x = 0, y = 0, t = 1000000, state = 1;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        x += 20000 + (state >> 60);
        y += (state >> 40) % 7 == 0 ? (state >> 50) % 100 : 0;
        pms_read_value v[2] = {{x, ids[CLOCK]}, {y, ids[FAULTS]}};
        pms_sample s = {.pid = 7, .tid = 7, .time = t += 20000, .id = ids[CLOCK], .nvalues = 2, .values = v};
        unsigned char buf[256];
        size_t len = pms_perfdata_encode_sample(buf, sizeof buf, &attrs[CLOCK], &s);
        assert_true(len > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (const struct perf_event_header *)buf), 0);
        if (i % 4096 == 4095) {
            struct perf_event_header round = {.type = 68 /* PERF_RECORD_FINISHED_ROUND */, .size = sizeof round};
            assert_int_equal(pms_perfdata_writer_add(w, &round), 0);
        }
    }
    assert_int_equal(pms_perfdata_writer_close(w), 0);
    return path;
}

/* The largest resident set of `pmuscope olr ARGS... PATH`, in KiB. */
static long max_rss_kib(const char *path, const char *method)
{
    const char *pmuscope = getenv("PMUSCOPE");
    assert_non_null(pmuscope);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout)) _exit(126);
        /* under AddressSanitizer, freed blocks wait in its quarantine (up to 256 MiB),
         * which would count every record read, not what pmuscope keeps */
        char opts[1024];
        const char *given = getenv("ASAN_OPTIONS");
        snprintf(opts, sizeof opts, "%s%squarantine_size_mb=0", given ? given : "", given && *given ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
        execl(pmuscope, pmuscope, "olr", "--method", method, path, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    assert_int_equal(wait4(pid, &status, 0, &ru), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return ru.ru_maxrss;
}

static void test_memory_flat_in_samples(void **state)
{
    (void)state;
    const char *small = write_file(200000);
    char small_path[4096];
    snprintf(small_path, sizeof small_path, "%s", small);
    const char *large = write_file(2000000);
    for (int m = 0; m < 2; m++) {
        const char *method = m ? "opt" : "wm";
        long a = max_rss_kib(small_path, method), b = max_rss_kib(large, method);
        print_message("olr --method %s: max RSS %ld KiB at 200k samples, %ld KiB at 2M\n", method, a, b);
        if (b > a + 4096) fail_msg("olr --method %s: max RSS %ld KiB at 2M samples, %ld KiB at 200k", method, b, a);
    }
    unlink(small_path);
    unlink(large);
}

typedef struct count {
    size_t segments;
    uint64_t first_sum;
} count;

static int count_segment(const pms_olr_segment *s, void *ctx)
{
    count *c = ctx;
    c->segments++;
    c->first_sum += s->first * (s->counter + 1);
    return 0;
}

/* The streamed fit (two passes: eps relative to the range) and the loaded one agree. */
static void test_stream_equals_load(void **state)
{
    (void)state;
    const char *path = write_file(50000);
    pms_olr_input_options in;
    pms_olr_input_options_init(&in);
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = PMS_OLR_OPT;
    pms_olr_series s, meta;
    assert_int_equal(pms_olr_series_load(&s, path, &in), 0);
    assert_int_equal(s.n, 50000);
    pms_olr_fit loaded, streamed;
    assert_int_equal(pms_olr_fit_series(&loaded, &s, &opt, NULL, 0, 1, path), 0);
    count c = {0};
    assert_int_equal(pms_olr_fit_stream(&streamed, &meta, path, &in, &opt, NULL, 0, 1, count_segment, NULL, &c), 0);
    assert_int_equal(meta.n, 50000);
    assert_int_equal(meta.k, 1);
    count l = {0};
    for (size_t i = 0; i < loaded.nseg; i++) count_segment(&loaded.seg[i], &l);
    assert_int_equal(c.segments, l.segments);
    assert_int_equal(c.first_sum, l.first_sum);
    assert_true(streamed.counters[0].eps == loaded.counters[0].eps);
    assert_int_equal(streamed.sums[0].segments, loaded.sums[0].segments);
    assert_true(streamed.sums[0].max_abs_error == loaded.sums[0].max_abs_error);
    pms_olr_fit_free(&loaded);
    pms_olr_fit_free(&streamed);
    pms_olr_series_free(&s);
    pms_olr_series_free(&meta);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_flat_in_samples),
        cmocka_unit_test(test_stream_equals_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
