/* libFuzzer target: the exp-bbv PC file reader ("F:block:address:function" lines) on its
 * own, against a fixed BB file, then every block and dominant function looked up. */
#include "pmuscope/bbv.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char bb[] = "T:1:10 :2:20 \nT:3:5 :1:1 \nT\n";
    pms_bbv *b;
    if (pms_bbv_parse(&b, "fixed.bb", bb, strlen(bb))) return 0;
    if (pms_bbv_parse_pc(b, "fuzz.pc", (const char *)data, size) == 0) {
        for (size_t i = 0; i < pms_bbv_nblocks(b); i++) {
            const pms_bbv_block *blk = pms_bbv_get_block(b, i);
            if (pms_bbv_find_block(b, blk->block) != blk) __builtin_trap(); /* sorted, unique */
        }
        (void)pms_bbv_dominant_function(b, 0, pms_bbv_nintervals(b));
    }
    pms_bbv_free(b);
    return 0;
}
