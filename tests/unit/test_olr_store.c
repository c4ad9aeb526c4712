/* The olr segment file (pmuscope/olr_store.h): written from opt's and wm's segments and
 * read back, every sample decodes within eps at its own x (random x steps, counts near
 * 2^63 and 2^64 - 1, eps 0 and small), checked by comparing whole counts here; lossless
 * mode gives the samples exactly; x can be left out; joint segments are used; each chunk is
 * stored as zstd's frame or (version 3) as its bytes, whichever is shorter, checked against
 * libzstd here; hostile files (truncated, a bad version, a bad varint, a plain chunk in a
 * version-2 file or running past the end) fail with the file, the offset and what was
 * expected. */
#include "test_support.h"
#include "splitmix.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct sink {
    pms_olr_writer *w;
} sink;

static int to_writer(const pms_olr_segment *s, void *ctx)
{
    return pms_olr_writer_add_segment(((sink *)ctx)->w, s);
}

/* Fits and stores (segments handed over as they close, as a stream), into a memory buffer. */
static char *store(size_t n, size_t k, const uint64_t *x, const uint64_t *y, pms_olr_method m, uint64_t eps,
                   int per_counter, const pms_olr_store_options *so, size_t *size, pms_olr_store_stats *st)
{
    pms_olr_options o;
    pms_olr_options_init(&o);
    o.method = m;
    o.ncounters = k;
    o.per_counter = per_counter;
    pms_olr_counter_options c[4];
    for (size_t j = 0; j < k; j++) {
        pms_olr_counter_options_init(&c[j]);
        c[j].eps = (double)eps;
        c[j].monotone = 0;
    }
    o.counters = c;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    assert_non_null(f);
    const char *names[4] = {"a", "b", "c", "d"};
    sink sk;
    assert_int_equal(pms_olr_writer_create(&sk.w, f, "mem", so, &o, "x", names), 0);
    pms_olr *olr;
    assert_int_equal(pms_olr_create(&olr, &o, to_writer, &sk), 0);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(pms_olr_writer_add_sample(sk.w, x[i], &y[i * k]), 0);
        assert_int_equal(pms_olr_push(olr, x[i], &y[i * k]), 0);
    }
    assert_int_equal(pms_olr_finish(olr), 0);
    assert_int_equal(pms_olr_writer_finish(sk.w), 0);
    if (st) pms_olr_writer_get_stats(sk.w, st);
    pms_olr_writer_destroy(sk.w);
    pms_olr_destroy(olr);
    fclose(f);
    return buf;
}

/* Reads back and compares every sample: |y - decoded| <= eps (exact when lossless). */
static void check(const char *buf, size_t size, size_t n, size_t k, const uint64_t *x, const uint64_t *y,
                  uint64_t eps, const uint64_t *xs_given)
{
    pms_olr_stored st;
    if (pms_olr_stored_read_mem(&st, buf, size, "mem")) fail_msg("%s", pms_strerror());
    assert_int_equal(st.n, n);
    assert_int_equal(st.k, k);
    if (st.has_x)
        for (size_t i = 0; i < n; i++) assert_true(st.x[i] == x[i]);
    uint64_t *d = malloc(n * sizeof *d);
    for (size_t j = 0; j < k; j++) {
        assert_int_equal(pms_olr_stored_decode(&st, j, xs_given, d), 0);
        for (size_t i = 0; i < n; i++) {
            uint64_t v = y[i * k + j], e = d[i] > v ? d[i] - v : v - d[i];
            if (e > (st.lossless ? 0 : eps))
                fail_msg("counter %zu sample %zu at x %llu: %llu decoded %llu (eps %llu)", j, i,
                         (unsigned long long)x[i], (unsigned long long)v, (unsigned long long)d[i],
                         (unsigned long long)eps);
        }
    }
    free(d);
    pms_olr_stored_free(&st);
}

/* Random x steps; counters with changing rates, noise and plateaus, from base. */
static void series(size_t n, size_t k, uint64_t *x, uint64_t *y, uint64_t xbase, uint64_t base, uint64_t maxstep)
{
    uint64_t xv = xbase, yv[4] = {base, base, base, base};
    for (size_t i = 0; i < n; i++) {
        xv += 1 + rnd() % 2000;
        x[i] = xv;
        for (size_t j = 0; j < k; j++) {
            uint64_t rate = (i / 97 + j) % 3 == 0 ? 0 : 1 + (i / 211) % 7;
            uint64_t step = rate * (1 + rnd() % 3) + rnd() % 4;
            if (yv[j] > UINT64_MAX - maxstep) step = 0;
            else if (step > maxstep) step = maxstep;
            yv[j] += step;
            y[i * k + j] = yv[j];
        }
    }
}

static void test_round_trip_random_x(void **state)
{
    (void)state;
    enum { N = 3000, K = 2 };
    static uint64_t x[N], y[N * K];
    uint64_t bases[] = {0, (UINT64_C(1) << 63) - 20000, UINT64_MAX - 40000};
    uint64_t epss[] = {0, 1, 3, 50};
    for (size_t b = 0; b < 3; b++) {
        series(N, K, x, y, b == 2 ? UINT64_MAX - 2001 * (uint64_t)N : b * (UINT64_C(1) << 62), bases[b], 64);
        for (size_t e = 0; e < 4; e++)
            for (int pc = 0; pc < 2; pc++) {
                size_t size;
                pms_olr_store_stats st;
                char *buf = store(N, K, x, y, PMS_OLR_OPT, epss[e], pc, NULL, &size, &st);
                check(buf, size, N, K, x, y, epss[e], NULL);
                assert_int_equal(st.bytes_total, size);
                /* the rounded ends of opt's line fit, unless the line runs below 0 (base 0) */
                if (st.split && bases[b] != 0) fail_msg("base %zu eps %llu: %llu segments split", b, (unsigned long long)epss[e],
                                       (unsigned long long)st.split);
                free(buf);
            }
    }
}

/* The last counts below 2^64: a ramp to UINT64_MAX and a counter at it. */
static void test_top_of_range(void **state)
{
    (void)state;
    enum { N = 500, K = 2 };
    uint64_t x[N], y[N * K];
    for (size_t i = 0; i < N; i++) {
        x[i] = UINT64_MAX - 7 * (N - i);
        y[i * K] = UINT64_MAX - 3 * (uint64_t)(N - 1 - i) - (i % 5 == 0);
        y[i * K + 1] = UINT64_MAX;
    }
    for (uint64_t eps = 0; eps < 3; eps++) {
        size_t size;
        char *buf = store(N, K, x, y, PMS_OLR_OPT, eps, 0, NULL, &size, NULL);
        check(buf, size, N, K, x, y, eps, NULL);
        free(buf);
    }
}

static void test_lossless_and_no_x(void **state)
{
    (void)state;
    enum { N = 2000, K = 3 };
    static uint64_t x[N], y[N * K];
    series(N, K, x, y, 1000, 5, 1000);
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.lossless = 1;
    for (int m = 0; m < 2; m++) {
        size_t size;
        char *buf = store(N, K, x, y, m ? PMS_OLR_OPT : PMS_OLR_WM, 7, 0, &so, &size, NULL);
        check(buf, size, N, K, x, y, 0, NULL);
        free(buf);
    }
    so.lossless = 0;
    so.keep_x = 0;
    size_t size;
    pms_olr_store_stats st;
    char *buf = store(N, K, x, y, PMS_OLR_OPT, 4, 0, &so, &size, &st);
    assert_int_equal(st.bytes_x, 0);
    check(buf, size, N, K, x, y, 4, x);
    pms_olr_stored s;
    assert_int_equal(pms_olr_stored_read_mem(&s, buf, size, "mem"), 0);
    uint64_t d[N];
    assert_int_not_equal(pms_olr_stored_decode(&s, 0, NULL, d), 0); /* no x: the caller's are needed */
    pms_olr_stored_free(&s);
    free(buf);
}

/* A continuous piecewise-linear series: most segments continue the previous one. */
static void test_joint_segments(void **state)
{
    (void)state;
    enum { N = 4000 };
    static uint64_t x[N], y[N];
    uint64_t v = 0;
    for (size_t i = 0; i < N; i++) {
        x[i] = 1000 * (i + 1);
        v += (i / 200) % 2 ? 10 : 30;
        y[i] = v + rnd() % 3;
    }
    size_t size;
    pms_olr_store_stats st;
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.encoding = PMS_OLR_ENCODING_SEGMENTS;
    char *buf = store(N, 1, x, y, PMS_OLR_OPT, 2, 0, &so, &size, &st);
    check(buf, size, N, 1, x, y, 2, NULL);
    assert_true(st.segments >= 19);
    assert_true(st.joint * 2 > st.segments);
    free(buf);
}

static void expect_error(const void *buf, size_t size, const char *want)
{
    pms_olr_stored st;
    int rc = pms_olr_stored_read_mem(&st, buf, size, "f.olr");
    assert_int_equal(rc, PMS_EFORMAT);
    const char *msg = pms_strerror();
    if (!strstr(msg, "f.olr: offset ") || !strstr(msg, want)) fail_msg("message '%s' lacks '%s'", msg, want);
}

static void test_hostile(void **state)
{
    (void)state;
    enum { N = 300 };
    uint64_t x[N], y[N];
    series(N, 1, x, y, 0, 0, 50);
    size_t size;
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.lossless = 1;
    char *buf = store(N, 1, x, y, PMS_OLR_OPT, 2, 0, &so, &size, NULL);
    /* every truncation fails with an offset */
    for (size_t n = 0; n < size; n++) {
        pms_olr_stored st;
        assert_int_equal(pms_olr_stored_read_mem(&st, buf, n, "f.olr"), PMS_EFORMAT);
        assert_non_null(strstr(pms_strerror(), "f.olr: offset "));
    }
    expect_error(buf, 8, "offset 8: expected the method");
    char *bad = malloc(size + 16);
    memcpy(bad, buf, size);
    bad[6] = PMS_OLR_STORE_VERSION_CHECKPOINTS + 1;
    char want[96];
    snprintf(want, sizeof want, "offset 6: expected version 1 to %u (the versions this reader knows), found %u",
             PMS_OLR_STORE_VERSION_CHECKPOINTS, PMS_OLR_STORE_VERSION_CHECKPOINTS + 1);
    expect_error(bad, size, want);
    memcpy(bad, buf, size);
    bad[0] = 'Q';
    expect_error(bad, size, "offset 0: expected the magic");
    /* the method's varint made 11 bytes long */
    memcpy(bad, buf, 8);
    memset(bad + 8, 0x80, 10);
    bad[18] = 0;
    expect_error(bad, 19, "a bad varint");
    /* a byte after the end chunk */
    memcpy(bad, buf, size);
    bad[size] = 0;
    expect_error(bad, size + 1, "the end of the file after the end chunk");
    free(bad);
    free(buf);
}

/* A chunk of the file as the format lays it out (docs/olr-format.md). */
typedef struct chunk_at {
    size_t at, body;         /* offsets of the type byte and of the stored bytes */
    uint64_t raw, stored;
} chunk_at;

static uint64_t get_varint(const unsigned char *p, size_t *pos)
{
    uint64_t v = 0;
    for (int s = 0;; s += 7) {
        unsigned char b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) return v;
    }
}

/* Walks the header and the chunks of a well-formed file; returns how many (at most MAX). */
static size_t chunks_of(const unsigned char *p, size_t size, chunk_at *c, size_t max)
{
    size_t pos = 8;
    get_varint(p, &pos); /* method */
    uint64_t k = get_varint(p, &pos);
    pos += get_varint(p, &pos); /* x name */
    for (uint64_t j = 0; j < k; j++) {
        pos += get_varint(p, &pos);
        get_varint(p, &pos); /* eps */
    }
    size_t n = 0;
    while (pos < size && n < max) {
        c[n].at = pos++;
        c[n].raw = get_varint(p, &pos);
        c[n].stored = get_varint(p, &pos);
        c[n].body = pos;
        pos += c[n].stored ? c[n].stored : c[n].raw;
        n++;
    }
    assert_int_equal(pos, size);
    return n;
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7) n++;
    return n;
}

/* Each chunk is zstd's frame or its plain bytes (stored length 0), whichever makes it
 * shorter (a tie: plain), compared here with libzstd's frame of the same bytes at the
 * writer's level; short streams get plain chunks, long ones zstd frames. */
static void test_plain_chunks(void **state)
{
    (void)state;
    enum { N = 20000 };
    static uint64_t x[N], y[N * 2];
    series(N, 2, x, y, 1000, 5, 1000);
    int seen_plain = 0, seen_zstd = 0;
    for (size_t n = 30; n <= N; n *= 25) {
        size_t size;
        char *buf = store(n, 2, x, y, PMS_OLR_OPT, 3, 0, NULL, &size, NULL);
        check(buf, size, n, 2, x, y, 3, NULL);
        const unsigned char *p = (const unsigned char *)buf;
        chunk_at c[64];
        size_t nc = chunks_of(p, size, c, 64);
        assert_true(nc >= 3);
        for (size_t i = 0; i < nc; i++) {
            unsigned char raw[1 << 16];
            if (c[i].raw > sizeof raw) continue;
            if (c[i].stored) {
                assert_int_equal(ZSTD_decompress(raw, sizeof raw, p + c[i].body, c[i].stored), c[i].raw);
            } else {
                memcpy(raw, p + c[i].body, c[i].raw);
            }
            size_t bound = ZSTD_compressBound(c[i].raw);
            void *z = malloc(bound);
            assert_non_null(z);
            size_t zn = ZSTD_compress(z, bound, raw, c[i].raw, 19);
            assert_false(ZSTD_isError(zn));
            free(z);
            size_t frame = zn + varint_len(zn), plain = c[i].raw + 1;
            if (c[i].stored) {
                seen_zstd++;
                if (!(frame < plain)) fail_msg("chunk %c of %zu samples: a frame of %zu, %llu bytes as they are",
                                               p[c[i].at], n, zn, (unsigned long long)c[i].raw);
            } else {
                seen_plain++;
                if (!(plain <= frame)) fail_msg("chunk %c of %zu samples: %llu plain bytes, zstd's frame %zu",
                                                p[c[i].at], n, (unsigned long long)c[i].raw, zn);
            }
        }
        /* version 2 has no plain chunks: the same file read as version 2 fails where the first is */
        for (size_t i = 0; i < nc; i++)
            if (c[i].stored == 0) {
                char *v2 = malloc(size);
                memcpy(v2, buf, size);
                v2[6] = 2;
                char want[64];
                snprintf(want, sizeof want, "offset %zu: expected a zstd frame", c[i].body);
                expect_error(v2, size, want);
                /* a plain chunk's bytes running past the end of the file */
                if (c[i].raw) expect_error(buf, c[i].body + c[i].raw - 1, "the file is truncated");
                free(v2);
                break;
            }
        free(buf);
    }
    assert_true(seen_plain > 0);
    assert_true(seen_zstd > 0);
}

int main(void)
{
    rng_state = 0x243f6a8885a308d3ULL; /* the series these tests were written on */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_random_x),
        cmocka_unit_test(test_top_of_range),
        cmocka_unit_test(test_lossless_and_no_x),
        cmocka_unit_test(test_joint_segments),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_plain_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
