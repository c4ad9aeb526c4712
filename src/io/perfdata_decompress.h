/* Internal: the records inside PERF_RECORD_COMPRESSED (perf record -z). perf compresses its
 * ring-buffer reads as one zstd stream, flushed at the end of each read and cut into records
 * of at most 64 KiB; a record's bytes can end inside an inner record, which the next one
 * completes. The decompressor keeps that stream and hands out whole inner records, through a
 * fixed buffer: memory does not grow with what one record expands to. */
#ifndef PMS_IO_PERFDATA_DECOMPRESS_H
#define PMS_IO_PERFDATA_DECOMPRESS_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms__decompressor pms__decompressor;

/* Called for each whole inner record (8-byte aligned, h->size bytes); a non-zero return
 * stops the feed and is returned. */
typedef int (*pms__inner_record_fn)(const unsigned char *rec, void *ctx);

pms__decompressor *pms__decompressor_new(void);
void pms__decompressor_free(pms__decompressor *d);
/* Starts a new stream (a new pass over the file). */
void pms__decompressor_reset(pms__decompressor *d);
/* Feeds the payload of the COMPRESSED record at file offset `off` of file `name` (for
 * messages) and hands out the inner records it completes. */
int pms__decompressor_feed(pms__decompressor *d, const unsigned char *src, size_t n, const char *name, uint64_t off,
                           pms__inner_record_fn fn, void *ctx);
/* At the end of the data: fails when the stream stopped inside an inner record (a file cut
 * short, or a compressed record lost), naming the offset of the last compressed record. */
int pms__decompressor_finish(const pms__decompressor *d, const char *name);

#endif
