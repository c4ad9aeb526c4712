/* `pmuscope olr` input: the common series and the choice of reader. */
#include "cli/olr_input.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t *olr_series_append(olr_series *s, uint64_t x)
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

int olr_name_selected(const char *list, const char *name)
{
    if (!list) return 1;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

int olr_series_load(olr_series *s, const char *path, const olr_input_options *opt)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f) return pms_fail_errno(PMS_ENOENT, errno, "cannot open %s", path);
    char magic[8] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    int rc = got == 8 && memcmp(magic, "PERFILE2", 8) == 0 ? olr_series_load_perfdata(s, path, opt)
                                                             : olr_series_load_table(s, path, opt);
    if (rc == 0 && s->n == 0) rc = pms_fail(PMS_EFORMAT, "%s: no samples", path);
    if (rc) olr_series_free(s);
    return rc;
}

void olr_series_free(olr_series *s)
{
    free(s->x);
    free(s->y);
    free(s->xname);
    free(s->lines);
    for (size_t j = 0; s->names && j < s->k; j++) free(s->names[j]);
    free(s->names);
    memset(s, 0, sizeof *s);
}

void olr_series_write_csv(const olr_series *s, FILE *out)
{
    pms_csv_cell(out, s->xname, ",");
    for (size_t j = 0; j < s->k; j++) {
        fputc(',', out);
        pms_csv_cell(out, s->names[j], ",");
    }
    fputc('\n', out);
    for (size_t i = 0; i < s->n; i++) {
        fprintf(out, "%llu", (unsigned long long)s->x[i]);
        for (size_t j = 0; j < s->k; j++) fprintf(out, ",%llu", (unsigned long long)s->y[i * s->k + j]);
        fputc('\n', out);
    }
}
