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
    PMS__OLR_X_PREDICTORS = 2,     /* an X chunk's predictor byte: 0 or 1 */
    /* Version 4: the last step at the same rate over x, d[i-1] + (d[i-1] - d[i-2]) (x[i] -
     * x[i-1]) / (x[i-1] - x[i-2]), rounded, clamped. A counter that runs at a steady rate
     * over x (cycles against cpu-clock's nanoseconds) steps in proportion to x's step, which
     * jitters from sample to sample, and more so with randomised periods. */
    PMS__OLR_PREDICT_RATE = 2,
    PMS__OLR_P_PREDICTORS = 3,
    /* A P chunk's coding: its predictor, plus PMS__OLR_P_PREDICTORS where its codes are exact,
     * as at eps 0 (version 3 on). Where a counter is nearly perfectly predictable (a second
     * difference mostly 0), exact codes are mostly 0, while quantising feeds each sample's
     * rounding error back into the next predictions, and the codes then cost more than exact
     * ones. In version 4 the predictor byte is the coding; in version 3 (no rate predictor)
     * it was the predictor plus 2 for exact codes. */
    PMS__OLR_P_CODINGS = 2 * PMS__OLR_P_PREDICTORS,
};

/* The decoded values before a sample, the x of each, and how many there were (0, 1, 2+). */
typedef struct pms__olr_history {
    uint64_t d1, d2, x1, x2;
    uint64_t seen;
} pms__olr_history;

/* The prediction of the value at x (x > every x pushed: x only matters to the rate
 * predictor). */
uint64_t pms__olr_predict(int predictor, const pms__olr_history *h, uint64_t x);
void pms__olr_history_push(pms__olr_history *h, uint64_t decoded, uint64_t x);

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

static inline int pms__olr_coding_predictor(int coding) { return coding % PMS__OLR_P_PREDICTORS; }
/* The bound of a P chunk's codes: eps, or 0 where its coding is exact. */
static inline uint64_t pms__olr_coding_eps(int coding, uint64_t eps)
{
    return coding >= PMS__OLR_P_PREDICTORS ? 0 : eps;
}
/* Version 3's predictor byte (0 or 1, plus 2 for exact codes) as a coding. */
static inline int pms__olr_coding_v3(int byte) { return (byte & 1) + (byte & 2 ? PMS__OLR_P_PREDICTORS : 0); }

/* The writer's coder of one counter: every sample through each coding it may use
 * (pms__olr_pcoder_uses), the codes of the samples since the last chunk kept for each, so
 * that the chunk takes the one that compresses smaller. */
typedef struct pms__olr_pcoder {
    uint64_t eps;
    int no_x; /* the file holds no x: a reader could not make the rate predictor's predictions */
    pms__olr_history h[PMS__OLR_P_CODINGS];
    uint64_t *z[PMS__OLR_P_CODINGS];
    uint64_t *d[PMS__OLR_P_CODINGS]; /* the values a reader decodes from each */
    size_t m, cap;
} pms__olr_pcoder;

/* The codings of the predictors of a P chunk in a file with x or without, quantised, and
 * exact too where EXACT, as a mask of bits 1 << coding: the rate predictor needs x. */
static inline unsigned pms__olr_p_codings(int has_x, int exact)
{
    unsigned predictors = has_x ? (1u << PMS__OLR_P_PREDICTORS) - 1
                                : 1u << PMS__OLR_PREDICT_PREVIOUS | 1u << PMS__OLR_PREDICT_LINEAR;
    return exact ? predictors | predictors << PMS__OLR_P_PREDICTORS : predictors;
}

/* The codings tried: every one the file allows, exact ones only at eps >= 1 (at eps 0 they
 * are the quantised ones). */
static inline unsigned pms__olr_pcoder_uses(const pms__olr_pcoder *c)
{
    return pms__olr_p_codings(!c->no_x, c->eps != 0);
}

/* 0, or -1 when out of memory */
int pms__olr_pcoder_add(pms__olr_pcoder *c, uint64_t x, uint64_t y);
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
