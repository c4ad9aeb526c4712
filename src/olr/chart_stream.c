/* The charts of `olr --svg` gathered as a stream goes (see pmuscope/olr_series.h): every
 * step-th sample and every lstep-th line of each counter, the steps doubling whenever the
 * kept ones fill their room, so that memory stays flat however long the stream is. Each
 * kept sample's error against its line (the sample less the line at its x: the distance to
 * the line drawn) is taken when its line closes, so that a panel under each counter's chart shows
 * the fit, with opt's eps band or wm's nsigma band of each line. */
#include "pmuscope/chart.h"
#include "pmuscope/olr_series.h"
#include "util/error.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { ROOM = 8000 }; /* kept points per array: between ROOM / 2 and ROOM once thinned */

typedef struct chart_lines {
    double *x, *y;        /* 2 per kept segment: its ends */
    double *sigma;        /* 1 per kept segment */
    size_t n;             /* kept segments */
    uint64_t seen, step;  /* segments seen; every step-th is kept (the kept i-th is the (i * step)-th) */
    size_t next;          /* the first kept sample whose error no line has given yet */
} chart_lines;

struct pms_olr_chart_data {
    size_t k;
    double *px, *py;      /* kept samples: px[i], py[i * k + j] (the kept i-th is the (i * step)-th) */
    double *err;          /* err[i * k + j]: py less counter j's line at px[i]; NaN until its line closes */
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
        c->err = malloc(ROOM * (k ? k : 1) * sizeof *c->err);
        c->lines = calloc(k ? k : 1, sizeof *c->lines);
    }
    bool ok = c && c->px && c->py && c->err && c->lines;
    for (size_t j = 0; ok && j < k; j++) {
        chart_lines *l = &c->lines[j];
        l->step = 1;
        l->x = malloc(ROOM * sizeof *l->x);
        l->y = malloc(ROOM * sizeof *l->y);
        l->sigma = malloc(ROOM / 2 * sizeof *l->sigma);
        ok = l->x && l->y && l->sigma;
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
            for (size_t j = 0; j < c->k; j++) {
                c->py[i * c->k + j] = c->py[2 * i * c->k + j];
                c->err[i * c->k + j] = c->err[2 * i * c->k + j];
            }
        }
        for (size_t j = 0; j < c->k; j++) c->lines[j].next = (c->lines[j].next + 1) / 2;
        c->np = ROOM / 2;
        c->step *= 2;
        if ((c->seen - 1) % c->step) return;
    }
    c->px[c->np] = (double)x;
    for (size_t j = 0; j < c->k; j++) {
        c->py[c->np * c->k + j] = (double)y[j];
        c->err[c->np * c->k + j] = NAN;
    }
    c->np++;
}

/* The errors of the kept samples the line holds (a sample two lines share: the first's). */
static void take_errors(pms_olr_chart_data *c, chart_lines *l, const pms_olr_segment *s)
{
    size_t j = s->counter;
    for (; l->next < c->np && c->px[l->next] <= (double)s->x_last; l->next++) {
        double x = c->px[l->next];
        if (x >= (double)s->x_first)
            c->err[l->next * c->k + j] = c->py[l->next * c->k + j] - pms_olr_segment_eval(s, (uint64_t)x);
    }
}

void pms_olr_chart_data_add_segment(pms_olr_chart_data *c, const pms_olr_segment *s)
{
    if (s->counter >= c->k) return;
    chart_lines *l = &c->lines[s->counter];
    take_errors(c, l, s);
    if (l->seen++ % l->step) return;
    if (2 * l->n == ROOM) {
        for (size_t i = 0; 4 * i < ROOM; i++) {
            l->x[2 * i] = l->x[4 * i], l->x[2 * i + 1] = l->x[4 * i + 1];
            l->y[2 * i] = l->y[4 * i], l->y[2 * i + 1] = l->y[4 * i + 1];
            l->sigma[i] = l->sigma[2 * i];
        }
        l->n = ROOM / 4;
        l->step *= 2;
        if ((l->seen - 1) % l->step) return;
    }
    l->x[2 * l->n] = (double)s->x_first, l->y[2 * l->n] = s->y_first;
    l->x[2 * l->n + 1] = (double)s->x_last, l->y[2 * l->n + 1] = s->y_last;
    l->sigma[l->n] = s->sigma;
    l->n++;
}

/* The unit of a cumulative count: a clock event counts nanoseconds, others events. */
static const char *count_unit(const char *name)
{
    size_t n = strcspn(name, ":");
    return strcmp(name, "time") == 0 || (n >= 6 && strncmp(name + n - 6, "-clock", 6) == 0) ? "ns" : "count";
}

typedef struct scratch {
    double *x, *y;
    uint64_t *ids;
} scratch;

/* Samples, then the lines: each a segment of its own (its ends marked), a NaN between. */
static int main_chart(pms_chart **out, const pms_olr_chart_data *c, size_t j, const pms_olr_series *meta,
                      const pms_olr_fit *f, const char *xlabel, scratch *w)
{
    const chart_lines *l = &c->lines[j];
    char title[320], thinned[96] = "", ylabel[300];
    if (c->step > 1 || l->step > 1)
        snprintf(thinned, sizeof thinned, "; every %llu. sample and %llu. line drawn", (unsigned long long)c->step,
                 (unsigned long long)l->step);
    snprintf(title, sizeof title, "%s: %llu samples, %llu lines (%s%s)", meta->names[j],
             (unsigned long long)f->sums[j].samples, (unsigned long long)f->sums[j].segments,
             pms_olr_method_name(f->opt.method), thinned);
    snprintf(ylabel, sizeof ylabel, "%s, cumulative", meta->names[j]);
    pms_chart *ch = *out = pms_chart_new(title, xlabel, ylabel);
    if (!ch) return -1;
    pms_chart_set_units(ch, count_unit(meta->xname), count_unit(meta->names[j]));
    for (size_t i = 0; i < c->np; i++) w->y[i] = c->py[i * c->k + j], w->ids[i] = i * c->step;
    if (pms_chart_add_points(ch, "samples", c->px, w->y, c->np, NULL) || pms_chart_set_ids(ch, w->ids, c->np)) return -1;
    for (size_t i = 0; i < l->n; i++) {
        uint64_t seg = i * l->step;
        w->x[3 * i] = l->x[2 * i], w->x[3 * i + 1] = l->x[2 * i + 1], w->x[3 * i + 2] = NAN;
        w->y[3 * i] = l->y[2 * i], w->y[3 * i + 1] = l->y[2 * i + 1], w->y[3 * i + 2] = NAN;
        w->ids[3 * i] = 2 * seg, w->ids[3 * i + 1] = 2 * seg + 1, w->ids[3 * i + 2] = 0;
    }
    size_t m = l->n ? 3 * l->n - 1 : 0;
    return pms_chart_add_line(ch, "lines", w->x, w->y, m, NULL) || pms_chart_set_ids(ch, w->ids, m) ? -1 : 0;
}

/* Each kept sample's error against its line, over the band its method allows. */
static int error_chart(pms_chart **out, const pms_olr_chart_data *c, size_t j, const pms_olr_series *meta,
                       const pms_olr_fit *f, const char *xlabel, scratch *w)
{
    const chart_lines *l = &c->lines[j];
    char title[320], band[96];
    snprintf(title, sizeof title, "%s: error of each sample against its line", meta->names[j]);
    pms_chart *ch = *out = pms_chart_new(title, xlabel, "sample less its line");
    if (!ch) return -1;
    pms_chart_set_units(ch, count_unit(meta->xname), count_unit(meta->names[j]));
    pms_chart_set_height(ch, 140);
    int rc = 0;
    if (f->opt.method == PMS_OLR_OPT) {
        double eps = floor(f->counters[j].eps), x0 = c->np ? c->px[0] : 0, x1 = c->np ? c->px[c->np - 1] : 0;
        double lo = -eps;
        snprintf(band, sizeof band, "eps band: \xc2\xb1%.0f", eps);
        rc = pms_chart_add_ranges(ch, band, &x0, &x1, &lo, &eps, 1, "#59a14f");
    } else {
        for (size_t i = 0; i < l->n; i++) {
            w->x[i] = l->x[2 * i], w->x[l->n + i] = l->x[2 * i + 1];
            w->y[l->n + i] = f->opt.nsigma * l->sigma[i], w->y[i] = -w->y[l->n + i];
        }
        snprintf(band, sizeof band, "\xc2\xb1%g sigma of its line (the break test)", f->opt.nsigma);
        rc = pms_chart_add_ranges(ch, band, w->x, w->x + l->n, w->y, w->y + l->n, l->n, "#59a14f");
    }
    for (size_t i = 0; i < c->np; i++) w->y[i] = c->err[i * c->k + j], w->ids[i] = i * c->step;
    if (rc || pms_chart_add_points(ch, "error", c->px, w->y, c->np, "#e15759") || pms_chart_set_ids(ch, w->ids, c->np))
        return -1;
    return 0;
}

int pms_olr_chart_data_write_svg(const pms_olr_chart_data *c, FILE *out, const pms_olr_series *meta,
                                 const pms_olr_fit *f)
{
    size_t nch = 2 * c->k, room = 3 * ROOM;
    pms_chart **charts = calloc(nch ? nch : 1, sizeof *charts);
    scratch w = {malloc(room * sizeof *w.x), malloc(room * sizeof *w.y), malloc(room * sizeof *w.ids)};
    bool built = charts && w.x && w.y && w.ids;
    char xlabel[300];
    snprintf(xlabel, sizeof xlabel, "%s%s", meta->xname, strcmp(meta->xname, "time") ? ", cumulative" : "");
    for (size_t j = 0; built && j < c->k; j++)
        built = main_chart(&charts[2 * j], c, j, meta, f, xlabel, &w) == 0 &&
                error_chart(&charts[2 * j + 1], c, j, meta, f, xlabel, &w) == 0;
    int rc = built ? pms_chart_write_svg(charts, nch, 900, out) : pms__fail(PMS_ENOMEM, "out of memory for the charts");
    for (size_t j = 0; charts && j < nch; j++) pms_chart_free(charts[j]);
    free(charts);
    free(w.x);
    free(w.y);
    free(w.ids);
    return rc;
}

void pms_olr_chart_data_destroy(pms_olr_chart_data *c)
{
    if (!c) return;
    for (size_t j = 0; c->lines && j < c->k; j++) {
        free(c->lines[j].x);
        free(c->lines[j].y);
        free(c->lines[j].sigma);
    }
    free(c->lines);
    free(c->px);
    free(c->py);
    free(c->err);
    free(c);
}
