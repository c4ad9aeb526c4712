/* olr outputs: segments and decoded samples as CSV, SVG charts in the manner of the
 * paper's figures 3 to 9 (samples as points, the lines over them), the summary. */
#include "pmuscope/json.h"
#include "pmuscope/olr_series.h"
#include "olr/series_internal.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>

void pms_olr_write_segment_header(FILE *out)
{
    fputs("counter,first,count,x_first,x_last,y_first,y_last,slope,sigma\n", out);
}

void pms_olr_write_segment(FILE *out, const char *counter, const pms_olr_segment *s)
{
    pms_csv_cell(out, counter, ",");
    fprintf(out, ",%llu,%llu,%llu,%llu,%.17g,%.17g,%.17g,%.17g\n", (unsigned long long)s->first,
            (unsigned long long)s->count, (unsigned long long)s->x_first, (unsigned long long)s->x_last,
            s->y_first, s->y_last, s->slope, s->sigma);
}

int pms_olr_write_segments(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    pms_olr_write_segment_header(out);
    for (size_t i = 0; i < f->nseg; i++) pms_olr_write_segment(out, s->names[f->seg[i].counter], &f->seg[i]);
    return PMS_OK;
}

void pms__olr_csv_header(FILE *out, const char *xname, const char *const *names, size_t k)
{
    pms_csv_cell(out, xname, ",");
    for (size_t j = 0; j < k; j++) {
        fputc(',', out);
        pms_csv_cell(out, names[j], ",");
    }
    fputc('\n', out);
}

void pms_olr_write_series_header(FILE *out, const pms_olr_series *s)
{
    pms__olr_csv_header(out, s->xname, (const char *const *)s->names, s->k);
}

void pms_olr_write_series_row(FILE *out, uint64_t x, const uint64_t *y, size_t k)
{
    fprintf(out, "%llu", (unsigned long long)x);
    for (size_t j = 0; j < k; j++) fprintf(out, ",%llu", (unsigned long long)y[j]);
    fputc('\n', out);
}

int pms_olr_write_series(FILE *out, const pms_olr_series *s)
{
    pms_olr_write_series_header(out, s);
    for (size_t i = 0; i < s->n; i++) pms_olr_write_series_row(out, s->x[i], &s->y[i * s->k], s->k);
    return PMS_OK;
}

int pms_olr_write_svg(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    pms_olr_chart_data *c;
    int rc = pms_olr_chart_data_create(&c, s->k);
    if (rc) return rc;
    for (size_t i = 0; i < s->n; i++) pms_olr_chart_data_add_sample(c, s->x[i], &s->y[i * s->k]);
    for (size_t i = 0; i < f->nseg; i++) pms_olr_chart_data_add_segment(c, &f->seg[i]);
    rc = pms_olr_chart_data_write_svg(c, out, s, f);
    pms_olr_chart_data_destroy(c);
    return rc;
}

int pms_olr_write_summary(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    fprintf(out, "%s: %llu samples, x = %s, method %s%s\n", s->source, (unsigned long long)s->n, s->xname,
            pms_olr_method_name(f->opt.method), f->opt.per_counter ? ", lines per counter" : "");
    if (s->skipped)
        fprintf(out, "(thread %ld; %llu samples of other threads left out: one thread is fitted at a time)\n", s->tid,
                (unsigned long long)s->skipped);
    fprintf(out, "%-20s %12s %9s %10s %11s %10s %12s %12s\n", "counter", "eps", "segments", "reduction",
            "bytes-ratio", "MNESD", "max-error", "RMSE");
    for (size_t j = 0; j < s->k; j++) {
        const pms_olr_summary *m = &f->sums[j];
        char eps[32] = "-";
        if (f->opt.method == PMS_OLR_OPT) snprintf(eps, sizeof eps, "%.0f", floor(f->counters[j].eps));
        fprintf(out, "%-20s %12s %9llu %10.2f %11.2f %10.3g %12.4g %12.4g\n", s->names[j], eps,
                (unsigned long long)m->segments, m->reduction, m->bytes_ratio, m->mnesd, m->max_abs_error, m->rmse);
    }
    for (size_t j = 0; j < s->k; j++)
        if (f->sums[j].capped)
            fprintf(out, "note: %s: %llu of %llu segments cut by a cap (of the segment length or the hull, or a "
                         "span beyond 2^62 in x or 2^61 in y), not by the data: the fit may take fewer without it\n",
                    s->names[j], (unsigned long long)f->sums[j].capped, (unsigned long long)f->sums[j].segments);
    return PMS_OK;
}

int pms_olr_write_json(FILE *out, const pms_olr_series *s, const pms_olr_fit *f)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "input", s->source);
    pms_json_kv_string(&j, "method", pms_olr_method_name(f->opt.method));
    pms_json_kv_string(&j, "x", s->xname);
    pms_json_kv_uint(&j, "samples", s->n);
    pms_json_kv_bool(&j, "per_counter", f->opt.per_counter);
    pms_json_key(&j, "counters");
    pms_json_array_begin(&j);
    for (size_t c = 0; c < s->k; c++) {
        const pms_olr_summary *m = &f->sums[c];
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "name", s->names[c]);
        if (f->opt.method == PMS_OLR_OPT) pms_json_kv_double(&j, "eps", floor(f->counters[c].eps));
        pms_json_kv_uint(&j, "segments", m->segments);
        pms_json_kv_uint(&j, "capped_segments", m->capped);
        pms_json_kv_double(&j, "reduction", m->reduction);
        pms_json_kv_double(&j, "bytes_ratio", m->bytes_ratio);
        pms_json_kv_double(&j, "mnesd", m->mnesd);
        pms_json_kv_double(&j, "max_abs_error", m->max_abs_error);
        pms_json_kv_double(&j, "rmse", m->rmse);
        pms_json_kv_uint(&j, "y_min", m->y_min);
        pms_json_kv_uint(&j, "y_max", m->y_max);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return PMS_OK;
}
