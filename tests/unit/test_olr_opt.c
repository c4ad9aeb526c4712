/* olr, method opt: the error bound on thousands of random monotone series (steps,
 * ramps, noise, plateaus, counts near 2^63 and up to 2^64 - 1), checked exactly and independently of the
 * library's own evaluation; the segment count against a brute-force optimum. */
#include "test_support.h"
#include "splitmix.h"
#include "pmuscope/olr.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;


typedef struct segs {
    pms_olr_segment *s;
    size_t n, cap;
} segs;

static int collect(const pms_olr_segment *s, void *ctx)
{
    segs *v = ctx;
    assert_int_equal(pms__grow(&v->s, &v->cap, v->n + 1, sizeof *v->s), 0);
    v->s[v->n++] = *s;
    return 0;
}

/* |line(x) - y| <= eps, exactly: with u = x - x0, 2 (line - y0) = L0 + L1, so multiply
 * |L0 + L1 - 2 (y - y0)| <= 2 eps by dx0 dx1 > 0. Returns -1 if the products overflow. */
static int within_eps_exact(const pms_olr_exact *e, uint64_t x, uint64_t y, int64_t eps)
{
    i128 u = (i128)x - (i128)e->x0, t[2], p;
    for (int i = 0; i < 2; i++) {
        i128 a;
        if (__builtin_mul_overflow((i128)e->y[i], (i128)e->dx[i], &a)) return -1;
        if (__builtin_mul_overflow(u - e->x[i], (i128)e->dy[i], &p)) return -1;
        if (__builtin_mul_overflow(a + p, (i128)e->dx[1 - i], &t[i])) return -1;
    }
    i128 d2, lhs, rhs;
    if (__builtin_mul_overflow(2 * ((i128)y - e->y0), (i128)e->dx[0], &p)) return -1;
    if (__builtin_mul_overflow(p, (i128)e->dx[1], &d2)) return -1;
    lhs = t[0] + t[1] - d2;
    if (lhs < 0) lhs = -lhs;
    if (__builtin_mul_overflow((i128)2 * eps * e->dx[0], (i128)e->dx[1], &rhs)) return -1;
    return lhs <= rhs;
}

/* Runs opt over the series and checks: segments tile the samples in order, every sample
 * is within eps of its line (exact check and the library's decoding), slopes >= 0. */
static size_t run_and_check(size_t n, const uint64_t *x, const uint64_t *y, int64_t eps, uint64_t max_len,
                            size_t max_hull, int monotone)
{
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = PMS_OLR_OPT;
    opt.max_len = max_len;
    opt.max_hull = max_hull;
    pms_olr_counter_options c;
    pms_olr_counter_options_init(&c);
    c.eps = (double)eps;
    c.monotone = monotone;
    opt.counters = &c;
    segs v = {0};
    pms_olr *o;
    assert_int_equal(pms_olr_create(&o, &opt, collect, &v), 0);
    for (size_t i = 0; i < n; i++) assert_int_equal(pms_olr_push(o, x[i], &y[i]), 0);
    assert_int_equal(pms_olr_finish(o), 0);
    pms_olr_summary sum;
    assert_int_equal(pms_olr_get_summary(o, 0, &sum), 0);
    assert_true(sum.max_abs_error <= (double)eps);
    assert_int_equal(sum.segments, v.n);
    pms_olr_destroy(o);

    size_t next = 0;
    for (size_t k = 0; k < v.n; k++) {
        const pms_olr_segment *s = &v.s[k];
        assert_int_equal(s->first, next);
        assert_true(s->exact_valid);
        if (max_len) assert_true(s->count <= max_len);
        if (monotone)
            assert_true((i128)s->exact.dy[0] * s->exact.dx[1] + (i128)s->exact.dy[1] * s->exact.dx[0] >= 0);
        for (uint64_t i = s->first; i < s->first + s->count; i++) {
            int ok = within_eps_exact(&s->exact, x[i], y[i], eps);
            if (ok >= 0 && !ok)
                fail_msg("sample %llu (x %llu, y %llu) farther than eps %lld from segment %zu",
                         (unsigned long long)i, (unsigned long long)x[i], (unsigned long long)y[i],
                         (long long)eps, k);
            i128 d = (i128)pms_olr_segment_eval_count(s, x[i]) - (i128)y[i];
            if (d < -eps || d > eps) fail_msg("decoded sample %llu off by more than eps", (unsigned long long)i);
        }
        next = s->first + s->count;
    }
    assert_int_equal(next, n);
    free(v.s);
    return v.n;
}

enum { RAMPS, STEPS, NOISE, PLATEAUS, HUGE, TOP, NKINDS };

static void make_series(int kind, size_t n, uint64_t *x, uint64_t *y)
{
    uint64_t period = 1 + below(1000000);
    uint64_t xv = below(1000), yv = below(1000), rate = below(5000);
    if (kind == HUGE) {
        /* counts just below 2^63: a double would round them to multiples of 1024 */
        yv = (UINT64_C(1) << 63) - 1 - (uint64_t)n * (UINT64_C(1) << 40);
        xv = (UINT64_C(1) << 62) + below(1000);
        rate = below(UINT64_C(1) << 40);
    } else if (kind == TOP) {
        /* counts up to 2^64 - 1 itself: above 2^63 a signed result would clamp */
        rate = below(UINT64_C(1) << 40);
        yv = UINT64_MAX - (uint64_t)n * rate - below(1000);
        xv = below(1000);
    }
    for (size_t i = 0; i < n; i++) {
        xv += period + below(period / 8 + 1); /* a randomised period, as Wu & Mencer sampled */
        switch (kind) {
        case RAMPS: if (below(50) == 0) rate = below(5000); yv += rate; break;
        case STEPS: yv += below(40) == 0 ? below(100000) : 0; break;
        case NOISE: yv += rate + below(rate / 2 + 1); break;
        case PLATEAUS: if (below(30) == 0) rate = below(3) == 0 ? 0 : below(100); yv += rate; break;
        case HUGE: case TOP: yv += below(rate + 1); break;
        }
        x[i] = xv;
        y[i] = yv;
    }
}

static void test_error_bound_on_random_series(void **state)
{
    (void)state;
    enum { N = 400 };
    uint64_t x[N], y[N];
    for (int t = 0; t < 3000; t++) {
        int kind = t % NKINDS;
        size_t n = 2 + below(N - 1);
        make_series(kind, n, x, y);
        int64_t eps = (int64_t)(kind == HUGE || kind == TOP ? below(UINT64_C(1) << 40) : below(3) == 0 ? below(3) : below(5000));
        uint64_t max_len = below(4) == 0 ? 2 + below(50) : 0;
        size_t max_hull = below(4) == 0 ? 8 + below(16) : 4096;
        run_and_check(n, x, y, eps, max_len, max_hull, 1);
    }
}

/* 2D Helly: a line within eps of every point exists iff one exists for every triple;
 * for i < j < k the middle point may miss the chord by at most 2 eps. */
static int feasible(const uint64_t *x, const uint64_t *y, size_t a, size_t b, int64_t eps)
{
    for (size_t i = a; i <= b; i++)
        for (size_t j = i + 1; j <= b; j++)
            for (size_t k = j + 1; k <= b; k++) {
                i128 d = (i128)y[j] * (i128)(x[k] - x[i]) - (i128)y[i] * (i128)(x[k] - x[j]) -
                         (i128)y[k] * (i128)(x[j] - x[i]);
                if (d < 0) d = -d;
                if (d > (i128)2 * eps * (i128)(x[k] - x[i])) return 0;
            }
    return 1;
}

static size_t brute_force_min(size_t n, const uint64_t *x, const uint64_t *y, int64_t eps)
{
    size_t best[16];
    best[0] = 0;
    for (size_t i = 1; i <= n; i++) {
        best[i] = SIZE_MAX;
        for (size_t j = 0; j < i; j++)
            if (best[j] + 1 < best[i] && feasible(x, y, j, i - 1, eps)) best[i] = best[j] + 1;
    }
    return best[n];
}

static void test_segment_count_is_optimal(void **state)
{
    (void)state;
    uint64_t x[12], y[12];
    for (int t = 0; t < 3000; t++) {
        size_t n = 2 + below(11);
        int monotone = t % 2;
        uint64_t xv = 0, yv = 50;
        for (size_t i = 0; i < n; i++) {
            xv += 1 + below(4);
            yv = monotone ? yv + below(12) : 50 + below(25);
            x[i] = xv;
            y[i] = yv;
        }
        int64_t eps = (int64_t)below(4);
        size_t got = run_and_check(n, x, y, eps, 0, 4096, monotone);
        assert_int_equal(got, brute_force_min(n, x, y, eps));
    }
}

/* A hull cap closes segments early without breaking the bound: convex data (y = i^2)
 * keeps every point on the hull. */
static void test_hull_cap_effect(void **state)
{
    (void)state;
    enum { N = 3000 };
    static uint64_t x[N], y[N];
    for (size_t i = 0; i < N; i++) {
        x[i] = i + 1;
        y[i] = (uint64_t)i * i;
    }
    size_t uncapped = run_and_check(N, x, y, 1000000, 0, 4096, 1);
    size_t capped = run_and_check(N, x, y, 1000000, 0, 8, 1);
    assert_true(capped >= uncapped);
}

static pms_olr *make_opt(void)
{
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = PMS_OLR_OPT;
    pms_olr *o;
    assert_int_equal(pms_olr_create(&o, &opt, NULL, NULL), 0);
    return o;
}

static void assert_message(const char *part)
{
    if (!strstr(pms_strerror(), part)) fail_msg("message '%s' lacks '%s'", pms_strerror(), part);
}

/* The last counts of the range: eps 0 decodes each exactly, 2^64 - 1 included, on a line
 * and on a parabola's chords. */
static void test_decode_near_2_64(void **state)
{
    (void)state;
    enum { N = 64 };
    uint64_t x[N], y[N];
    for (int shape = 0; shape < 2; shape++) {
        for (size_t i = 0; i < N; i++) {
            uint64_t back = N - 1 - i;
            x[i] = 1000 + 997 * i;
            y[i] = UINT64_MAX - (shape ? back * back * 3 : back * 5);
        }
        size_t segments = run_and_check(N, x, y, 0, 0, 0, 1);
        assert_int_equal(segments, shape ? N / 2 : 1);
        /* the library's own line through the last two samples, evaluated at both */
        pms_olr_options opt;
        pms_olr_options_init(&opt);
        opt.method = PMS_OLR_OPT;
        pms_olr_counter_options c;
        pms_olr_counter_options_init(&c);
        opt.counters = &c;
        segs v = {0};
        pms_olr *o;
        assert_int_equal(pms_olr_create(&o, &opt, collect, &v), 0);
        for (size_t i = N - 2; i < N; i++) assert_int_equal(pms_olr_push(o, x[i], &y[i]), 0);
        assert_int_equal(pms_olr_finish(o), 0);
        pms_olr_destroy(o);
        assert_int_equal(v.n, 1);
        pms_olr_segment seg = v.s[0];
        assert_int_equal(pms_olr_segment_eval_count(&seg, x[N - 1]), UINT64_MAX);
        assert_int_equal(pms_olr_segment_eval_count(&seg, x[N - 2]), y[N - 2]);
        uint64_t dec[2];
        pms_olr_segment_decode(&seg, x + N - 2, 2, dec);
        assert_int_equal(dec[0], y[N - 2]);
        assert_int_equal(dec[1], UINT64_MAX);
        /* beyond the last sample the line climbs past 2^64 - 1: clamped, not wrapped */
        if (y[N - 1] > y[N - 2]) assert_int_equal(pms_olr_segment_eval_count(&seg, x[N - 1] + 100000), UINT64_MAX);
        free(v.s);
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    for (int m = 0; m < 2; m++) {
        pms_olr_options opt;
        pms_olr_options_init(&opt);
        opt.method = m ? PMS_OLR_OPT : PMS_OLR_WM;
        pms_olr *o;
        assert_int_equal(pms_olr_create(&o, &opt, NULL, NULL), 0);
        assert_int_equal(pms_olr_finish(o), PMS_EINVAL);
        assert_message("no samples");
        uint64_t y = 5;
        assert_int_equal(pms_olr_push(o, 10, &y), 0);
        assert_int_equal(pms_olr_finish(o), PMS_EINVAL);
        assert_message("single sample");
        pms_olr_destroy(o);
    }
    pms_olr *o = make_opt();
    uint64_t y = 5;
    assert_int_equal(pms_olr_push(o, 10, &y), 0);
    assert_int_equal(pms_olr_push(o, 10, &y), PMS_EINVAL);
    assert_message("sample 1: x = 10 after x = 10: x must increase strictly");
    assert_int_equal(pms_olr_push(o, 9, &y), PMS_EINVAL);
    y = 4;
    assert_int_equal(pms_olr_push(o, 11, &y), PMS_EINVAL);
    assert_message("counter 0 fell from 5 to 4");
    double yd = NAN;
    assert_int_equal(pms_olr_push_double(o, 12, &yd), PMS_EINVAL);
    assert_message("olr: sample 1: counter 0: NaN: expected a count");
    yd = 6.5;
    assert_int_equal(pms_olr_push_double(o, 12, &yd), PMS_EINVAL);
    assert_message("6.5: expected a whole count");
    assert_int_equal(pms_olr_push_double(o, -1, &yd), PMS_EINVAL);
    assert_message("sample 1: x: -1: expected a whole count");
    /* rejected samples left the stream as it was */
    yd = 7;
    assert_int_equal(pms_olr_push_double(o, 12, &yd), 0);
    assert_int_equal(pms_olr_finish(o), 0);
    pms_olr_summary s;
    assert_int_equal(pms_olr_get_summary(o, 0, &s), 0);
    assert_int_equal(s.samples, 2);
    pms_olr_destroy(o);

    pms_olr_options opt;
    pms_olr_options_init(&opt);
    pms_olr_counter_options c;
    pms_olr_counter_options_init(&c);
    c.unit = PMS_OLR_EPS_RANGE;
    opt.counters = &c;
    assert_int_equal(pms_olr_create(&o, &opt, NULL, NULL), PMS_EINVAL);
    c.unit = PMS_OLR_EPS_STEP;
    c.eps = 2;
    assert_close(pms_olr_eps_resolve(&c, 100, 1100, 11), 200, 1e-12);
    c.unit = PMS_OLR_EPS_RANGE;
    c.eps = 0.01;
    assert_close(pms_olr_eps_resolve(&c, 100, 1100, 11), 10, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_bound_on_random_series),
        cmocka_unit_test(test_segment_count_is_optimal),
        cmocka_unit_test(test_hull_cap_effect),
        cmocka_unit_test(test_decode_near_2_64),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
