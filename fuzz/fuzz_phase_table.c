/* libFuzzer target: the phase table reader (pmuscope phase --load-phases), then the table
 * loaded into a classifier of its signature size and seed, and a signature classified. */
#include "pmuscope/phase.h"
#include "fuzz_input_file.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    pms_phase_table *t;
    if (!path || pms_phase_table_load(&t, path)) return 0;
    pms_phase_config cfg;
    pms_phase_config_default(&cfg);
    cfg.classifier.signature_size = pms_phase_table_signature_size(t);
    cfg.classifier.cache_size = 65536;
    cfg.seed = pms_phase_table_seed(t);
    cfg.table = t;
    pms_phase_engine *e;
    if (pms_phase_engine_create(&e, &cfg, 1) == PMS_OK) {
        uint64_t address = 0x401000;
        pms_phase_interval iv = {.addresses = &address, .n = 1};
        pms_phase_event ev;
        (void)pms_phase_engine_push(e, &iv, &ev);
        pms_phase_engine_destroy(e);
    }
    pms_phase_table_free(t);
    return 0;
}
