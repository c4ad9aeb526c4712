/* Near-lossless predictive coding of one counter (the olr segment file's P chunks,
 * docs/olr-format.md, version 2): each sample is coded as the quantised difference from a
 * prediction made from the values already decoded, so that a reader computes the same
 * predictions. With eps 0 it is lossless delta coding; with eps >= 1 a quantum of
 * 2 eps + 1 counts saves log2(2 eps + 1) bits a value. Shared by the writer and reader. */
#ifndef PMS_OLR_STORE_PREDICT_H
#define PMS_OLR_STORE_PREDICT_H
#include "olr/store_varint.h"

#include <stddef.h>
#include <stdint.h>

enum {
    PMS__OLR_PREDICT_PREVIOUS = 0, /* the previous decoded value (delta coding) */
    PMS__OLR_PREDICT_LINEAR = 1,   /* 2 d[i-1] - d[i-2] (delta of delta), clamped */
    PMS__OLR_PREDICTORS = 2,
    /* Added to a P chunk's predictor (version 3): its codes are exact, as at eps 0. Where a
     * counter is nearly perfectly predictable (a second difference mostly 0), exact codes are
     * mostly 0, while quantising feeds each sample's rounding error back into the next
     * predictions, and the codes then cost more than exact ones. */
    PMS__OLR_PREDICT_EXACT = 2,
    PMS__OLR_P_CODINGS = 4,        /* a P chunk's predictor byte: 0 to 3 */
};

/* The decoded values before a sample: the last two and how many there were (0, 1, 2+). */
typedef struct pms__olr_history {
    uint64_t d1, d2;
    uint64_t seen;
} pms__olr_history;

uint64_t pms__olr_predict(int predictor, const pms__olr_history *h);
void pms__olr_history_push(pms__olr_history *h, uint64_t decoded);

/* The code of y against prediction p at bound eps: the zigzag of q (q = (y - p) mod 2^64
 * when eps = 0, else the nearest integer to (y - p) / (2 eps + 1)); *decoded: the value a
 * reader gets. */
uint64_t pms__olr_quantise(uint64_t y, uint64_t p, uint64_t eps, uint64_t *decoded);
/* The value of code z at prediction p: 0, or -1 when |q| (2 eps + 1) exceeds 2^65, which no
 * writer makes (the arithmetic would not fit 128 bits). */
int pms__olr_dequantise(uint64_t z, uint64_t p, uint64_t eps, uint64_t *decoded);

/* Codes as byte planes: a byte w (1 to 8: every code < 2^(8 w)), then for b = 0 .. w - 1 the
 * byte b of every code (least significant plane first). */
void pms__olr_planes_put(pms__obuf *out, const uint64_t *z, size_t m);

#endif

/* The bound of a P chunk's codes: eps, or 0 where its predictor byte says exact. */
static inline uint64_t pms__olr_coding_eps(int coding, uint64_t eps)
{
    return coding & PMS__OLR_PREDICT_EXACT ? 0 : eps;
}

/* The writer's coder of one counter: every sample through each coding (predictor, quantised
 * or exact: pms__olr_pcoder_codings), the codes of the samples since the last chunk kept for
 * each, so that the chunk takes the one that compresses smaller. */
typedef struct pms__olr_pcoder {
    uint64_t eps;
    pms__olr_history h[PMS__OLR_P_CODINGS];
    uint64_t *z[PMS__OLR_P_CODINGS];
    uint64_t *d[PMS__OLR_P_CODINGS]; /* the values a reader decodes from each */
    size_t m, cap;
} pms__olr_pcoder;

/* The codings tried: the two predictors, and at eps >= 1 both exact too. */
static inline int pms__olr_pcoder_codings(const pms__olr_pcoder *c)
{
    return c->eps ? PMS__OLR_P_CODINGS : PMS__OLR_PREDICTORS;
}

/* 0, or -1 when out of memory */
int pms__olr_pcoder_add(pms__olr_pcoder *c, uint64_t y);
/* A chunk of the m codes was written with coding p: every coding goes on from p's decoded
 * values, as a reader does. */
void pms__olr_pcoder_chose(pms__olr_pcoder *c, int p);
void pms__olr_pcoder_free(pms__olr_pcoder *c);

/* x in version 2 (X chunks, byte planes like P chunks): sample i's x as a code of predictor
 * 0, its step x - px from the previous x (px = 0 before the first), unsigned; or of
 * predictor 1, the zigzag of the step's change (x - px) - pd, from the third x on (the first
 * two as steps). px: the previous x, pd: the previous step. */
uint64_t pms__olr_x_code(int predictor, uint64_t i, uint64_t x, uint64_t px, uint64_t pd);
/* The x of code z: 0, or -1 when it does not increase strictly below 2^64 (i > 0). */
int pms__olr_x_decode(int predictor, uint64_t i, uint64_t z, uint64_t px, uint64_t pd, uint64_t *x);
