/* libFuzzer target: the SimPoint .bb reader (dimensions from 1), read back (fuzz_bbv
 * covers the writer). */
#include "pmuscope/bbv.h"
#include "fuzz_input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    pms_bbv *b;
    if (!path || pms_simpoint_load(&b, path)) return 0;
    for (size_t i = 0; i < pms_bbv_nintervals(b); i++) {
        pms_bbv_interval iv;
        if (pms_bbv_get_interval(b, i, &iv) == 0)
            for (size_t j = 0; j < iv.nentries; j++) (void)iv.entries[j].count;
    }
    pms_bbv_free(b);
    return 0;
}
