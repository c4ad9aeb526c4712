/* libFuzzer target for the olr segment file reader (pmuscope/olr_store.h): the input is a
 * file's bytes. Properties checked: no crash or sanitizer report; a file that reads decodes
 * every counter (with its stored x, or made-up increasing x when x was left out), and the
 * CSV export of it works. */
#include "pmuscope/olr_store.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pms_olr_stored s;
    if (pms_olr_stored_read_mem(&s, data, size, "fuzz.olr")) return 0;
    if (s.n > (1u << 22)) { /* a file this size cannot hold more than a few million samples */
        pms_olr_stored_free(&s);
        return 0;
    }
    uint64_t *x = s.x ? NULL : malloc(s.n * sizeof *x), *y = malloc(s.n * sizeof *y);
    if (!y || (!s.x && !x)) abort();
    for (uint64_t i = 0; x && i < s.n; i++) x[i] = 3 * i + 1;
    for (size_t j = 0; j < s.k; j++)
        if (pms_olr_stored_decode(&s, j, x, y)) abort();
    FILE *null = fopen("/dev/null", "w");
    if (null && pms_olr_stored_write_csv(null, &s, x)) abort();
    if (null) fclose(null);
    free(x);
    free(y);
    pms_olr_stored_free(&s);
    return 0;
}
