/* UTF-8 well-formedness by the table of well-formed byte sequences in the
 * Unicode Standard (chapter 3, table 3-7). */
#include "util/utf8.h"

#include <stdbool.h>

static bool in(unsigned char b, unsigned char lo, unsigned char hi) { return b >= lo && b <= hi; }

size_t pms__utf8_sequence_len(const unsigned char *p)
{
    unsigned char b = p[0];
    if (b == 0) return 0;
    if (b < 0x80) return 1;
    /* the range allowed for the second byte, and how many bytes the sequence has */
    unsigned char lo = 0x80, hi = 0xBF;
    size_t len;
    if (in(b, 0xC2, 0xDF)) len = 2;
    else if (b == 0xE0) len = 3, lo = 0xA0;
    else if (b == 0xED) len = 3, hi = 0x9F; /* no UTF-16 surrogates */
    else if (in(b, 0xE1, 0xEF)) len = 3;
    else if (b == 0xF0) len = 4, lo = 0x90;
    else if (in(b, 0xF1, 0xF3)) len = 4;
    else if (b == 0xF4) len = 4, hi = 0x8F; /* nothing above U+10FFFF */
    else return 0;
    if (!in(p[1], lo, hi)) return 0;
    /* the NUL terminator fails these tests, so nothing is read past it */
    for (size_t k = 2; k < len; k++)
        if (!in(p[k], 0x80, 0xBF)) return 0;
    return len;
}
