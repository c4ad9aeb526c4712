/* The olr segment file, written incrementally (pmuscope/olr_store.h, docs/olr-format.md).
 * The samples of the open segments are kept until their segment comes: its end points are
 * chosen as whole counts and checked against every one of its samples, exactly. */
#include "olr/olr_internal.h"
#include "olr/store_format.h"
#include "olr/store_line.h"
#include "olr/store_mixed.h"
#include "olr/store_predict.h"
#include "olr/store_varint.h"
#include "pmuscope/olr_store.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct wcounter {
    uint64_t next;         /* the first sample not yet stored */
    uint64_t end_y;        /* the stored end value of the last segment (at x[next - 1]) */
    uint64_t *y;           /* kept samples, from the writer's base */
    uint64_t *dec;         /* their decoded values (with a decoded callback) */
    pms__obuf seg, res;    /* encoded, not yet written */
    uint64_t nseg_chunk, nres_chunk, nseg;
    pms__olr_mixed *mx;    /* the optimal joint/disjoint mix (opt, eps small enough), or NULL */
    uint64_t fit_next;     /* with mx: the first sample no fitter segment covered yet */
    uint64_t kidx, kval;   /* with mx: the last knot handed out */
    int kopen;             /* it starts a disjoint segment not yet stored */
    int enc;               /* PMS_OLR_ENCODING_*: AUTO until chosen */
    pms__olr_pcoder pc;    /* predictive coding (unless enc is SEGMENTS) */
    uint64_t pdone;        /* samples in its predictive chunks */
    uint64_t segments, joint, split, points; /* of its segments, for the stats */
} wcounter;

struct pms_olr_writer {
    FILE *out;
    char *where;
    pms_olr_store_options so;
    pms_olr_method method;
    size_t k;
    uint64_t *eps;
    wcounter *c;
    uint64_t base, nkept, cap; /* kept samples: indexes base .. base + nkept - 1 */
    uint64_t *x;
    uint64_t n, px, pd;        /* samples; the previous x and x step */
    uint64_t *xz[PMS__OLR_X_PREDICTORS]; /* x's codes since the last X chunk, by predictor */
    size_t nx_chunk, xz_cap;
    ZSTD_CCtx *zc;
    pms__obuf raw;             /* a chunk's contents, and its zstd frame: kept from chunk */
    pms__obuf packed;          /* a chunk packed to be written */
    pms__obuf pseg, pres, ppred; /* a counter's chunks of each kind, packed to compare */
    pms__obuf planes, cand[PMS__OLR_P_CODINGS]; /* a P chunk's codes, and its packed chunk
                                  * with each predictor (kept: writing allocates nothing in the
                                  * steady state) */
    uint8_t *z;                /* to chunk, so that writing allocates nothing in the steady */
    size_t zcap;               /* state */
    pms_olr_store_stats st;
    int failed, finished;
    pms_olr_decoded_fn decoded;   /* each sample's decoded values, in order, once all are stored */
    void *decoded_ctx;
    uint64_t ndecoded;            /* samples handed to it */
    uint64_t *row;                /* k */
};

void pms_olr_store_options_init(pms_olr_store_options *o)
{
    memset(o, 0, sizeof *o);
    o->keep_x = 1;
    o->level = 19;
    o->chunk = 1u << 20;
    o->greedy_joints = 0;
}

static int write_bytes(pms_olr_writer *w, const void *p, size_t n)
{
    if (n && w->out && fwrite(p, 1, n, w->out) != n) {
        w->failed = 1;
        return pms__fail_errno(PMS_EIO, errno, "cannot write %s", w->where);
    }
    return PMS_OK;
}

/* A chunk: type, varint raw length, varint stored length, then the zstd frame of
 * prefix + body, or (stored length 0, version 3) prefix + body as they are where that makes
 * the chunk no longer: a short chunk gains nothing from zstd and would pay its frame's
 * 9 to 12 bytes; appended to OUT. */
static int pack_chunk_at(pms_olr_writer *w, int type, const pms__obuf *prefix, const pms__obuf *body, int level,
                         pms__obuf *out)
{
    pms__obuf *raw = &w->raw;
    raw->n = 0;
    pms__obuf_bytes(raw, prefix->p, prefix->n);
    pms__obuf_bytes(raw, body->p, body->n);
    size_t bound = ZSTD_compressBound(raw->n);
    if (bound > w->zcap) {
        free(w->z);
        w->zcap = 0;
        if ((w->z = malloc(bound))) w->zcap = bound;
    }
    uint8_t *z = w->z;
    int rc = PMS_OK;
    if (raw->oom || prefix->oom || body->oom || !z) rc = pms__fail(PMS_ENOMEM, "out of memory writing %s", w->where);
    size_t zn = 0;
    if (rc == 0) {
        zn = ZSTD_compressCCtx(w->zc, z, bound, raw->p, raw->n, level);
        if (ZSTD_isError(zn)) rc = pms__fail(PMS_EIO, "%s: zstd: %s", w->where, ZSTD_getErrorName(zn));
    }
    if (rc == 0) {
        uint8_t t = (uint8_t)type;
        pms__obuf_bytes(out, &t, 1);
        pms__obuf_varint(out, raw->n);
        if (raw->n + 1 <= zn + pms__varint_len(zn)) {
            pms__obuf_varint(out, 0);
            pms__obuf_bytes(out, raw->p, raw->n);
        } else {
            pms__obuf_varint(out, zn);
            pms__obuf_bytes(out, z, zn);
        }
        if (out->oom) rc = pms__fail(PMS_ENOMEM, "out of memory writing %s", w->where);
    }
    return rc;
}

static int pack_chunk(pms_olr_writer *w, int type, const pms__obuf *prefix, const pms__obuf *body, pms__obuf *out)
{
    return pack_chunk_at(w, type, prefix, body, w->so.level, out);
}

/* Writes packed chunks and adds their bytes to *part; empties PACKED. */
static int emit(pms_olr_writer *w, pms__obuf *packed, uint64_t *part)
{
    int rc = write_bytes(w, packed->p, packed->n);
    if (rc == 0) {
        *part += packed->n;
        w->st.bytes_total += packed->n;
    }
    packed->n = 0;
    return rc;
}

static int write_chunk(pms_olr_writer *w, int type, const pms__obuf *prefix, const pms__obuf *body, uint64_t *part)
{
    int rc = pack_chunk(w, type, prefix, body, &w->packed);
    return rc ? rc : emit(w, &w->packed, part);
}


/* Counter j's segments or residuals since its last chunk, packed into OUT. */
static int pack_counter(pms_olr_writer *w, size_t j, int type, pms__obuf *out)
{
    wcounter *c = &w->c[j];
    pms__obuf *body = type == PMS_OLR_CHUNK_SEGMENTS ? &c->seg : &c->res;
    uint64_t *count = type == PMS_OLR_CHUNK_SEGMENTS ? &c->nseg_chunk : &c->nres_chunk;
    if (*count == 0) return PMS_OK;
    pms__obuf pre = {0};
    pms__obuf_varint(&pre, j);
    pms__obuf_varint(&pre, *count);
    int rc = pack_chunk(w, type, &pre, body, out);
    pms__obuf_free(&pre);
    body->n = 0;
    *count = 0;
    return rc;
}

/* The chunk of M codes as byte planes with coding P (P or X: the counter J first for P),
 * packed into cand[p] at zstd level LEVEL. */
static int pack_coding(pms_olr_writer *w, int type, size_t j, const uint64_t *z, int p, size_t m, int level)
{
    uint8_t pre_bytes[32]; /* two varints and the predictor: 21 bytes at most */
    pms__obuf pre = {.p = pre_bytes, .cap = sizeof pre_bytes};
    if (type == PMS_OLR_CHUNK_PREDICTIVE) pms__obuf_varint(&pre, j);
    pms__obuf_varint(&pre, m);
    pre_bytes[pre.n++] = (uint8_t)p;
    w->planes.n = w->cand[p].n = 0;
    pms__olr_planes_put(&w->planes, z, m);
    return pack_chunk_at(w, type, &pre, &w->planes, level, &w->cand[p]);
}

/* With more than FINALISTS codings, each is first compressed at TRIAL_LEVEL (when the
 * file's level is above it) and only the FINALISTS smallest again at the file's level: six
 * compressions at level 19 a P chunk took 43% more CPU than version 3's four; on the bench's
 * streams and the Cortex-A15 lists this picks what six at the file's level pick, where one
 * finalist or a trial at level 3 lost up to 5% on some. */
enum { TRIAL_LEVEL = 9, FINALISTS = 2 };

/* The coding of the smallest chunk in cand[] among the mask CODINGS (the first on a tie). */
static int smallest(const pms_olr_writer *w, unsigned codings)
{
    int best = -1;
    for (int p = 0; p < PMS__OLR_P_CODINGS; p++)
        if (codings >> p & 1 && (best < 0 || w->cand[p].n < w->cand[best].n)) best = p;
    return best;
}

/* A chunk of M codes as byte planes (P or X: the counter J first for P), packed into OUT
 * with the one of the codings (predictors) in the mask USES whose chunk is smallest (the
 * first on a tie): *best. */
static int pack_planes(pms_olr_writer *w, int type, size_t j, uint64_t *const *z, unsigned uses, size_t m,
                       pms__obuf *out, int *best_out)
{
    int rc = PMS_OK, trial = __builtin_popcount(uses) > FINALISTS && w->so.level > TRIAL_LEVEL;
    for (int p = 0; rc == 0 && p < PMS__OLR_P_CODINGS; p++)
        if (uses >> p & 1) rc = pack_coding(w, type, j, z[p], p, m, trial ? TRIAL_LEVEL : w->so.level);
    unsigned finalists = 0;
    for (int f = 0; rc == 0 && trial && f < FINALISTS; f++) {
        int p = smallest(w, uses & ~finalists);
        finalists |= 1u << p;
    }
    for (int p = 0; rc == 0 && p < PMS__OLR_P_CODINGS; p++)
        if (finalists >> p & 1) rc = pack_coding(w, type, j, z[p], p, m, w->so.level);
    int best = rc ? -1 : smallest(w, trial ? finalists : uses);
    if (rc == 0) {
        pms__obuf_bytes(out, w->cand[best].p, w->cand[best].n);
        if (out->oom) rc = pms__fail(PMS_ENOMEM, "out of memory writing %s", w->where);
    }
    *best_out = best;
    return rc;
}

/* Counter j's predictive codes since its last chunk, packed into OUT: *best, the predictor. */
static int pack_predictive(pms_olr_writer *w, size_t j, pms__obuf *out, int *best)
{
    const pms__olr_pcoder *pc = &w->c[j].pc;
    return pc->m ? pack_planes(w, PMS_OLR_CHUNK_PREDICTIVE, j, pc->z, pms__olr_pcoder_uses(pc), pc->m, out, best)
                 : PMS_OK;
}

static int flush_x(pms_olr_writer *w)
{
    if (w->nx_chunk == 0) return PMS_OK;
    int best;
    int rc = pack_planes(w, PMS_OLR_CHUNK_X, 0, w->xz, (1u << PMS__OLR_X_PREDICTORS) - 1, w->nx_chunk, &w->packed, &best);
    if (rc == 0) rc = emit(w, &w->packed, &w->st.bytes_x);
    w->nx_chunk = 0;
    return rc;
}

/* Writes counter j's chunks of what it has since its last ones. Before the counter's
 * encoding is chosen, both are packed and the smaller per sample covered is written and
 * kept from then on (the segments may not reach the latest sample yet; when none has
 * closed over a whole chunk of samples, they win). */
static int flush_counter(pms_olr_writer *w, size_t j)
{
    wcounter *c = &w->c[j];
    uint64_t mp = c->pc.m;
    int rc = PMS_OK, best = 0;
    /* a reader makes the rate predictor's predictions from the x of the samples, read before */
    if (c->enc != PMS_OLR_ENCODING_SEGMENTS && mp) rc = flush_x(w);
    if (rc == 0 && c->enc != PMS_OLR_ENCODING_PREDICTIVE) {
        rc = pack_counter(w, j, PMS_OLR_CHUNK_SEGMENTS, &w->pseg);
        if (rc == 0) rc = pack_counter(w, j, PMS_OLR_CHUNK_RESIDUALS, &w->pres);
    }
    if (rc == 0 && c->enc != PMS_OLR_ENCODING_SEGMENTS) rc = pack_predictive(w, j, &w->ppred, &best);
    if (rc == 0 && c->enc == PMS_OLR_ENCODING_AUTO) {
        /* bytes per sample: the predictive chunk covers mp samples, the segments next */
        unsigned __int128 pred = (unsigned __int128)w->ppred.n * c->next,
                          segs = (unsigned __int128)(w->pseg.n + w->pres.n) * mp;
        c->enc = pred <= segs && c->next ? PMS_OLR_ENCODING_PREDICTIVE : PMS_OLR_ENCODING_SEGMENTS;
        if (c->enc == PMS_OLR_ENCODING_PREDICTIVE) w->pseg.n = w->pres.n = 0;
        else w->ppred.n = 0;
        if (c->enc == PMS_OLR_ENCODING_SEGMENTS) pms__olr_pcoder_free(&c->pc);
    }
    if (rc == 0 && c->enc == PMS_OLR_ENCODING_PREDICTIVE && mp) {
        if (c->dec) /* the samples from pdone on are kept: none was handed to the decoded callback */
            memcpy(c->dec + (c->pdone - w->base), c->pc.d[best], mp * sizeof *c->dec);
        c->pdone += mp;
        pms__olr_pcoder_chose(&c->pc, best);
    }
    if (rc == 0) rc = emit(w, &w->pseg, &w->st.bytes_segments);
    if (rc == 0) rc = emit(w, &w->pres, &w->st.bytes_residuals);
    if (rc == 0) rc = emit(w, &w->ppred, &w->st.bytes_predictive);
    return rc;
}

static void put_string(pms__obuf *b, const char *s)
{
    size_t n = strlen(s);
    pms__obuf_varint(b, n);
    pms__obuf_bytes(b, s, n);
}

int pms_olr_writer_create(pms_olr_writer **out, FILE *f, const char *where, const pms_olr_store_options *so,
                          const pms_olr_options *fit, const char *xname, const char *const *names)
{
    *out = NULL;
    if (fit->ncounters == 0) return pms__fail(PMS_EINVAL, "%s: no counters to store", where);
    pms_olr_writer *w = calloc(1, sizeof *w);
    if (!w) return pms__fail(PMS_ENOMEM, "out of memory");
    w->out = f;
    if (so) w->so = *so;
    else pms_olr_store_options_init(&w->so);
    if (w->so.chunk == 0) w->so.chunk = 1u << 20;
    w->method = fit->method;
    w->k = fit->ncounters;
    w->where = strdup(where);
    w->eps = calloc(w->k, sizeof *w->eps);
    w->c = calloc(w->k, sizeof *w->c);
    w->zc = ZSTD_createCCtx();
    if (w->so.encoding < PMS_OLR_ENCODING_AUTO || w->so.encoding > PMS_OLR_ENCODING_PREDICTIVE ||
        (w->so.encoding == PMS_OLR_ENCODING_PREDICTIVE && fit->method != PMS_OLR_OPT)) {
        pms_olr_writer_destroy(w);
        return pms__fail(PMS_EINVAL, "%s: predictive coding is for opt's counters (encoding %d)", where,
                         so ? so->encoding : 0);
    }
    if (w->so.checkpoints && (!w->so.keep_x || w->so.lossless)) { /* a stopped file decodes from its own x */
        pms_olr_writer_destroy(w);
        return pms__fail(PMS_EINVAL, "%s: checkpoints go with x stored and without residuals", where);
    }
    if (!w->where || !w->eps || !w->c || !w->zc) {
        pms_olr_writer_destroy(w);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    pms__obuf h = {0};
    pms__obuf_bytes(&h, PMS_OLR_STORE_MAGIC, PMS_OLR_STORE_MAGIC_LEN);
    uint8_t vf[2] = {w->so.checkpoints ? PMS_OLR_STORE_VERSION_CHECKPOINTS : PMS_OLR_STORE_VERSION, (uint8_t)((w->so.keep_x ? PMS_OLR_FLAG_X : 0) |
                                                       (w->so.lossless ? PMS_OLR_FLAG_LOSSLESS : 0) |
                                                       (fit->per_counter ? PMS_OLR_FLAG_PER_COUNTER : 0))};
    pms__obuf_bytes(&h, vf, 2);
    pms__obuf_varint(&h, (uint64_t)fit->method);
    pms__obuf_varint(&h, w->k);
    put_string(&h, xname);
    for (size_t j = 0; j < w->k; j++) {
        /* opt's bound in whole counts, as the fitter uses it; wm keeps none */
        if (fit->method == PMS_OLR_OPT && fit->counters) w->eps[j] = (uint64_t)fit->counters[j].eps;
        int mixed = fit->method == PMS_OLR_OPT && !w->so.greedy_joints;
        w->st.mixed_greedy += mixed && w->eps[j] > PMS__OLR_MIXED_EPS_MAX;
        if (mixed && w->eps[j] <= PMS__OLR_MIXED_EPS_MAX && !(w->c[j].mx = pms__olr_mixed_create(w->eps[j]))) {
            pms__obuf_free(&h);
            pms_olr_writer_destroy(w);
            return pms__fail(PMS_ENOMEM, "out of memory");
        }
        if (w->c[j].mx) pms__olr_mixed_set_caps(w->c[j].mx, w->so.mixed_states_max, 0);
        w->c[j].enc = fit->method == PMS_OLR_OPT ? w->so.encoding : PMS_OLR_ENCODING_SEGMENTS;
        w->c[j].pc.eps = w->so.lossless ? 0 : w->eps[j];
        w->c[j].pc.no_x = !w->so.keep_x;
        put_string(&h, names[j]);
        pms__obuf_varint(&h, w->eps[j]);
    }
    int rc = h.oom ? pms__fail(PMS_ENOMEM, "out of memory") : write_bytes(w, h.p, h.n);
    w->st.bytes_header = w->st.bytes_total = h.n;
    pms__obuf_free(&h);
    if (rc) {
        pms_olr_writer_destroy(w);
        return rc;
    }
    *out = w;
    return PMS_OK;
}

/* Drops kept samples no counter needs (each keeps the one before its next, a joint
 * segment's start), when that frees at least half the room. */
static void compact(pms_olr_writer *w)
{
    uint64_t keep = w->base + w->nkept;
    for (size_t j = 0; j < w->k; j++) {
        uint64_t need = w->c[j].next ? w->c[j].next - 1 : 0;
        if (need < keep) keep = need;
        if (w->c[j].mx && pms__olr_mixed_oldest(w->c[j].mx) < keep) keep = pms__olr_mixed_oldest(w->c[j].mx);
    }
    if (w->decoded && w->ndecoded < keep) keep = w->ndecoded;
    uint64_t drop = keep - w->base;
    if (drop == 0 || drop < w->nkept / 2) return;
    memmove(w->x, w->x + drop, (w->nkept - drop) * sizeof *w->x);
    for (size_t j = 0; j < w->k; j++) {
        memmove(w->c[j].y, w->c[j].y + drop, (w->nkept - drop) * sizeof *w->x);
        if (w->c[j].dec) memmove(w->c[j].dec, w->c[j].dec + drop, (w->nkept - drop) * sizeof *w->x);
    }
    w->base += drop;
    w->nkept -= drop;
}

static int keep(pms_olr_writer *w, uint64_t x, const uint64_t *y)
{
    if (w->nkept == w->cap) compact(w);
    if (w->nkept == w->cap) {
        uint64_t cap = w->cap ? 2 * w->cap : 1024;
        uint64_t *nx = realloc(w->x, cap * sizeof *nx);
        if (!nx) return pms__fail(PMS_ENOMEM, "out of memory");
        w->x = nx;
        for (size_t j = 0; j < w->k; j++) {
            uint64_t *ny = realloc(w->c[j].y, cap * sizeof *ny);
            if (!ny) return pms__fail(PMS_ENOMEM, "out of memory");
            w->c[j].y = ny;
            if (!w->decoded) continue;
            if (!(ny = realloc(w->c[j].dec, cap * sizeof *ny))) return pms__fail(PMS_ENOMEM, "out of memory");
            w->c[j].dec = ny;
        }
        w->cap = cap;
    }
    w->x[w->nkept] = x;
    for (size_t j = 0; j < w->k; j++) w->c[j].y[w->nkept] = y[j];
    w->nkept++;
    return PMS_OK;
}

static int add_mixed(pms_olr_writer *w);
static int deliver_decoded(pms_olr_writer *w);

int pms_olr_writer_add_sample(pms_olr_writer *w, uint64_t x, const uint64_t *y)
{
    if (w->failed || w->finished) return pms__fail(PMS_EINVAL, "%s: the writer has stopped", w->where);
    if (w->n && x <= w->px)
        return pms__fail(PMS_EINVAL, "%s: sample %llu: x = %llu after %llu: x must increase strictly", w->where,
                         (unsigned long long)w->n, (unsigned long long)x, (unsigned long long)w->px);
    int rc = keep(w, x, y);
    if (rc) return rc;
    if (w->so.keep_x) {
        /* the first x, the first step, then changes of the step (mod 2^64) */
        if (w->nx_chunk == w->xz_cap) {
            size_t cap = w->xz_cap ? 2 * w->xz_cap : 1024;
            for (int p = 0; p < PMS__OLR_X_PREDICTORS; p++) {
                uint64_t *z = realloc(w->xz[p], cap * sizeof *z);
                if (!z) return pms__fail(PMS_ENOMEM, "out of memory");
                w->xz[p] = z;
            }
            w->xz_cap = cap;
        }
        for (int p = 0; p < PMS__OLR_X_PREDICTORS; p++) w->xz[p][w->nx_chunk] = pms__olr_x_code(p, w->n, x, w->px, w->pd);
        w->pd = x - w->px;
        if (++w->nx_chunk >= w->so.chunk / 8 && (rc = flush_x(w))) return rc;
    }
    for (size_t j = 0; j < w->k; j++) {
        wcounter *c = &w->c[j];
        if (c->enc == PMS_OLR_ENCODING_SEGMENTS) continue;
        if (pms__olr_pcoder_add(&c->pc, x, y[j])) return pms__fail(PMS_ENOMEM, "out of memory");
    }
    w->px = x;
    w->n++;
    w->st.samples = w->n;
    for (size_t j = 0; j < w->k; j++) /* 8 bytes a code before they are packed */
        if (w->c[j].pc.m >= w->so.chunk / 8 && (rc = flush_counter(w, j))) return rc;
    rc = add_mixed(w);
    return rc == 0 && w->decoded ? deliver_decoded(w) : rc;
}

/* Appends one stored segment of counter j over samples a .. b (kept indexes). */
static int put_segment(pms_olr_writer *w, size_t j, uint64_t a, uint64_t b, int joint, uint64_t ys, uint64_t ye)
{
    wcounter *c = &w->c[j];
    uint64_t n = b - a + 1;
    if (!joint && n == 1) ye = ys;
    /* a counter stored by predictive coding keeps its segments for the decoded samples only */
    int stored = c->enc != PMS_OLR_ENCODING_PREDICTIVE, lossless = stored && w->so.lossless;
    if (stored) {
        pms__obuf_varint(&c->seg, n << 1 | (uint64_t)joint);
        pms__obuf_zigzag(&c->seg, joint ? ye - c->end_y : ys - c->end_y);
        if (!joint && n > 1) pms__obuf_zigzag(&c->seg, ye - ys);
        c->nseg_chunk++;
    }
    c->nseg++;
    c->segments++;
    c->points += joint || n == 1 ? 1 : 2;
    c->joint += (uint64_t)joint;
    if (lossless || (w->decoded && stored)) {
        uint64_t i0 = a - w->base;
        uint64_t x0 = joint ? w->x[i0 - 1] : w->x[i0], y0 = joint ? c->end_y : ys;
        for (uint64_t i = i0; i <= b - w->base; i++) {
            uint64_t v = pms__olr_line_at(x0, y0, w->x[b - w->base], ye, w->x[i]);
            if (c->dec) c->dec[i] = v;
            if (!lossless) continue;
            pms__obuf_zigzag(&c->res, c->y[i] - v);
            c->nres_chunk++;
        }
    }
    c->end_y = ye;
    c->next = b + 1;
    int rc = PMS_OK;
    if (c->seg.n >= w->so.chunk || c->res.n >= w->so.chunk) rc = flush_counter(w, j);
    if (rc == 0 && (c->seg.oom || c->res.oom)) rc = pms__fail(PMS_ENOMEM, "out of memory");
    return rc;
}

/* The longest piece from sample i (at most to b) whose line from (x[i], y[i]) has a
 * whole-count end that fits, by doubling then bisection; *ye: that end. */
static uint64_t piece(const pms_olr_writer *w, size_t j, uint64_t i, uint64_t b, uint64_t *ye)
{
    const uint64_t *x = w->x - w->base, *y = w->c[j].y - w->base, eps = w->eps[j];
    pms__i128 lo, hi;
    uint64_t good = i, bad = b + 1, step = 1;
    *ye = y[i];
    while (good + step < bad) {
        uint64_t e = good + step;
        if (pms__olr_joint_range(x[i], y[i], x + i + 1, y + i + 1, e - i, eps, &lo, &hi)) good = e, step *= 2;
        else bad = e, step = 1;
    }
    if (good > i && pms__olr_joint_range(x[i], y[i], x + i + 1, y + i + 1, good - i, eps, &lo, &hi))
        *ye = (uint64_t)((pms__i128)y[i] + lo);
    return good;
}

static int put_pieces(pms_olr_writer *w, size_t j, uint64_t a, uint64_t b)
{
    int rc = PMS_OK;
    for (uint64_t i = a; rc == 0 && i <= b;) {
        uint64_t ye, e = piece(w, j, i, b, &ye);
        rc = put_segment(w, j, i, e, 0, w->c[j].y[i - w->base], ye);
        i = e + 1;
    }
    return rc;
}

static uint64_t clamp_count(pms__i128 v)
{
    return v < 0 ? 0 : v > (pms__i128)UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static uint64_t nearest_count(double v)
{
    return !(v > 0) ? 0 : v >= 0x1p64 ? UINT64_MAX : (uint64_t)(v + 0.5);
}

static int store_segment(pms_olr_writer *w, const pms_olr_segment *s);

/* A segment of the mixed program, checked against each of its samples (as every stored
 * segment is); should the check fail, pieces keep the bound. */
static int put_checked(pms_olr_writer *w, size_t j, uint64_t a, uint64_t b, int joint, uint64_t ys, uint64_t ye)
{
    const wcounter *c = &w->c[j];
    const uint64_t *x = w->x - w->base, *y = c->y - w->base;
    uint64_t x0 = joint ? x[a - 1] : x[a], y0 = joint ? c->end_y : ys;
    if (pms__olr_line_holds(x0, y0, x[b], ye, x + a, y + a, b - a + 1, w->eps[j]))
        return put_segment(w, j, a, b, joint, ys, ye);
    w->c[j].split++;
    return put_pieces(w, j, a, b);
}

typedef struct knot_ctx {
    pms_olr_writer *w;
    size_t j;
} knot_ctx;

/* A knot of the mixed program: a linked knot ends a segment (disjoint when the knot
 * before was fresh, else joint); a fresh knot after a fresh one closes that one alone. */
static int mixed_knot(uint64_t i, uint64_t off, int fresh, void *ctx)
{
    pms_olr_writer *w = ((knot_ctx *)ctx)->w;
    size_t j = ((knot_ctx *)ctx)->j;
    wcounter *c = &w->c[j];
    uint64_t v = c->y[i - w->base] - w->eps[j] + off; /* within [0, 2^64 - 1]: mod 2^64 */
    int rc = PMS_OK;
    if (fresh) {
        if (c->kopen) rc = put_checked(w, j, c->kidx, c->kidx, 0, c->kval, c->kval);
        c->kopen = 1;
    } else {
        rc = c->kopen ? put_checked(w, j, c->kidx, i, 0, c->kval, v) : put_checked(w, j, c->kidx + 1, i, 1, 0, v);
        c->kopen = 0;
    }
    c->kidx = i;
    c->kval = v;
    return rc;
}

static int mixed_rc(pms_olr_writer *w, int rc)
{
    return rc == -1 ? pms__fail(PMS_ENOMEM, "out of memory writing %s", w->where) : rc;
}

static int add_mixed(pms_olr_writer *w)
{
    int rc = PMS_OK, any = 0;
    for (size_t j = 0; rc == 0 && j < w->k; j++) {
        if (!w->c[j].mx) continue;
        knot_ctx kc = {w, j};
        rc = mixed_rc(w, pms__olr_mixed_add(w->c[j].mx, w->x, w->c[j].y, w->base, w->n - 1, mixed_knot, &kc));
        any = 1;
    }
    if (rc == 0 && any && w->decoded) rc = deliver_decoded(w);
    return rc;
}

static int finish_mixed(pms_olr_writer *w, size_t j)
{
    wcounter *c = &w->c[j];
    knot_ctx kc = {w, j};
    int rc = mixed_rc(w, pms__olr_mixed_finish(c->mx, mixed_knot, &kc));
    if (rc == 0 && c->kopen) rc = put_checked(w, j, c->kidx, c->kidx, 0, c->kval, c->kval);
    c->kopen = 0;
    w->st.mixed_cut += pms__olr_mixed_cut(c->mx);
    if (pms__olr_mixed_peak(c->mx) > w->st.mixed_starts_peak) w->st.mixed_starts_peak = pms__olr_mixed_peak(c->mx);
    if (pms__olr_mixed_states_peak(c->mx) > w->st.mixed_states_peak)
        w->st.mixed_states_peak = pms__olr_mixed_states_peak(c->mx);
    return rc;
}

/* Hands the decoded callback every sample that all counters' stored data now covers (a
 * counter whose encoding is not chosen yet: none). */
static int deliver_decoded(pms_olr_writer *w)
{
    uint64_t upto = w->n;
    for (size_t j = 0; j < w->k; j++) {
        const wcounter *c = &w->c[j];
        uint64_t done = c->enc == PMS_OLR_ENCODING_SEGMENTS ? c->next : c->pdone;
        if (done < upto) upto = done;
    }
    int rc = PMS_OK;
    for (; rc == 0 && w->ndecoded < upto; w->ndecoded++) {
        uint64_t i = w->ndecoded - w->base;
        for (size_t j = 0; j < w->k; j++) w->row[j] = w->c[j].dec[i];
        rc = w->decoded(w->x[i], w->row, w->decoded_ctx);
    }
    return rc;
}

int pms_olr_writer_add_segment(pms_olr_writer *w, const pms_olr_segment *s)
{
    int rc = store_segment(w, s);
    if (rc == 0 && w->decoded) rc = deliver_decoded(w);
    return rc;
}

int pms_olr_writer_set_decoded(pms_olr_writer *w, pms_olr_decoded_fn fn, void *ctx)
{
    if (w->n) return pms__fail(PMS_EINVAL, "%s: the decoded samples are set before the first sample", w->where);
    free(w->row);
    if (!(w->row = calloc(w->k, sizeof *w->row))) return pms__fail(PMS_ENOMEM, "out of memory");
    w->decoded = fn;
    w->decoded_ctx = ctx;
    return PMS_OK;
}

static int store_segment(pms_olr_writer *w, const pms_olr_segment *s)
{
    if (w->failed || w->finished) return pms__fail(PMS_EINVAL, "%s: the writer has stopped", w->where);
    size_t j = s->counter;
    uint64_t next = j < w->k && w->c[j].mx ? w->c[j].fit_next : j < w->k ? w->c[j].next : 0;
    if (j >= w->k || s->count == 0 || s->first + s->count > w->n || s->first + s->count <= next || s->first > next)
        return pms__fail(PMS_EINVAL, "%s: segment of counter %zu over samples %llu + %llu: not the next of %llu stored",
                         w->where, j, (unsigned long long)s->first, (unsigned long long)s->count,
                         (unsigned long long)next);
    wcounter *c = &w->c[j];
    if (c->mx) { /* the mixed program places its own segments */
        c->fit_next = s->first + s->count;
        return PMS_OK;
    }
    uint64_t a = c->next, b = s->first + s->count - 1; /* wm's shared first sample is stored already */
    const uint64_t *xs = w->x + (a - w->base), *ys = c->y + (a - w->base);
    uint64_t n = b - a + 1, eps = w->eps[j], xa = xs[0], xb = xs[n - 1];
    if (s->exact_valid) {
        pms__i128 lo, hi, ea, eb;
        pms__olr_exact_ends(&s->exact, xa, xb, &ea, &eb);
        if (a > 0 && pms__olr_joint_range(w->x[a - 1 - w->base], c->end_y, xs, ys, n, eps, &lo, &hi)) {
            /* the joint line nearest the fitter's at the end */
            pms__i128 t = eb - (pms__i128)c->end_y;
            t = t < lo ? lo : t > hi ? hi : t;
            uint64_t ye = (uint64_t)((pms__i128)c->end_y + t);
            if (pms__olr_line_holds(w->x[a - 1 - w->base], c->end_y, xb, ye, xs, ys, n, eps))
                return put_segment(w, j, a, b, 1, 0, ye);
        }
        uint64_t ya = n == 1 ? ys[0] : clamp_count(ea), yb = n == 1 ? ys[0] : clamp_count(eb);
        if (pms__olr_line_holds(xa, ya, xb, yb, xs, ys, n, eps)) return put_segment(w, j, a, b, 0, ya, yb);
        /* The start clamped at 0 or 2^64 - 1 (it is then still within eps of its sample):
         * an end that fits from there, if there is one. */
        if (n > 1 && pms__olr_joint_range(xa, ya, xs + 1, ys + 1, n - 1, eps, &lo, &hi)) {
            pms__i128 t = eb - (pms__i128)ya;
            t = t < lo ? lo : t > hi ? hi : t;
            yb = (uint64_t)((pms__i128)ya + t);
            if (pms__olr_line_holds(xa, ya, xb, yb, xs, ys, n, eps)) return put_segment(w, j, a, b, 0, ya, yb);
        }
        /* No whole-count end points keep the bound (the line runs below 0 or above 2^64 - 1):
         * pieces that start at their first sample's own value, each as long as an end fits. */
        c->split++;
        return put_pieces(w, j, a, b);
    }
    /* wm: its line at the ends, to the nearest count (no bound to keep) */
    return put_segment(w, j, a, b, 0, nearest_count(pms_olr_segment_eval(s, xa)),
                       nearest_count(pms_olr_segment_eval(s, xb)));
}

int pms_olr_writer_finish(pms_olr_writer *w)
{
    if (w->failed || w->finished) return pms__fail(PMS_EINVAL, "%s: the writer has stopped", w->where);
    for (size_t j = 0; j < w->k; j++) {
        int rc = w->c[j].mx ? finish_mixed(w, j) : PMS_OK;
        if (rc) return rc;
    }
    for (size_t j = 0; j < w->k; j++)
        if (w->c[j].next != w->n)
            return pms__fail(PMS_EINVAL, "%s: counter %zu: segments cover %llu of %llu samples", w->where, j,
                             (unsigned long long)w->c[j].next, (unsigned long long)w->n);
    int rc = flush_x(w);
    for (size_t j = 0; rc == 0 && j < w->k; j++) rc = flush_counter(w, j);
    if (rc == 0 && w->decoded) rc = deliver_decoded(w);
    if (rc == 0) {
        pms__obuf end = {0}, none = {0};
        pms__obuf_varint(&end, w->n);
        for (size_t j = 0; j < w->k; j++)
            pms__obuf_varint(&end, w->c[j].enc == PMS_OLR_ENCODING_PREDICTIVE ? 0 : w->c[j].nseg);
        uint64_t bytes = 0;
        rc = write_chunk(w, PMS_OLR_CHUNK_END, &end, &none, &bytes);
        w->st.bytes_header += bytes;
        pms__obuf_free(&end);
    }
    if (rc == 0 && w->out && fflush(w->out) != 0) rc = pms__fail_errno(PMS_EIO, errno, "cannot write %s", w->where);
    w->finished = 1;
    return rc;
}

/* Samples counter j's chunks cover once written: its closed segments, or its codes. */
static uint64_t covered(const wcounter *c) { return c->enc == PMS_OLR_ENCODING_PREDICTIVE ? c->pdone : c->next; }

int pms_olr_writer_checkpoint(pms_olr_writer *w)
{
    if (w->failed || w->finished || !w->so.checkpoints)
        return pms__fail(PMS_EINVAL, "%s: no checkpoint: the writer %s", w->where,
                         w->so.checkpoints ? "has stopped" : "was made without checkpoints");
    int rc = flush_x(w);
    for (size_t j = 0; rc == 0 && j < w->k; j++) /* an undecided counter chooses once a segment closed */
        if (w->c[j].enc != PMS_OLR_ENCODING_AUTO || w->c[j].next) rc = flush_counter(w, j);
    if (rc == 0) {
        /* the samples taken; then per counter those its chunks cover, and the rest (its open
         * segment's, kept here) as the chord between the first and the last of them */
        pms__obuf cp = {0}, none = {0};
        pms__obuf_varint(&cp, w->n);
        for (size_t j = 0; j < w->k; j++) {
            const wcounter *c = &w->c[j];
            uint64_t done = c->enc == PMS_OLR_ENCODING_AUTO ? 0 : covered(c);
            pms__obuf_varint(&cp, done);
            pms__obuf_varint(&cp, w->n - done);
            if (done == w->n) continue;
            pms__obuf_varint(&cp, c->y[done - w->base]);
            pms__obuf_varint(&cp, c->y[w->n - 1 - w->base]);
        }
        uint64_t bytes = 0;
        rc = cp.oom ? pms__fail(PMS_ENOMEM, "out of memory") : write_chunk(w, PMS_OLR_CHUNK_CHECKPOINT, &cp, &none, &bytes);
        w->st.bytes_header += bytes;
        pms__obuf_free(&cp);
    }
    if (rc == 0 && w->out && fflush(w->out) != 0) {
        w->failed = 1;
        rc = pms__fail_errno(PMS_EIO, errno, "cannot write %s", w->where);
    }
    return rc;
}

void pms_olr_writer_get_stats(const pms_olr_writer *w, pms_olr_store_stats *out)
{
    *out = w->st;
    for (size_t j = 0; j < w->k; j++) {
        const wcounter *c = &w->c[j];
        if (c->enc == PMS_OLR_ENCODING_PREDICTIVE) {
            out->predictive++;
            continue;
        }
        out->segments += c->segments;
        out->joint += c->joint;
        out->split += c->split;
        out->points += c->points;
    }
}

void pms_olr_writer_destroy(pms_olr_writer *w)
{
    if (!w) return;
    for (size_t j = 0; w->c && j < w->k; j++) {
        free(w->c[j].y);
        free(w->c[j].dec);
        pms__obuf_free(&w->c[j].seg);
        pms__obuf_free(&w->c[j].res);
        pms__olr_pcoder_free(&w->c[j].pc);
        pms__olr_mixed_destroy(w->c[j].mx);
    }
    free(w->c);
    free(w->eps);
    free(w->x);
    free(w->where);
    free(w->row);
    free(w->z);
    pms__obuf_free(&w->raw);
    pms__obuf_free(&w->packed);
    pms__obuf_free(&w->pseg);
    pms__obuf_free(&w->pres);
    pms__obuf_free(&w->ppred);
    pms__obuf_free(&w->planes);
    for (int p = 0; p < PMS__OLR_P_CODINGS; p++) pms__obuf_free(&w->cand[p]);
    for (int p = 0; p < PMS__OLR_X_PREDICTORS; p++) free(w->xz[p]);
    ZSTD_freeCCtx(w->zc);
    free(w);
}
