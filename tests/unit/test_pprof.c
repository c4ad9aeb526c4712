/* pprof profiles, exactly: a synthetic perf.data (the hotspots binary mapped at a known
 * base, samples at nm's hot_a and hot_b with known periods, and a counter read at every
 * sample) becomes a profile whose locations hold exactly the samples, periods and counter
 * increments put in, in the right mapping and function, with share labels and comments;
 * the reader gives it back as a table; broken profiles are refused with messages that
 * name the file and what is wrong. */
#include "test_support.h"
#include "binary_helpers.h"
#include "io/pprof_file.h"
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x555555554000ull
#define PID 4242

static const uint64_t ids[2] = {101, 102};
static char binary[PATH_MAX];
static uint64_t addr_a, addr_b;

static void make_attrs(pms_perfdata_attr a[2])
{
    static const char *const names[2] = {"cpu-clock", "page-faults"};
    static const uint64_t configs[2] = {PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_PAGE_FAULTS};
    memset(a, 0, 2 * sizeof *a);
    for (int i = 0; i < 2; i++) {
        a[i].name = names[i];
        a[i].ids = &ids[i];
        a[i].nids = 1;
        a[i].attr.size = sizeof a[i].attr;
        a[i].attr.type = PERF_TYPE_SOFTWARE;
        a[i].attr.config = configs[i];
        a[i].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
        a[i].attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
        a[i].attr.sample_id_all = 1;
    }
    a[0].attr.sample_period = 1000;
    a[0].attr.mmap = a[0].attr.mmap2 = a[0].attr.comm = 1;
}

static void add(pms_perfdata_writer *w, const void *rec, size_t n)
{
    assert_true(n > 0);
    assert_int_equal(pms_perfdata_writer_add(w, rec), PMS_OK);
}

/* hot_a: 3 samples of periods 1000, 1100, 1200; hot_b: 1 sample of period 1300. The
 * page-faults counter reads 5, 12, 20, 26 at them: increments 5, 7, 8 (hot_a) and 6. */
static const char *write_perfdata(void)
{
    pms_perfdata_attr a[2];
    make_attrs(a);
    const char *path = pms_test_write_temp(".data", "", 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, a, 2, 0, NULL), PMS_OK);
    unsigned char rec[1024];
    pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = PID, .tid = PID, .comm = "hotspots", .time = 1};
    add(w, rec, pms_perfdata_encode_task(rec, sizeof rec, &a[0], &comm));
    pms_mmap_event m = {.pid = PID, .tid = PID, .start = BASE, .len = 0x10000, .pgoff = 0, .prot = 5,
                        .executable = 1, .filename = binary, .time = 2};
    add(w, rec, pms_perfdata_encode_mmap2(rec, sizeof rec, &a[0], &m));
    const uint64_t ips[4] = {BASE + addr_a + 8, BASE + addr_a + 8, BASE + addr_a + 8, BASE + addr_b + 8};
    const uint64_t periods[4] = {1000, 1100, 1200, 1300}, faults[4] = {5, 12, 20, 26};
    for (int k = 0; k < 4; k++) {
        pms_read_value v[2] = {{(uint64_t)k * 1000, ids[0]}, {faults[k], ids[1]}};
        pms_sample s = {.ip = ips[k], .pid = PID, .tid = PID, .time = 100 + (uint64_t)k, .id = ids[0],
                        .period = periods[k], .nvalues = 2, .values = v};
        add(w, rec, pms_perfdata_encode_sample(rec, sizeof rec, &a[0], &s));
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
    return path;
}

static int setup(void **state)
{
    (void)state;
    snprintf(binary, sizeof binary, "%s", pms_test_workload("hotspots"));
    addr_a = pms_test_nm_address(binary, "hot_a"); /* PIE: ELF address = file offset in text */
    addr_b = pms_test_nm_address(binary, "hot_b");
    return 0;
}

static const char *str(const Pms__Profile *p, int64_t i) { return p->string_table[i]; }

static const Pms__Location *location_at(const Pms__Profile *p, uint64_t address)
{
    for (size_t i = 0; i < p->n_location; i++)
        if (p->location[i]->address == address) return p->location[i];
    fail_msg("no location at 0x%llx", (unsigned long long)address);
    return NULL;
}

static const Pms__Sample *sample_of(const Pms__Profile *p, uint64_t location_id)
{
    for (size_t i = 0; i < p->n_sample; i++)
        if (p->sample[i]->n_location_id == 1 && p->sample[i]->location_id[0] == location_id) return p->sample[i];
    fail_msg("no sample of location %llu", (unsigned long long)location_id);
    return NULL;
}

static const char *function_name(const Pms__Profile *p, const Pms__Location *loc)
{
    assert_int_equal(loc->n_line, 1);
    for (size_t i = 0; i < p->n_function; i++)
        if (p->function[i]->id == loc->line[0]->function_id) return str(p, p->function[i]->name);
    fail_msg("no function %llu", (unsigned long long)loc->line[0]->function_id);
    return NULL;
}

static int has_comment(const Pms__Profile *p, const char *text)
{
    for (size_t i = 0; i < p->n_comment; i++)
        if (strstr(str(p, p->comment[i]), text)) return 1;
    return 0;
}

static void test_write_exact(void **state)
{
    (void)state;
    const char *data = write_perfdata(), *out = pms_test_write_temp(".pb.gz", "", 0);
    const char *notes[] = {"seed 42"};
    pms_pprof_options o = {.notes = notes, .nnotes = 1};
    assert_int_equal(pms_pprof_write_perfdata(out, data, &o), PMS_OK);
    Pms__Profile *p = NULL;
    assert_int_equal(pms__pprof_load(&p, out), PMS_OK);
    /* cpu-clock sampled: samples and period; page-faults only read: its increments. */
    assert_int_equal(p->n_sample_type, 3);
    assert_string_equal(str(p, p->sample_type[0]->type), "cpu-clock_samples");
    assert_string_equal(str(p, p->sample_type[0]->unit), "count");
    assert_string_equal(str(p, p->sample_type[1]->type), "cpu-clock");
    assert_string_equal(str(p, p->sample_type[1]->unit), "nanoseconds");
    assert_string_equal(str(p, p->sample_type[2]->type), "page-faults");
    assert_string_equal(str(p, p->sample_type[2]->unit), "events");
    assert_string_equal(str(p, p->default_sample_type), "cpu-clock_samples");
    assert_int_equal(p->period, 1000);
    assert_int_equal(p->n_location, 2);
    const Pms__Location *la = location_at(p, BASE + addr_a + 8), *lb = location_at(p, BASE + addr_b + 8);
    assert_string_equal(function_name(p, la), "hot_a");
    assert_string_equal(function_name(p, lb), "hot_b");
    const Pms__Sample *sa = sample_of(p, la->id), *sb = sample_of(p, lb->id);
    const int64_t want_a[3] = {3, 3300, 20}, want_b[3] = {1, 1300, 6};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(sa->value[k], want_a[k]);
        assert_int_equal(sb->value[k], want_b[k]);
    }
    assert_int_equal(sa->n_label, 1);
    assert_string_equal(str(p, sa->label[0]->key), "cpu-clock share");
    assert_non_null(strstr(str(p, sa->label[0]->str), "75.00% ["));
    /* One mapping: the binary, where it was mapped, its build-id as readelf reads it. */
    assert_int_equal(p->n_mapping, 1);
    assert_int_equal(la->mapping_id, p->mapping[0]->id);
    assert_string_equal(str(p, p->mapping[0]->filename), binary);
    assert_int_equal(p->mapping[0]->memory_start, BASE);
    assert_int_equal(p->mapping[0]->memory_limit, BASE + 0x10000);
    char want_id[128];
    assert_int_equal(pms_test_system("readelf -n '%s' | awk '/Build ID/ {print $3}' > %s.id", binary, out), 0);
    char idpath[PATH_MAX];
    snprintf(idpath, sizeof idpath, "%s.id", out);
    FILE *f = fopen(idpath, "r");
    assert_non_null(f);
    assert_non_null(fgets(want_id, sizeof want_id, f));
    fclose(f);
    remove(idpath);
    want_id[strcspn(want_id, "\n")] = 0;
    assert_string_equal(str(p, p->mapping[0]->build_id), want_id);
    assert_true(has_comment(p, "seed 42"));
    assert_true(has_comment(p, "event cpu-clock: 4 samples, sampled every 1000 nanoseconds, randomised: periods from "
                               "1000 to 1300"));
    assert_true(has_comment(p, "event page-faults: counted, 26 events over the samples"));
    assert_true(has_comment(p, " 75.00% ["));
    pms__pprof_free(p);

    /* The reader: hot_a 75% of the samples, 3300/4600 of the time. */
    pms_pprof *r = NULL;
    assert_int_equal(pms_pprof_open(&r, out), PMS_OK);
    assert_int_equal(pms_pprof_default_type(r), 0);
    pms_pprof_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(pms_pprof_table(r, 1, 0.95, &rows, &n), PMS_OK);
    assert_int_equal(n, 2);
    assert_string_equal(rows[0].function, "hot_a");
    assert_string_equal(rows[0].binary, binary);
    assert_int_equal(rows[0].value, 3300);
    assert_int_equal(rows[0].samples, 3);
    assert_true(fabs(rows[0].share - 3300.0 / 4600.0) < 1e-12);
    assert_true(rows[0].ci_low < rows[0].share && rows[0].share < rows[0].ci_high);
    free(rows);
    pms_pprof_close(r);
    remove(out);
    remove(data);
}

/* A profile put together by hand from bytes: field numbers and wire types of profile.proto. */
static size_t varint(unsigned char *b, uint64_t v)
{
    size_t n = 0;
    do {
        b[n] = (unsigned char)(v & 0x7f) | (v > 0x7f ? 0x80 : 0);
        v >>= 7;
        n++;
    } while (v);
    return n;
}

static size_t field_bytes(unsigned char *b, unsigned field, const void *data, size_t len)
{
    size_t n = varint(b, (uint64_t)field << 3 | 2);
    n += varint(b + n, len);
    memcpy(b + n, data, len);
    return n + len;
}

static void expect_refused(const unsigned char *bytes, size_t len, const char *message)
{
    pms_pprof *p = NULL;
    assert_int_equal(pms_pprof_open_mem(&p, bytes, len, "t.pb"), PMS_EFORMAT);
    assert_null(p);
    if (!strstr(pms_strerror(), message)) fail_msg("message '%s' lacks '%s'", pms_strerror(), message);
}

static void test_broken(void **state)
{
    (void)state;
    unsigned char b[256], msg[64];
    size_t n = 0;
    /* string table "" and "x"; a function whose name is string 9 */
    n += field_bytes(b + n, 6, "", 0);
    n += field_bytes(b + n, 6, "x", 1);
    size_t m = 0;
    m += varint(msg + m, 1 << 3), m += varint(msg + m, 1); /* id 1 */
    m += varint(msg + m, 2 << 3), m += varint(msg + m, 9); /* name 9 */
    size_t bad_function = n + field_bytes(b + n, 5, msg, m);
    expect_refused(b, bad_function, "t.pb: function 0 names string 9, the string table has 2");
    /* a sample at location 7, which does not exist */
    unsigned char vt[8], sample[16];
    size_t v = 0, s = 0;
    v += varint(vt + v, 1 << 3), v += varint(vt + v, 1);
    n += field_bytes(b + n, 1, vt, v); /* sample type "x" */
    unsigned char loc[] = {7}, val[] = {1};
    s += field_bytes(sample + s, 1, loc, 1);
    s += field_bytes(sample + s, 2, val, 1);
    n += field_bytes(b + n, 2, sample, s);
    expect_refused(b, n, "t.pb: sample 0 refers to location 7, which the profile lacks");
    /* not protobuf, and a string table that does not start with "" */
    expect_refused((const unsigned char *)"\x0a\xff", 2, "t.pb: not a pprof profile");
    unsigned char nonempty[8];
    expect_refused(nonempty, field_bytes(nonempty, 6, "y", 1), "does not start with \"\"");
    /* gzip cut short */
    unsigned char gz[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    expect_refused(gz, sizeof gz, "t.pb: gzip data ends early");
}

/* A writer that repeats a string in its string table (one "spin" per function entry, as
 * the format allows though it asks for distinct strings): the two functions are one row,
 * keyed by the name's content, not by its index. Packed by protobuf-c. */
static void test_repeated_strings(void **state)
{
    (void)state;
    char *strings[] = {"", "samples", "count", "spin", "spin", "main.go", "other"};
    Pms__ValueType type = PMS__VALUE_TYPE__INIT;
    type.type = 1;
    type.unit = 2;
    Pms__ValueType *types[] = {&type};
    Pms__Function f[3] = {PMS__FUNCTION__INIT, PMS__FUNCTION__INIT, PMS__FUNCTION__INIT};
    Pms__Line line[3] = {PMS__LINE__INIT, PMS__LINE__INIT, PMS__LINE__INIT};
    Pms__Line *lines[3][1];
    Pms__Location loc[3] = {PMS__LOCATION__INIT, PMS__LOCATION__INIT, PMS__LOCATION__INIT};
    Pms__Function *functions[3];
    Pms__Location *locations[3];
    Pms__Sample sample[3] = {PMS__SAMPLE__INIT, PMS__SAMPLE__INIT, PMS__SAMPLE__INIT};
    Pms__Sample *samples[3];
    uint64_t location_ids[3];
    int64_t values[3] = {3, 5, 2};
    const int64_t names[3] = {3, 4, 6}; /* spin, spin again, other */
    for (int i = 0; i < 3; i++) {
        f[i].id = (uint64_t)i + 1;
        f[i].name = f[i].system_name = names[i];
        f[i].filename = 5;
        functions[i] = &f[i];
        line[i].function_id = (uint64_t)i + 1;
        lines[i][0] = &line[i];
        loc[i].id = (uint64_t)i + 1;
        loc[i].address = 0x1000 * ((uint64_t)i + 1);
        loc[i].n_line = 1;
        loc[i].line = lines[i];
        locations[i] = &loc[i];
        location_ids[i] = (uint64_t)i + 1;
        sample[i].n_location_id = 1;
        sample[i].location_id = &location_ids[i];
        sample[i].n_value = 1;
        sample[i].value = &values[i];
        samples[i] = &sample[i];
    }
    Pms__Profile prof = PMS__PROFILE__INIT;
    prof.n_string_table = sizeof strings / sizeof *strings;
    prof.string_table = strings;
    prof.n_sample_type = 1;
    prof.sample_type = types;
    prof.n_function = prof.n_location = prof.n_sample = 3;
    prof.function = functions;
    prof.location = locations;
    prof.sample = samples;
    size_t len = pms__profile__get_packed_size(&prof);
    unsigned char *bytes = malloc(len);
    assert_non_null(bytes);
    assert_int_equal(pms__profile__pack(&prof, bytes), len);

    pms_pprof *p = NULL;
    assert_int_equal(pms_pprof_open_mem(&p, bytes, len, "repeated.pb"), PMS_OK);
    pms_pprof_row *rows = NULL;
    size_t n = 0;
    assert_int_equal(pms_pprof_table(p, 0, 0.95, &rows, &n), PMS_OK);
    assert_int_equal(n, 2);
    assert_string_equal(rows[0].function, "spin");
    assert_int_equal(rows[0].value, 8);
    assert_close(rows[0].share, 0.8, 1e-12);
    assert_string_equal(rows[1].function, "other");
    free(rows);
    pms_pprof_close(p);
    free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_exact),
        cmocka_unit_test(test_broken),
        cmocka_unit_test(test_repeated_strings),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
