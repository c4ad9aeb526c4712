/* The profile behind `pmuscope report`: Wilson intervals against R's prop.test, and the
 * shares of a perf.data that pmuscope writes against `perf report --stdio` on it. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/profile.h"
#include "binary_helpers.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* R's prop.test without continuity correction is the Wilson score interval. */
static void r_wilson(double k, double n, double conf, double *lo, double *hi)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "Rscript -e 'cat(sprintf(\"%%.12f\", prop.test(%.17g, %.17g, correct=FALSE, conf.level=%g)$conf.int))' "
             "2>/dev/null",
             k, n, conf);
    FILE *p = popen(cmd, "r");
    if (!p || fscanf(p, "%lf %lf", lo, hi) != 2) fail_msg("Rscript failed: %s", cmd);
    pclose(p);
}

static void test_wilson_matches_r(void **state)
{
    (void)state;
    static const struct {
        uint64_t k, n;
        double conf;
    } cases[] = {{40, 100, 0.95}, {40, 100, 0.9}, {0, 100, 0.95}, {100, 100, 0.95}, {1, 7, 0.99}, {1024, 2590, 0.95}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lo, hi, rlo, rhi;
        assert_int_equal(pms_wilson_interval(cases[i].k, cases[i].n, cases[i].conf, &lo, &hi), PMS_OK);
        r_wilson((double)cases[i].k, (double)cases[i].n, cases[i].conf, &rlo, &rhi);
        assert_true(fabs(lo - rlo) < 1e-9);
        assert_true(fabs(hi - rhi) < 1e-9);
    }
    double lo, hi;
    assert_int_equal(pms_wilson_interval(1, 2, 1.0, &lo, &hi), PMS_EINVAL);
    assert_int_equal(pms_wilson_interval(3, 2, 0.95, &lo, &hi), PMS_EINVAL);
}

/* ---- a recording written by pmuscope, read by pmuscope and by perf ---- */

static const char *names[] = {"hot_a", "hot_b", "hot_c", "hot_d", "hot_e"};

/* perf report's overhead of `symbol`, in percent. */
static double perf_share(const char *file, const char *symbol)
{
    char cmd[PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "perf report -i '%s' --stdio --sort sym 2>/dev/null | awk '$3==\"%s\"{print $1+0}'",
             file, symbol);
    FILE *p = popen(cmd, "r");
    double v = -1;
    if (!p || fscanf(p, "%lf", &v) != 1) v = -1;
    if (p) pclose(p);
    return v;
}

static void write_recording(const char *file, const char *bin, uint64_t base, unsigned counts[5], unsigned *kernel)
{
    static const uint64_t ids[] = {1};
    pms_perfdata_attr a = {.name = "cpu-clock", .ids = ids, .nids = 1};
    a.attr.size = sizeof a.attr;
    a.attr.type = PERF_TYPE_SOFTWARE;
    a.attr.sample_period = 10000;
    a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
    a.attr.sample_id_all = 1;
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, file, &a, 1, 0, NULL), PMS_OK);
    unsigned char rec[512];
    pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = 300, .tid = 300, .comm = "hotspots", .time = 1};
    assert_true(pms_perfdata_encode_task(rec, sizeof rec, &a, &comm) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    uint64_t text = pms_test_text_offset(bin);
    pms_mmap_event m = {.pid = 300, .tid = 300, .start = base + text, .len = 0x1000, .pgoff = text,
                        .executable = 1, .filename = bin, .time = 2};
    assert_true(pms_perfdata_encode_mmap2(rec, sizeof rec, &a, &m) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    /* The kernel's map, as perf record synthesises it (pid -1). */
    pms_mmap_event k = {.pid = UINT32_MAX, .tid = 0, .start = 0xffffffff81000000ull, .len = 0x1000000,
                        .pgoff = 0xffffffff81000000ull, .executable = 1, .filename = "[kernel.kallsyms]_text"};
    assert_true(pms_perfdata_encode_mmap2(rec, sizeof rec, &a, &k) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    uint64_t addr[5];
    for (int f = 0; f < 5; f++) addr[f] = pms_test_nm_address(bin, names[f]);
    /* A fixed pseudo-random mix, so the shares are not round numbers. */
    uint64_t x = 12345;
    memset(counts, 0, 5 * sizeof *counts);
    *kernel = 0;
    for (int i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(x >> 33) % 100;
        pms_sample s = {.pid = 300, .tid = 300, .time = 10 + (uint64_t)i, .period = 10000};
        if (r < 3) {
            s.ip = 0xffffffff81234560ull + (r << 4);
            s.misc = PERF_RECORD_MISC_KERNEL;
            (*kernel)++;
        } else {
            int f = r < 40 ? 0 : r < 65 ? 1 : r < 85 ? 2 : r < 95 ? 3 : 4;
            s.ip = base + addr[f] + (x >> 40) % 40; /* somewhere in the loop */
            counts[f]++;
        }
        assert_true(pms_perfdata_encode_sample(rec, sizeof rec, &a, &s) > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
}

/* A profile that has read the whole file. */
static void read_file(const char *file, pms_perfdata_reader **r, pms_symbols **syms, pms_profile **p)
{
    assert_int_equal(pms_perfdata_open(r, file), PMS_OK);
    assert_int_equal(pms_symbols_create(syms), PMS_OK);
    assert_int_equal(pms_profile_create(p, *syms), PMS_OK);
    assert_int_equal(pms_profile_read(*p, *r, NULL, NULL), PMS_OK);
}

static void test_shares_agree_with_perf_report(void **state)
{
    (void)state;
    const char *bin = pms_test_workload("hotspots");
    const char *file = pms_test_write_temp(".data", "", 0);
    unsigned counts[5], kernel;
    write_recording(file, bin, 0x55aa00000000ull, counts, &kernel);

    pms_perfdata_reader *r;
    pms_symbols *syms;
    pms_profile *p;
    read_file(file, &r, &syms, &p);
    assert_int_equal(pms_profile_samples(p, 0), 5000);

    pms_profile_row *rows;
    size_t n;
    assert_int_equal(pms_profile_table(p, 0, PMS_PROFILE_BY_SYMBOL, 0.95, &rows, &n), PMS_OK);
    assert_true(n >= 6); /* five functions, then the kernel's samples (by function or address) */
    for (int f = 0; f < 5; f++) {
        assert_string_equal(rows[f].symbol, names[f]); /* sorted: hot_a first ... hot_e last */
        assert_int_equal(rows[f].samples, counts[f]);
        assert_string_equal(rows[f].binary, bin);
        double perf = perf_share(file, names[f]);
        assert_true(fabs(100 * rows[f].share - perf) <= 0.005 + 1e-9);
        assert_true(rows[f].ci_low < rows[f].share && rows[f].share < rows[f].ci_high);
    }
    uint64_t in_kernel = 0;
    for (size_t i = 5; i < n; i++) {
        assert_string_equal(rows[i].binary, PMS_BINARY_KERNEL);
        in_kernel += rows[i].samples;
    }
    assert_int_equal(in_kernel, kernel);
    free(rows);

    /* By instruction: the same samples, finer rows, offsets inside the functions. */
    assert_int_equal(pms_profile_table(p, 0, PMS_PROFILE_BY_IP, 0.95, &rows, &n), PMS_OK);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += rows[i].samples;
        if (rows[i].symbol && strcmp(rows[i].binary, PMS_BINARY_KERNEL) != 0) assert_true(rows[i].symbol_offset < 40);
    }
    assert_int_equal(total, 5000);
    assert_true(n > 100);
    free(rows);
    assert_int_equal(pms_profile_table(p, 0, PMS_PROFILE_BY_IP, 1.5, &rows, &n), PMS_EINVAL);

    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    remove(file);
}

/* Varying periods: period shares as perf weighs them, the interval from Kish's effective
 * sample size: periods 300 | 100, 100, 100 give n_eff = 600^2 / 120000 = 3. */
static void test_period_weights(void **state)
{
    (void)state;
    pms_symbols *syms;
    pms_profile *p;
    assert_int_equal(pms_symbols_create(&syms), PMS_OK);
    assert_int_equal(pms_profile_create(&p, syms), PMS_OK);
    pms_perfdata_attr a = {.attr = {.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD, .freq = 1}};
    pms_sample s = {.attr = &a, .ip = 0x100, .pid = 1, .period = 300};
    assert_int_equal(pms_profile_add(p, 0, &s), PMS_OK);
    s.ip = 0x200;
    s.period = 100;
    for (int i = 0; i < 3; i++) assert_int_equal(pms_profile_add(p, 0, &s), PMS_OK);
    pms_profile_row *rows;
    size_t n;
    assert_int_equal(pms_profile_table_weighted(p, 0, PMS_PROFILE_BY_IP, PMS_WEIGHT_SAMPLES, 0.95, &rows, &n), PMS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(rows[0].ip, 0x200);
    assert_close(rows[0].share, 0.75, 1e-12);
    free(rows);
    assert_int_equal(pms_profile_table_weighted(p, 0, PMS_PROFILE_BY_IP, PMS_WEIGHT_PERIOD, 0.95, &rows, &n), PMS_OK);
    assert_int_equal(n, 2);
    assert_close(rows[0].share, 0.5, 1e-12);
    assert_int_equal(rows[0].period + rows[1].period, 600);
    double rlo, rhi;
    r_wilson(1.5, 3, 0.95, &rlo, &rhi);
    assert_true(fabs(rows[0].ci_low - rlo) < 1e-9 && fabs(rows[0].ci_high - rhi) < 1e-9);
    free(rows);
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
}

/* perf report --children's Children column of `symbol`, in percent. */
static double perf_children(const char *file, const char *symbol)
{
    char cmd[PATH_MAX + 256];
    snprintf(cmd, sizeof cmd,
             "perf report -i '%s' --stdio --children -g none --sort sym 2>/dev/null | awk '$4==\"%s\"{print $1+0}'", file,
             symbol);
    FILE *p = popen(cmd, "r");
    double v = -1;
    if (!p || fscanf(p, "%lf", &v) != 1) v = -1;
    if (p) pclose(p);
    return v;
}

/* Callchains with PERF_CONTEXT_* markers, written by pmuscope's encoder and read by perf and
 * by the profile: kernel samples whose chain goes on in user space, recursion (a function
 * twice in one chain counts once), and a guest context, whose chain perf drops (the
 * sample counts in its own row only). Children counts are checked against a count made
 * here and against perf report --children on the same file. */
static void test_callchain_children(void **state)
{
    (void)state;
    const char *bin = pms_test_workload("hotspots");
    const char *file = pms_test_write_temp(".data", "", 0);
    static const uint64_t ids[] = {1};
    pms_perfdata_attr a = {.name = "cpu-clock", .ids = ids, .nids = 1};
    a.attr.size = sizeof a.attr;
    a.attr.type = PERF_TYPE_SOFTWARE;
    a.attr.sample_period = 10000;
    a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
    a.attr.sample_id_all = 1;
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, file, &a, 1, 0, NULL), PMS_OK);
    _Alignas(8) unsigned char rec[512];
    const uint64_t base = 0x55aa00000000ull, text = pms_test_text_offset(bin);
    pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = 300, .tid = 300, .comm = "hotspots", .time = 1};
    assert_true(pms_perfdata_encode_task(rec, sizeof rec, &a, &comm) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    pms_mmap_event m = {.pid = 300, .tid = 300, .start = base + text, .len = 0x1000, .pgoff = text,
                        .executable = 1, .filename = bin, .time = 2};
    assert_true(pms_perfdata_encode_mmap2(rec, sizeof rec, &a, &m) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    uint64_t addr[5];
    for (int f = 0; f < 5; f++) addr[f] = base + pms_test_nm_address(bin, names[f]) + 4;
    unsigned children[5] = {0}, self[5] = {0};
    uint64_t x = 777;
    for (int i = 0; i < 2000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int f = (int)((x >> 33) % 5), g = (int)((x >> 40) % 5), h = (int)((x >> 50) % 5);
        pms_sample s = {.pid = 300, .tid = 300, .time = 10 + (uint64_t)i, .period = 10000, .ip = addr[f]};
        uint64_t chain[8];
        size_t nr = 0;
        int in[5] = {0};
        in[f] = 1; /* the sample's own row */
        if (i % 50 == 0) { /* a guest context: perf drops the chain */
            chain[nr++] = (uint64_t)PERF_CONTEXT_GUEST_USER;
            chain[nr++] = addr[g];
            self[f]++;
        } else if (i % 10 == 0) { /* in the kernel (no kernel map: [unknown]), called from g */
            s.ip = 0xffffffff81234560ull;
            s.misc = PERF_RECORD_MISC_KERNEL;
            chain[nr++] = (uint64_t)PERF_CONTEXT_KERNEL;
            chain[nr++] = s.ip;
            chain[nr++] = (uint64_t)PERF_CONTEXT_USER;
            chain[nr++] = addr[g];
            in[f] = 0;
            in[g] = 1;
        } else { /* f called by g called by h called by g: recursion */
            chain[nr++] = (uint64_t)PERF_CONTEXT_USER;
            chain[nr++] = addr[f];
            chain[nr++] = addr[g];
            chain[nr++] = addr[h];
            chain[nr++] = addr[g];
            in[g] = in[h] = 1;
            self[f]++;
        }
        for (int k = 0; k < 5; k++) children[k] += (unsigned)in[k];
        s.nr_callchain = nr;
        s.callchain = chain;
        assert_true(pms_perfdata_encode_sample(rec, sizeof rec, &a, &s) > 0);
        /* the parser gives the chain back as written */
        pms_sample back;
        pms_read_value v[1];
        assert_int_equal(pms_sample_parse((const struct perf_event_header *)rec, &a, 1, &back, v, 1), PMS_OK);
        assert_int_equal(back.nr_callchain, nr);
        assert_memory_equal(back.callchain, chain, nr * sizeof *chain);
        assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);

    pms_perfdata_reader *r;
    pms_symbols *syms;
    pms_profile *p;
    read_file(file, &r, &syms, &p);
    assert_true(pms_profile_has_callchains(p, 0));
    pms_profile_row *rows;
    size_t n;
    assert_int_equal(pms_profile_table(p, 0, PMS_PROFILE_BY_SYMBOL | PMS_PROFILE_CHILDREN, 0.95, &rows, &n), PMS_OK);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (i) assert_true(rows[i - 1].children_share >= rows[i].children_share); /* sorted by children */
        for (int f = 0; f < 5; f++) {
            if (!rows[i].symbol || strcmp(rows[i].symbol, names[f]) != 0) continue;
            found++;
            assert_int_equal(rows[i].children_samples, children[f]);
            assert_int_equal(rows[i].samples, self[f]);
            assert_true(fabs(100 * rows[i].children_share - perf_children(file, names[f])) <= 0.005 + 1e-9);
        }
    }
    assert_int_equal(found, 5);
    free(rows);
    /* the call paths of each row's own samples add up to its samples */
    pms_profile_path *paths;
    size_t npaths;
    assert_int_equal(pms_profile_table_paths(p, 0, PMS_PROFILE_BY_SYMBOL, PMS_WEIGHT_SAMPLES, 0.95, &rows, &n, &paths,
                                             &npaths), PMS_OK);
    assert_true(npaths > 5);
    for (size_t i = 0; i < n; i++) {
        uint64_t in_paths = 0;
        for (size_t k = 0; k < npaths; k++)
            if (paths[k].row == i) in_paths += paths[k].samples;
        assert_int_equal(in_paths, rows[i].samples);
    }
    for (size_t k = 0; k < npaths; k++) { /* leaf first: a user sample's path starts with its row's function */
        if (!rows[paths[k].row].symbol || !paths[k].path[0]) continue;
        assert_true(strncmp(paths[k].path, rows[paths[k].row].symbol, strlen(rows[paths[k].row].symbol)) == 0);
    }
    pms_profile_paths_free(paths, npaths);
    free(rows);
    assert_int_equal(pms_profile_table_paths(p, 0, PMS_PROFILE_BY_SYMBOL | PMS_PROFILE_WITH_COMM, PMS_WEIGHT_SAMPLES,
                                             0.95, &rows, &n, &paths, &npaths), PMS_EINVAL);
    /* without the flag: no children, as before */
    assert_int_equal(pms_profile_table(p, 0, PMS_PROFILE_BY_SYMBOL, 0.95, &rows, &n), PMS_OK);
    for (size_t i = 0; i < n; i++) assert_int_equal(rows[i].children_samples, 0);
    free(rows);
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    remove(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson_matches_r),
        cmocka_unit_test(test_shares_agree_with_perf_report),
        cmocka_unit_test(test_period_weights),
        cmocka_unit_test(test_callchain_children),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
