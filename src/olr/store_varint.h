/* LEB128 varints and zigzag signed values in growable byte buffers, and a cursor that
 * reads them back with bounds checks (docs/olr-format.md). */
#ifndef PMS_OLR_STORE_VARINT_H
#define PMS_OLR_STORE_VARINT_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms__obuf {
    uint8_t *p;
    size_t n, cap;
    int oom;          /* an allocation failed: the contents are incomplete */
} pms__obuf;

void pms__obuf_bytes(pms__obuf *b, const void *data, size_t n);
void pms__obuf_varint(pms__obuf *b, uint64_t v);
/* the bytes pms__obuf_varint takes for v: 1 to 10 */
size_t pms__varint_len(uint64_t v);
/* v taken as a signed 64-bit difference (mod 2^64), zigzag-mapped */
void pms__obuf_zigzag(pms__obuf *b, uint64_t v);
void pms__obuf_free(pms__obuf *b);

typedef struct pms__cursor {
    const uint8_t *p;
    size_t n, pos;
} pms__cursor;

/* 0, or -1 when the bytes end inside the varint, -2 when it is longer than 10 bytes or
 * above 2^64 - 1. */
int pms__cursor_varint(pms__cursor *c, uint64_t *out);

#endif
