/* Predictive coding in the olr segment file (versions 2 to 4, docs/olr-format.md): every
 * sample comes back within eps at eps 0, 1, 2 and large eps, for counts near 0, near
 * 2^64 - 1 and wrapping past 2^64, checked against the input samples (whole counts compared
 * here, not the coder's own idea of its values); the writer's choice is no larger than
 * either encoding forced alone; a version-1 file (built here byte by byte) still reads;
 * hostile P chunks (built here as raw zstd blocks) fail with the offset and what was
 * expected, and so do X chunks of version 2 whose x do not increase strictly below 2^64; a
 * P chunk in a version-1 file is refused; exact codes (version 3: predictor + 2; version 4:
 * + 3) decode as at eps 0 and are refused in version 2 and in X chunks; on a counter whose
 * second difference is nearly always 0 (as the emulated PMU's cycles) the writer's codes at
 * eps >= 1 cost no more than lossless ones; version 4's rate predictor rounds as a rational
 * reference does, needs the x of its samples before it, and takes a third off the codes of
 * a counter that runs at a steady rate over jittered x. */
#include "test_support.h"
#include "olr_store_points.h"
#include "splitmix.h"
#include "olr/store_predict.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t dist(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

/* The codec alone: every (y, prediction) pair of edge values decodes within eps, and the
 * reader's dequantise gives the writer's value. */
static void test_quantise_edges(void **state)
{
    (void)state;
    const uint64_t vals[] = {0, 1, 2, 3, 4, 5, 7, UINT64_C(1) << 32, (UINT64_C(1) << 63) - 1, UINT64_C(1) << 63,
                             UINT64_MAX - 5, UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX};
    const uint64_t epss[] = {0, 1, 2, 3, 1000, UINT64_C(1) << 40, UINT64_C(1) << 62, UINT64_MAX / 2, UINT64_MAX};
    size_t nv = sizeof vals / sizeof *vals;
    for (size_t e = 0; e < sizeof epss / sizeof *epss; e++)
        for (size_t a = 0; a < nv; a++)
            for (size_t b = 0; b < nv; b++) {
                uint64_t y = vals[a], p = vals[b], dec, back;
                uint64_t z = pms__olr_quantise(y, p, epss[e], &dec);
                if (dist(dec, y) > epss[e])
                    fail_msg("eps %llu: %llu predicted %llu decodes as %llu", (unsigned long long)epss[e],
                             (unsigned long long)y, (unsigned long long)p, (unsigned long long)dec);
                assert_int_equal(pms__olr_dequantise(z, p, epss[e], &back), 0);
                assert_true(back == dec);
            }
    /* eps 1: a quantum of 3; (10 - 4) / 3 = 2 exactly; 12 from 4: 8 / 3 -> 3 (decodes 13) */
    uint64_t dec;
    assert_int_equal(pms__olr_quantise(10, 4, 1, &dec), 4); /* zigzag(2) */
    assert_true(dec == 10);
    assert_int_equal(pms__olr_quantise(12, 4, 1, &dec), 6); /* zigzag(3) */
    assert_true(dec == 13);
    assert_int_equal(pms__olr_quantise(0, 4, 1, &dec), 1); /* zigzag(-1): 4 - 3 = 1 */
    assert_true(dec == 1);
    assert_int_equal(pms__olr_quantise(0, 5, 1, &dec), 3); /* -5 / 3 -> -2, decodes -1: clamped to 0 */
    assert_true(dec == 0);
    /* a code the writer never makes: |q| (2 eps + 1) above 2^65 */
    assert_int_not_equal(pms__olr_dequantise(UINT64_MAX - 1, 0, 7, &dec), 0);
}

/* The rate predictor against a reference in exact rational arithmetic (long double holds
 * these small products exactly): d1 + round(step dx / dx0), halves away from zero, clamped
 * to 0 .. 2^64 - 1; and at the ends of the range. */
static void test_rate_predictor(void **state)
{
    (void)state;
    for (uint64_t d2 = 0; d2 < 40; d2 += 3)
        for (uint64_t d1 = 0; d1 < 40; d1 += 5)
            for (uint64_t dx0 = 1; dx0 < 9; dx0++)
                for (uint64_t dx = 1; dx < 20; dx += 2) {
                    pms__olr_history h = {0};
                    pms__olr_history_push(&h, d2, 1000);
                    pms__olr_history_push(&h, d1, 1000 + dx0);
                    long double step = (long double)d1 - (long double)d2, q = step * dx / dx0;
                    long double r = q < 0 ? -floorl(-q + 0.5L) : floorl(q + 0.5L), want = d1 + r;
                    if (want < 0) want = 0;
                    uint64_t got = pms__olr_predict(PMS__OLR_PREDICT_RATE, &h, 1000 + dx0 + dx);
                    if ((long double)got != want)
                        fail_msg("d %llu, %llu over x steps %llu, %llu: predicted %llu, expected %.0Lf",
                                 (unsigned long long)d2, (unsigned long long)d1, (unsigned long long)dx0,
                                 (unsigned long long)dx, (unsigned long long)got, want);
                    /* the linear predictor is the rate one at equal x steps */
                    if (dx == dx0) assert_true(got == pms__olr_predict(PMS__OLR_PREDICT_LINEAR, &h, 0));
                }
    pms__olr_history h = {0};
    pms__olr_history_push(&h, 0, 0);
    pms__olr_history_push(&h, UINT64_MAX, 1); /* a step of 2^64 - 1 over x's step 1 */
    assert_true(pms__olr_predict(PMS__OLR_PREDICT_RATE, &h, UINT64_MAX) == UINT64_MAX);
    h = (pms__olr_history){0};
    pms__olr_history_push(&h, UINT64_MAX, 0);
    pms__olr_history_push(&h, 5, UINT64_MAX - 1); /* down by 2^64 - 6 over nearly 2^64 */
    assert_true(pms__olr_predict(PMS__OLR_PREDICT_RATE, &h, UINT64_MAX) == 4);
}

/* One counter through opt and the writer with ENCODING, into memory. */
static char *store(size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps, int encoding, int lossless,
                   size_t *size, pms_olr_store_stats *st)
{
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.encoding = encoding;
    so.lossless = lossless;
    return store_in_memory(n, x, y, eps, &so, size, st);
}

static void check(const char *buf, size_t size, size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps,
                  const char *what)
{
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, buf, size, "mem")) fail_msg("%s: %s", what, pms_strerror());
    assert_int_equal(s.version, PMS_OLR_STORE_VERSION);
    assert_int_equal(s.n, n);
    uint64_t *d = malloc(n * sizeof *d);
    assert_non_null(d);
    assert_int_equal(pms_olr_stored_decode(&s, 0, NULL, d), 0);
    for (size_t i = 0; i < n; i++)
        if (dist(d[i], y[i]) > eps)
            fail_msg("%s: sample %zu at x %llu: %llu decoded %llu (eps %llu)", what, i, (unsigned long long)x[i],
                     (unsigned long long)y[i], (unsigned long long)d[i], (unsigned long long)eps);
    free(d);
    pms_olr_stored_free(&s);
}

enum { N = 3000 };

/* Streams: a counter climbing by 10^5 to 10^9 a sample at random (the hardware lists'
 * kind), one near 0 that goes up and down, one near 2^64 - 1 that wraps past 2^64 and
 * back, and one hopping between 0 and 2^64 - 1. */
static void make(int kind, uint64_t *x, uint64_t *y)
{
    uint64_t v = kind == 2 ? UINT64_MAX - 5000 : 0;
    for (size_t i = 0; i < N; i++) {
        x[i] = 1000 * (i + 1) + rnd() % 500;
        switch (kind) {
        case 0: v += 100000 + rnd() % 1000000000; break;
        case 1: v = rnd() % 3 == 0 ? 0 : rnd() % 6; break;
        case 2: v += 7 + rnd() % 11; break; /* wraps modulo 2^64 after some 400 samples */
        default: v = rnd() % 2 ? UINT64_MAX - rnd() % 4 : rnd() % 4; break;
        }
        y[i] = v;
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    static uint64_t x[N], y[N];
    const uint64_t epss[] = {0, 1, 2, 5000, UINT64_C(1) << 60}; /* opt takes eps up to 2^60 */
    const int encodings[] = {PMS_OLR_ENCODING_PREDICTIVE, PMS_OLR_ENCODING_SEGMENTS, PMS_OLR_ENCODING_AUTO};
    for (int kind = 0; kind < 4; kind++) {
        make(kind, x, y);
        for (size_t e = 0; e < sizeof epss / sizeof *epss; e++)
            for (int lossless = 0; lossless < 2; lossless++) {
                size_t size[3];
                for (int m = 0; m < 3; m++) {
                    pms_olr_store_stats st;
                    char *buf = store(N, x, y, epss[e], encodings[m], lossless, &size[m], &st);
                    char what[96];
                    snprintf(what, sizeof what, "stream %d, eps %llu, lossless %d, encoding %d", kind,
                             (unsigned long long)epss[e], lossless, encodings[m]);
                    check(buf, size[m], N, x, y, lossless ? 0 : epss[e], what);
                    if (m == 0) assert_int_equal(st.predictive, 1);
                    if (m == 1) assert_int_equal(st.predictive, 0);
                    if (m == 0) assert_true(st.bytes_predictive > 0 && st.bytes_segments == 0);
                    free(buf);
                }
                /* the choice is the smaller of the two forced alone, to the byte */
                if (size[2] != (size[0] < size[1] ? size[0] : size[1]))
                    fail_msg("stream %d, eps %llu: auto %zu bytes, predictive %zu, segments %zu", kind,
                             (unsigned long long)epss[e], size[2], size[0], size[1]);
            }
    }
}

/* A zstd frame holding BODY as one raw block (RFC 8878: single segment, 1-byte content
 * size, no checksum), so that hostile chunk contents can be written by hand. */
static size_t frame(uint8_t *out, const uint8_t *body, size_t n)
{
    size_t k = 0;
    const uint8_t magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    memcpy(out, magic, 4);
    k = 4;
    out[k++] = 0x20; /* single segment, content size in 1 byte */
    out[k++] = (uint8_t)n;
    uint32_t bh = 1u | (uint32_t)n << 3; /* last block, raw */
    out[k++] = (uint8_t)bh;
    out[k++] = (uint8_t)(bh >> 8);
    out[k++] = (uint8_t)(bh >> 16);
    memcpy(out + k, body, n);
    return k + n;
}

/* A file of one counter (eps 1, or 127 with BIG_EPS) with an X chunk of XBODY (none when
 * XN is 0: x left out) and a P chunk of BODY (before the X chunk with X_AFTER), then an end
 * chunk of n = 2 and 0 segments. */
static size_t hostile_x(uint8_t *f, int version, int big_eps, const uint8_t *xbody, size_t xn, int x_after,
                        const uint8_t *body, size_t n)
{
    size_t k = 0;
    memcpy(f, "PMSOLR", 6);
    k = 6;
    f[k++] = (uint8_t)version;
    f[k++] = xn > 0;     /* flags: x stored */
    f[k++] = 1;          /* opt */
    f[k++] = 1;          /* k */
    f[k++] = 1, f[k++] = 'x';
    f[k++] = 1, f[k++] = 'y';
    f[k++] = big_eps ? 127 : 1; /* eps */
    uint8_t z[64];
    size_t zn;
    for (int pass = 0; pass < 2; pass++) {
        if (xn && pass == x_after) {
            zn = frame(z, xbody, xn);
            f[k++] = 'X', f[k++] = (uint8_t)xn, f[k++] = (uint8_t)zn;
            memcpy(f + k, z, zn);
            k += zn;
        }
        if (pass == 1) continue;
        zn = frame(z, body, n);
        f[k++] = 'P', f[k++] = (uint8_t)n, f[k++] = (uint8_t)zn;
        memcpy(f + k, z, zn);
        k += zn;
    }
    const uint8_t end[2] = {2, 0};
    zn = frame(z, end, 2);
    f[k++] = 'E', f[k++] = 2, f[k++] = (uint8_t)zn;
    memcpy(f + k, z, zn);
    return k + zn;
}

static size_t hostile(uint8_t *f, int version, int big_eps, const uint8_t *xbody, size_t xn, const uint8_t *body,
                      size_t n)
{
    return hostile_x(f, version, big_eps, xbody, xn, 0, body, n);
}

static void expect_x(int version, const uint8_t *xbody, size_t xn, const uint8_t *body, size_t n, const char *want)
{
    uint8_t f[256];
    size_t size = hostile(f, version, n > 8, xbody, xn, body, n);
    pms_olr_stored s;
    int rc = pms_olr_stored_read_mem(&s, f, size, "f.olr");
    if (!want) {
        if (rc) fail_msg("a good P chunk: %s", pms_strerror());
        uint64_t d[2];
        assert_int_equal(pms_olr_stored_decode(&s, 0, xn ? NULL : (const uint64_t[]){1, 2}, d), 0);
        if (xn) assert_true(s.x[0] == 5 && s.x[1] == 12); /* steps 5 and 7 */
        /* codes 4 and 1 at eps 1: 0 + 2 * 3 = 6, then 6 - 3 = 3 (previous value predicts) */
        assert_true(d[0] == 6 && d[1] == 3);
        pms_olr_stored_free(&s);
        return;
    }
    assert_int_equal(rc, PMS_EFORMAT);
    const char *msg = pms_strerror();
    if (!strstr(msg, "f.olr: offset ") || !strstr(msg, want)) fail_msg("message '%s' lacks '%s'", msg, want);
}

static void expect(int version, const uint8_t *body, size_t n, const char *want)
{
    expect_x(version, NULL, 0, body, n, want);
}

/* A good P chunk BODY (two samples, no x) of a file of VERSION decodes to D0 and D1. */
static void expect_values(int version, const uint8_t *body, size_t n, uint64_t d0, uint64_t d1)
{
    uint8_t f[256];
    size_t size = hostile(f, version, 0, NULL, 0, body, n);
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, f, size, "f.olr")) fail_msg("a good P chunk: %s", pms_strerror());
    uint64_t d[2];
    assert_int_equal(pms_olr_stored_decode(&s, 0, (const uint64_t[]){1, 2}, d), 0);
    if (d[0] != d0 || d[1] != d1)
        fail_msg("decoded %llu %llu, expected %llu %llu", (unsigned long long)d[0], (unsigned long long)d[1],
                 (unsigned long long)d0, (unsigned long long)d1);
    pms_olr_stored_free(&s);
}

/* A version-1 file, written here byte by byte (x as varints: 5, step 7; one segment from
 * 10 to 14), reads as before. */
static void test_version_1(void **state)
{
    (void)state;
    uint8_t f[128], z[32];
    size_t k = 0, zn;
    const uint8_t head[] = {'P', 'M', 'S', 'O', 'L', 'R', 1, 1 /* x */, 1, 1, 1, 'x', 1, 'y', 1};
    memcpy(f, head, sizeof head);
    k = sizeof head;
    const uint8_t xs[] = {2, 5, 7}, seg[] = {0, 1, 4, 20, 8}, end[] = {2, 1};
    const uint8_t *bodies[] = {xs, seg, end};
    const size_t sizes[] = {sizeof xs, sizeof seg, sizeof end};
    const char types[] = "XSE";
    for (int c = 0; c < 3; c++) {
        zn = frame(z, bodies[c], sizes[c]);
        f[k++] = (uint8_t)types[c], f[k++] = (uint8_t)sizes[c], f[k++] = (uint8_t)zn;
        memcpy(f + k, z, zn);
        k += zn;
    }
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, f, k, "v1.olr")) fail_msg("%s", pms_strerror());
    assert_int_equal(s.version, 1);
    uint64_t d[2];
    assert_int_equal(pms_olr_stored_decode(&s, 0, NULL, d), 0);
    assert_true(s.x[0] == 5 && s.x[1] == 12 && d[0] == 10 && d[1] == 14);
    pms_olr_stored_free(&s);
}

static void test_hostile(void **state)
{
    (void)state;
    /* counter 0, m 2, predictor 0, width 1, codes 4 and 1 */
    const uint8_t good[] = {0, 2, 0, 1, 4, 1};
    expect(2, good, sizeof good, NULL);
    expect(1, good, sizeof good, "expected a chunk type of version 1: X, S, R or E");
    const uint8_t pred[] = {0, 2, 2, 1, 4, 1};
    expect(2, pred, sizeof pred, "byte 2 of its 6): expected a predictor: 0 (previous value) or 1 (linear)");
    const uint8_t width[] = {0, 2, 0, 9, 4, 1};
    expect(2, width, sizeof width, "byte 3 of its 6): expected a code width of 1 to 8 bytes");
    const uint8_t zero[] = {0, 2, 0, 0, 4, 1};
    expect(2, zero, sizeof zero, "expected a code width of 1 to 8 bytes");
    const uint8_t shrt[] = {0, 2, 0, 1, 4};
    expect(2, shrt, sizeof shrt, "expected m codes of w bytes each to the end of the chunk");
    const uint8_t cnt[] = {1, 2, 0, 1, 4, 1};
    expect(2, cnt, sizeof cnt, "expected a counter index below the number of counters");
    /* a code of 8 bytes: q = 2^63 - 1, beyond 2^65 / 255 (eps 127) */
    const uint8_t big[] = {0, 1, 0, 8, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    expect(2, big, sizeof big, "byte 4 of its 12): expected a quantised difference q with |q| (2 eps + 1) at most 2^65");
    const uint8_t few[] = {0, 1, 0, 1, 4};
    expect(2, few, sizeof few, "expected segments or predictive codes of every counter covering every sample");
    /* version 2's X chunk: m, predictor, width, planes: steps 5 and 7 */
    const uint8_t xgood[] = {2, 0, 1, 5, 7};
    expect_x(2, xgood, sizeof xgood, good, sizeof good, NULL);
    const uint8_t xstill[] = {2, 0, 1, 5, 0}; /* a step of 0 */
    expect_x(2, xstill, sizeof xstill, good, sizeof good,
             "(chunk 'X', byte 4 of its 5): expected x values that increase strictly below 2^64");
    const uint8_t xwrap[] = {2, 1, 8, 0xff, 1, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0};
    expect_x(2, xwrap, sizeof xwrap, good, sizeof good, "(chunk 'X', byte 4 of its 19): expected x values that increase strictly below 2^64");
    const uint8_t xpred[] = {2, 2, 1, 5, 7};
    expect_x(2, xpred, sizeof xpred, good, sizeof good, "expected a predictor: 0 (previous value) or 1 (linear)");
    /* version 3: the same codes at eps 1 quantised (6, 3), and exact (predictor 2: zigzag 4
     * and 1 are +2 and -1: 2, 1; predictor 3, linear, predicts the second sample by the first
     * too: 2, 1) */
    expect_values(3, good, sizeof good, 6, 3);
    const uint8_t exact[] = {0, 2, 2, 1, 4, 1}, exact_linear[] = {0, 2, 3, 1, 4, 1};
    expect_values(3, exact, sizeof exact, 2, 1);
    expect_values(3, exact_linear, sizeof exact_linear, 2, 1);
    const uint8_t pred4[] = {0, 2, 4, 1, 4, 1};
    expect(3, pred4, sizeof pred4,
           "byte 2 of its 6): expected a predictor: 0 (previous value) or 1 (linear), plus 2 for exact codes");
    expect_x(3, xpred, sizeof xpred, good, sizeof good, "expected a predictor: 0 (previous value) or 1 (linear)");
    /* version 4: exact codes are predictor + 3; predictor 2 (rate over x) needs x, read
     * before the chunk (two samples: it predicts as the previous value) */
    expect_values(4, good, sizeof good, 6, 3);
    const uint8_t exact4[] = {0, 2, 3, 1, 4, 1}, exact4_linear[] = {0, 2, 4, 1, 4, 1};
    expect_values(4, exact4, sizeof exact4, 2, 1);
    expect_values(4, exact4_linear, sizeof exact4_linear, 2, 1);
    const uint8_t rate[] = {0, 2, 2, 1, 4, 1}, rate_exact[] = {0, 2, 5, 1, 4, 1}, pred6[] = {0, 2, 6, 1, 4, 1};
    expect_x(4, xgood, sizeof xgood, rate, sizeof rate, NULL);
    expect(4, rate, sizeof rate,
           "byte 2 of its 6): expected a predictor: 0 (previous value) or 1 (linear), plus 3 for exact codes (no rate "
           "over x: the file holds no x)");
    expect(4, rate_exact, sizeof rate_exact, "(no rate over x: the file holds no x)");
    expect_x(4, xgood, sizeof xgood, pred6, sizeof pred6,
             "byte 2 of its 6): expected a predictor: 0 (previous value), 1 (linear) or 2 (rate over x), plus 3 for "
             "exact codes");
    expect(3, rate_exact, sizeof rate_exact, "plus 2 for exact codes");
    uint8_t f[256];
    size_t size = hostile_x(f, 4, 0, xgood, sizeof xgood, 1, rate, sizeof rate);
    pms_olr_stored st;
    assert_int_equal(pms_olr_stored_read_mem(&st, f, size, "f.olr"), PMS_EFORMAT);
    if (!strstr(pms_strerror(), "(chunk 'P', byte 2 of its 6): expected the x of the chunk's samples in X chunks "
                                "before it (for the rate predictor)"))
        fail_msg("%s", pms_strerror());
    /* the same chunk with predictor 1 reads: only the rate predictor needs x first */
    const uint8_t linear[] = {0, 2, 1, 1, 4, 1};
    size = hostile_x(f, 4, 0, xgood, sizeof xgood, 1, linear, sizeof linear);
    if (pms_olr_stored_read_mem(&st, f, size, "f.olr")) fail_msg("%s", pms_strerror());
    pms_olr_stored_free(&st);
}

/* A counter nearly perfectly predictable, as the emulated PMU's cycles at a fixed cpu-clock
 * period: the same step at almost every sample, now and then off by a few counts. Quantised
 * codes feed each rounding error into the next predictions and would cost more than exact
 * ones; the writer takes exact codes there, so its eps >= 1 codes cost no more than the
 * lossless file's. */
static void test_exact_codes_where_they_pay(void **state)
{
    (void)state;
    static uint64_t x[N], y[N];
    uint64_t v = 1000;
    for (size_t i = 0; i < N; i++) {
        x[i] = 20000 * (i + 1);
        v += 16932 + (rnd() % 64 == 0 ? rnd() % 25 : 0);
        y[i] = v;
    }
    pms_olr_store_stats lossless;
    size_t size;
    free(store(N, x, y, 0, PMS_OLR_ENCODING_PREDICTIVE, 1, &size, &lossless));
    for (uint64_t eps = 1; eps <= 2; eps++) {
        pms_olr_store_stats st;
        char *buf = store(N, x, y, eps, PMS_OLR_ENCODING_PREDICTIVE, 0, &size, &st);
        check(buf, size, N, x, y, eps, "nearly predictable");
        /* the same codes may cost zstd a byte more: the predictor byte says exact (+ 3) */
        if (st.bytes_predictive > lossless.bytes_predictive + 1)
            fail_msg("eps %llu: %llu bytes of codes, lossless %llu", (unsigned long long)eps,
                     (unsigned long long)st.bytes_predictive, (unsigned long long)lossless.bytes_predictive);
        free(buf);
    }
}

/* A counter at a steady rate over x, as cycles against cpu-clock's nanoseconds with
 * randomised periods: x steps of 5000 to 15000, y steps of 3 counts per unit of x and now and
 * then a few more. With x in the file the writer predicts each step from the last rate, and
 * its lossless codes are at least a third smaller than without x (the previous value and
 * linear predictors alone); both decode exactly. */
static void test_rate_predictor_pays(void **state)
{
    (void)state;
    static uint64_t x[N], y[N], d[N];
    uint64_t u = 0, v = 1000;
    for (size_t i = 0; i < N; i++) {
        u += 5000 + rnd() % 10001;
        v += 3 * (u - (i ? x[i - 1] : 0)) + (rnd() % 16 == 0 ? rnd() % 40 : 0);
        x[i] = u;
        y[i] = v;
    }
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.encoding = PMS_OLR_ENCODING_PREDICTIVE;
    pms_olr_store_stats with_x, without_x;
    size_t size;
    char *buf = store_in_memory(N, x, y, 0, &so, &size, &with_x);
    check(buf, size, N, x, y, 0, "steady rate, x stored");
    free(buf);
    so.keep_x = 0;
    buf = store_in_memory(N, x, y, 0, &so, &size, &without_x);
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, buf, size, "mem")) fail_msg("%s", pms_strerror());
    assert_int_equal(pms_olr_stored_decode(&s, 0, x, d), 0);
    assert_memory_equal(d, y, sizeof y);
    pms_olr_stored_free(&s);
    free(buf);
    if (with_x.bytes_predictive * 3 > without_x.bytes_predictive * 2)
        fail_msg("codes with x %llu bytes, without %llu", (unsigned long long)with_x.bytes_predictive,
                 (unsigned long long)without_x.bytes_predictive);
}

/* The rate predictor needs the x of a P chunk's samples before the chunk, and the x of the
 * two samples before it. With small chunks (32 samples of x or of codes, 256 bytes of
 * segments) and opt's own segments, a counter whose first 30 samples are random values near
 * 2^60 fills its segment buffer before its 32nd sample; that early chunk chooses predictive
 * coding (the previous-value predictor), and the counter's later P chunks (a steady rate over
 * jittered x: the rate predictor) no longer end with x's chunks. The file must still read, and
 * decode exactly: the writer writes x's chunk before each P chunk, and the reader takes the x
 * of the samples before a rate chunk from x itself (the chunk before it, of another
 * predictor, needs no x). */
static void test_rate_chunks_after_their_x(void **state)
{
    (void)state;
    static uint64_t x[N], y[N];
    uint64_t u = 0, v = 0;
    for (size_t i = 0; i < N; i++) {
        u += 5000 + rnd() % 10001;
        v = i < 30 ? rnd() >> 4 : v + 3 * (u - x[i - 1]) + rnd() % 4;
        x[i] = u;
        y[i] = v;
    }
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.chunk = 256;
    so.greedy_joints = 1; /* segments as opt closes them (the optimal mix hands them out later) */
    pms_olr_store_stats st;
    size_t size;
    char *buf = store_in_memory(N, x, y, 0, &so, &size, &st);
    assert_int_equal(st.predictive, 1);
    check(buf, size, N, x, y, 0, "small chunks");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantise_edges),
        cmocka_unit_test(test_rate_predictor),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_version_1),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_exact_codes_where_they_pay),
        cmocka_unit_test(test_rate_predictor_pays),
        cmocka_unit_test(test_rate_chunks_after_their_x),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
