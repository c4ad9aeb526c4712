/* The olr segment file, read whole and checked (pmuscope/olr_store.h, docs/olr-format.md).
 * Every error names the file, the byte offset and what was expected there; a chunk's
 * contents are named by the chunk's offset and the byte within what it decompresses to. */
#include "olr/series_internal.h"
#include "olr/store_format.h"
#include "olr/store_line.h"
#include "olr/store_predict.h"
#include "olr/store_varint.h"
#include "pmuscope/olr_store.h"
#include "util/error.h"
#include "util/file.h"
#include "util/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct reader {
    const char *where;
    pms__cursor file;
    size_t chunk_at;     /* file offset of the chunk being read; SIZE_MAX in the header */
    pms__cursor in;      /* the decompressed chunk */
    pms_olr_stored *s;
    uint64_t nx, px, pd; /* x values read; the previous x and step */
    size_t *cap;         /* k: room of seg[j] */
    uint64_t *covered;   /* k: samples covered by segments */
    uint64_t *nres;      /* k */
    pms__olr_history *hist; /* k: a predictive counter's last decoded values */
    int ended;
    /* the last checkpoint (version 5): where it ends, the samples every counter covers
     * there, and each counter's segments then */
    size_t cp_end;
    uint64_t cp_n;
    size_t *cp_nseg;     /* k, NULL before the first checkpoint */
    pms_olr_stored_segment *cp_open; /* k: each counter's samples after its chunks, as a chord */
} reader;

static int bad_at(reader *r, const pms__cursor *c, const char *what)
{
    if (c == &r->file) return pms__fail(PMS_EFORMAT, "%s: offset %zu: expected %s", r->where, c->pos, what);
    return pms__fail(PMS_EFORMAT, "%s: offset %zu (chunk '%c', byte %zu of its %zu): expected %s", r->where,
                     r->chunk_at, r->file.p[r->chunk_at], c->pos, c->n, what);
}

static int varint(reader *r, pms__cursor *c, uint64_t *v, const char *what)
{
    size_t at = c->pos;
    int rc = pms__cursor_varint(c, v);
    if (rc == 0) return PMS_OK;
    c->pos = at;
    char msg[160];
    snprintf(msg, sizeof msg, "%s (%s)", what,
             rc == -1 ? "the bytes end inside a varint" : "a bad varint: more than 64 bits");
    return bad_at(r, c, msg);
}

static int zigzag(reader *r, pms__cursor *c, uint64_t *v, const char *what)
{
    uint64_t z;
    int rc = varint(r, c, &z, what);
    if (rc == 0) *v = (z >> 1) ^ (0 - (z & 1));
    return rc;
}

static int string(reader *r, char **out, const char *what)
{
    uint64_t n;
    int rc = varint(r, &r->file, &n, what);
    if (rc) return rc;
    if (n > 4096 || n > r->file.n - r->file.pos) return bad_at(r, &r->file, "a name of at most 4096 bytes inside the file");
    if (memchr(r->file.p + r->file.pos, 0, n)) return bad_at(r, &r->file, "a name without NUL bytes");
    *out = strndup((const char *)r->file.p + r->file.pos, n);
    if (!*out) return pms__fail(PMS_ENOMEM, "out of memory");
    r->file.pos += n;
    return PMS_OK;
}

/* The magic, the version and the flags: what a pipe's head shows before the rest is read. */
static int leader(reader *r)
{
    pms_olr_stored *s = r->s;
    pms__cursor *f = &r->file;
    if (f->n < PMS_OLR_STORE_MAGIC_LEN + 2 || memcmp(f->p, PMS_OLR_STORE_MAGIC, PMS_OLR_STORE_MAGIC_LEN) != 0)
        return bad_at(r, f, "the magic \"PMSOLR\" of an olr segment file");
    f->pos = PMS_OLR_STORE_MAGIC_LEN;
    s->version = f->p[f->pos];
    if (s->version < 1 || s->version > PMS_OLR_STORE_VERSION_CHECKPOINTS) {
        char msg[96];
        snprintf(msg, sizeof msg, "version 1 to %u (the versions this reader knows), found %u",
                 PMS_OLR_STORE_VERSION_CHECKPOINTS, s->version);
        return bad_at(r, f, msg);
    }
    f->pos++;
    unsigned flags = f->p[f->pos];
    if (flags & ~(unsigned)PMS_OLR_FLAGS_KNOWN) return bad_at(r, f, "flags of bits 0 to 2 only");
    f->pos++;
    s->has_x = !!(flags & PMS_OLR_FLAG_X);
    s->lossless = !!(flags & PMS_OLR_FLAG_LOSSLESS);
    s->per_counter = !!(flags & PMS_OLR_FLAG_PER_COUNTER);
    return PMS_OK;
}

static int header(reader *r)
{
    pms_olr_stored *s = r->s;
    pms__cursor *f = &r->file;
    int rc = leader(r);
    if (rc) return rc;
    uint64_t method, k;
    rc = varint(r, f, &method, "the method");
    if (rc) return rc;
    if (method > 1) return bad_at(r, f, "method 0 (wm) or 1 (opt)") /* position after it: close enough */;
    s->method = (pms_olr_method)method;
    if ((rc = varint(r, f, &k, "the number of counters"))) return rc;
    if (k == 0 || k > 4096) return bad_at(r, f, "1 to 4096 counters");
    s->k = (size_t)k;
    s->names = calloc(k, sizeof *s->names);
    s->eps = calloc(k, sizeof *s->eps);
    s->seg = calloc(k, sizeof *s->seg);
    s->nseg = calloc(k, sizeof *s->nseg);
    s->residual = calloc(k, sizeof *s->residual);
    s->value = calloc(k, sizeof *s->value);
    r->hist = calloc(k, sizeof *r->hist);
    r->cap = calloc(k, sizeof *r->cap);
    r->covered = calloc(k, sizeof *r->covered);
    r->nres = calloc(k, sizeof *r->nres);
    if (!s->names || !s->eps || !s->seg || !s->nseg || !s->residual || !s->value || !r->hist || !r->cap ||
        !r->covered || !r->nres)
        return pms__fail(PMS_ENOMEM, "out of memory");
    if ((rc = string(r, &s->xname, "the length of x's name"))) return rc;
    for (size_t j = 0; j < s->k; j++) {
        if ((rc = string(r, &s->names[j], "the length of a counter's name"))) return rc;
        if ((rc = varint(r, f, &s->eps[j], "a counter's eps"))) return rc;
    }
    return PMS_OK;
}

/* The predictor byte (one of the bits of USES, else an error that expects WHAT) and code
 * width of a chunk of byte planes (P, or X in version 2), then m codes of w bytes to the end
 * of the chunk: *planes. */
static int planes_head(reader *r, uint64_t m, unsigned uses, const char *what, int *predictor, unsigned *w,
                       const uint8_t **planes)
{
    if (r->in.pos + 2 > r->in.n) return bad_at(r, &r->in, "a predictor and a code width");
    *predictor = r->in.p[r->in.pos];
    if (*predictor >= 32 || !(uses >> *predictor & 1)) return bad_at(r, &r->in, what);
    r->in.pos++;
    *w = r->in.p[r->in.pos];
    if (*w < 1 || *w > 8) return bad_at(r, &r->in, "a code width of 1 to 8 bytes");
    r->in.pos++;
    if ((uint64_t)*w * m != r->in.n - r->in.pos)
        return bad_at(r, &r->in, "m codes of w bytes each to the end of the chunk");
    *planes = r->in.p + r->in.pos;
    return PMS_OK;
}

static uint64_t plane_code(const uint8_t *planes, unsigned w, size_t m, size_t i)
{
    uint64_t z = 0;
    for (unsigned b = 0; b < w; b++) z |= (uint64_t)planes[b * m + i] << (8 * b);
    return z;
}

static const char predictors_2[] = "a predictor: 0 (previous value) or 1 (linear)";

/* Version 2's X chunk: m x values as codes in byte planes. */
static int x_planes(reader *r, uint64_t m)
{
    int predictor;
    unsigned w;
    const uint8_t *planes;
    int rc = planes_head(r, m, (1u << PMS__OLR_X_PREDICTORS) - 1, predictors_2, &predictor, &w, &planes);
    if (rc) return rc;
    for (size_t i = 0; i < (size_t)m; i++) {
        uint64_t x;
        if (pms__olr_x_decode(predictor, r->nx, plane_code(planes, w, (size_t)m, i), r->px, r->pd, &x)) {
            r->in.pos += i;
            return bad_at(r, &r->in, "x values that increase strictly below 2^64");
        }
        if (r->nx) r->pd = x - r->px;
        r->s->x[r->nx++] = r->px = x;
    }
    r->in.pos = r->in.n;
    return PMS_OK;
}

static int chunk_x(reader *r)
{
    pms_olr_stored *s = r->s;
    uint64_t m;
    int rc = varint(r, &r->in, &m, "the number of x values");
    if (rc) return rc;
    if (!s->has_x) return bad_at(r, &r->in, "no x chunk: the header says x was left out");
    if (m > r->in.n) return bad_at(r, &r->in, "at most one x value per byte");
    size_t cap = (size_t)r->nx;
    if (pms__grow(&s->x, &cap, (size_t)(r->nx + m), sizeof *s->x)) return pms__fail(PMS_ENOMEM, "out of memory");
    if (s->version >= 2) return x_planes(r, m);
    for (uint64_t i = 0; i < m; i++) {
        uint64_t v, x;
        if ((rc = r->nx < 2 ? varint(r, &r->in, &v, "an x value") : zigzag(r, &r->in, &v, "an x step change")))
            return rc;
        if (r->nx == 0) x = v;
        else {
            uint64_t d = r->nx == 1 ? v : r->pd + v;
            x = r->px + d;
            if (d == 0 || x < r->px) return bad_at(r, &r->in, "x values that increase strictly below 2^64");
            r->pd = d;
        }
        s->x[r->nx++] = r->px = x;
    }
    return PMS_OK;
}

static int counter_index(reader *r, size_t *j)
{
    uint64_t v;
    int rc = varint(r, &r->in, &v, "a counter index");
    if (rc) return rc;
    if (v >= r->s->k) return bad_at(r, &r->in, "a counter index below the number of counters");
    *j = (size_t)v;
    return PMS_OK;
}

/* A counter's chunk starts with its index and the number of items (at most one per byte). */
static int counter_chunk(reader *r, size_t *j, uint64_t *m, const char *what, const char *per_byte)
{
    int rc = counter_index(r, j);
    if (rc || (rc = varint(r, &r->in, m, what))) return rc;
    return *m > r->in.n ? bad_at(r, &r->in, per_byte) : PMS_OK;
}

static int chunk_segments(reader *r)
{
    pms_olr_stored *s = r->s;
    size_t j = 0;
    uint64_t m;
    int rc = counter_chunk(r, &j, &m, "the number of segments", "at most one segment per byte");
    if (rc) return rc;
    if (s->value[j]) return bad_at(r, &r->in, "no segments for a counter stored by predictive coding");
    if (pms__grow(&s->seg[j], &r->cap[j], s->nseg[j] + (size_t)m, sizeof **s->seg))
        return pms__fail(PMS_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < m; i++) {
        uint64_t head, d1, d2 = 0;
        if ((rc = varint(r, &r->in, &head, "a segment's length"))) return rc;
        pms_olr_stored_segment g = {.first = r->covered[j], .count = head >> 1, .joint = (int)(head & 1)};
        if (g.count == 0) return bad_at(r, &r->in, "a segment of at least one sample");
        if (g.joint && s->nseg[j] == 0) return bad_at(r, &r->in, "a first segment that is not joint");
        if (g.count > UINT64_MAX - g.first) return bad_at(r, &r->in, "fewer than 2^64 samples");
        uint64_t prev = s->nseg[j] ? s->seg[j][s->nseg[j] - 1].y_end : 0;
        if ((rc = zigzag(r, &r->in, &d1, g.joint ? "a joint segment's end value" : "a segment's start value")))
            return rc;
        if (!g.joint && g.count > 1 && (rc = zigzag(r, &r->in, &d2, "a segment's end value"))) return rc;
        g.y_start = g.joint ? prev : prev + d1;
        g.y_end = g.joint ? prev + d1 : g.y_start + d2;
        s->seg[j][s->nseg[j]++] = g;
        r->covered[j] += g.count;
    }
    return PMS_OK;
}

static int chunk_residuals(reader *r)
{
    pms_olr_stored *s = r->s;
    size_t j = 0;
    uint64_t m;
    int rc = counter_chunk(r, &j, &m, "the number of residuals", "at most one residual per byte");
    if (rc) return rc;
    if (!s->lossless) return bad_at(r, &r->in, "no residuals: the header says the file is not lossless");
    if (s->value[j]) return bad_at(r, &r->in, "no residuals for a counter stored by predictive coding");
    size_t cap = (size_t)r->nres[j];
    if (pms__grow(&s->residual[j], &cap, (size_t)(r->nres[j] + m), sizeof **s->residual))
        return pms__fail(PMS_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < m; i++)
        if ((rc = zigzag(r, &r->in, &s->residual[j][r->nres[j]++], "a residual"))) return rc;
    return PMS_OK;
}

/* A P chunk (version 2 and later): counter, m, predictor, then the m codes as byte planes. */
static int chunk_predictive(reader *r)
{
    pms_olr_stored *s = r->s;
    size_t j = 0;
    uint64_t m;
    int rc = counter_chunk(r, &j, &m, "the number of samples", "at most one sample per byte");
    if (rc) return rc;
    if (s->nseg[j] || r->nres[j]) return bad_at(r, &r->in, "no predictive coding for a counter stored as segments");
    int coding;
    unsigned w;
    const uint8_t *planes;
    /* the predictor byte: version 2's predictors 0 and 1; version 3 adds 2 for exact codes
     * (bytes 0 to 3); version 4 the rate predictor (2, where the file holds x), and 3 for exact
     * codes */
    unsigned uses = s->version == 2   ? pms__olr_p_codings(0, 0)
                    : s->version == 3 ? (1u << 4) - 1 /* predictors 0 and 1, plus 2 */
                                      : pms__olr_p_codings(s->has_x, 1);
    const char *what = s->version == 2 ? predictors_2
                       : s->version == 3 ? "a predictor: 0 (previous value) or 1 (linear), plus 2 for exact codes"
                       : s->has_x ? "a predictor: 0 (previous value), 1 (linear) or 2 (rate over x), plus 3 for exact codes"
                                  : "a predictor: 0 (previous value) or 1 (linear), plus 3 for exact codes (no "
                                    "rate over x: the file holds no x)";
    size_t predictor_at = r->in.pos;
    if ((rc = planes_head(r, m, uses, what, &coding, &w, &planes))) return rc;
    if (s->version == 3) coding = pms__olr_coding_v3(coding);
    int predictor = pms__olr_coding_predictor(coding);
    size_t have = (size_t)r->covered[j], cap = have;
    pms__olr_history *h = &r->hist[j];
    if (predictor == PMS__OLR_PREDICT_RATE) {
        if (r->nx < have + m) {
            r->in.pos = predictor_at;
            return bad_at(r, &r->in, "the x of the chunk's samples in X chunks before it (for the rate predictor)");
        }
        /* the x of the last two samples: an earlier chunk of another predictor may have come
         * before its samples' x (the order of chunks is free) */
        if (have >= 1) h->x1 = s->x[have - 1];
        if (have >= 2) h->x2 = s->x[have - 2];
    }
    if (pms__grow(&s->value[j], &cap, have + (size_t)m, sizeof **s->value))
        return pms__fail(PMS_ENOMEM, "out of memory");
    uint64_t eps = pms__olr_coding_eps(coding, s->lossless ? 0 : s->eps[j]);
    for (size_t i = 0; i < (size_t)m; i++) {
        uint64_t v;
        uint64_t x = predictor == PMS__OLR_PREDICT_RATE ? s->x[have + i] : 0;
        if (pms__olr_dequantise(plane_code(planes, w, (size_t)m, i), pms__olr_predict(predictor, h, x), eps, &v)) {
            r->in.pos += i;
            return bad_at(r, &r->in, "a quantised difference q with |q| (2 eps + 1) at most 2^65");
        }
        pms__olr_history_push(h, v, x);
        s->value[j][have + i] = v;
    }
    r->in.pos = r->in.n;
    r->covered[j] += m;
    return PMS_OK;
}

static int chunk_end(reader *r)
{
    pms_olr_stored *s = r->s;
    int rc = varint(r, &r->in, &s->n, "the number of samples");
    if (rc) return rc;
    if (s->n < 1) return bad_at(r, &r->in, "at least one sample");
    if (s->has_x && r->nx != s->n) return bad_at(r, &r->in, "as many samples as x values");
    for (size_t j = 0; j < s->k; j++) {
        uint64_t nseg;
        if ((rc = varint(r, &r->in, &nseg, "a counter's number of segments"))) return rc;
        if (nseg != s->nseg[j]) return bad_at(r, &r->in, "a counter's number of segments as its chunks hold");
        if (r->covered[j] != s->n)
            return bad_at(r, &r->in, "segments or predictive codes of every counter covering every sample");
        if (s->lossless && !s->value[j] && r->nres[j] != s->n) return bad_at(r, &r->in, "a residual of every sample");
    }
    r->ended = 1;
    return PMS_OK;
}

/* A C chunk (version 5): the samples the writer had taken, then what each counter's
 * chunks cover; they must match what was read, which becomes the last checkpoint. */
static int chunk_checkpoint(reader *r)
{
    pms_olr_stored *s = r->s;
    uint64_t n, cover, open;
    int rc = varint(r, &r->in, &n, "the number of samples taken");
    if (rc) return rc;
    if (s->has_x && r->nx != n) return bad_at(r, &r->in, "as many samples taken as x values before it");
    if (!r->cp_nseg && (!(r->cp_nseg = calloc(s->k, sizeof *r->cp_nseg)) || !(r->cp_open = calloc(s->k, sizeof *r->cp_open))))
        return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; j < s->k; j++) {
        if ((rc = varint(r, &r->in, &cover, "the samples a counter's chunks cover"))) return rc;
        if (cover != r->covered[j] || cover > n)
            return bad_at(r, &r->in, "the samples a counter's chunks before it cover, at most those taken");
        if ((rc = varint(r, &r->in, &open, "the samples of a counter's open segment"))) return rc;
        if (open != n - cover) return bad_at(r, &r->in, "the samples taken that a counter's chunks do not cover");
        pms_olr_stored_segment *g = &r->cp_open[j];
        *g = (pms_olr_stored_segment){.first = cover, .count = open};
        if (open && ((rc = varint(r, &r->in, &g->y_start, "the first open sample")) ||
                     (rc = varint(r, &r->in, &g->y_end, "the last open sample"))))
            return rc;
        r->cp_nseg[j] = s->nseg[j];
    }
    r->cp_n = n;
    r->cp_end = r->file.pos;
    return PMS_OK;
}

/* Whether the chunk at the reader's position ends inside the file: a killed writer leaves
 * one cut short after its last checkpoint. */
static bool chunk_whole(const reader *r)
{
    pms__cursor c = r->file;
    uint64_t raw, stored;
    c.pos++;
    if (c.pos > c.n || pms__cursor_varint(&c, &raw) || pms__cursor_varint(&c, &stored)) return false;
    uint64_t span = stored == 0 && r->s->version >= 3 ? raw : stored;
    return span <= c.n - c.pos;
}

/* No end chunk after a checkpoint: the samples up to it (each counter's segments then, and
 * its open segment's samples on their chord), what came after left unread. */
static int stop_at_checkpoint(reader *r)
{
    pms_olr_stored *s = r->s;
    if (r->cp_n == 0)
        return pms__fail(PMS_EFORMAT, "%s: offset %zu: the file has no end chunk and its last checkpoint (at offset "
                                      "%zu) holds no sample: its writer stopped before it took one",
                         r->where, r->file.pos, r->cp_end);
    s->n = r->cp_n;
    for (size_t j = 0; j < s->k; j++) {
        s->nseg[j] = r->cp_nseg[j];
        if (!r->cp_open[j].count) continue;
        if (pms__grow(&s->seg[j], &r->cap[j], s->nseg[j] + 1, sizeof **s->seg)) return pms__fail(PMS_ENOMEM, "out of memory");
        s->seg[j][s->nseg[j]++] = r->cp_open[j];
    }
    s->stopped = 1;
    s->stopped_at = r->cp_end;
    r->ended = 1;
    return PMS_OK;
}

static int chunk(reader *r)
{
    pms__cursor *f = &r->file;
    r->chunk_at = f->pos;
    int type = f->p[f->pos++];
    if (type != PMS_OLR_CHUNK_X && type != PMS_OLR_CHUNK_SEGMENTS && type != PMS_OLR_CHUNK_RESIDUALS &&
        type != PMS_OLR_CHUNK_END && (type != PMS_OLR_CHUNK_PREDICTIVE || r->s->version < 2) &&
        (type != PMS_OLR_CHUNK_CHECKPOINT || r->s->version < PMS_OLR_STORE_VERSION_CHECKPOINTS)) {
        f->pos--;
        return bad_at(r, f, r->s->version < 2 ? "a chunk type of version 1: X, S, R or E"
                            : r->s->version < PMS_OLR_STORE_VERSION_CHECKPOINTS ? "a chunk type: X, S, R, P or E"
                                                                                 : "a chunk type: X, S, R, P, C or E");
    }
    uint64_t raw, stored;
    int rc = varint(r, f, &raw, "the chunk's decompressed length");
    if (rc || (rc = varint(r, f, &stored, "the chunk's stored length"))) return rc;
    if (raw > PMS_OLR_CHUNK_MAX) return bad_at(r, f, "a decompressed length of at most 64 MiB");
    /* stored 0 (version 3): the raw bytes follow as they are; a zstd frame is never empty */
    int plain = stored == 0 && r->s->version >= 3;
    uint64_t span = plain ? raw : stored;
    if (span > f->n - f->pos) return bad_at(r, f, "the chunk's stored bytes (the file is truncated)");
    void *buf = malloc(raw ? (size_t)raw : 1);
    if (!buf) return pms__fail(PMS_ENOMEM, "out of memory");
    if (plain) {
        if (raw) memcpy(buf, f->p + f->pos, (size_t)raw);
    } else {
        size_t got = ZSTD_decompress(buf, (size_t)raw, f->p + f->pos, (size_t)stored);
        if (ZSTD_isError(got) || got != raw) {
            free(buf);
            char msg[160];
            snprintf(msg, sizeof msg, "a zstd frame of %llu bytes (%s)", (unsigned long long)raw,
                     ZSTD_isError(got) ? ZSTD_getErrorName(got) : "another length");
            return bad_at(r, f, msg);
        }
    }
    f->pos += (size_t)span;
    r->in = (pms__cursor){.p = buf, .n = (size_t)raw};
    rc = type == PMS_OLR_CHUNK_X ? chunk_x(r) : type == PMS_OLR_CHUNK_SEGMENTS ? chunk_segments(r)
         : type == PMS_OLR_CHUNK_RESIDUALS ? chunk_residuals(r) : type == PMS_OLR_CHUNK_PREDICTIVE ? chunk_predictive(r)
         : type == PMS_OLR_CHUNK_CHECKPOINT ? chunk_checkpoint(r) : chunk_end(r);
    if (rc == 0 && r->in.pos != r->in.n) rc = bad_at(r, &r->in, "the end of the chunk");
    free(buf);
    return rc;
}

int pms_olr_stored_read_mem(pms_olr_stored *out, const void *data, size_t size, const char *where)
{
    memset(out, 0, sizeof *out);
    reader r = {.where = where, .file = {.p = data, .n = size}, .s = out};
    int rc = header(&r);
    while (rc == 0 && !r.ended) {
        if (r.cp_nseg && (r.file.pos >= r.file.n || !chunk_whole(&r))) rc = stop_at_checkpoint(&r);
        else if (r.file.pos >= r.file.n) rc = bad_at(&r, &r.file, "a chunk (the file is truncated: no end chunk)");
        else rc = chunk(&r);
    }
    if (rc == 0 && !out->stopped && r.file.pos != r.file.n)
        rc = bad_at(&r, &r.file, "the end of the file after the end chunk");
    free(r.cp_nseg);
    free(r.cp_open);
    free(r.cap);
    free(r.covered);
    free(r.nres);
    free(r.hist);
    if (rc) pms_olr_stored_free(out);
    return rc;
}

/* The head of a segment file that comes through a pipe, before the rest is read: its
 * magic, version and flags (a pms__head_check). */
/* The head of a segment file that comes through a pipe, before the rest is read (a
 * pms__head_check). */
static int store_head(const unsigned char *head, size_t len, const char *name, void *ctx)
{
    (void)ctx;
    pms_olr_stored s = {0};
    reader r = {.where = name, .file = {.p = head, .n = len}, .s = &s};
    return leader(&r);
}

int pms_olr_stored_read(pms_olr_stored *out, const char *path)
{
    memset(out, 0, sizeof *out);
    char *data;
    size_t n;
    int rc = pms__read_file(path, store_head, NULL, &data, &n); /* "-": standard input */
    if (rc) return rc;
    rc = pms_olr_stored_read_mem(out, data, n, path);
    free(data);
    return rc;
}

int pms_olr_stored_decode(const pms_olr_stored *s, size_t j, const uint64_t *x, uint64_t *y)
{
    if (j >= s->k) return pms__fail(PMS_EINVAL, "olr file: counter %zu: there are %zu", j, s->k);
    if (!x) x = s->x;
    if (!x) return pms__fail(PMS_EINVAL, "the olr file holds no x values: give the samples' x");
    for (uint64_t i = 1; i < s->n; i++)
        if (x[i] <= x[i - 1])
            return pms__fail(PMS_EINVAL, "olr file: x[%llu] = %llu after %llu: x must increase strictly",
                             (unsigned long long)i, (unsigned long long)x[i], (unsigned long long)x[i - 1]);
    if (s->value[j]) memcpy(y, s->value[j], (size_t)s->n * sizeof *y);
    for (size_t g = 0; g < s->nseg[j]; g++) {
        const pms_olr_stored_segment *e = &s->seg[j][g];
        uint64_t last = e->first + e->count - 1, x0 = e->joint ? x[e->first - 1] : x[e->first];
        for (uint64_t i = e->first; i <= last; i++) {
            y[i] = pms__olr_line_at(x0, e->y_start, x[last], e->y_end, x[i]);
            if (s->lossless) y[i] += s->residual[j][i];
        }
    }
    return PMS_OK;
}

int pms_olr_stored_write_csv(FILE *out, const pms_olr_stored *s, const uint64_t *x)
{
    if (!x) x = s->x;
    uint64_t *y = malloc((size_t)s->n * s->k * sizeof *y);
    if (!y) return pms__fail(PMS_ENOMEM, "out of memory decoding %llu samples", (unsigned long long)s->n);
    int rc = PMS_OK;
    for (size_t j = 0; rc == 0 && j < s->k; j++) rc = pms_olr_stored_decode(s, j, x, y + j * s->n);
    if (rc == 0) {
        pms__olr_csv_header(out, s->xname, (const char *const *)s->names, s->k);
        for (uint64_t i = 0; i < s->n; i++) {
            fprintf(out, "%llu", (unsigned long long)x[i]);
            for (size_t j = 0; j < s->k; j++) fprintf(out, ",%llu", (unsigned long long)y[j * s->n + i]);
            fputc('\n', out);
        }
    }
    free(y);
    return rc;
}

void pms_olr_stored_free(pms_olr_stored *s)
{
    for (size_t j = 0; j < s->k; j++) {
        if (s->names) free(s->names[j]);
        if (s->seg) free(s->seg[j]);
        if (s->residual) free(s->residual[j]);
        if (s->value) free(s->value[j]);
    }
    free(s->names);
    free(s->seg);
    free(s->nseg);
    free(s->residual);
    free(s->value);
    free(s->eps);
    free(s->xname);
    free(s->x);
    memset(s, 0, sizeof *s);
}
