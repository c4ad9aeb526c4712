/* libFuzzer target for diff's reader of `pmuscope stat --json` files (jansson, then the
 * counts' checks): any bytes starting with '{' must give PMS_OK or an error naming the file,
 * never a crash, a sanitizer report or a leak; what reads is compared with itself (the rank
 * sum test on whatever values it holds: zeros, negatives, huge, ties) and written out. */
#include "pmuscope/diff.h"
#include "fuzz_input_file.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    pms_diff *d = NULL;
    if (!path || pms_diff_create(&d, NULL)) return 0;
    pms_diff_result r;
    if (pms_diff_add_file(d, PMS_DIFF_BASE, path) == 0 && pms_diff_add_file(d, PMS_DIFF_NEW, path) == 0 &&
        pms_diff_compute(&r, d) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            (void)pms_diff_write_text(null, &r, 0);
            (void)pms_diff_write_json(null, &r);
            (void)pms_diff_write_html(null, &r, 0);
            fclose(null);
        }
        pms_diff_result_free(&r);
    }
    pms_diff_destroy(d);
    return 0;
}
