/* Text in charts: how wide a label is set (for layout: no label may overlap another), and
 * attribute values escaped. */
#include "render/chart_impl.h"

#include "render/markup.h"

#include <string.h>

/* Advance widths of DejaVu Sans (the sans-serif of Debian's browsers), in thousandths of an
 * em, for ASCII 32..126; other characters count as a wide letter. */
static const unsigned short ascii_width[95] = {
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, /*  !"#$%&'()*+,-./ */
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, /* 0-9 :;<=>? */
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, /* @A-O */
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, /* P-Z [\]^_ */
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, /* `a-o */
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838};     /* p-z {|}~ */

double pms__text_width(const char *s, double size)
{
    double w = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p >= 32 && *p < 127) w += ascii_width[*p - 32];
        else if ((*p & 0xC0) != 0x80) w += 800; /* the first byte of a character beyond ASCII */
    }
    return w / 1000 * size * 1.05;
}

size_t pms__text_fit(const char *s, double size, double max_w)
{
    size_t n = strlen(s);
    if (pms__text_width(s, size) <= max_w) return n;
    double room = max_w - pms__text_width("\xe2\x80\xa6", size), w = 0;
    size_t keep = 0;
    for (size_t i = 0; i < n;) {
        size_t next = i + 1;
        while (next < n && ((unsigned char)s[next] & 0xC0) == 0x80) next++;
        char one[8] = {0};
        memcpy(one, s + i, next - i < 7 ? next - i : 7);
        w += pms__text_width(one, size);
        if (w > room) break;
        keep = i = next;
    }
    return keep;
}

void pms__attr(FILE *out, const char *name, const char *value)
{
    fprintf(out, " %s=\"", name);
    pms__markup_escape(out, value ? value : "");
    fputc('"', out);
}
