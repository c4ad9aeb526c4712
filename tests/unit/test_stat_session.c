/* A whole stat measurement as a library call (pmuscope/stat_session.h), the schedule
 * measured once per size, and their printers: each format's printer picked by style,
 * the JSON of intervals, totals, merged tables and sizes, exact for hand-made values. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/schedule.h"
#include "pmuscope/stat_session.h"
#include "pmuscope/statfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pms_event parse(const char *spec)
{
    pms_event ev;
    if (pms_event_parse(spec, &ev) != PMS_OK) fail_msg("%s", pms_strerror());
    return ev;
}

/* A value counted all of 1000 ns. */
static pms_stat_value value(const char *spec, uint64_t raw)
{
    return pms_test_stat_value(spec, raw, 1000, 1000);
}

/* Each style's interval and totals are what its own printer writes. */
static void test_style_picks_the_printer(void **state)
{
    (void)state;
    pms_stat_value v[2] = {value("task-clock", 2500000), value("page-faults", 7)};
    pms_stat_summary s = {.target = "'true'", .runs = 2, .elapsed_s = 0.5};
    for (int format = PMS_STAT_PLAIN; format <= PMS_STAT_WIDE; format++) {
        pms_stat_style st = {.format = (pms_stat_format)format, .sep = ";"};
        char *got = NULL, *want = NULL;
        size_t glen, wlen;
        FILE *g = open_memstream(&got, &glen), *w = open_memstream(&want, &wlen);
        pms_stat_print_interval(g, &st, 1.5, 0.1, v, 2, true);
        pms_stat_print_totals(g, &st, &s, v, 2);
        switch (st.format) {
        case PMS_STAT_PLAIN:
            pms_stat_print_plain_interval(w, 1.5, 0.1, v, 2, true);
            pms_stat_print_plain(w, &s, v, 2);
            break;
        case PMS_STAT_CSV:
            pms_stat_print_csv(w, ";", 1.5, 0.1, 1, v, 2);
            pms_stat_print_csv(w, ";", -1, 0.5, 2, v, 2);
            break;
        case PMS_STAT_JSON_LINES:
            pms_stat_print_json_lines(w, 1.5, 0.1, 1, v, 2);
            pms_stat_print_json_lines(w, -1, 0.5, 2, v, 2);
            break;
        case PMS_STAT_WIDE:
            pms_stat_wide_header(w, v, 2);
            pms_stat_wide_row(w, 1.5, v, 2);
            pms_stat_wide_header(w, v, 2);
            pms_stat_wide_row(w, 0.5, v, 2);
            break;
        }
        fclose(g);
        fclose(w);
        assert_true(glen > 0);
        assert_string_equal(got, want);
        free(got);
        free(want);
    }
}

/* The header's target, as perf stat 6.1 names it. */
static void test_target_names(void **state)
{
    (void)state;
    char buf[32];
    char *argv[] = {"./prog", "a", "b", NULL};
    pms_stat_describe_target(buf, sizeof buf, argv, 0, false, NULL);
    assert_string_equal(buf, "'./prog a b'");
    pms_stat_describe_target(buf, sizeof buf, argv, 123, false, NULL);
    assert_string_equal(buf, "process id '123'");
    pms_stat_describe_target(buf, sizeof buf, argv, 0, true, NULL);
    assert_string_equal(buf, "'system wide'");
    pms_stat_describe_target(buf, sizeof buf, argv, 0, true, "0-3");
    assert_string_equal(buf, "'CPU(s) 0-3'");
    char *longer[] = {"./a-program-with-a-long-name", "and-an-argument", NULL};
    pms_stat_describe_target(buf, 16, longer, 0, false, NULL);
    assert_string_equal(buf, "'./a-program-w'"); /* cut to the buffer, still quoted */
}

static void test_json_of_sizes_and_totals(void **state)
{
    (void)state;
    pms_stat_value v[2] = {value("task-clock", 2000000), value("page-faults", 7)};
    double cv[1] = {1.5};
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    pms_json j;
    pms_json_init(&j, f, false);
    pms_json_array_begin(&j);
    pms_stat_json_size(&j, 5, v, 2, 1, cv);
    pms_stat_json_interval(&j, 0.25, 0, v + 1, 1);
    pms_json_object_begin(&j);
    const char *notes[] = {"a note"};
    pms_stat_summary s = {.runs = 3, .elapsed_s = 0.5, .notes = notes, .nnotes = 1};
    pms_stat_json_totals(&j, &s, v + 1, 1);
    pms_json_object_end(&j);
    pms_json_array_end(&j);
    pms_json_finish(&j);
    fclose(f);
    const char *pf = "{\"event\":\"page-faults\",\"value\":7,\"unit\":\"\",\"uncertainty\":0,\"multiplexed\":false,"
                     "\"state\":\"counted\",\"run_time_ns\":1000,"
                     "\"running_pct\":100";
    char want[2048];
    snprintf(want, sizeof want,
             "[{\"run\":\"TEST5\",\"size\":5,\"counts\":[{\"event\":\"task-clock\",\"value\":2,\"unit\":\"msec\","
             "\"uncertainty\":0,\"multiplexed\":false,\"state\":\"counted\",\"run_time_ns\":1000,\"running_pct\":100},%s,"
             "\"metric\":3.5,"
             "\"metric_unit\":\"K/sec\"}],\"anchor_cv_pct\":{\"task-clock\":1.5}},{\"time\":0.25,\"counts\":[%s}]},"
             "{\"counts\":[%s}],\"elapsed_s\":0.5,\"runs\":3,\"notes\":[\"a note\"]}]\n",
             pf, pf, pf); /* 7 page faults in 2 ms of task-clock: 3.5 K/sec */
    assert_string_equal(buf, want);
    free(buf);
}

static void test_parse_sizes(void **state)
{
    (void)state;
    long *sizes;
    size_t n;
    assert_int_equal(pms_schedule_parse_sizes(&sizes, &n, "1-3,50,0"), PMS_OK);
    assert_int_equal(n, 5);
    long want[] = {1, 2, 3, 50, 0};
    for (size_t i = 0; i < n; i++) assert_int_equal(sizes[i], want[i]);
    free(sizes);
    assert_int_equal(pms_schedule_parse_sizes(&sizes, &n, "1-x"), PMS_EINVAL);
    assert_string_equal(pms_strerror(), "expected sizes such as 1-10,50, found '1-x' (at offset 0)");
    assert_int_equal(pms_schedule_parse_sizes(&sizes, &n, "4,3-2"), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "(at offset 2)"));
    assert_int_equal(pms_schedule_parse_sizes(&sizes, &n, ""), PMS_EINVAL);
}

struct sizes_seen {
    size_t runs, rows;
    long last_size;
    double page_faults[4];
};

static void count_run(void *ctx, size_t k, size_t run, size_t nruns, const pms_event *events, size_t n)
{
    struct sizes_seen *seen = ctx;
    (void)k, (void)run, (void)nruns;
    assert_int_equal(n, 2); /* the anchor and one event per run (per_run 1) */
    assert_string_equal(events[0].name, "task-clock");
    seen->runs++;
}

static int keep_row(void *ctx, size_t k, const pms_stat_value *merged, const double *cv)
{
    struct sizes_seen *seen = ctx;
    (void)cv;
    assert_int_equal(k, seen->rows);
    assert_string_equal(merged[1].name, "page-faults");
    seen->page_faults[seen->rows++] = merged[1].value;
    return PMS_OK;
}

/* The size is the command's last argument: sh -c 'script' SIZE sees it as $0. */
static void test_measure_sizes(void **state)
{
    (void)state;
    pms_event anchor = parse("task-clock"), evs[2] = {parse("page-faults"), parse("context-switches")};
    pms_schedule *s;
    assert_int_equal(pms_schedule_create(&anchor, 1, evs, 2, 1, &s), PMS_OK);
    char *argv[] = {"sh", "-c", "[ \"$0\" -lt 3 ]", NULL};
    long sizes[] = {1, 2, 3, 4};
    struct sizes_seen seen = {0};
    pms_schedule_sizes_opts o = {.on_run = count_run, .on_size = keep_row, .ctx = &seen};
    double worst[1] = {-1};
    assert_int_equal(pms_schedule_measure_sizes(worst, s, argv, sizes, 4, &o), PMS_ECHILD);
    assert_string_equal(pms_strerror(), "TEST3 (3/4): run 1/2: the command exited with status 1");
    assert_int_equal(seen.rows, 2);     /* sizes 1 and 2, passed on before the failure */
    assert_int_equal(seen.runs, 2 * 2 + 1);
    for (size_t r = 0; r < seen.rows; r++) assert_true(seen.page_faults[r] > 0); /* a shell faults pages in */
    assert_true(worst[0] >= 0);
    pms_schedule_destroy(s);
}

static void note_run(void *ctx, unsigned run, const pms_measure_result *res)
{
    unsigned *runs = ctx;
    assert_int_equal(run, *runs);
    assert_int_equal(res->wait_status, 0);
    (*runs)++;
}

/* Three runs of true, averaged; and with the stop flag already set, none. */
static void test_measure_repeated(void **state)
{
    (void)state;
    pms_event evs[2] = {parse("task-clock"), parse("page-faults")};
    char *argv[] = {"true", NULL};
    unsigned seen = 0;
    pms_stat_config cfg = {.events = evs, .nevents = 2, .argv = argv, .repeat = 3, .on_run = note_run, .ctx = &seen};
    pms_stat_result r;
    assert_int_equal(pms_stat_measure(&r, &cfg), PMS_OK);
    assert_int_equal(r.runs, 3);
    assert_int_equal(seen, 3);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.values[1].name, "page-faults");
    assert_int_equal(r.values[1].state, PMS_COUNT_COUNTED);
    assert_true(r.values[1].value > 0); /* exec faults pages in */
    assert_true(r.elapsed_s > 0);
    pms_stat_result_free(&r);

    volatile sig_atomic_t stop = SIGINT;
    cfg.stop = &stop;
    assert_int_equal(pms_stat_measure(&r, &cfg), PMS_OK);
    assert_int_equal(r.runs, 0);
    assert_null(r.values);
    pms_stat_result_free(&r);
}

/* perf stat -a -C 0 -A: one value per event and CPU, named by its CPU. */
static void test_measure_per_cpu(void **state)
{
    (void)state;
    pms_event evs[1] = {parse("cpu-clock")};
    char *argv[] = {"true", NULL};
    pms_stat_config cfg = {.events = evs, .nevents = 1, .argv = argv, .system_wide = true, .cpus = "0",
                           .per_cpu = true, .repeat = 2};
    pms_stat_result r;
    assert_int_equal(pms_stat_measure(&r, &cfg), PMS_OK); /* as root, or perf_event_paranoid <= 0 */
    assert_int_equal(r.runs, 2);
    assert_int_equal(r.n, 1);
    assert_true(r.values[0].per_cpu);
    assert_int_equal(r.values[0].cpu, 0);
    assert_int_equal(r.values[0].state, PMS_COUNT_COUNTED);
    pms_stat_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_style_picks_the_printer),
        cmocka_unit_test(test_target_names),
        cmocka_unit_test(test_json_of_sizes_and_totals),
        cmocka_unit_test(test_parse_sizes),
        cmocka_unit_test(test_measure_sizes),
        cmocka_unit_test(test_measure_repeated),
        cmocka_unit_test(test_measure_per_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
