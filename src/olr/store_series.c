/* A fitted series to the olr segment file, and the decoded samples through it (see
 * pmuscope/olr_series.h). */
#include "pmuscope/olr_series.h"
#include "pmuscope/olr_store.h"
#include "util/error.h"

#include <stdlib.h>

int pms_olr_write_store(FILE *out, const char *where, const pms_olr_store_options *so, const pms_olr_series *s,
                        const pms_olr_fit *f, pms_olr_store_stats *stats)
{
    pms_olr_writer *w;
    int rc = pms_olr_writer_create(&w, out, where, so, &f->opt, s->xname, (const char *const *)s->names);
    for (size_t i = 0; rc == 0 && i < s->n; i++) rc = pms_olr_writer_add_sample(w, s->x[i], &s->y[i * s->k]);
    for (size_t i = 0; rc == 0 && i < f->nseg; i++) rc = pms_olr_writer_add_segment(w, &f->seg[i]);
    if (rc == 0) rc = pms_olr_writer_finish(w);
    if (rc == 0 && stats) pms_olr_writer_get_stats(w, stats);
    pms_olr_writer_destroy(w);
    return rc;
}

int pms_olr_write_decoded(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    if (!mem) return pms__fail(PMS_ENOMEM, "out of memory");
    pms_olr_store_options so;
    pms_olr_store_options_init(&so);
    so.level = 1; /* only read back */
    int rc = pms_olr_write_store(mem, "the segments in memory", &so, s, f, NULL);
    if (fclose(mem) != 0 && rc == 0) rc = pms__fail(PMS_ENOMEM, "out of memory");
    pms_olr_stored st;
    if (rc == 0 && (rc = pms_olr_stored_read_mem(&st, buf, size, "the segments in memory")) == 0) {
        rc = pms_olr_stored_write_csv(out, &st, NULL);
        pms_olr_stored_free(&st);
    }
    free(buf);
    return rc;
}
