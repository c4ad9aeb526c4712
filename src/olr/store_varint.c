/* Varints and zigzag values (see store_varint.h). */
#include "olr/store_varint.h"

#include <stdlib.h>
#include <string.h>

static int reserve(pms__obuf *b, size_t more)
{
    if (b->oom) return -1;
    if (b->n + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void pms__obuf_bytes(pms__obuf *b, const void *data, size_t n)
{
    if (n == 0 || reserve(b, n)) return;
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

void pms__obuf_varint(pms__obuf *b, uint64_t v)
{
    if (reserve(b, 10)) return;
    while (v >= 0x80) {
        b->p[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
}

size_t pms__varint_len(uint64_t v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7) n++;
    return n;
}

void pms__obuf_zigzag(pms__obuf *b, uint64_t v)
{
    /* (v << 1) ^ (v >> 63 arithmetic), on the two's complement bits */
    pms__obuf_varint(b, (v << 1) ^ (0 - (v >> 63)));
}

void pms__obuf_free(pms__obuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

int pms__cursor_varint(pms__cursor *c, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (c->pos >= c->n) return -1;
        uint8_t byte = c->p[c->pos++];
        if (shift == 63 && byte > 1) return -2;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) break;
        if (shift == 63) return -2;
    }
    *out = v;
    return 0;
}
