/* Constants of the olr segment file shared by its writer and reader (docs/olr-format.md). */
#ifndef PMS_OLR_STORE_FORMAT_H
#define PMS_OLR_STORE_FORMAT_H

#define PMS_OLR_STORE_MAGIC "PMSOLR"
#define PMS_OLR_STORE_MAGIC_LEN 6

enum {
    PMS_OLR_FLAG_X = 1,           /* x values stored */
    PMS_OLR_FLAG_LOSSLESS = 2,    /* residuals stored */
    PMS_OLR_FLAG_PER_COUNTER = 4, /* counters broke apart */
    PMS_OLR_FLAGS_KNOWN = 7,
};

enum {
    PMS_OLR_CHUNK_X = 'X',        /* x values: delta of delta */
    PMS_OLR_CHUNK_SEGMENTS = 'S', /* one counter's segments */
    PMS_OLR_CHUNK_RESIDUALS = 'R',/* one counter's residuals */
    PMS_OLR_CHUNK_END = 'E',      /* totals; the last chunk */
    PMS_OLR_CHUNK_PREDICTIVE = 'P', /* one counter's samples, predictive coding (version 2) */
    PMS_OLR_CHUNK_CHECKPOINT = 'C', /* what the chunks so far cover (version 5) */
};

/* The most bytes a chunk may decompress to (the writer makes chunks of about 1 MiB). */
#define PMS_OLR_CHUNK_MAX (64u << 20)

#endif
