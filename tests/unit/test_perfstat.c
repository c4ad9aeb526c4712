/* The perf stat -I reader: both line forms, the ARM files, merging runs, event names. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/perfstat.h"

#include <math.h>
#include <string.h>

static pms_table *parse(const char *text)
{
    pms_table *t = NULL;
    assert_int_equal(pms_perfstat_parse(text, strlen(text), "s.txt", &t), PMS_OK);
    return t;
}

static const double *col(const pms_table *t, const char *name)
{
    size_t c;
    assert_int_equal(pms_table_require(t, name, &c), PMS_OK);
    const double *v;
    assert_int_equal(pms_table_numeric(t, c, true, &v), PMS_OK);
    return v;
}

/* As perf 6.1 printed it for `perf stat -I 100 -x, -e task-clock,page-faults,context-switches`. */
static const char csv_text[] =
    "     0.100371882,1.49,msec,task-clock,1490862,100.00,0.015,CPUs utilized\n"
    "     0.100371882,77,,page-faults,1490862,100.00,51.648,K/sec\n"
    "     0.100371882,4,,context-switches,1490862,100.00,2.683,K/sec\n"
    "     0.200708110,<not counted>,msec,task-clock,0,100.00,,\n"
    "     0.200708110,<not counted>,,page-faults,0,100.00,,\n"
    "     0.200708110,<not counted>,,context-switches,0,100.00,,\n"
    "     0.352319149,0.06,msec,task-clock,63109,100.00,0.001,CPUs utilized\n"
    "     0.352319149,0,,page-faults,63109,100.00,0.000,/sec\n"
    "     0.352319149,0,,context-switches,63109,100.00,0.000,/sec\n";

static void test_csv_form(void **s)
{
    (void)s;
    pms_table *t = parse(csv_text);
    assert_int_equal(pms_table_rows(t), 3);
    assert_int_equal(pms_table_cols(t), 5);
    assert_string_equal(pms_table_col_name(t, 2), "task-clock");
    assert_close(col(t, "time")[2], 0.352319149, 0);
    assert_close(col(t, "interval")[2], 3, 0);
    assert_close(col(t, "page-faults")[0], 77, 0);
    assert_close(col(t, "task-clock")[0], 1.49, 0);
    assert_true(isnan(col(t, "context-switches")[1]));
    pms_table_free(t);
}

static void test_plain_form(void **s)
{
    (void)s;
    pms_table *t = parse("#           time             counts unit events\n"
                         "     1.000264733           1,001.43 msec task-clock    #    0.014 CPUs utilized\n"
                         "     1.000264733          1,234,567      cycles:u      #    1.2 GHz   (50.00%)\n"
                         "     1.000264733                  1      context-switches  #  699.038 /sec\n"
                         "     2.000583758      <not counted> msec task-clock\n"
                         "     2.000583758      <not supported>      cycles:u\n"
                         "     2.000583758                  3      context-switches\n");
    assert_int_equal(pms_table_rows(t), 2);
    assert_close(col(t, "task-clock")[0], 1001.43, 1e-15);
    assert_close(col(t, "cycles:u")[0], 1234567, 0);
    assert_true(isnan(col(t, "cycles:u")[1]));
    assert_close(col(t, "context-switches")[1], 3, 0);
    pms_table_free(t);
}

static void test_per_cpu_counts_are_summed(void **s)
{
    (void)s;
    pms_table *t = parse("1.0,CPU0,10,,cycles,100,100.00,,\n1.0,CPU1,5,,cycles,100,100.00,,\n"
                         "2.0,CPU0,7,,cycles,100,100.00,,\n2.0,CPU1,<not counted>,,cycles,0,100.00,,\n");
    assert_close(col(t, "cycles")[0], 15, 0);
    assert_close(col(t, "cycles")[1], 7, 0);
    pms_table_free(t);
}

static void test_errors(void **s)
{
    (void)s;
    pms_table *t = NULL;
    const char *bad = "1.0,5,,cycles,1,100.00,,\nhello world\n";
    assert_int_equal(pms_perfstat_parse(bad, strlen(bad), "s.txt", &t), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "s.txt:2: expected a perf stat -I line"));
    const char *back = "2.0 5 cycles\n1.0 6 cycles\n";
    assert_int_equal(pms_perfstat_parse(back, strlen(back), "s.txt", &t), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "s.txt:2: time 1.000000000 goes back"));
    const char *twice = "1.0 5 cycles\n1.0 6 cycles\n";
    assert_int_equal(pms_perfstat_parse(twice, strlen(twice), "s.txt", &t), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "s.txt:2: event 'cycles' appears twice"));
    assert_int_equal(pms_perfstat_parse("# nothing\n", 10, "s.txt", &t), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "no intervals"));
    assert_null(t);
}

/* The ARM files: header lines map raw ids to names; two lists merged by interval. */
static void test_arm_lists_merged(void **s)
{
    (void)s;
    pms_table *l1 = NULL, *l2 = NULL, *m = NULL;
    assert_int_equal(pms_interval_table_read(pms_test_fixture("armpm/events_list_1-run1-1GHz-head.data"), &l1), PMS_OK);
    assert_int_equal(pms_perfstat_read(pms_test_fixture("armpm/events_list_2-run1-1GHz-head.data"), &l2), PMS_OK);
    assert_int_equal(pms_table_rows(l1), 70);
    assert_string_equal(pms_table_col_name(l1, 2), "timestamp_ns");
    assert_string_equal(pms_table_col_name(l1, 3), "CPU_CYCLES");
    assert_string_equal(pms_table_col_name(l1, 5), "L1I_CACHE_REFILL");
    assert_close(col(l1, "CPU_CYCLES")[0], 314148036, 0);
    assert_close(col(l1, "L1I_CACHE_REFILL")[0], 220448, 0);
    assert_close(col(l1, "timestamp_ns")[0], 1481219964017747737.0 + 0.500360416e9, 1e-15);
    assert_close(col(l2, "INST_RETIRED")[0], 479839157, 0);

    const pms_table *runs[] = {l1, l2};
    assert_int_equal(pms_table_merge_runs(runs, 2, PMS_MERGE_BY_INTERVAL, 0, &m), PMS_OK);
    assert_int_equal(pms_table_rows(m), 70);
    assert_close(col(m, "CPU_CYCLES@2")[0], 314338474, 0);
    assert_close(col(m, "BRANCH_MISPRED")[0], col(l2, "BRANCH_MISPRED")[0], 0);
    size_t cyc, miss;
    assert_int_equal(pms_table_find_event(m, PMS_EVENT_CYCLES, NULL, &cyc), PMS_OK);
    assert_string_equal(pms_table_col_name(m, cyc), "CPU_CYCLES");
    assert_int_equal(pms_table_find_event(m, PMS_EVENT_MISS, NULL, &miss), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "'L1I_CACHE_REFILL', 'L1I_TLB_REFILL'"));
    pms_table_free(m);

    /* by time: the lists started at different moments but their interval times agree within 1 ms */
    assert_int_equal(pms_table_merge_runs(runs, 2, PMS_MERGE_BY_TIME, 0.005, &m), PMS_OK);
    assert_int_equal(pms_table_rows(m), 70);
    pms_table_free(m);
    assert_int_equal(pms_table_merge_runs(runs, 2, PMS_MERGE_BY_TIME, 1e-9, &m), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "no interval is present in all 2 runs"));
    pms_table_free(l1);
    pms_table_free(l2);

    /* the first table's text columns come along (to group by), the later ones' do not */
    const char *w1 = "interval,Benchmark,cycles\n1,a,10\n2,b,20\n", *w2 = "interval,Benchmark,misses\n1,x,1\n2,y,2\n";
    assert_int_equal(pms_table_parse(w1, strlen(w1), "w1.csv", NULL, &l1), PMS_OK);
    assert_int_equal(pms_table_parse(w2, strlen(w2), "w2.csv", NULL, &l2), PMS_OK);
    const pms_table *wide[] = {l1, l2};
    assert_int_equal(pms_table_merge_runs(wide, 2, PMS_MERGE_BY_INTERVAL, 0, &m), PMS_OK);
    size_t b;
    assert_int_equal(pms_table_require(m, "Benchmark", &b), PMS_OK);
    assert_string_equal(pms_table_string(m, 1, b), "b");
    assert_int_equal(pms_table_find(m, "Benchmark@2"), -1);
    assert_int_equal(pms_table_cols(m), 4); /* interval, Benchmark, cycles, misses */
    pms_table_free(m);
    pms_table_free(l1);
    pms_table_free(l2);
}

/* awk's count of the intervals (after the first) whose middle lies in program
 * prog's window, from the raw file and its benchmarks.data. */
static size_t awk_count(const char *raw, const char *windows, const char *prog)
{
    const char *out = pms_test_write_temp(".awk", "", 0);
    assert_int_equal(pms_test_system("awk -v want='%s' 'FNR == NR { if ($1 == want) { lo = $2; hi = $3 } next } "
                                     "/^Start:/ { start = $2; next } /^ *[0-9]/ { if ($1 != last) { "
                                     "ts = start + $1 * 1e9; if (last != \"\") { mid = (ts + prev) / 2; "
                                     "if (mid >= lo && mid < hi) n++ } prev = ts; last = $1 } } "
                                     "END { print n + 0 }' '%s' '%s' > '%s'",
                                     prog, windows, raw, out),
                     0);
    FILE *f = fopen(out, "r");
    size_t n = 0;
    assert_int_equal(fscanf(f, "%zu", &n), 1);
    fclose(f);
    remove(out);
    return n;
}

static size_t count_label(const pms_table *t, size_t from, const char *prog)
{
    size_t c, n = 0;
    assert_int_equal(pms_table_require(t, "program", &c), PMS_OK);
    for (size_t i = from; i < pms_table_rows(t); i++) n += strcmp(pms_table_string(t, i, c), prog) == 0;
    return n;
}

/* The ARM lists labelled with their program windows, merged program by program. */
static void test_program_windows(void **s)
{
    (void)s;
    char raw[2][1024], win[2][1024];
    pms_table *t[2];
    for (int l = 0; l < 2; l++) {
        snprintf(raw[l], sizeof raw[l], "%s", pms_test_fixture(l ? "armpm/events_list_2-run1-1GHz-head.data"
                                                                  : "armpm/events_list_1-run1-1GHz-head.data"));
        snprintf(win[l], sizeof win[l], "%s", pms_test_fixture(l ? "armpm/benchmarks_list_2-run1-1GHz.data"
                                                                  : "armpm/benchmarks_list_1-run1-1GHz.data"));
        assert_int_equal(pms_perfstat_read(raw[l], &t[l]), PMS_OK);
        assert_int_equal(pms_table_label_windows(t[l], win[l], "program"), PMS_OK);
        size_t nb = awk_count(raw[l], win[l], "automotive_bitcount"), nq = awk_count(raw[l], win[l], "automotive_qsort1");
        assert_true(nb > 50 && nq > 5);
        assert_int_equal(count_label(t[l], 1, "automotive_bitcount"), nb);
        assert_int_equal(count_label(t[l], 1, "automotive_qsort1"), nq);
    }
    pms_table *m = NULL;
    assert_int_equal(pms_table_merge_runs_grouped((const pms_table *const *)t, 2, "program", &m), PMS_OK);
    size_t b0 = count_label(t[0], 0, "automotive_bitcount"), b1 = count_label(t[1], 0, "automotive_bitcount");
    assert_int_equal(count_label(m, 0, "automotive_bitcount"), b0 < b1 ? b0 : b1);
    assert_string_equal(pms_table_col_name(m, 0), "program");
    size_t c;
    assert_int_equal(pms_table_require(m, "INST_RETIRED", &c), PMS_OK);
    assert_int_equal(pms_table_require(m, "CPU_CYCLES@2", &c), PMS_OK);
    pms_table_free(m);
    /* a table without a start time cannot be labelled */
    pms_table *plain = NULL;
    const char *text = "1.0 5 cycles\n2.0 6 cycles\n";
    assert_int_equal(pms_perfstat_parse(text, strlen(text), "s.txt", &plain), PMS_OK);
    assert_int_equal(pms_table_label_windows(plain, win[0], "program"), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "needs their start time"));
    pms_table_free(plain);
    pms_table_free(t[0]);
    pms_table_free(t[1]);
}

static void test_event_roles(void **s)
{
    (void)s;
    static const struct {
        const char *name;
        pms_event_role role;
    } cases[] = {
        {"cycles", PMS_EVENT_CYCLES},
        {"cpu-cycles:u", PMS_EVENT_CYCLES},
        {"CPU_CYCLES", PMS_EVENT_CYCLES},
        {"cpu/cycles/", PMS_EVENT_CYCLES},
        {"cpu_clk_unhalted.thread", PMS_EVENT_CYCLES},
        {"instructions", PMS_EVENT_INSTRUCTIONS},
        {"INST_RETIRED", PMS_EVENT_INSTRUCTIONS},
        {"inst_retired.any:k", PMS_EVENT_INSTRUCTIONS},
        {"L1-dcache-load-misses", PMS_EVENT_MISS},
        {"L1-icache-load-misses", PMS_EVENT_MISS},
        {"branch-misses", PMS_EVENT_MISS},
        {"dTLB-load-misses", PMS_EVENT_MISS},
        {"LLC-load-misses", PMS_EVENT_MISS},
        {"L1D_CACHE_REFILL", PMS_EVENT_MISS},
        {"L1I_TLB_REFILL", PMS_EVENT_MISS},
        {"BRANCH_MISPRED", PMS_EVENT_MISS},
        {"br_misp_retired.all_branches", PMS_EVENT_MISS},
        {"L1D_CACHE_ACCESS", PMS_EVENT_OTHER},
        {"task-clock", PMS_EVENT_OTHER},
        {"CPU_CYCLES@2", PMS_EVENT_OTHER},
        {"interval", PMS_EVENT_NOT_EVENT},
        {"A15 Power(W)", PMS_EVENT_NOT_EVENT},
        {"timestamp_ns", PMS_EVENT_NOT_EVENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (pms_event_role_of(cases[i].name) != cases[i].role) fail_msg("role of %s", cases[i].name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_form),  cmocka_unit_test(test_plain_form),
        cmocka_unit_test(test_per_cpu_counts_are_summed), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_arm_lists_merged), cmocka_unit_test(test_program_windows),
        cmocka_unit_test(test_event_roles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
