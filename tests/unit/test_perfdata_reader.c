/* The perf.data reader: against files that `perf record` writes in the test (counts
 * compared with `perf script`), on pmuscope's own files (exact round trip), on layout
 * variants (attr sizes, unknown and bookkeeping records, pipe mode, big-endian), and on
 * truncated and corrupted files, which must fail naming the offset and never crash. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char perf_file[256];

struct counts {
    size_t samples, mmaps, exec_mmaps, comms, forks, exits, raw, unknown_seen;
    uint64_t last_ip, sum_ip, sum_time, sum_values;
    char last_mmap[256];
    uint64_t offsets[4096];
    size_t noffsets;
    uint64_t first_auxtrace; /* file offset of the first AUXTRACE record, 0 if none */
};

static int on_sample(const pms_sample *s, void *ctx)
{
    struct counts *c = ctx;
    c->samples++;
    c->last_ip = s->ip;
    c->sum_ip += s->ip;
    c->sum_time += s->time;
    for (size_t i = 0; i < s->nvalues; i++) c->sum_values += s->values[i].value * (i + 1) + s->values[i].id;
    return 0;
}

static int on_mmap(const pms_mmap_event *m, void *ctx)
{
    struct counts *c = ctx;
    c->mmaps++;
    c->exec_mmaps += m->executable != 0;
    snprintf(c->last_mmap, sizeof c->last_mmap, "%s", m->filename);
    return 0;
}

static int on_task(const pms_task_event *t, void *ctx)
{
    struct counts *c = ctx;
    c->comms += t->type == PERF_RECORD_COMM;
    c->forks += t->type == PERF_RECORD_FORK;
    c->exits += t->type == PERF_RECORD_EXIT;
    return 0;
}

static int on_raw(const struct perf_event_header *h, uint64_t off, void *ctx)
{
    struct counts *c = ctx;
    c->raw++;
    c->unknown_seen += h->type == 200;
    if (h->type == 71 && !c->first_auxtrace) c->first_auxtrace = off;
    if (c->noffsets < sizeof c->offsets / sizeof c->offsets[0]) c->offsets[c->noffsets++] = off;
    return 0;
}

static int read_counts(const char *path, struct counts *c)
{
    memset(c, 0, sizeof *c);
    pms_perfdata_reader *r;
    int rc = pms_perfdata_open(&r, path);
    if (rc) return rc;
    pms_perfdata_handlers h = {on_sample, on_mmap, on_task, NULL, NULL, on_raw, c};
    rc = pms_perfdata_read(r, &h);
    pms_perfdata_close(r);
    return rc;
}

static long command_number(const char *fmt, const char *arg)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, fmt, arg);
    FILE *p = popen(cmd, "r");
    long v = -1;
    if (!p || fscanf(p, "%ld", &v) != 1) v = -1;
    if (p) pclose(p);
    return v;
}

static int setup(void **state)
{
    (void)state;
    snprintf(perf_file, sizeof perf_file, "%s", pms_test_write_temp(".data", "", 0));
    const char *w = getenv("PMS_WORKLOADS");
    return pms_test_system("perf record -q -e cpu-clock -c 250000 -o '%s' -- '%s/hotspots' >/dev/null 2>&1", perf_file,
                           w ? w : "workloads");
}

static int teardown(void **state)
{
    (void)state;
    remove(perf_file);
    return 0;
}

static void test_reads_perf_record_file(void **state)
{
    (void)state;
    struct counts c;
    assert_int_equal(read_counts(perf_file, &c), PMS_OK);
    long perf_samples = command_number("perf script -i '%s' -F ip 2>/dev/null | wc -l", perf_file);
    long perf_mmaps = command_number("perf script -i '%s' --show-mmap-events 2>/dev/null | grep -c 'PERF_RECORD_MMAP'",
                                     perf_file);
    long perf_comms = command_number("perf script -i '%s' --show-task-events 2>/dev/null | grep -c 'PERF_RECORD_COMM'",
                                     perf_file);
    assert_true(perf_samples > 100);
    assert_int_equal(c.samples, (size_t)perf_samples);
    assert_int_equal(c.mmaps, (size_t)perf_mmaps);
    assert_int_equal(c.comms, (size_t)perf_comms);
    assert_true(c.exec_mmaps >= 2); /* hotspots itself and ld.so at least */

    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, perf_file), PMS_OK);
    assert_int_equal(pms_perfdata_nattrs(r), 1);
    const pms_perfdata_attr *a = pms_perfdata_get_attr(r, 0);
    assert_string_equal(a->name, "cpu-clock");
    assert_int_equal(a->attr.sample_period, 250000);
    assert_true(a->nids >= 1);
    assert_true(pms_perfdata_data_size(r) > 0);
    pms_perfdata_close(r);
}

/* ---- synthetic files written by pmuscope ---- */

static const uint64_t ids_a[] = {7, 8}, ids_b[] = {9};

static void make_attrs(pms_perfdata_attr a[2])
{
    memset(a, 0, 2 * sizeof *a);
    for (int i = 0; i < 2; i++) {
        a[i].attr.size = sizeof a[i].attr;
        a[i].attr.type = PERF_TYPE_SOFTWARE;
        a[i].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
        a[i].attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
        a[i].attr.sample_id_all = 1;
    }
    a[0].name = "cpu-clock";
    a[0].ids = ids_a;
    a[0].nids = 2;
    a[1].name = "page-faults";
    a[1].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
    a[1].ids = ids_b;
    a[1].nids = 1;
}

/* Writes `n` samples alternating between the two events plus task, mmap and bookkeeping
 * records (and one of an unknown type, which perf itself refuses); returns the expected
 * sums through *expect. */
static void write_synthetic(const char *path, size_t n, bool unknown_record, struct counts *expect)
{
    pms_perfdata_attr a[2];
    make_attrs(a);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, a, 2, 0, NULL), PMS_OK);
    memset(expect, 0, sizeof *expect);
    unsigned char rec[512];
    pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = 10, .tid = 10, .comm = "prog", .time = 5};
    struct perf_event_header empty = {PERF_RECORD_COMM, 0, 0};
    assert_int_equal(pms_perfdata_writer_add(w, &empty), PMS_EINVAL);
    size_t len = pms_perfdata_encode_task(rec, sizeof rec, &a[0], &comm);
    assert_true(len > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    pms_mmap_event m = {.pid = 10, .tid = 10, .start = 0x400000, .len = 0x1000, .executable = 1,
                        .filename = "/opt/prog", .time = 6};
    assert_true(pms_perfdata_encode_mmap2(rec, sizeof rec, &a[1], &m) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    pms_task_event fork = {.type = PERF_RECORD_FORK, .pid = 11, .ppid = 10, .tid = 11, .ptid = 10, .time = 7};
    assert_true(pms_perfdata_encode_task(rec, sizeof rec, &a[0], &fork) > 0);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    /* Records pmuscope has no use for: an unknown type, FINISHED_ROUND and ID_INDEX. */
    struct perf_event_header unknown = {200, 0, 24}, round = {68, 0, 8}, id_index = {69, 0, 16};
    uint64_t body[3] = {0, 1, 2};
    memcpy(body, &unknown, sizeof unknown);
    if (unknown_record) assert_int_equal(pms_perfdata_writer_add(w, (void *)body), PMS_OK);
    assert_int_equal(pms_perfdata_writer_add(w, &round), PMS_OK);
    uint64_t idx[2] = {0, 0};
    memcpy(idx, &id_index, sizeof id_index);
    assert_int_equal(pms_perfdata_writer_add(w, (void *)idx), PMS_OK);
    for (size_t i = 0; i < n; i++) {
        pms_read_value v[2] = {{1000 + i, 7}, {2000 + i, 9}};
        pms_sample s = {.ip = 0x400100 + 4 * (i % 64), .pid = 10, .tid = 10, .time = 100 + i, .cpu = 1,
                        .period = 1000, .nvalues = 2, .values = v, .id = (i % 2) ? 9 : 8};
        assert_true(pms_perfdata_encode_sample(rec, sizeof rec, &a[i % 2], &s) > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
        expect->samples++;
        expect->sum_ip += s.ip;
        expect->sum_time += s.time;
        expect->sum_values += v[0].value + v[0].id + 2 * v[1].value + v[1].id;
        if (i == n / 2) assert_int_equal(pms_perfdata_writer_add(w, &round), PMS_OK);
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
}

static void test_round_trip(void **state)
{
    (void)state;
    const char *path = pms_test_write_temp(".data", "", 0);
    struct counts expect, got;
    write_synthetic(path, 3000, true, &expect);
    assert_int_equal(read_counts(path, &got), PMS_OK);
    assert_int_equal(got.samples, expect.samples);
    assert_int_equal(got.sum_ip, expect.sum_ip);
    assert_int_equal(got.sum_time, expect.sum_time);
    assert_int_equal(got.sum_values, expect.sum_values);
    assert_int_equal(got.mmaps, 1);
    assert_int_equal(got.exec_mmaps, 1);
    assert_string_equal(got.last_mmap, "/opt/prog");
    assert_int_equal(got.comms, 1);
    assert_int_equal(got.forks, 1);
    assert_int_equal(got.unknown_seen, 1);

    /* The samples point back to their events through the ids. */
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    assert_int_equal(pms_perfdata_nattrs(r), 2);
    assert_string_equal(pms_perfdata_get_attr(r, 1)->name, "page-faults");
    pms_perfdata_close(r);
    /* perf agrees on the sample count (of a file without the unknown record); it shows a
     * PERF_SAMPLE_READ group sample once per counter in the group, here 2. */
    write_synthetic(path, 3000, false, &expect);
    assert_int_equal(read_counts(path, &got), PMS_OK);
    assert_int_equal(got.samples, 3000);
    assert_int_equal(pms_test_system("test $(perf script -i '%s' -F ip 2>/dev/null | wc -l) -eq 6000", path), 0);
    remove(path);
}

/* perf record --call-graph dwarf's payload: REGS_USER (abi, one u64 per bit of the mask)
 * and STACK_USER (size, bytes, dyn_size), after a RAW field that is skipped; every length
 * bounds-checked against the record. */
static void test_sample_parse_user_stack(void **state)
{
    (void)state;
    pms_perfdata_attr a = {.name = "cpu-clock"};
    a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
                         PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    a.attr.sample_regs_user = 0x181; /* 3 registers */
    a.attr.sample_stack_user = 16;
    uint64_t rec[32] = {0};
    size_t n = 1;
    rec[n++] = 0x401000;                 /* ip */
    rec[n++] = 7ull << 32 | 7;           /* pid, tid */
    rec[n++] = 0;                        /* nr of the callchain */
    rec[n++] = 4;                        /* RAW: 4 bytes of data after the u32 size... */
    rec[n++] = PERF_SAMPLE_REGS_ABI_64;  /* ...padded to 8 bytes with it */
    rec[n++] = 11, rec[n++] = 22, rec[n++] = 33;
    rec[n++] = 16;                       /* stack copy of 16 bytes */
    rec[n++] = 0x1111, rec[n++] = 0x2222;
    rec[n++] = 8;                        /* of which 8 valid */
    struct perf_event_header *h = (void *)rec;
    *h = (struct perf_event_header){PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (uint16_t)(n * 8)};
    pms_sample out;
    assert_int_equal(pms_sample_parse(h, &a, 1, &out, NULL, 0), PMS_OK);
    assert_int_equal(out.user_regs_abi, PERF_SAMPLE_REGS_ABI_64);
    assert_int_equal(out.nr_user_regs, 3);
    assert_int_equal(out.user_regs_mask, 0x181);
    assert_int_equal(out.user_regs[2], 33);
    assert_int_equal(out.user_stack_size, 8);
    assert_int_equal(out.user_stack[0], 0x11);
    /* dyn_size above the copy's size */
    rec[n - 1] = 24;
    assert_int_equal(pms_sample_parse(h, &a, 1, &out, NULL, 0), PMS_EFORMAT);
    rec[n - 1] = 8;
    /* cut inside the stack copy, inside the registers, inside RAW */
    for (size_t cut = n - 1; cut > 4; cut--) {
        h->size = (uint16_t)(cut * 8);
        assert_int_equal(pms_sample_parse(h, &a, 1, &out, NULL, 0), PMS_EFORMAT);
    }
    /* a RAW size that runs past the record */
    h->size = (uint16_t)(n * 8);
    rec[4] = 4000;
    assert_int_equal(pms_sample_parse(h, &a, 1, &out, NULL, 0), PMS_EFORMAT);
    /* ABI none (a kernel thread): no registers follow, an empty stack copy */
    a.attr.sample_type &= ~(uint64_t)PERF_SAMPLE_RAW;
    n = 4;
    rec[n++] = PERF_SAMPLE_REGS_ABI_NONE;
    rec[n++] = 0;
    h->size = (uint16_t)(n * 8);
    assert_int_equal(pms_sample_parse(h, &a, 1, &out, NULL, 0), PMS_OK);
    assert_int_equal(out.nr_user_regs, 0);
    assert_null(out.user_regs);
    assert_null(out.user_stack);
}

static void test_sample_parse_by_id(void **state)
{
    (void)state;
    pms_perfdata_attr a[2];
    make_attrs(a);
    unsigned char rec[256];
    pms_read_value v[2] = {{5, 7}, {6, 9}}, out_v[2];
    pms_sample s = {.ip = 0x1234, .pid = 3, .tid = 4, .time = 99, .cpu = 1, .period = 77, .nvalues = 2, .values = v,
                    .id = 9};
    size_t len = pms_perfdata_encode_sample(rec, sizeof rec, &a[1], &s);
    assert_true(len > 0);
    pms_sample out;
    assert_int_equal(pms_sample_parse((void *)rec, a, 2, &out, out_v, 2), PMS_OK);
    assert_ptr_equal(out.attr, &a[1]);
    assert_int_equal(out.ip, 0x1234);
    assert_int_equal(out.tid, 4);
    assert_int_equal(out.pid, 3);
    assert_int_equal(out.period, 77);
    assert_int_equal(out.nvalues, 2);
    assert_int_equal(out.values[1].value, 6);
    /* Too little room for the group: an error, not an overflow. */
    assert_int_equal(pms_sample_parse((void *)rec, a, 2, &out, out_v, 1), PMS_EINVAL);
    /* A sample cut short. */
    struct perf_event_header *h = (void *)rec;
    h->size = 24;
    assert_int_equal(pms_sample_parse(h, a, 2, &out, out_v, 2), PMS_EFORMAT);
}

/* ---- hostile files ---- */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *p = malloc(*len);
    assert_true(fread(p, 1, *len, f) == *len);
    fclose(f);
    return p;
}

static int read_mem(const unsigned char *p, size_t len, size_t *samples)
{
    pms_perfdata_reader *r;
    struct counts c = {0};
    int rc = pms_perfdata_open_mem(&r, p, len, "mem.data");
    if (rc) return rc;
    pms_perfdata_handlers h = {on_sample, on_mmap, on_task, NULL, NULL, NULL, &c};
    rc = pms_perfdata_read(r, &h);
    pms_perfdata_close(r);
    if (samples) *samples = c.samples;
    return rc;
}

static void test_truncated_files_fail_with_offset(void **state)
{
    (void)state;
    size_t len;
    unsigned char *whole = slurp(perf_file, &len);
    size_t samples;
    assert_int_equal(read_mem(whole, len, &samples), PMS_OK);
    size_t cuts = 0;
    for (size_t cut = 0; cut < len; cut += 1 + cut / 50) {
        int rc = read_mem(whole, cut, NULL);
        assert_int_not_equal(rc, PMS_OK);
        if (cut >= 16) assert_non_null(strstr(pms_strerror(), "offset"));
        cuts++;
    }
    assert_true(cuts > 50);
    free(whole);
}

static void test_corrupt_sizes_fail_with_offset(void **state)
{
    (void)state;
    const char *path = pms_test_write_temp(".data", "", 0);
    struct counts expect, c;
    write_synthetic(path, 40, true, &expect);
    assert_int_equal(read_counts(path, &c), PMS_OK);
    size_t len;
    unsigned char *img = slurp(path, &len);
    unsigned char *bad = malloc(len);
    static const uint16_t sizes[] = {0, 1, 7, 0xffff};
    for (size_t k = 0; k < c.noffsets; k++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            memcpy(bad, img, len);
            memcpy(bad + c.offsets[k] + 6, &sizes[s], 2);
            assert_int_equal(read_mem(bad, len, NULL), PMS_EFORMAT);
            char want[64];
            snprintf(want, sizeof want, "offset %llu:", (unsigned long long)c.offsets[k]);
            assert_non_null(strstr(pms_strerror(), want));
        }
        /* Sizes that stay in bounds but break the record layout: any outcome but a crash. */
        for (int delta = -16; delta <= 16; delta += 4) {
            memcpy(bad, img, len);
            uint16_t sz;
            memcpy(&sz, img + c.offsets[k] + 6, 2);
            sz = (uint16_t)(sz + delta);
            memcpy(bad + c.offsets[k] + 6, &sz, 2);
            (void)read_mem(bad, len, NULL);
        }
    }
    /* Header fields: every byte of the header and attr section flipped. */
    for (size_t i = 0; i < 104 + 152 && i < len; i++) {
        memcpy(bad, img, len);
        bad[i] ^= 0xff;
        (void)read_mem(bad, len, NULL);
    }
    free(bad);
    free(img);
    remove(path);
}

static void test_rejects_other_formats(void **state)
{
    (void)state;
    unsigned char head[104] = "PERFILE2";
    uint64_t sz = 16;
    memcpy(head + 8, &sz, 8);
    /* Pipe mode, then zeros: a record of size 0 right after the 16-byte header. */
    assert_int_equal(read_mem(head, sizeof head, NULL), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "offset 16: record size smaller"));
    assert_int_equal(read_mem(head, 16, NULL), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "pipe-mode perf.data without an event attribute"));
    memcpy(head, "2ELIFREP", 8);
    assert_int_equal(read_mem(head, sizeof head, NULL), PMS_ENOTSUP);
    assert_non_null(strstr(pms_strerror(), "big-endian"));
    memcpy(head, "ELF\x7f\0\0\0\0", 8);
    assert_int_equal(read_mem(head, sizeof head, NULL), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "offset 0: not a perf.data file"));
    assert_int_equal(read_mem(head, 3, NULL), PMS_EFORMAT);

    /* A real pipe-mode file from perf: its event comes from a HEADER_ATTR record. */
    const char *pipe = pms_test_write_temp(".data", "", 0);
    assert_int_equal(pms_test_system("perf record -q -e cpu-clock -o - -- true > '%s' 2>/dev/null", pipe), 0);
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, pipe), PMS_OK);
    assert_int_equal(pms_perfdata_nattrs(r), 1);
    assert_int_equal(pms_perfdata_get_attr(r, 0)->attr.config, PERF_COUNT_SW_CPU_CLOCK);
    assert_int_equal(pms_perfdata_read(r, NULL), PMS_OK);
    pms_perfdata_close(r);
    remove(pipe);
    assert_int_equal(pms_perfdata_open(&r, "/nonexistent.data"), PMS_ENOENT);
}

/* The sniffing the commands taking perf.data or a table use: every perf.data the reader
 * knows (and reads or names what it cannot read), nothing else. */
static void test_sniff(void **state)
{
    (void)state;
    static const char *const perf_magics[] = {"PERFILE2", "2ELIFREP", "PERFFILE"};
    for (size_t i = 0; i < 3; i++) {
        unsigned char head[104] = {0};
        memcpy(head, perf_magics[i], 8);
        uint64_t sz = 104;
        memcpy(head + 8, &sz, 8);
        const char *path = pms_test_write_temp(".data", (const char *)head, sizeof head);
        bool is = false;
        assert_int_equal(pms_perfdata_sniff(&is, path), PMS_OK);
        assert_true(is);
        pms_perfdata_reader *r;
        if (i) { /* the reader names what it does not read */
            assert_int_equal(pms_perfdata_open(&r, path), PMS_ENOTSUP);
            assert_non_null(strstr(pms_strerror(), i % 2 ? "big-endian" : "version 1"));
        }
        remove(path);
    }
    static const char *const others[] = {"time,x\n1,2\n", "PERF", "", "T:1:5 :2:7\n"};
    for (size_t i = 0; i < 4; i++) {
        const char *path = pms_test_write_temp(".txt", others[i], strlen(others[i]));
        bool is = true;
        assert_int_equal(pms_perfdata_sniff(&is, path), PMS_OK);
        assert_false(is);
        remove(path);
    }
    /* perf's own pipe-mode output */
    const char *pipe = pms_test_write_temp(".data", "", 0);
    assert_int_equal(pms_test_system("perf record -q -e cpu-clock -o - -- true > '%s' 2>/dev/null", pipe), 0);
    bool is = false;
    assert_int_equal(pms_perfdata_sniff(&is, pipe), PMS_OK);
    assert_true(is);
    remove(pipe);
    assert_int_equal(pms_perfdata_sniff(&is, "/nonexistent.data"), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "/nonexistent.data"));
}

/* Older (VER0, 64 bytes) and newer (larger, zero tail) attr layouts in the attrs section. */
static void test_attr_size_variants(void **state)
{
    (void)state;
    const char *path = pms_test_write_temp(".data", "", 0);
    struct counts expect;
    write_synthetic(path, 10, true, &expect);
    size_t len;
    unsigned char *img = slurp(path, &len);
    for (uint32_t attr_sz = 64; attr_sz <= 160; attr_sz += 8) {
        /* Rebuild: header | ids | attrs of attr_sz | rest copied from the data section on. */
        uint64_t hdr[13];
        memcpy(hdr, img, sizeof hdr);
        uint64_t old_entry = hdr[2], attrs_off = hdr[3], nattrs = hdr[4] / old_entry, data_off = hdr[5];
        size_t entry = attr_sz + 16, new_attrs_size = (size_t)(nattrs * entry);
        size_t new_data_off = (size_t)attrs_off + new_attrs_size;
        size_t out_len = len - (size_t)data_off + new_data_off;
        unsigned char *out = calloc(1, out_len);
        memcpy(out, img, (size_t)attrs_off); /* header and ids */
        for (uint64_t i = 0; i < nattrs; i++) {
            unsigned char *dst = out + attrs_off + i * entry;
            const unsigned char *src = img + attrs_off + i * old_entry;
            memcpy(dst, src, attr_sz < 128 ? attr_sz : 128);
            memcpy(dst + 4, &attr_sz, 4);
            memcpy(dst + attr_sz, src + 128, 16); /* ids section */
        }
        memcpy(out + new_data_off, img + data_off, len - (size_t)data_off);
        uint64_t fields[] = {entry, attrs_off, new_attrs_size, new_data_off};
        memcpy(out + 16, &fields[0], 8);
        memcpy(out + 24, &fields[1], 8);
        memcpy(out + 32, &fields[2], 8);
        memcpy(out + 40, &fields[3], 8);
        /* The feature table moved with the data: shift its offsets. */
        uint64_t shift = (uint64_t)new_data_off - data_off, data_size = hdr[6];
        unsigned char *table = out + new_data_off + data_size;
        for (int f = 0; f < 8 && table + 16 * f + 16 <= out + out_len; f++) {
            uint64_t off;
            memcpy(&off, table + 16 * f, 8);
            off += shift;
            memcpy(table + 16 * f, &off, 8);
        }
        size_t samples;
        int rc = read_mem(out, out_len, &samples);
        /* VER0 lacks nothing the samples need here (sample_type, read_format are in it). */
        assert_int_equal(rc, PMS_OK);
        assert_int_equal(samples, expect.samples);
        free(out);
    }
    free(img);
    remove(path);
}

/* An event introduced in the data section by PERF_RECORD_HEADER_ATTR (as perf inject
 * writes it): its samples point to it by id once the record has been read. */
static int count_by_event(const pms_sample *s, void *ctx)
{
    size_t *n = ctx;
    n[s->attr && s->attr->nids && s->attr->ids[0] == 55]++;
    return 0;
}

/* A writer on a new temporary file with one event whose samples carry no read group. */
static const char *open_plain_writer(pms_perfdata_writer **w, pms_perfdata_attr a[2])
{
    make_attrs(a);
    a[0].attr.read_format = 0;
    a[0].attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
    const char *path = pms_test_write_temp(".data", "", 0);
    assert_int_equal(pms_perfdata_writer_open(w, path, a, 1, 0, NULL), PMS_OK);
    return path;
}

static void test_header_attr_record(void **state)
{
    (void)state;
    pms_perfdata_attr a[2];
    pms_perfdata_writer *w;
    const char *path = open_plain_writer(&w, a);
    struct {
        struct perf_event_header h;
        struct perf_event_attr attr;
        uint64_t id;
    } ha = {{64, 0, sizeof ha}, a[0].attr, 55};
    ha.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
    assert_int_equal(pms_perfdata_writer_add(w, &ha.h), PMS_OK);
    unsigned char rec[256];
    for (int i = 0; i < 10; i++) {
        pms_sample s = {.ip = 0x1000, .pid = 1, .tid = 1, .time = (uint64_t)i, .id = i < 3 ? 55 : 7};
        assert_true(pms_perfdata_encode_sample(rec, sizeof rec, &a[0], &s) > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    assert_int_equal(pms_perfdata_nattrs(r), 1);
    size_t n[2] = {0, 0};
    pms_perfdata_handlers h = {.sample = count_by_event, .ctx = n};
    assert_int_equal(pms_perfdata_read(r, &h), PMS_OK);
    assert_int_equal(pms_perfdata_nattrs(r), 2);
    assert_int_equal(pms_perfdata_get_attr(r, 1)->attr.config, PERF_COUNT_SW_PAGE_FAULTS);
    assert_int_equal(n[1], 3);
    assert_int_equal(n[0], 7);
    pms_perfdata_close(r);
    remove(path);
}

/* Appends a PERF_RECORD_AUXTRACE whose trace is `n` records of an unknown type (200): a
 * reader that took the trace for records would see them. */
static void add_auxtrace(pms_perfdata_writer *w, size_t n)
{
    struct {
        struct perf_event_header h;
        uint64_t size, offset, reference;
        uint32_t idx, tid, cpu, reserved;
    } aux = {{71, 0, sizeof aux}, n * 64, 0, 0, 0, 1, 0, 0};
    assert_int_equal(pms_perfdata_writer_add(w, &aux.h), PMS_OK);
    uint64_t fake[8] = {0};
    struct perf_event_header fh = {200, 0, 64};
    memcpy(fake, &fh, sizeof fh);
    for (size_t i = 0; i < n; i++) assert_int_equal(pms_perfdata_writer_add(w, (void *)fake), PMS_OK);
}

/* AUXTRACE records (Intel PT, perf_data_converter's perf.data.intel_pt-4.14) carry their
 * trace after the header, outside h.size: the reader skips it, inside the read window and
 * beyond it (a trace larger than the window), and refuses a trace past the data's end. */
static void test_auxtrace_payload_skipped(void **state)
{
    (void)state;
    pms_perfdata_attr a[2];
    pms_perfdata_writer *w;
    const char *path = open_plain_writer(&w, a);
    unsigned char rec[256];
    for (int i = 0; i < 30; i++) {
        if (i == 10) add_auxtrace(w, 3);
        if (i == 20) add_auxtrace(w, 40000); /* 2.5 MB */
        pms_sample s = {.ip = 0x1000 + (uint64_t)i, .pid = 1, .tid = 1, .time = (uint64_t)i, .id = 7};
        assert_true(pms_perfdata_encode_sample(rec, sizeof rec, &a[0], &s) > 0);
        assert_int_equal(pms_perfdata_writer_add(w, (void *)rec), PMS_OK);
    }
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);
    struct counts c;
    assert_int_equal(read_counts(path, &c), PMS_OK);
    assert_int_equal(c.samples, 30);
    assert_int_equal(c.unknown_seen, 0);
    assert_int_equal(c.raw, 32);
    assert_int_equal(c.sum_ip, 30 * 0x1000 + 29 * 30 / 2);

    /* A trace that claims more bytes than the data section holds. */
    size_t len;
    unsigned char *img = slurp(path, &len);
    uint64_t aux_at = c.first_auxtrace + 8, huge = 1ull << 40; /* the first AUXTRACE's size field */
    memcpy(img + aux_at, &huge, 8);
    size_t n;
    assert_int_equal(read_mem(img, len, &n), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "auxtrace data runs past the end"));
    free(img);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auxtrace_payload_skipped),
        cmocka_unit_test(test_reads_perf_record_file),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_sample_parse_by_id),
        cmocka_unit_test(test_truncated_files_fail_with_offset),
        cmocka_unit_test(test_corrupt_sizes_fail_with_offset),
        cmocka_unit_test(test_sample_parse_user_stack),
        cmocka_unit_test(test_rejects_other_formats),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_attr_size_variants),
        cmocka_unit_test(test_header_attr_record),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
