/* The column table: storage, access, building and writing (parsing is in table_read.c). */
#include "io/table_internal.h"
#include "util/error.h"
#include "util/grow.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct column {
    char *name;
    pms_column_type type;
    double *num;             /* numeric column */
    char **str;              /* string column */
    size_t bad_line, bad_field; /* first non-numeric cell of a string column read from a file */
    uint64_t *cnt;           /* numeric column read from text: its cells as exact counts */
    size_t cnt_bad_line, cnt_bad_field; /* else the first cell that is not a count */
    pms_count_result cnt_bad;
    size_t source;           /* the run it came from in a merged table (1, 2, ...), 0 otherwise */
};

struct pms_table {
    char *name;
    size_t nrows, ncols, cap;
    bool rows_fixed;
    bool names_unique; /* while a reader builds it: names known unique (see table_internal.h) */
    struct column *cols;
    size_t *lines;
};

pms_table *pms_table_new(const char *name)
{
    pms_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->name = strdup(name ? name : "table");
    if (!t->name) {
        free(t);
        return NULL;
    }
    return t;
}

static void free_strings(char **s, size_t n)
{
    if (!s) return;
    for (size_t i = 0; i < n; i++) free(s[i]);
    free(s);
}

void pms_table_free(pms_table *t)
{
    if (!t) return;
    for (size_t j = 0; j < t->ncols; j++) {
        free(t->cols[j].name);
        free(t->cols[j].num);
        free(t->cols[j].cnt);
        free_strings(t->cols[j].str, t->nrows);
    }
    free(t->cols);
    free(t->lines);
    free(t->name);
    free(t);
}

size_t pms_table_rows(const pms_table *t) { return t->nrows; }
size_t pms_table_cols(const pms_table *t) { return t->ncols; }
const char *pms_table_name(const pms_table *t) { return t->name; }
const char *pms_table_col_name(const pms_table *t, size_t col) { return col < t->ncols ? t->cols[col].name : NULL; }
pms_column_type pms_table_col_type(const pms_table *t, size_t col) { return t->cols[col].type; }
size_t pms_table_col_source(const pms_table *t, size_t col) { return col < t->ncols ? t->cols[col].source : 0; }
void pms__table_set_col_source(pms_table *t, size_t col, size_t source)
{
    if (col < t->ncols) t->cols[col].source = source;
}
size_t pms_table_row_line(const pms_table *t, size_t row) { return t->lines && row < t->nrows ? t->lines[row] : 0; }

long pms_table_find(const pms_table *t, const char *name)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].name, name) == 0) return (long)j;
    return -1;
}

int pms_table_require(const pms_table *t, const char *name, size_t *col)
{
    long j = pms_table_find(t, name);
    if (j >= 0) {
        *col = (size_t)j;
        return PMS_OK;
    }
    char list[600] = "";
    size_t used = 0;
    for (size_t k = 0; k < t->ncols && used < sizeof list - 8; k++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", t->cols[k].name);
        if (w < 0 || (size_t)w >= sizeof list - used) {
            snprintf(list + sizeof list - 5, 5, "...");
            break;
        }
        used += (size_t)w;
    }
    return pms__fail(PMS_ENOENT, "%s: no column named '%s' (columns: %s)", t->name, name, list);
}

void pms__table_cell_place(const pms_table *t, size_t row, size_t col, char *buf, size_t size)
{
    if (t->lines)
        snprintf(buf, size, "%s:%zu:%zu", t->name, t->lines[row], col + 1);
    else
        snprintf(buf, size, "%s: row %zu", t->name, row + 1);
}

int pms_table_numeric(const pms_table *t, size_t col, bool allow_nan, const double **values)
{
    if (col >= t->ncols) return pms__fail(PMS_EINVAL, "%s: no column %zu", t->name, col + 1);
    const struct column *c = &t->cols[col];
    char place[512];
    if (c->type != PMS_COLUMN_NUMERIC) {
        if (c->bad_line) {
            for (size_t i = 0; i < t->nrows; i++)
                if (t->lines && t->lines[i] == c->bad_line)
                    return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: column '%s': expected a number, found '%s'",
                                    t->name, c->bad_line, c->bad_field, c->name, c->str[i]);
        }
        return pms__fail(PMS_EFORMAT, "%s: column '%s' holds text, expected numbers", t->name, c->name);
    }
    if (!allow_nan)
        for (size_t i = 0; i < t->nrows; i++)
            if (!isfinite(c->num[i])) {
                pms__table_cell_place(t, i, col, place, sizeof place);
                return pms__fail(PMS_EFORMAT, "%s: column '%s': expected a number, found %s", place, c->name,
                                isnan(c->num[i]) ? "an empty or NaN cell" : c->num[i] > 0 ? "inf" : "-inf");
            }
    *values = c->num;
    return PMS_OK;
}

const char *pms_table_string(const pms_table *t, size_t row, size_t col)
{
    if (col >= t->ncols || row >= t->nrows || t->cols[col].type != PMS_COLUMN_STRING) return NULL;
    return t->cols[col].str[row];
}

static int add_column(pms_table *t, const char *name, size_t rows, struct column **out)
{
    if (!name || !*name) return pms__fail(PMS_EINVAL, "%s: a column needs a name", t->name);
    if (!t->names_unique && pms_table_find(t, name) >= 0)
        return pms__fail(PMS_EINVAL, "%s: column name '%s' appears twice", t->name, name);
    if (t->rows_fixed && rows != t->nrows)
        return pms__fail(PMS_EINVAL, "%s: column '%s' has %zu rows, the table has %zu", t->name, name, rows,
                        t->nrows);
    if (pms__grow(&t->cols, &t->cap, t->ncols + 1, sizeof *t->cols))
        return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    struct column *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->name = strdup(name);
    if (!c->name) return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    t->nrows = rows;
    t->rows_fixed = true;
    t->ncols++;
    *out = c;
    return PMS_OK;
}

int pms__table_adopt_numeric(pms_table *t, const char *name, double *values, size_t rows)
{
    struct column *c;
    int rc = add_column(t, name, rows, &c);
    if (rc < 0) {
        free(values);
        return rc;
    }
    c->type = PMS_COLUMN_NUMERIC;
    c->num = values;
    return PMS_OK;
}

int pms__table_adopt_string(pms_table *t, const char *name, char **values, size_t rows)
{
    struct column *c;
    int rc = add_column(t, name, rows, &c);
    if (rc < 0) {
        free_strings(values, rows);
        return rc;
    }
    c->type = PMS_COLUMN_STRING;
    c->str = values;
    return PMS_OK;
}

void pms__table_names_unique(pms_table *t, bool on) { t->names_unique = on; }

void pms__table_adopt_lines(pms_table *t, size_t *lines)
{
    free(t->lines);
    t->lines = lines;
}

void pms__table_adopt_counts(pms_table *t, size_t col, uint64_t *counts, size_t bad_line, size_t bad_field,
                            pms_count_result bad)
{
    struct column *c = &t->cols[col];
    c->cnt = counts;
    c->cnt_bad_line = bad_line;
    c->cnt_bad_field = bad_field;
    c->cnt_bad = bad;
}

int pms_table_counts(const pms_table *t, size_t col, const uint64_t **values)
{
    const double *num;
    int rc = pms_table_numeric(t, col, false, &num); /* text, empty, NaN and inf cells named there */
    if (rc) return rc;
    const struct column *c = &t->cols[col];
    if (c->cnt) {
        *values = c->cnt;
        return PMS_OK;
    }
    if (c->cnt_bad_line) {
        return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: column '%s': %s", t->name, c->cnt_bad_line, c->cnt_bad_field,
                        c->name, pms__count_result_text(c->cnt_bad));
    }
    return pms__fail(PMS_EINVAL, "%s: column '%s' was not read from text: no exact counts", t->name, c->name);
}

int pms_table_exact_numeric(const pms_table *t, size_t col, bool allow_nan, const double **values)
{
    int rc = pms_table_numeric(t, col, allow_nan, values);
    const struct column *c = &t->cols[col];
    for (size_t i = 0; rc == PMS_OK && i < t->nrows; i++)
        if (isfinite(c->num[i]) && fabs(c->num[i]) >= PMS_TABLE_EXACT_LIMIT) { /* inf: refused by its reader */
            char place[512], cell[32];
            pms__table_cell_place(t, i, col, place, sizeof place);
            if (c->cnt) snprintf(cell, sizeof cell, "%llu", (unsigned long long)c->cnt[i]); /* as written */
            else snprintf(cell, sizeof cell, "%.17g", c->num[i]);
            rc = pms__fail(PMS_EFORMAT, "%s: column '%s': %s is 2^53 or more: this method computes in double "
                                      "precision, which holds counts exactly only below 2^53 (9007199254740992)",
                           place, c->name, cell);
        }
    return rc;
}

void pms__table_note_non_numeric(pms_table *t, size_t col, size_t line, size_t field)
{
    t->cols[col].bad_line = line;
    t->cols[col].bad_field = field;
}

int pms_table_add_numeric(pms_table *t, const char *name, const double *values, size_t rows)
{
    double *copy = malloc((rows ? rows : 1) * sizeof *copy);
    if (!copy) return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    if (rows) memcpy(copy, values, rows * sizeof *copy);
    return pms__table_adopt_numeric(t, name, copy, rows);
}

static char **copy_strings(const char *const *values, size_t rows)
{
    char **copy = calloc(rows ? rows : 1, sizeof *copy);
    if (!copy) return NULL;
    for (size_t i = 0; i < rows; i++)
        if (!(copy[i] = strdup(values[i] ? values[i] : ""))) {
            free_strings(copy, i);
            return NULL;
        }
    return copy;
}

int pms_table_add_string(pms_table *t, const char *name, const char *const *values, size_t rows)
{
    char **copy = copy_strings(values, rows);
    if (!copy) return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    return pms__table_adopt_string(t, name, copy, rows);
}

int pms_table_select_rows(const pms_table *t, const size_t *rows, size_t count, pms_table **out)
{
    pms_table *s = pms_table_new(t->name);
    if (!s) return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    s->names_unique = true; /* t's names are */
    for (size_t i = 0; i < count; i++)
        if (rows[i] >= t->nrows) {
            pms_table_free(s);
            return pms__fail(PMS_EINVAL, "%s: row %zu is out of range (%zu rows)", t->name, rows[i] + 1, t->nrows);
        }
    if (t->lines) {
        size_t *lines = malloc((count ? count : 1) * sizeof *lines);
        if (!lines) goto nomem;
        for (size_t i = 0; i < count; i++) lines[i] = t->lines[rows[i]];
        pms__table_adopt_lines(s, lines);
    }
    for (size_t j = 0; j < t->ncols; j++) {
        const struct column *c = &t->cols[j];
        int rc;
        if (c->type == PMS_COLUMN_NUMERIC) {
            double *v = malloc((count ? count : 1) * sizeof *v);
            if (!v) goto nomem;
            for (size_t i = 0; i < count; i++) v[i] = c->num[rows[i]];
            rc = pms__table_adopt_numeric(s, c->name, v, count);
        } else {
            char **v = calloc(count ? count : 1, sizeof *v);
            if (!v) goto nomem;
            for (size_t i = 0; i < count; i++)
                if (!(v[i] = strdup(c->str[rows[i]]))) {
                    free_strings(v, i);
                    goto nomem;
                }
            rc = pms__table_adopt_string(s, c->name, v, count);
        }
        if (rc < 0) {
            pms_table_free(s);
            return rc;
        }
        /* the first bad cell is kept as is: pms_table_numeric names it only if its
         * line is among the selected rows, and gives the generic message otherwise */
        s->cols[j].bad_line = c->bad_line;
        s->cols[j].bad_field = c->bad_field;
        s->cols[j].source = c->source;
    }
    s->nrows = count;
    s->names_unique = false;
    *out = s;
    return PMS_OK;
nomem:
    pms_table_free(s);
    return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
}

void pms_csv_cell(FILE *out, const char *s, const char *sep)
{
    if (!strpbrk(s, "\"\n\r") && !strstr(s, sep)) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (const char *p = s; *p; p++) {
        if (*p == '"') fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

int pms_table_write(const pms_table *t, FILE *out, char sep)
{
    if (sep != ',' && sep != '\t') return pms__fail(PMS_EINVAL, "table separator must be ',' or TAB");
    for (size_t j = 0; j < t->ncols; j++) {
        if (j) fputc(sep, out);
        pms_csv_cell(out, t->cols[j].name, (char[]){sep, 0});
    }
    fputc('\n', out);
    for (size_t i = 0; i < t->nrows; i++) {
        for (size_t j = 0; j < t->ncols; j++) {
            if (j) fputc(sep, out);
            const struct column *c = &t->cols[j];
            if (c->type == PMS_COLUMN_STRING)
                pms_csv_cell(out, c->str[i], (char[]){sep, 0});
            else if (!isfinite(c->num[i]))
                ; /* an empty cell reads back as NaN: never "nan" or "inf" */
            else if (c->num[i] == floor(c->num[i]) && fabs(c->num[i]) < 1e21)
                fprintf(out, "%.0f", c->num[i]); /* a whole number: every digit, exactly (%.17g gives 1e+20) */
            else
                fprintf(out, "%.17g", c->num[i]);
        }
        fputc('\n', out);
    }
    if (ferror(out)) return pms__fail(PMS_EIO, "%s: write error", t->name);
    return PMS_OK;
}

bool pms__parse_cell_number(const char *s, size_t len, double *out, bool *missing)
{
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    *missing = false;
    if (len == 0 || (len == 2 && memcmp(s, "NA", 2) == 0) || (len == 3 && strncasecmp(s, "nan", 3) == 0)) {
        *missing = true;
        *out = NAN;
        return true;
    }
    char buf[80];
    if (len >= sizeof buf) return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    /* strtod also takes hex and "infinity"; a cell of event counts has neither, so
     * only decimal syntax is a number here (anything else stays text). */
    for (size_t i = 0; i < len; i++)
        if (!strchr("0123456789+-.eE", buf[i])) {
            if ((len == 3 || len == 4) && strncasecmp(buf + (buf[0] == '-' || buf[0] == '+'), "inf", 3) == 0)
                break;
            return false;
        }
    char *end;
    double v = strtod(buf, &end);
    if (end == buf || *end) return false;
    *out = v;
    return true;
}

void pms_table_cell_text(const pms_table *t, size_t row, size_t col, char *buf, size_t size)
{
    const struct column *c = &t->cols[col];
    if (c->type == PMS_COLUMN_STRING)
        snprintf(buf, size, "%s", c->str[row]);
    else if (isnan(c->num[row]))
        snprintf(buf, size, "%s", "");
    else if (c->cnt) /* counts as written: a ns timestamp has 19 digits, more than %.15g keeps */
        snprintf(buf, size, "%llu", (unsigned long long)c->cnt[row]);
    else
        snprintf(buf, size, "%.15g", c->num[row]);
}

int pms_table_distinct(const pms_table *t, size_t col, char ***values, size_t *n)
{
    if (col >= t->ncols) return pms__fail(PMS_EINVAL, "%s: no column %zu", t->name, col + 1);
    char **v = NULL;
    size_t nv = 0, cap = 0;
    char buf[256];
    for (size_t i = 0; i < t->nrows; i++) {
        pms_table_cell_text(t, i, col, buf, sizeof buf);
        bool seen = false;
        for (size_t k = 0; k < nv && !seen; k++) seen = strcmp(v[k], buf) == 0;
        if (seen) continue;
        if (pms__grow(&v, &cap, nv + 1, sizeof *v) || !(v[nv] = strdup(buf))) {
            free_strings(v, nv);
            return pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
        }
        nv++;
    }
    *values = v;
    *n = nv;
    return PMS_OK;
}

int pms_table_filter(const pms_table *t, const char *const *where, size_t nwhere, size_t **rows, size_t *n)
{
    size_t *r = malloc((t->nrows ? t->nrows : 1) * sizeof *r), nr = 0;
    size_t *cols = malloc((nwhere ? nwhere : 1) * sizeof *cols);
    char **want = calloc(nwhere ? nwhere : 1, sizeof *want);
    int rc = r && cols && want ? PMS_OK : pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    for (size_t k = 0; k < nwhere && rc == PMS_OK; k++) {
        const char *eq = strchr(where[k], '=');
        if (!eq) {
            rc = pms__fail(PMS_EINVAL, "filter '%s': expected COLUMN=VALUE", where[k]);
            break;
        }
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - where[k]), where[k]);
        if ((rc = pms_table_require(t, name, &cols[k])) < 0) break;
        if (!(want[k] = strdup(eq + 1))) rc = pms__fail(PMS_ENOMEM, "%s: out of memory", t->name);
    }
    for (size_t i = 0; i < t->nrows && rc == PMS_OK; i++) {
        bool all = true;
        for (size_t k = 0; k < nwhere && all; k++) {
            const struct column *c = &t->cols[cols[k]];
            if (c->type == PMS_COLUMN_STRING) {
                all = strcmp(c->str[i], want[k]) == 0;
            } else {
                char *end;
                double v = strtod(want[k], &end);
                all = end != want[k] && *end == '\0' && c->num[i] == v;
            }
        }
        if (all) r[nr++] = i;
    }
    free(cols);
    free_strings(want, nwhere);
    if (rc < 0) {
        free(r);
        return rc;
    }
    *rows = r;
    *n = nr;
    return PMS_OK;
}
