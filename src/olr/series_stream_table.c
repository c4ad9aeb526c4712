/* olr series from a CSV/TSV table, a row at a time (memory flat in the rows): an x column
 * and one column per counter, cumulative counts read exactly (no trip through double).
 * The table format of pmuscope/table.h, read line by line: blank lines and '#' lines
 * before the header are skipped, the header may itself start with '#' (when it has the
 * data's number of fields), the separator is TAB when the header has one, else ','; a
 * quoted field must close on its line. */
#include "io/count_parse.h"
#include "io/text_lines.h"
#include "olr/columns.h"
#include "olr/series_internal.h"
#include "util/error.h"
#include "util/grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct field {
    char *p;
    size_t len;
} field;

typedef struct splitter {
    field *f;
    size_t n, cap;
} splitter;

static bool blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

/* Splits LINE in place into fields (quotes undone: "" is a quote). */
static int split(splitter *sp, char *line, size_t len, char sep, const char *name, size_t lineno)
{
    if (len && line[len - 1] == '\r') line[--len] = 0;
    sp->n = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && line[i] == ' ') i++;
        char *start = line + i;
        size_t flen;
        if (i < len && line[i] == '"') {
            char *out = start;
            for (i++;; i++) {
                if (i >= len)
                    return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: quoted field not closed on its line, expected '\"'",
                                     name, lineno, sp->n + 1);
                if (line[i] == '"' && !(i + 1 < len && line[i + 1] == '"')) break;
                if (line[i] == '"') i++;
                *out++ = line[i];
            }
            flen = (size_t)(out - start);
            for (i++; i < len && line[i] == ' '; i++) {}
            if (i < len && line[i] != sep)
                return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: expected a separator after the closing quote, found '%c'",
                                 name, lineno, sp->n + 1, line[i]);
        } else {
            while (i < len && line[i] != sep) i++;
            flen = (size_t)(line + i - start);
        }
        if (pms__grow(&sp->f, &sp->cap, sp->n + 1, sizeof *sp->f)) return pms__fail(PMS_ENOMEM, "out of memory");
        sp->f[sp->n++] = (field){start, flen};
        start[flen] = 0; /* the separator or the end is not needed any more */
        if (i >= len) return PMS_OK;
        i++;
    }
}

typedef struct table_stream {
    pms_lines r;
    splitter sp;
    char sep;
    char *header;        /* the header line's text (names point into it) */
    size_t header_line;
    size_t ncols, xcol;
    size_t *ycol;
    uint64_t *row;       /* 1 + k */
    char **names;        /* 1 + k: x and the counters, for messages */
} table_stream;

/* The header: the first plain line, or the last '#' line before it when that has at
 * least 2 fields and as many as the plain line (then the plain line is the first row:
 * *pending gets it, else NULL). */
static int read_header(table_stream *t, const char *path, char **pending, size_t *pending_len, size_t *pending_line)
{
    char *line = NULL, *hash = NULL;
    size_t len = 0, hash_line = 0;
    int rc;
    *pending = NULL;
    while ((rc = pms__lines_next(&t->r, &line, &len)) > 0) {
        if (blank(line, len)) continue;
        if (line[0] != '#') break;
        free(hash);
        if (!(hash = strdup(line + 1))) return pms__fail(PMS_ENOMEM, "out of memory");
        hash_line = t->r.line;
    }
    if (rc < 0) goto out;
    bool plain = rc > 0;
    if (!plain && !hash) {
        rc = pms__fail_at_end(PMS_EFORMAT, "%s: empty file, expected a header line", path);
        goto out;
    }
    t->sep = strchr(plain ? line : hash, '\t') ? '\t' : ',';
    char *copy = plain ? strdup(line) : NULL;
    if (plain && !copy) {
        rc = pms__fail(PMS_ENOMEM, "out of memory");
        goto out;
    }
    size_t plain_line = t->r.line, plain_fields = 0;
    if (plain && (rc = split(&t->sp, copy, len, t->sep, path, plain_line))) goto out_copy;
    plain_fields = t->sp.n;
    if (hash && (rc = split(&t->sp, hash, strlen(hash), t->sep, path, hash_line))) goto out_copy;
    bool hash_header = hash && t->sp.n >= 2 && (!plain || t->sp.n == plain_fields);
    if (hash_header) {
        t->header = hash; /* t->sp holds its fields */
        t->header_line = hash_line;
        hash = NULL;
        if (plain) *pending = line, *pending_len = len, *pending_line = plain_line;
    } else if (!plain) {
        rc = pms__fail_at_end(PMS_EFORMAT, "%s: no header line (only comments)", path);
    } else if (t->header_line = plain_line, !(t->header = strdup(line))) { /* copy was split in place: anew */
        rc = pms__fail(PMS_ENOMEM, "out of memory");
    } else {
        rc = split(&t->sp, t->header, len, t->sep, path, plain_line);
    }
out_copy:
    free(copy);
out:
    free(hash);
    return rc;
}

/* The message of pms_table_require: the columns the table has. */
static int no_column(const splitter *sp, const char *path, const char *name)
{
    size_t len = 1;
    for (size_t c = 0; c < sp->n; c++) len += sp->f[c].len + 2;
    char *list = malloc(len);
    if (!list) return pms__fail(PMS_ENOMEM, "out of memory");
    list[0] = 0;
    for (size_t c = 0; c < sp->n; c++) {
        if (c) strcat(list, ", ");
        strcat(list, sp->f[c].p);
    }
    int rc = pms__fail(PMS_ENOENT, "%s: no column named '%s' (columns: %s)", path, name, list);
    free(list);
    return rc;
}

/* One data line into t->row: x, then the counters. */
static int parse_row(table_stream *t, const char *path, size_t k, const char *const *names, char *line, size_t len,
                     size_t lineno)
{
    int rc = split(&t->sp, line, len, t->sep, path, lineno);
    if (rc) return rc;
    if (t->sp.n != t->ncols)
        return pms__fail(PMS_EFORMAT, "%s:%zu: expected %zu fields (as the header), found %zu", path, lineno, t->ncols,
                         t->sp.n);
    for (size_t j = 0; j <= k; j++) {
        size_t col = j == 0 ? t->xcol : t->ycol[j - 1];
        const field *f = &t->sp.f[col];
        pms_count_result cr = pms__parse_count(f->p, f->len, &t->row[j]);
        if (cr == PMS_COUNT_OK) continue;
        if (blank(f->p, f->len) || strcasecmp(f->p + strspn(f->p, " "), "nan") == 0)
            return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: column '%s': expected a number, found an empty or NaN cell",
                             path, lineno, col + 1, names[j]);
        if (j == 0 && strcmp(f->p, names[0]) == 0)
            return pms__fail(PMS_EFORMAT,
                             "%s:%zu:%zu: column '%s': the header line repeats here, expected numbers: one header "
                             "per table",
                             path, lineno, col + 1, names[0]);
        char *end;
        (void)strtod(f->p, &end);
        if (end == f->p || !blank(end, strlen(end)))
            return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: column '%s': expected a number, found '%s'", path, lineno,
                             col + 1, names[j], f->p);
        return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: column '%s': %s", path, lineno, col + 1, names[j],
                         pms__count_result_text(cr));
    }
    return PMS_OK;
}

/* The rows of the table read from f, which name stands for in messages. */
static int stream_table(pms_olr_series *s, FILE *f, const char *path, const pms_olr_input_options *opt,
                        pms_olr_row_fn fn, void *ctx)
{
    table_stream t = {0};
    int rc = pms__lines_from_stream(&t.r, f, path, 0);
    if (rc) return rc;
    char *line;
    size_t len, lineno = 0;
    rc = read_header(&t, path, &line, &len, &lineno);
    if (rc) goto out;
    t.ncols = t.sp.n;
    t.ycol = calloc(t.ncols, sizeof *t.ycol);
    s->names = calloc(t.ncols, sizeof *s->names);
    if (!t.ycol || !s->names) {
        rc = pms__fail(PMS_ENOMEM, "out of memory");
        goto out;
    }
    if (opt->x) {
        while (t.xcol < t.ncols && strcmp(t.sp.f[t.xcol].p, opt->x) != 0) t.xcol++;
        if (t.xcol == t.ncols) {
            rc = no_column(&t.sp, path, opt->x);
            goto out;
        }
    }
    if (!(s->xname = strdup(t.sp.f[t.xcol].p))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t c = 0; rc == 0 && c < t.ncols; c++)
        if (c != t.xcol && pms__olr_name_selected(opt->counters, t.sp.f[c].p)) {
            t.ycol[s->k] = c;
            if (!(s->names[s->k++] = strdup(t.sp.f[c].p))) rc = pms__fail(PMS_ENOMEM, "out of memory");
        }
    if (rc) goto out;
    if (s->k == 0) {
        rc = pms__fail(PMS_ENOENT, "%s: no counter column to fit besides x (%s)%s", path, s->xname,
                       opt->counters ? ": none matches the counters asked for" : "");
        if (opt->counters) pms__with_option(rc, "counters");
        goto out;
    }
    if (s->k > PMS_OLR_MAX_COUNTERS) { /* said at the header, not at the first row's fit */
        rc = pms__with_option(pms__fail(PMS_EINVAL, "%s:%zu: %zu counter columns besides x: olr fits 1 to %d at "
                                                   "once; choose them",
                                        path, t.header_line, s->k, PMS_OLR_MAX_COUNTERS),
                              "counters");
        goto out;
    }
    t.names = malloc((1 + s->k) * sizeof *t.names);
    if (t.names) {
        t.names[0] = s->xname;
        memcpy(t.names + 1, s->names, s->k * sizeof *t.names);
    }
    if (!(t.row = malloc((1 + s->k) * sizeof *t.row)) || !t.names) {
        rc = pms__fail(PMS_ENOMEM, "out of memory");
        goto out;
    }
    if (line) { /* the first data line, read while looking for the header */
        s->line = lineno;
        rc = parse_row(&t, path, s->k, (const char *const *)t.names, line, len, lineno);
        if (rc == 0) rc = fn(t.row[0], t.row + 1, ctx);
    }
    while (rc == 0 && (rc = pms__lines_next(&t.r, &line, &len)) > 0) {
        if (blank(line, len)) {
            rc = 0;
            continue;
        }
        s->line = t.r.line;
        rc = parse_row(&t, path, s->k, (const char *const *)t.names, line, len, t.r.line);
        if (rc == 0) rc = fn(t.row[0], t.row + 1, ctx);
    }
out:
    pms__lines_close(&t.r);
    free(t.sp.f);
    free(t.header);
    free(t.ycol);
    free(t.row);
    free(t.names);
    return rc;
}

int pms__olr_series_stream_table(pms_olr_series *s, const char *path, const pms_olr_input_options *opt,
                                 pms_olr_row_fn fn, void *ctx)
{
    FILE *f = fopen(path, "r"); /* path may be the copy of a pipe: messages name the source */
    if (!f) return pms__fail(PMS_EIO, "cannot open %s: %s", s->source, strerror(errno));
    int rc = stream_table(s, f, s->source, opt, fn, ctx);
    fclose(f);
    return rc;
}

static int skip_row(uint64_t x, const uint64_t *y, void *ctx)
{
    (void)x, (void)y, (void)ctx;
    return PMS_OK;
}

int pms__olr_table_head(const char *text, size_t len, const char *name, void *opt)
{
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f) return pms__fail(PMS_ENOMEM, "out of memory");
    pms_olr_series s = {0};
    int rc = stream_table(&s, f, name, opt, skip_row, NULL);
    fclose(f);
    for (size_t j = 0; s.names && j < s.k; j++) free(s.names[j]); /* all the header gave it */
    free(s.names);
    free(s.xname);
    return rc;
}
