/* libFuzzer target: the exp-bbv BB and PC readers and the SimPoint writer on arbitrary
 * bytes. The input is split at the first "\n--\n": BB text before, PC text after. */
#include "pmuscope/bbv.h"

#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *sep = NULL;
    for (size_t i = 0; i + 4 <= size; i++)
        if (!memcmp(text + i, "\n--\n", 4)) {
            sep = text + i;
            break;
        }
    size_t bb_len = sep ? (size_t)(sep - text) : size;
    pms_bbv *b;
    if (pms_bbv_parse(&b, "fuzz.bb", text, bb_len)) return 0;
    if (sep) pms_bbv_parse_pc(b, "fuzz.pc", sep + 4, size - bb_len - 4);
    for (size_t i = 0; i < pms_bbv_nintervals(b); i++) {
        pms_bbv_interval iv;
        if (pms_bbv_get_interval(b, i, &iv) == 0)
            for (size_t j = 0; j < iv.nentries; j++) pms_bbv_find_block(b, iv.entries[j].block);
    }
    pms_bbv_dominant_function(b, 0, pms_bbv_nintervals(b));
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        pms_simpoint_write(b, devnull, "fuzz");
        fclose(devnull);
    }
    pms_bbv_free(b);
    return 0;
}
