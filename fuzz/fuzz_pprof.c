/* libFuzzer target for the pprof reader: any bytes (gzipped or not) must give PMS_OK or
 * an error, never a crash, a sanitizer report or a leak; the look at a pipe's head (the
 * fields walked, whole and as a head that more follows) too; a profile that decodes gives
 * the table of each of its sample types, as `pmuscope report` makes it, and its sampled
 * sites in their files, as `pmuscope hotspot --truth` reads them. */
#include "pmuscope/pprof.h"
#include "hotspot/pprof_sites.h"
#include "io/pprof_head.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_leaf(const char *file, uint64_t offset, uint64_t count, void *ctx)
{
    (void)file;
    *(uint64_t *)ctx += count + offset % 2;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[160];
    (void)pms__pprof_starts(data, size, true, why, sizeof why);
    (void)pms__pprof_check_head(data, size, "fuzz.pb", NULL);
    pms_pprof *p;
    if (pms_pprof_open_mem(&p, data, size, "fuzz.pb") != 0) return 0;
    for (size_t t = 0; t < pms_pprof_ntypes(p) && t < 8; t++) {
        pms_pprof_row *rows = NULL;
        size_t n = 0;
        (void)pms_pprof_table(p, t, 0.95, &rows, &n);
        free(rows);
    }
    for (size_t i = 0; i < pms_pprof_ncomments(p); i++) (void)pms_pprof_comment(p, i);
    (void)pms_pprof_default_type(p);
    uint64_t sum = 0; /* the sampled sites, as hotspot --truth places them */
    if (pms_pprof_ntypes(p)) (void)pms__pprof_each_leaf(p, pms__pprof_count_type(p), count_leaf, &sum);
    pms_pprof_close(p);
    return 0;
}
