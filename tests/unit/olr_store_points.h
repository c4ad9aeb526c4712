/* Stores one counter with opt at a whole eps through the segment file writer in memory
 * (store_in_memory); store_points reads the file back, checks every sample within eps at its own x and returns the end points the
 * file holds (counted from the segments read back) with the writer's stats. */
#ifndef PMS_TEST_OLR_STORE_POINTS_H
#define PMS_TEST_OLR_STORE_POINTS_H
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/olr_store.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct store_sink {
    pms_olr_writer *w;
} store_sink;

static int store_sink_add(const pms_olr_segment *s, void *ctx)
{
    return pms_olr_writer_add_segment(((store_sink *)ctx)->w, s);
}

/* One counter through opt at a whole eps and the writer with so's options, into memory:
 * the file's bytes (free them) and *size; *st: the writer's stats. */
static inline char *store_in_memory(size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps,
                                    const pms_olr_store_options *so, size_t *size, pms_olr_store_stats *st)
{
    pms_olr_options o;
    pms_olr_options_init(&o);
    o.method = PMS_OLR_OPT;
    o.ncounters = 1;
    pms_olr_counter_options c;
    pms_olr_counter_options_init(&c);
    c.eps = (double)eps;
    c.monotone = 0;
    o.counters = &c;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    assert_non_null(f);
    const char *names[1] = {"y"};
    store_sink sk;
    assert_int_equal(pms_olr_writer_create(&sk.w, f, "mem", so, &o, "x", names), 0);
    pms_olr *olr;
    assert_int_equal(pms_olr_create(&olr, &o, store_sink_add, &sk), 0);
    for (size_t i = 0; i < n; i++) {
        if (pms_olr_writer_add_sample(sk.w, x[i], &y[i])) fail_msg("%s", pms_strerror());
        if (pms_olr_push(olr, x[i], &y[i])) fail_msg("%s", pms_strerror());
    }
    if (pms_olr_finish(olr)) fail_msg("%s", pms_strerror());
    if (pms_olr_writer_finish(sk.w)) fail_msg("%s", pms_strerror());
    pms_olr_writer_get_stats(sk.w, st);
    pms_olr_writer_destroy(sk.w);
    pms_olr_destroy(olr);
    fclose(f);
    return buf;
}

/* so: NULL for the defaults; *st: the writer's stats. */
static inline uint64_t store_points(size_t n, const uint64_t *x, const uint64_t *y, uint64_t eps,
                                    const pms_olr_store_options *so, pms_olr_store_stats *st)
{
    pms_olr_store_options dso;
    if (so) dso = *so;
    else pms_olr_store_options_init(&dso);
    dso.encoding = PMS_OLR_ENCODING_SEGMENTS; /* the points of segments, never predictive coding */
    size_t size = 0;
    char *buf = store_in_memory(n, x, y, eps, &dso, &size, st);
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, buf, size, "mem")) fail_msg("%s", pms_strerror());
    uint64_t *d = calloc(n, sizeof *d), points = 0;
    assert_non_null(d);
    assert_int_equal(pms_olr_stored_decode(&s, 0, NULL, d), 0);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(s.x[i], x[i]);
        if (d[i] > y[i] + eps || y[i] > d[i] + eps)
            fail_msg("sample %zu: %llu decoded %llu, eps %llu", i, (unsigned long long)y[i], (unsigned long long)d[i],
                     (unsigned long long)eps);
    }
    for (size_t k = 0; k < s.nseg[0]; k++) points += s.seg[0][k].joint || s.seg[0][k].count == 1 ? 1 : 2;
    assert_int_equal(points, st->points);
    free(d);
    pms_olr_stored_free(&s);
    free(buf);
    return points;
}

#endif
