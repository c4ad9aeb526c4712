/* olr series: the common series and the choice of reader. */
#include "olr/series_internal.h"
#include "io/input_spool.h"
#include "io/perfdata_head.h"
#include "io/text_lines.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/table.h"
#include "util/error.h"
#include "util/grow.h"

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

/* Counts the rows handed to the caller's function. */
typedef struct counting {
    pms_olr_row_fn fn;
    void *ctx;
    uint64_t rows;
} counting;

static int count_row(uint64_t x, const uint64_t *y, void *ctx)
{
    counting *c = ctx;
    int rc = c->fn(x, y, c->ctx);
    c->rows += rc == 0;
    return rc;
}

int pms__olr_head_check(const unsigned char *head, size_t len, const char *name, void *opt)
{
    if (pms__perfdata_magic(head, len)) return pms__perfdata_check_head(head, len, name, NULL);
    return pms__text_head_check(head, len, name, pms__olr_table_head, opt);
}

int pms_olr_series_stream(pms_olr_series *s, const char *path, const pms_olr_input_options *opt,
                          pms_olr_row_fn fn, void *ctx)
{
    memset(s, 0, sizeof *s);
    bool perfdata;
    pms__input in; /* a pipe is copied once, so that its first bytes can be looked at */
    int rc = pms__input_open(&in, path, pms__olr_head_check, (void *)opt);
    if (rc) return rc;
    rc = pms_perfdata_sniff(&perfdata, in.path);
    if (rc == 0 && !(s->source = strdup(path))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    counting c = {fn, ctx, 0};
    if (rc == 0)
        rc = perfdata ? pms__olr_series_stream_perfdata(s, in.path, opt, count_row, &c)
                      : pms__olr_series_stream_table(s, in.path, opt, count_row, &c);
    rc = pms__input_status(&in, rc);
    pms__input_close(&in);
    s->n = c.rows;
    if (rc == 0 && s->n == 0) rc = pms__fail(PMS_EFORMAT, "%s: no samples", path);
    return rc;
}

/* Loading: each row appended to the series, with its line for tables. */
typedef struct loading {
    pms_olr_series *s;
    size_t lines_cap;
} loading;

static int append_row(uint64_t x, const uint64_t *y, void *ctx)
{
    loading *L = ctx;
    pms_olr_series *s = L->s;
    if (s->line && pms__grow(&s->lines, &L->lines_cap, s->n + 1, sizeof *s->lines))
        return pms__fail(PMS_ENOMEM, "out of memory");
    if (s->line) s->lines[s->n] = s->line;
    uint64_t *row = pms__olr_series_append(s, x);
    if (!row) return pms__fail(PMS_ENOMEM, "out of memory");
    memcpy(row, y, s->k * sizeof *row);
    return PMS_OK;
}

int pms_olr_series_load(pms_olr_series *s, const char *path, const pms_olr_input_options *opt)
{
    loading L = {s, 0};
    int rc = pms_olr_series_stream(s, path, opt, append_row, &L);
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

