/* libFuzzer target for olr: the input is a stream of samples (8-byte x steps and y values,
 * both methods, joint or per counter, caps and the segment file's options from the first
 * bytes: lossless, x left out, chunks of 8 to 64 samples, opt's encoding). Properties checked:
 * no crash or sanitizer report; opt's segments tile the samples and decode every sample
 * within eps; both methods count every sample once; the segment file written as the
 * stream goes (pmuscope/olr_store.h) reads back and decodes every sample within eps (opt)
 * or exactly (lossless). */
#include "pmuscope/olr.h"
#include "pmuscope/olr_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct check {
    const uint64_t *x, *y;
    size_t k, n;
    int64_t eps;
    uint64_t next[4];
    int opt;
    pms_olr_writer *w;
} check;

static int on_segment(const pms_olr_segment *s, void *ctx)
{
    check *c = ctx;
    if (pms_olr_writer_add_segment(c->w, s)) abort();
    if (!c->opt) return 0;
    if (s->first != c->next[s->counter]) abort();
    for (uint64_t i = s->first; i < s->first + s->count; i++) {
        __int128 d = (__int128)pms_olr_segment_eval_count(s, c->x[i]) - (__int128)c->y[i * c->k + s->counter];
        if (d > c->eps || d < -c->eps) abort();
    }
    c->next[s->counter] = s->first + s->count;
    return 0;
}

/* Finishes the segment file and reads it back: every sample within eps (eps < 0: no bound). */
static void check_file(pms_olr_writer *w, FILE *mem, char **file, size_t *size, const uint64_t *x,
                       const uint64_t *y, size_t k, size_t n, int64_t eps)
{
    if (pms_olr_writer_finish(w) || fflush(mem)) abort();
    pms_olr_stored st;
    if (pms_olr_stored_read_mem(&st, *file, *size, "fuzz") || st.n != n || st.k != k) abort();
    uint64_t *d = malloc(n * sizeof *d);
    if (!d) abort();
    for (size_t j = 0; j < k; j++) {
        if (pms_olr_stored_decode(&st, j, x, d)) abort();
        for (size_t i = 0; eps >= 0 && i < n; i++) {
            uint64_t v = y[i * k + j], e = d[i] > v ? d[i] - v : v - d[i];
            if (e > (uint64_t)eps) abort();
        }
    }
    free(d);
    pms_olr_stored_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    size_t k = 1 + data[0] % 3;
    int opt = data[1] & 1, per_counter = (data[1] >> 1) & 1, big = (data[1] >> 2) & 1;
    int64_t eps = data[2] % 17;
    int encoding = data[2] >> 6; /* opt's counters: auto, segments or predictive (3: auto) */
    int store_bits = data[1] >> 3; /* the segment file: lossless, x left out, small chunks */
    size_t max_hull = 8 + data[3] % 32;
    uint64_t max_len = data[0] & 4 ? 0 : 2 + data[3] % 50;
    data += 4;
    size -= 4;
    size_t rec = 2 * (1 + k), n = size / rec;
    uint64_t *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * k * sizeof *y);
    if (!x || !y) abort();
    /* x strictly increasing, y monotone: steps from the input; "big" starts near 2^62 */
    uint64_t xv = big ? (UINT64_C(1) << 62) : 0, yv[3] = {0, 0, 0};
    if (big) yv[0] = yv[1] = yv[2] = UINT64_C(1) << 62;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = data + i * rec;
        xv += 1 + (uint64_t)(p[0] | p[1] << 8);
        x[i] = xv;
        for (size_t j = 0; j < k; j++) {
            uint16_t step = (uint16_t)(p[2 + 2 * j] | p[3 + 2 * j] << 8);
            yv[j] += big ? (uint64_t)step << 20 : step % 64;
            y[i * k + j] = yv[j];
        }
    }
    pms_olr_options o;
    pms_olr_options_init(&o);
    o.method = opt ? PMS_OLR_OPT : PMS_OLR_WM;
    o.ncounters = k;
    o.per_counter = per_counter;
    o.max_hull = max_hull;
    o.max_len = max_len;
    pms_olr_counter_options c[3];
    for (size_t j = 0; j < k; j++) {
        pms_olr_counter_options_init(&c[j]);
        c[j].eps = (double)eps;
    }
    o.counters = c;
    check ch = {.x = x, .y = y, .k = k, .n = n, .eps = eps, .opt = opt};
    char *file = NULL;
    size_t file_size = 0;
    FILE *mem = open_memstream(&file, &file_size);
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.level = 1;
    so.lossless = store_bits & 1;
    so.keep_x = !(store_bits & 2);
    /* chunks of 8 to 64 samples: predictors change between them, and a counter's segments
     * may fill a chunk before x's */
    if (store_bits & 4) so.chunk = (size_t)64 << (store_bits >> 3);
    if (opt && encoding < 3) so.encoding = encoding;
    static const char *const names[3] = {"a", "b", "c"};
    if (!mem || pms_olr_writer_create(&ch.w, mem, "fuzz", &so, &o, "x", names)) abort();
    pms_olr *olr;
    if (pms_olr_create(&olr, &o, on_segment, &ch)) abort();
    for (size_t i = 0; i < n; i++)
        if (pms_olr_writer_add_sample(ch.w, x[i], &y[i * k]) || pms_olr_push(olr, x[i], &y[i * k])) abort();
    int rc = pms_olr_finish(olr);
    if (rc == 0) check_file(ch.w, mem, &file, &file_size, x, y, k, n, so.lossless ? 0 : opt ? eps : -1);
    pms_olr_writer_destroy(ch.w);
    fclose(mem);
    free(file);
    if ((rc == 0) != (n >= 2)) abort();
    for (size_t j = 0; rc == 0 && j < k; j++) {
        pms_olr_summary s;
        if (pms_olr_get_summary(olr, j, &s) || s.samples != n) abort();
        if (opt && (s.max_abs_error > (double)eps || ch.next[j] != n)) abort();
    }
    pms_olr_destroy(olr);
    free(x);
    free(y);
    return 0;
}
