/* Writing a phase table (see table.c): the phases a classifier holds, as text. */
#include "phase/engine_internal.h"
#include "pmuscope/phase.h"
#include "util/error.h"

#include <stdio.h>

static int write_phase(int id, uint64_t weight, const double *centroid, size_t n, void *ctx)
{
    FILE *out = ctx;
    fprintf(out, "phase %d %llu", id, (unsigned long long)(weight ? weight : 1));
    for (size_t k = 0; k < n; k++) fprintf(out, " %.17g", centroid[k]);
    fputc('\n', out);
    return ferror(out) ? PMS_EIO : PMS_OK;
}

int pms__phase_table_write(const pms_classifier *c, size_t signature_size, uint64_t seed, FILE *out)
{
    fprintf(out, "# pmuscope phase table: the phases of a run, their ids and centroid signatures\n"
                 "# (pmuscope phase --save-phases; a later run starts from it with --load-phases)\n");
    fprintf(out, PMS_PHASE_TABLE_MAGIC " %d\nsignature-size %zu\nseed %llu\n", PMS_PHASE_TABLE_VERSION, signature_size,
            (unsigned long long)seed);
    fprintf(out, "# phase ID WEIGHT (intervals it holds) and its centroid: signature-size entries adding up to 1\n");
    int rc = pms__classifier_each_phase(c, write_phase, out);
    if (!rc && ferror(out)) rc = PMS_EIO;
    return rc == PMS_EIO ? pms__fail(PMS_EIO, "cannot write the phase table") : rc;
}
