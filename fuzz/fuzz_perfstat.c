/* libFuzzer target: the perf stat -I reader (CSV and plain forms, ARM headers). */
#include "pmuscope/perfstat.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pms_table *t = NULL;
    if (pms_perfstat_parse((const char *)data, size, "fuzz.txt", &t) != 0) return 0;
    size_t col;
    (void)pms_table_find_event(t, PMS_EVENT_CYCLES, NULL, &col);
    pms_table_free(t);
    return 0;
}
