/* The charts of `olr --svg` gathered as a stream goes (see pmuscope/olr_series.h): every
 * step-th sample and every lstep-th line of each counter, the steps doubling whenever the
 * kept ones fill their room, so that memory stays flat however long the stream is. */
#include "pmuscope/chart.h"
#include "pmuscope/olr_series.h"
#include "util/error.h"

#include <stdbool.h>
#include <stdlib.h>

enum { ROOM = 8000 }; /* kept points per array: between ROOM / 2 and ROOM once thinned */

typedef struct chart_lines {
    double *x, *y;        /* 2 per kept segment: its ends */
    size_t n;             /* kept segments */
    uint64_t seen, step;  /* segments seen; every step-th is kept */
} chart_lines;

struct pms_olr_chart_data {
    size_t k;
    double *px, *py;      /* kept samples: px[i], py[i * k + j] */
    size_t np;
    uint64_t seen, step;
    chart_lines *lines;   /* k */
};

int pms_olr_chart_data_create(pms_olr_chart_data **out, size_t k)
{
    pms_olr_chart_data *c = calloc(1, sizeof *c);
    if (c) {
        c->k = k;
        c->step = 1;
        c->px = malloc(ROOM * sizeof *c->px);
        c->py = malloc(ROOM * (k ? k : 1) * sizeof *c->py);
        c->lines = calloc(k ? k : 1, sizeof *c->lines);
    }
    bool ok = c && c->px && c->py && c->lines;
    for (size_t j = 0; ok && j < k; j++) {
        chart_lines *l = &c->lines[j];
        l->step = 1;
        l->x = malloc(ROOM * sizeof *l->x);
        l->y = malloc(ROOM * sizeof *l->y);
        ok = l->x && l->y;
    }
    if (!ok) {
        pms_olr_chart_data_destroy(c);
        *out = NULL;
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    *out = c;
    return PMS_OK;
}

void pms_olr_chart_data_add_sample(pms_olr_chart_data *c, uint64_t x, const uint64_t *y)
{
    if (c->seen++ % c->step) return;
    if (c->np == ROOM) { /* keep every other: the multiples of the doubled step */
        for (size_t i = 0; 2 * i < ROOM; i++) {
            c->px[i] = c->px[2 * i];
            for (size_t j = 0; j < c->k; j++) c->py[i * c->k + j] = c->py[2 * i * c->k + j];
        }
        c->np = ROOM / 2;
        c->step *= 2;
        if ((c->seen - 1) % c->step) return;
    }
    c->px[c->np] = (double)x;
    for (size_t j = 0; j < c->k; j++) c->py[c->np * c->k + j] = (double)y[j];
    c->np++;
}

void pms_olr_chart_data_add_segment(pms_olr_chart_data *c, const pms_olr_segment *s)
{
    if (s->counter >= c->k) return;
    chart_lines *l = &c->lines[s->counter];
    if (l->seen++ % l->step) return;
    if (2 * l->n == ROOM) {
        for (size_t i = 0; 4 * i < ROOM; i++) {
            l->x[2 * i] = l->x[4 * i], l->x[2 * i + 1] = l->x[4 * i + 1];
            l->y[2 * i] = l->y[4 * i], l->y[2 * i + 1] = l->y[4 * i + 1];
        }
        l->n = ROOM / 4;
        l->step *= 2;
        if ((l->seen - 1) % l->step) return;
    }
    l->x[2 * l->n] = (double)s->x_first, l->y[2 * l->n] = s->y_first;
    l->x[2 * l->n + 1] = (double)s->x_last, l->y[2 * l->n + 1] = s->y_last;
    l->n++;
}

int pms_olr_chart_data_write_svg(const pms_olr_chart_data *c, FILE *out, const pms_olr_series *meta,
                                 const pms_olr_fit *f)
{
    pms_chart **charts = calloc(c->k ? c->k : 1, sizeof *charts);
    double *py = malloc((c->np ? c->np : 1) * sizeof *py);
    int rc = charts && py ? 0 : -1;
    for (size_t j = 0; rc == 0 && j < c->k; j++) {
        const chart_lines *l = &c->lines[j];
        char title[320], thinned[64] = "";
        if (l->step > 1) snprintf(thinned, sizeof thinned, ", every %llu. drawn", (unsigned long long)l->step);
        snprintf(title, sizeof title, "%s: %llu samples, %llu lines (%s%s)", meta->names[j],
                 (unsigned long long)f->sums[j].samples, (unsigned long long)f->sums[j].segments,
                 pms_olr_method_name(f->opt.method), thinned);
        if (!(charts[j] = pms_chart_new(title, meta->xname, meta->names[j]))) {
            rc = -1;
            break;
        }
        pms_chart_set_units(charts[j], "cumulative count", "cumulative count");
        for (size_t i = 0; i < c->np; i++) py[i] = c->py[i * c->k + j];
        if (pms_chart_add_points(charts[j], "samples", c->px, py, c->np, NULL) ||
            pms_chart_add_line(charts[j], "lines", l->x, l->y, 2 * l->n, NULL))
            rc = -1;
    }
    if (rc == 0) rc = pms_chart_write_svg(charts, c->k, 900, out);
    for (size_t j = 0; charts && j < c->k; j++) pms_chart_free(charts[j]);
    free(charts);
    free(py);
    return rc ? pms__fail(PMS_ENOMEM, "cannot draw the chart") : PMS_OK;
}

void pms_olr_chart_data_destroy(pms_olr_chart_data *c)
{
    if (!c) return;
    for (size_t j = 0; c->lines && j < c->k; j++) {
        free(c->lines[j].x);
        free(c->lines[j].y);
    }
    free(c->lines);
    free(c->px);
    free(c->py);
    free(c);
}
