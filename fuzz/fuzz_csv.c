/* libFuzzer target: the CSV/TSV table reader, and every column read back as numbers. */
#include "pmuscope/table.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pms_table *t = NULL;
    if (pms_table_parse((const char *)data, size, "fuzz.csv", NULL, &t) != 0) return 0;
    for (size_t j = 0; j < pms_table_cols(t); j++) {
        const double *v;
        (void)pms_table_numeric(t, j, false, &v);
        for (size_t i = 0; i < pms_table_rows(t); i++) (void)pms_table_string(t, i, j);
    }
    pms_table_free(t);
    return 0;
}
