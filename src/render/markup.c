#include "render/markup.h"
#include "util/utf8.h"

#include <stdbool.h>

/* XML 1.0 has no way to write U+FFFE, U+FFFF or a control character other than
 * tab, newline and carriage return, not even as a character reference. */
static bool xml_char(const unsigned char *p, size_t len)
{
    if (len == 1) return *p >= 0x20 || *p == '\t' || *p == '\n' || *p == '\r';
    return !(len == 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF));
}

/* Every byte that does not belong to a well-formed UTF-8 sequence, and every
 * character XML cannot hold (control characters included), is written as
 * &#xFFFD;, the replacement character U+FFFD, one per invalid byte (as
 * the JSON writer, render/json.c), so that the SVG/HTML is well-formed. */
void pms__markup_escape(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t len = pms__utf8_sequence_len(p);
        if (len == 0 || !xml_char(p, len)) {
            fputs("&#xFFFD;", out);
            p += len ? len : 1;
            continue;
        }
        switch (*p) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fwrite(p, 1, len, out);
        }
        p += len;
    }
}
