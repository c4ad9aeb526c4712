/* olr series: the common series and the choice of reader. */
#include "olr/series_internal.h"
#include "io/input_spool.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t *pms__olr_series_append(pms_olr_series *s, uint64_t x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *nx = realloc(s->x, cap * sizeof *nx);
        if (!nx) return NULL;
        s->x = nx;
        uint64_t *ny = realloc(s->y, cap * (s->k ? s->k : 1) * sizeof *ny);
        if (!ny) return NULL;
        s->y = ny;
        s->cap = cap;
    }
    s->x[s->n] = x;
    return &s->y[s->n++ * s->k];
}

void pms_olr_input_options_init(pms_olr_input_options *o)
{
    memset(o, 0, sizeof *o);
    o->tid = -1;
}

int pms_olr_series_load(pms_olr_series *s, const char *path, const pms_olr_input_options *opt)
{
    memset(s, 0, sizeof *s);
    bool perfdata;
    pms__input in; /* a pipe is copied once, so that its first bytes can be looked at */
    int rc = pms__input_open(&in, path);
    if (rc) return rc;
    rc = pms_perfdata_sniff(&perfdata, in.path);
    if (!rc) rc = perfdata ? pms__olr_series_load_perfdata(s, in.path, opt) : pms__olr_series_load_table(s, in.path, opt);
    pms__input_close(&in);
    if (rc == 0 && !(s->source = strdup(path))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == 0 && s->n == 0) rc = pms__fail(PMS_EFORMAT, "%s: no samples", path);
    if (rc) pms_olr_series_free(s);
    return rc;
}

void pms_olr_series_free(pms_olr_series *s)
{
    free(s->x);
    free(s->y);
    free(s->xname);
    free(s->source);
    free(s->lines);
    for (size_t j = 0; s->names && j < s->k; j++) free(s->names[j]);
    free(s->names);
    memset(s, 0, sizeof *s);
}

