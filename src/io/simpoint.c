/* SimPoint .bb frequency vector files: the T: lines of exp-bbv, dimensions from 1. */
#include "io/bbv_internal.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>

int pms_simpoint_load(pms_bbv **out, const char *path)
{
    pms_bbv *b;
    int rc = pms__bbv_read_file(&b, path);
    if (rc) return rc;
    for (size_t i = 0; i < b->nintervals; i++) {
        const pms_bbv_slot *s = &b->intervals[i];
        for (size_t j = 0; j < s->n; j++)
            if (b->entries[s->first + j].block == 0) {
                size_t line = s->line;
                pms_bbv_free(b);
                return pms__fail(PMS_EFORMAT, "%s: line %zu: dimension 0: SimPoint numbers dimensions from 1",
                                path, line);
            }
    }
    *out = b;
    return PMS_OK;
}

int pms_simpoint_write(const pms_bbv *b, FILE *out, const char *name)
{
    for (size_t i = 0; i < b->nintervals; i++) {
        const pms_bbv_slot *s = &b->intervals[i];
        if (fputc('T', out) == EOF) break;
        for (size_t j = 0; j < s->n; j++) {
            const pms_bbv_entry *e = &b->entries[s->first + j];
            if (e->block == 0)
                return pms__fail(PMS_EINVAL, "%s: interval %zu: dimension 0: SimPoint numbers dimensions from 1",
                                name, i + 1);
            fprintf(out, ":%llu:%llu ", (unsigned long long)e->block, (unsigned long long)e->count);
        }
        fputc('\n', out);
    }
    if (fflush(out) || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "%s: write failed", name);
    return PMS_OK;
}
