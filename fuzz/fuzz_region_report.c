/* libFuzzer target: the region report reader (jansson underneath, then every member's type
 * checked), and what it read written back as a table, CSV and JSON. */
#include "pmuscope/region_report.h"
#include "fuzz_input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    pms_region_results *r;
    if (!path || pms_region_results_read(&r, path)) return 0;
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        pms_region_results_print_table(null, r);
        pms_region_results_print_csv(null, r, ",");
        pms_region_results_write_json(null, r);
        fclose(null);
    }
    pms_region_results_free(r);
    return 0;
}
