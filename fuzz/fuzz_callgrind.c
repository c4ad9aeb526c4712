/* libFuzzer target: the callgrind.out reader on arbitrary bytes. */
#include "pmuscope/callgrind.h"
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    pms_callgrind *cg = NULL;
    if (pms_callgrind_read_stream(&cg, f, "fuzz") == 0) {
        size_t n;
        const pms_cg_instr *in = pms_callgrind_instrs(cg, &n);
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += in[i].count;
        if (sum != pms_callgrind_total(cg))
            __builtin_trap(); /* merging lost or invented instructions */
        pms_callgrind_free(cg);
    }
    fclose(f);
    return 0;
}
