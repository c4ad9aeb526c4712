/* Reading CSV/TSV tables with a header line (format in include/pmuscope/table.h).
 * One pass splits the records and keeps every cell that parses as a number; a
 * second pass, only when some column turned out to hold text, copies the text. */
#include "io/table_internal.h"
#include "io/count_parse.h"
#include "io/text_lines.h"
#include "util/error.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLUMNS = 65536 };

struct field {
    const char *p;
    size_t len;
    bool quoted; /* p/len span the text between the quotes, with "" still doubled */
};

struct lexer {
    const char *name;
    const char *data;
    size_t len, pos, line;
    char sep;
    struct field *f;
    size_t nf, cap;
};

static bool blank_line_at(const struct lexer *lx, size_t pos, size_t *next)
{
    size_t i = pos;
    while (i < lx->len && (lx->data[i] == ' ' || lx->data[i] == '\t' || lx->data[i] == '\r')) i++;
    if (i < lx->len && lx->data[i] != '\n') return false;
    *next = i < lx->len ? i + 1 : i;
    return true;
}

static int push_field(struct lexer *lx, const char *p, size_t len, bool quoted)
{
    if (lx->nf >= MAX_COLUMNS)
        return pms__fail(PMS_EFORMAT, "%s:%zu: more than %d fields, expected a table", lx->name, lx->line, MAX_COLUMNS);
    if (pms__grow(&lx->f, &lx->cap, lx->nf + 1, sizeof *lx->f))
        return pms__fail(PMS_ENOMEM, "%s: out of memory", lx->name);
    lx->f[lx->nf++] = (struct field){p, len, quoted};
    return PMS_OK;
}

/* Splits the record at lx->pos into lx->f (blank lines skipped); *line gets the
 * line it starts on. Returns 1 for a record, 0 at the end, < 0 on error. */
static int next_record(struct lexer *lx, size_t *line)
{
    size_t next;
    while (lx->pos < lx->len && blank_line_at(lx, lx->pos, &next)) {
        lx->pos = next;
        lx->line++;
    }
    if (lx->pos >= lx->len) return 0;
    *line = lx->line;
    lx->nf = 0;
    const char *d = lx->data;
    size_t i = lx->pos;
    for (;;) {
        size_t start = i;
        while (i < lx->len && (d[i] == ' ') && lx->sep != ' ') i++;
        int rc;
        if (i < lx->len && d[i] == '"') {
            size_t q = ++i, open_line = lx->line;
            for (;; i++) {
                if (i >= lx->len)
                    return pms__fail_at_end(PMS_EFORMAT, "%s:%zu:%zu: quoted field not closed, expected '\"' before the end",
                                    lx->name, open_line, lx->nf + 1);
                if (d[i] == '\n') lx->line++;
                if (d[i] == '"') {
                    if (i + 1 < lx->len && d[i + 1] == '"') {
                        i++;
                        continue;
                    }
                    break;
                }
            }
            rc = push_field(lx, d + q, i - q, true);
            i++;
            while (i < lx->len && (d[i] == ' ' || d[i] == '\r')) i++;
            if (i < lx->len && d[i] != lx->sep && d[i] != '\n')
                return pms__fail(PMS_EFORMAT, "%s:%zu:%zu: expected a separator after the closing quote, found '%c'",
                                lx->name, lx->line, lx->nf, d[i]);
        } else {
            i = start;
            while (i < lx->len && d[i] != lx->sep && d[i] != '\n') i++;
            size_t end = i;
            if (end > start && d[end - 1] == '\r') end--;
            rc = push_field(lx, d + start, end - start, false);
        }
        if (rc < 0) return rc;
        if (i >= lx->len || d[i] == '\n') {
            lx->pos = i < lx->len ? i + 1 : i;
            lx->line++;
            return 1;
        }
        i++; /* past the separator */
    }
}

/* The text of a field, trimmed, with quotes undone, into a malloc'd string. */
static char *field_text(const struct field *f)
{
    const char *p = f->p;
    size_t len = f->len;
    if (!f->quoted) {
        while (len && (*p == ' ' || *p == '\t')) p++, len--;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
    }
    char *s = malloc(len + 1), *o = s;
    if (!s) return NULL;
    for (size_t i = 0; i < len; i++) {
        *o++ = p[i];
        if (f->quoted && p[i] == '"' && i + 1 < len && p[i + 1] == '"') i++;
    }
    *o = '\0';
    return s;
}

static bool field_number(const struct field *f, double *v, bool *missing)
{
    if (!f->quoted || !memchr(f->p, '"', f->len)) return pms__parse_cell_number(f->p, f->len, v, missing);
    char *s = field_text(f);
    bool ok = s && pms__parse_cell_number(s, strlen(s), v, missing);
    free(s);
    return ok;
}

struct column_build {
    double *num;  /* NULL once the column holds text */
    size_t bad_line, bad_field;
    uint64_t *cnt; /* the cells as exact counts; NULL once one is not a count */
    size_t cnt_bad_line, cnt_bad_field;
    pms_count_result cnt_bad;
    char **str;
};

struct build {
    struct column_build *c;
    size_t ncols, rows, cap;
    size_t *lines;
};

static void build_free(struct build *b)
{
    for (size_t j = 0; b->c && j < b->ncols; j++) {
        free(b->c[j].num);
        free(b->c[j].cnt);
        if (b->c[j].str)
            for (size_t i = 0; i < b->rows; i++) free(b->c[j].str[i]);
        free(b->c[j].str);
    }
    free(b->c);
    free(b->lines);
}

static int build_grow(struct build *b, const char *name)
{
    size_t cap = b->cap ? 2 * b->cap : 16; /* small first: a hostile header may have many columns */
    size_t *l = realloc(b->lines, cap * sizeof *l);
    if (!l) return pms__fail(PMS_ENOMEM, "%s: out of memory", name);
    b->lines = l;
    for (size_t j = 0; j < b->ncols; j++) {
        if (!b->c[j].num) continue;
        double *v = realloc(b->c[j].num, cap * sizeof *v);
        if (!v) return pms__fail(PMS_ENOMEM, "%s: out of memory", name);
        b->c[j].num = v;
        if (!b->c[j].cnt) continue;
        uint64_t *u = realloc(b->c[j].cnt, cap * sizeof *u);
        if (!u) return pms__fail(PMS_ENOMEM, "%s: out of memory", name);
        b->c[j].cnt = u;
    }
    b->cap = cap;
    return PMS_OK;
}

/* Finds the header: '#' lines before the first other line are comments, except
 * that the last of them is the header (as in the ARM TSV) when it has as many
 * fields as that first line. Leaves lx at the first data record and the header
 * fields in *names. */
static int read_header(struct lexer *lx, const pms_table_options *opt, char ***names, size_t *ncols)
{
    size_t pos = 0, line = 1, next, last_hash = (size_t)-1, last_hash_line = 0;
    const char *d = lx->data;
    while (pos < lx->len) {
        if (blank_line_at(lx, pos, &next)) {
            pos = next, line++;
            continue;
        }
        if (d[pos] != '#') break;
        last_hash = pos + 1, last_hash_line = line;
        const char *nl = memchr(d + pos, '\n', lx->len - pos);
        pos = nl ? (size_t)(nl - d) + 1 : lx->len;
        line++;
    }
    size_t first = pos, first_line = line;
    /* the separator: given, else TAB when the header candidate has one */
    size_t probe = first < lx->len ? first : last_hash;
    if (probe == (size_t)-1) return pms__fail_at_end(PMS_EFORMAT, "%s: empty file, expected a header line", lx->name);
    char sep = opt && opt->sep ? opt->sep : ',';
    if (!(opt && opt->sep)) {
        const char *nl = memchr(d + probe, '\n', lx->len - probe);
        size_t end = nl ? (size_t)(nl - d) : lx->len;
        if (memchr(d + probe, '\t', end - probe)) sep = '\t';
    }
    lx->sep = sep;
    size_t rec_line;
    size_t data_fields = 0;
    if (first < lx->len) {
        lx->pos = first, lx->line = first_line;
        int rc = next_record(lx, &rec_line);
        if (rc < 0) return rc;
        data_fields = lx->nf;
    }
    bool hash_header = false;
    if (last_hash != (size_t)-1) {
        lx->pos = last_hash, lx->line = last_hash_line;
        int rc = next_record(lx, &rec_line);
        if (rc < 0) return rc;
        hash_header = lx->nf >= 2 && (first >= lx->len || lx->nf == data_fields);
    }
    if (!hash_header) {
        if (first >= lx->len) return pms__fail_at_end(PMS_EFORMAT, "%s: no header line (only comments)", lx->name);
        lx->pos = first, lx->line = first_line;
        int rc = next_record(lx, &rec_line);
        if (rc < 0) return rc;
    }
    char **n = calloc(lx->nf, sizeof *n);
    if (!n) return pms__fail(PMS_ENOMEM, "%s: out of memory", lx->name);
    for (size_t j = 0; j < lx->nf; j++) {
        if (!(n[j] = field_text(&lx->f[j]))) {
            for (size_t k = 0; k < j; k++) free(n[k]);
            free(n);
            return pms__fail(PMS_ENOMEM, "%s: out of memory", lx->name);
        }
    }
    *names = n;
    *ncols = lx->nf;
    if (hash_header) lx->pos = first, lx->line = first_line; /* data starts at the first plain line */
    return PMS_OK;
}

/* The cell as an exact count (no trip through double). */
static pms_count_result field_count(const struct field *f, uint64_t *v)
{
    if (!f->quoted) return pms__parse_count(f->p, f->len, v);
    char *s = field_text(f);
    pms_count_result r = s ? pms__parse_count(s, strlen(s), v) : PMS_COUNT_NOT_INTEGER;
    free(s);
    return r;
}

static bool field_is(const struct field *f, const char *name)
{
    if (!f->quoted) return f->len == strlen(name) && memcmp(f->p, name, f->len) == 0;
    char *s = field_text(f);
    bool same = s && strcmp(s, name) == 0;
    free(s);
    return same;
}

/* A record that repeats the header (files concatenated, or a header per run): refused
 * here, since as data it would turn every column into text. */
static bool repeats_header(const struct lexer *lx, char **names, size_t ncols)
{
    for (size_t j = 0; j < ncols; j++)
        if (!field_is(&lx->f[j], names[j])) return false;
    return true;
}

static int scan_numbers(struct lexer *lx, struct build *b, char **names, size_t ncols)
{
    size_t line;
    int rc;
    while ((rc = next_record(lx, &line)) > 0) {
        if (lx->nf != ncols)
            return pms__fail(PMS_EFORMAT, "%s:%zu: expected %zu fields (as the header), found %zu", lx->name, line,
                            ncols, lx->nf);
        if (repeats_header(lx, names, ncols))
            return pms__fail(PMS_EFORMAT,
                            "%s:%zu:1: column '%s': the header line repeats here (row %zu), expected numbers: one "
                            "header per table",
                            lx->name, line, names[0], b->rows + 1);
        if (b->rows == b->cap && (rc = build_grow(b, lx->name)) < 0) return rc;
        b->lines[b->rows] = line;
        for (size_t j = 0; j < ncols; j++) {
            struct column_build *c = &b->c[j];
            if (!c->num) continue;
            bool missing;
            if (!field_number(&lx->f[j], &c->num[b->rows], &missing)) {
                free(c->num);
                c->num = NULL;
                c->bad_line = line;
                c->bad_field = j + 1;
            } else if (c->cnt && (c->cnt_bad = field_count(&lx->f[j], &c->cnt[b->rows])) != PMS_COUNT_OK) {
                free(c->cnt);
                c->cnt = NULL;
                c->cnt_bad_line = line;
                c->cnt_bad_field = j + 1;
            }
        }
        b->rows++;
    }
    return rc;
}

static int copy_text_columns(struct lexer *lx, struct build *b, size_t data_pos, size_t data_line)
{
    for (size_t j = 0; j < b->ncols; j++)
        if (!b->c[j].num && !(b->c[j].str = calloc(b->rows ? b->rows : 1, sizeof(char *))))
            return pms__fail(PMS_ENOMEM, "%s: out of memory", lx->name);
    lx->pos = data_pos, lx->line = data_line;
    size_t line;
    for (size_t i = 0; i < b->rows && next_record(lx, &line) > 0; i++)
        for (size_t j = 0; j < b->ncols; j++)
            if (b->c[j].str && !(b->c[j].str[i] = field_text(&lx->f[j])))
                return pms__fail(PMS_ENOMEM, "%s: out of memory", lx->name);
    return PMS_OK;
}

/* A header name and its position, sorted to find a repeated name in O(n log n):
 * a hostile header has up to MAX_COLUMNS of them. */
struct named {
    const char *name;
    size_t pos;
};

static int by_name(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Fails on an empty name, or naming the first field (in header order) that repeats
 * an earlier one, and that earlier one. */
static int check_header(const char *name, char **names, size_t ncols)
{
    for (size_t j = 0; j < ncols; j++)
        if (!names[j][0]) return pms__fail(PMS_EFORMAT, "%s: header field %zu is empty, expected a column name", name, j + 1);
    struct named *v = malloc((ncols ? ncols : 1) * sizeof *v);
    if (!v) return pms__fail(PMS_ENOMEM, "%s: out of memory", name);
    for (size_t j = 0; j < ncols; j++) v[j] = (struct named){names[j], j};
    qsort(v, ncols, sizeof *v, by_name);
    /* in each run of equal names the first two are the first occurrence and its first repeat */
    size_t first = SIZE_MAX, second = SIZE_MAX;
    for (size_t s = 1; s < ncols; s++) {
        bool repeat = strcmp(v[s - 1].name, v[s].name) == 0, run_start = s < 2 || strcmp(v[s - 2].name, v[s].name) != 0;
        if (repeat && run_start && v[s].pos < second) first = v[s - 1].pos, second = v[s].pos;
    }
    free(v);
    if (second == SIZE_MAX) return PMS_OK;
    return pms__fail(PMS_EFORMAT, "%s: header fields %zu and %zu are both '%s', expected unique names", name, first + 1,
                    second + 1, names[second]);
}

int pms_table_parse(const char *data, size_t len, const char *name, const pms_table_options *opt, pms_table **out)
{
    if (opt && opt->sep && opt->sep != ',' && opt->sep != '\t')
        return pms__fail(PMS_EINVAL, "%s: the separator must be ',' or TAB", name);
    struct lexer lx = {.name = name, .data = data, .len = len, .line = 1};
    struct build b = {0};
    char **names = NULL;
    size_t ncols = 0;
    pms_table *t = NULL;
    int rc = read_header(&lx, opt, &names, &ncols);
    if (rc < 0 || (rc = check_header(name, names, ncols)) < 0) goto done;
    b.ncols = ncols;
    if (!(b.c = calloc(ncols, sizeof *b.c))) {
        rc = pms__fail(PMS_ENOMEM, "%s: out of memory", name);
        goto done;
    }
    for (size_t j = 0; j < ncols; j++)
        if (!(b.c[j].num = malloc(sizeof(double))) || !(b.c[j].cnt = malloc(sizeof(uint64_t)))) {
            rc = pms__fail(PMS_ENOMEM, "%s: out of memory", name);
            goto done;
        }
    size_t data_pos = lx.pos, data_line = lx.line;
    if ((rc = scan_numbers(&lx, &b, names, ncols)) < 0) goto done;
    bool any_text = false;
    for (size_t j = 0; j < ncols; j++) any_text |= b.c[j].num == NULL;
    if (any_text && (rc = copy_text_columns(&lx, &b, data_pos, data_line)) < 0) goto done;

    if (!(t = pms_table_new(name))) {
        rc = pms__fail(PMS_ENOMEM, "%s: out of memory", name);
        goto done;
    }
    pms__table_names_unique(t, true); /* check_header has made sure */
    for (size_t j = 0; j < ncols; j++) {
        struct column_build *c = &b.c[j];
        bool numeric = c->num != NULL;
        if (numeric)
            rc = pms__table_adopt_numeric(t, names[j], c->num, b.rows);
        else
            rc = pms__table_adopt_string(t, names[j], c->str, b.rows);
        c->num = NULL;
        c->str = NULL;
        if (rc < 0) goto done;
        if (numeric) pms__table_adopt_counts(t, j, c->cnt, c->cnt_bad_line, c->cnt_bad_field, c->cnt_bad);
        else free(c->cnt);
        c->cnt = NULL;
        if (c->bad_line) pms__table_note_non_numeric(t, j, c->bad_line, c->bad_field);
    }
    pms__table_names_unique(t, false);
    pms__table_adopt_lines(t, b.lines);
    b.lines = NULL;
    *out = t;
    t = NULL;
done:
    pms_table_free(t);
    build_free(&b);
    for (size_t j = 0; names && j < ncols; j++) free(names[j]);
    free(names);
    free(lx.f);
    return rc;
}

int pms__table_head(const char *text, size_t len, const char *name, void *opt)
{
    pms_table *t = NULL;
    int rc = pms_table_parse(text, len, name, opt, &t);
    pms_table_free(t);
    return rc;
}

int pms_table_read(const char *path, const pms_table_options *opt, pms_table **out)
{
    char *data;
    size_t len;
    int rc = pms__read_text(path, 0, pms__table_head, (void *)opt, &data, &len);
    if (rc < 0) return rc;
    rc = pms_table_parse(data, len, path, opt, out);
    free(data);
    return rc;
}
