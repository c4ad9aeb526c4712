/* The runs table: one row per run with its measured cycles and counter totals,
 * read from a CSV/TSV (pmuscope stat --schedule=runs writes run,size,<events>). */
#include "estimate/runs.h"
#include "io/table_internal.h"
#include "pmuscope/perfstat.h"
#include "util/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_runs_destroy(pms_runs *r)
{
    if (!r) return;
    for (size_t j = 0; j < r->n_runs && r->labels; j++) free(r->labels[j]);
    for (size_t i = 0; i < r->n_counters && r->counters; i++) free(r->counters[i]);
    free(r->labels);
    free(r->counters);
    free(r->cycles_name);
    free(r->cycles);
    free(r->events);
    free(r->lines);
    free(r->source);
    for (size_t i = 0; i < r->n_dropped && r->dropped_why; i++) free(r->dropped_why[i]);
    free(r->dropped_lines);
    free(r->dropped_why);
    free(r);
}

pms_runs *pms__runs_alloc(size_t n_runs, size_t n_counters, const char *source)
{
    pms_runs *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->labels = calloc(n_runs ? n_runs : 1, sizeof *r->labels);
    r->counters = calloc(n_counters ? n_counters : 1, sizeof *r->counters);
    r->cycles = calloc(n_runs ? n_runs : 1, sizeof *r->cycles);
    r->events = calloc(n_runs * n_counters > 0 ? n_runs * n_counters : 1, sizeof *r->events);
    r->lines = calloc(n_runs ? n_runs : 1, sizeof *r->lines);
    r->source = strdup(source ? source : "");
    if (!r->labels || !r->counters || !r->cycles || !r->events || !r->lines || !r->source) {
        pms_runs_destroy(r);
        return NULL;
    }
    r->n_runs = n_runs;
    r->n_counters = n_counters;
    return r;
}

bool pms__runs_name_in(const char *name, const char *const *list)
{
    for (size_t k = 0; list && list[k]; k++)
        if (strcmp(name, list[k]) == 0) return true;
    return false;
}

struct labelled_row {
    const char *label;
    size_t run;
};

/* By label, equal labels in file order. */
static int by_label(const void *a, const void *b)
{
    const struct labelled_row *x = a, *y = b;
    int c = strcmp(x->label, y->label);
    return c ? c : (x->run > y->run) - (x->run < y->run);
}

/* A label names one run: --train/--test pick runs by label, so a repeated one
 * would select the same run twice or fall back to row numbers unnoticed. */
static int reject_repeated_label(const pms_runs *r)
{
    struct labelled_row *sorted = malloc((r->n_runs ? r->n_runs : 1) * sizeof *sorted);
    if (!sorted) return pms__fail(PMS_ENOMEM, "%s: out of memory for the labels of %zu runs", r->source, r->n_runs);
    for (size_t j = 0; j < r->n_runs; j++) sorted[j] = (struct labelled_row){r->labels[j], j};
    qsort(sorted, r->n_runs, sizeof *sorted, by_label);
    size_t first = 0, second = SIZE_MAX; /* the repeat whose second row comes earliest */
    for (size_t k = 1; k < r->n_runs; k++)
        if (strcmp(sorted[k - 1].label, sorted[k].label) == 0 && sorted[k].run < second)
            first = sorted[k - 1].run, second = sorted[k].run;
    free(sorted);
    if (second == SIZE_MAX) return PMS_OK;
    return pms__fail(PMS_EFORMAT, "%s: lines %zu and %zu: run label '%s' repeats: each run needs its own label",
                    r->source, r->lines[first], r->lines[second], r->labels[first]);
}

int pms__runs_finish(const pms_runs *r)
{
    bool named = r->cycles_name != NULL;
    for (size_t j = 0; j < r->n_runs; j++) named &= r->labels[j] != NULL;
    for (size_t i = 0; i < r->n_counters; i++) named &= r->counters[i] != NULL;
    if (!named) return pms__fail(PMS_ENOMEM, "%s: out of memory for the names of %zu runs", r->source, r->n_runs);
    /* cycles must be positive: the error % divides by them */
    for (size_t j = 0; j < r->n_runs; j++)
        if (!(r->cycles[j] > 0))
            return pms__fail(PMS_EINVAL, "%s: line %zu: run %s: %s is %g: measured cycles must be positive",
                            r->source, r->lines[j], r->labels[j], r->cycles_name, r->cycles[j]);
    return reject_repeated_label(r);
}

int pms__runs_from_columns(const pms_table *t, size_t label_col, size_t cycles_col, const size_t *cols, size_t k,
                          bool drop, pms_runs **out)
{
    *out = NULL;
    size_t rows = pms_table_rows(t);
    if (rows == 0) return pms__fail(PMS_EFORMAT, "%s: no runs: the table has a header and no rows", pms_table_name(t));
    if (k == 0)
        return pms__fail(PMS_EFORMAT, "%s: no counter columns besides %s", pms_table_name(t),
                        pms_table_col_name(t, cycles_col));
    /* the cycles, then the counters: each cell a count below 2^53 (the models compute in double precision) */
    size_t *all = malloc((k + 1) * sizeof *all), nrun = 0;
    double **v = calloc(k + 1, sizeof *v);
    bool *bad = calloc(rows, sizeof *bad);
    pms__runs_drops drops = {0};
    int rc = all && v && bad ? PMS_OK : pms__fail(PMS_ENOMEM, "%s: out of memory for %zu runs", pms_table_name(t), rows);
    for (size_t i = 0; rc == PMS_OK && i <= k; i++)
        if (!(v[i] = malloc(rows * sizeof *v[i]))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        all[0] = cycles_col;
        memcpy(all + 1, cols, k * sizeof *cols);
        rc = pms__runs_counts(t, all, k + 1, drop, v, bad, &drops);
    }
    for (size_t row = 0; rc == PMS_OK && row < rows; row++) nrun += !bad[row];
    if (rc == PMS_OK && nrun == 0)
        rc = pms__fail(PMS_EFORMAT, "%s: every one of the %zu runs has a missing or bad count", pms_table_name(t), rows);
    pms_runs *r = rc == PMS_OK ? pms__runs_alloc(nrun, k, pms_table_name(t)) : NULL;
    if (rc == PMS_OK && !r) rc = pms__fail(PMS_ENOMEM, "%s: out of memory for %zu runs", pms_table_name(t), rows);
    if (rc == PMS_OK) {
        r->cycles_name = strdup(pms_table_col_name(t, cycles_col));
        for (size_t i = 0; i < k; i++) r->counters[i] = strdup(pms_table_col_name(t, cols[i]));
    }
    for (size_t row = 0, j = 0; rc == PMS_OK && row < rows; row++) {
        if (bad[row]) continue;
        const char *label = pms_table_string(t, row, label_col); /* any length */
        char num[64];
        if (!label) { /* a numeric label column: its text is short */
            pms_table_cell_text(t, row, label_col, num, sizeof num);
            label = num;
        }
        r->labels[j] = strdup(label);
        r->lines[j] = pms_table_row_line(t, row);
        r->cycles[j] = v[0][row];
        for (size_t i = 0; i < k; i++) r->events[j * k + i] = v[1 + i][row];
        j++;
    }
    if (rc == PMS_OK) rc = pms__runs_finish(r);
    if (rc == PMS_OK) pms__runs_take_drops(r, &drops);
    pms__runs_drops_free(&drops);
    for (size_t i = 0; v && i <= k; i++) free(v[i]);
    free(v), free(all), free(bad);
    if (rc < 0) {
        pms_runs_destroy(r);
        return rc;
    }
    *out = r;
    return PMS_OK;
}

/* An interval table handed over as a runs table. The ARM cBench layout (programs in a
 * Benchmark column, repetitions in Run(#)) is refused, naming the option that sums its
 * intervals into runs: each interval would be a "run" labelled by its timestamp. A first
 * column that is a time or an interval number is only noted (intervals_like): one run per
 * interval is a table some want. */
static int refuse_intervals(const pms_table *t, bool *intervals_like)
{
    static const char *const time_like[] = {"interval", "time", "timestamp", "timestamp_ns", "time_ns", "Timestamp",
                                            "Timestamp(ns)", NULL};
    const char *first = pms_table_col_name(t, 0);
    *intervals_like = pms__runs_name_in(first, time_like);
    if (pms_table_find(t, "Benchmark") < 0 || pms_table_find(t, "Run(#)") < 0) return PMS_OK;
    return pms__with_option(
        pms__fail(PMS_EFORMAT, "%s: an interval table (the ARM cBench layout: first column '%s', %zu rows), not one "
                              "row per run: sum its intervals into runs (by Benchmark, frequency and Run(#))",
                 pms_table_name(t), first, pms_table_rows(t)),
        "sum_intervals");
}

static int runs_from_table(const pms_table *t, const char *cycles_col, const char *const *ignore, bool drop,
                           pms_runs **out)
{
    *out = NULL;
    const char *path = pms_table_name(t);
    size_t ncol = pms_table_cols(t), cyc = 0, k = 0;
    if (ncol < 3)
        return pms__fail(PMS_EFORMAT, "%s: expected a run label, a cycles column and counter columns, found %zu column%s",
                        path, ncol, ncol == 1 ? "" : "s");
    bool intervals_like = false;
    int rc = refuse_intervals(t, &intervals_like);
    if (rc < 0) return rc;
    size_t *cols = malloc(ncol * sizeof *cols);
    rc = cols ? pms_table_find_event(t, PMS_EVENT_CYCLES, cycles_col, &cyc) : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t c = 1; rc == PMS_OK && c < ncol; c++) {
        const char *name = pms_table_col_name(t, c);
        if (c == cyc || strcmp(name, "size") == 0 || pms__runs_name_in(name, ignore)) continue;
        /* a text column is not a counter, unless its cells are numbers but for some (bad cells) */
        bool counts = pms_table_col_type(t, c) == PMS_COLUMN_NUMERIC || pms__runs_mixed_column(t, c);
        if (counts && pms_event_role_of(name) != PMS_EVENT_NOT_EVENT) cols[k++] = c;
    }
    if (rc == PMS_OK) rc = pms__runs_from_columns(t, 0, cyc, cols, k, drop, out);
    if (rc == PMS_OK) (*out)->intervals_like = intervals_like;
    free(cols);
    return rc;
}

int pms_runs_from_table(const pms_table *t, const char *cycles_col, const char *const *ignore, pms_runs **out)
{
    return runs_from_table(t, cycles_col, ignore, false, out);
}

int pms__runs_read(const char *path, const char *cycles_col, const char *const *ignore, bool drop, pms_runs **out)
{
    *out = NULL;
    pms_table *t = NULL;
    int rc = pms_table_read(path, NULL, &t);
    if (rc == PMS_OK) rc = runs_from_table(t, cycles_col, ignore, drop, out);
    pms_table_free(t);
    return rc;
}

int pms_runs_read(const char *path, const char *cycles_col, const char *const *ignore, pms_runs **out)
{
    return pms__runs_read(path, cycles_col, ignore, false, out);
}

/* "TEST12" -> 12; false when the label does not end in digits. */
static bool label_number(const char *label, unsigned long *num)
{
    size_t len = strlen(label), d = len;
    while (d > 0 && isdigit((unsigned char)label[d - 1])) d--;
    if (d == len || len - d > 9) return false;
    *num = strtoul(label + d, NULL, 10);
    return true;
}

bool pms_runs_number_clash(const pms_runs *r, size_t *first, size_t *second)
{
    unsigned long a, b;
    for (size_t j = 0; j < r->n_runs; j++)
        if (!label_number(r->labels[j], &a)) return false; /* not every label is numbered */
    for (size_t j = 0; j < r->n_runs; j++)
        for (size_t q = 0; q < j; q++)
            if (label_number(r->labels[q], &b) && label_number(r->labels[j], &a) && a == b) {
                *first = q;
                *second = j;
                return true;
            }
    return false;
}

bool pms_runs_numbered(const pms_runs *r)
{
    for (size_t j = 0; j < r->n_runs; j++) {
        unsigned long a, b;
        if (!label_number(r->labels[j], &a)) return false;
        for (size_t q = 0; q < j; q++)
            if (label_number(r->labels[q], &b) && a == b) return false;
    }
    return r->n_runs > 0;
}

/* Parses "N" or "N-M" at *s; advances past it. */
static bool parse_range(const char **s, unsigned long *lo, unsigned long *hi)
{
    char *end;
    if (!isdigit((unsigned char)**s)) return false;
    errno = 0;
    *lo = strtoul(*s, &end, 10);
    *hi = *lo;
    if (*end == '-') {
        const char *p = end + 1;
        if (!isdigit((unsigned char)*p)) return false;
        *hi = strtoul(p, &end, 10);
    }
    if (errno || *hi < *lo || *hi - *lo > 1000000) return false;
    *s = end;
    return true;
}

int pms_runs_select(const pms_runs *r, const char *spec, bool by_index, size_t **idx, size_t *n_idx)
{
    *idx = NULL;
    *n_idx = 0;
    bool by_label = !by_index && pms_runs_numbered(r);
    bool *chosen = calloc(r->n_runs ? r->n_runs : 1, sizeof *chosen);
    if (!chosen) return pms__fail(PMS_ENOMEM, "out of memory");
    const char *s = spec;
    int rc = PMS_OK;
    while (rc == PMS_OK && *s) {
        unsigned long lo, hi;
        if (!parse_range(&s, &lo, &hi) || (*s && *s != ',')) {
            rc = pms__fail(PMS_EINVAL, "run list '%s': expected numbers and ranges like 1-10,50", spec);
            break;
        }
        if (*s == ',') s++;
        for (unsigned long v = lo; rc == PMS_OK && v <= hi; v++) {
            size_t hit = SIZE_MAX;
            for (size_t j = 0; j < r->n_runs && hit == SIZE_MAX; j++) {
                unsigned long num;
                if (by_label ? (label_number(r->labels[j], &num) && num == v) : j + 1 == v) hit = j;
            }
            if (hit == SIZE_MAX)
                rc = by_label ? pms__fail(PMS_EINVAL, "run list '%s': no run is numbered %lu in %s", spec, v, r->source)
                              : pms__fail(PMS_EINVAL, "run list '%s': %s has %zu runs, there is no run %lu", spec,
                                         r->source, r->n_runs, v);
            else
                chosen[hit] = true;
        }
    }
    size_t count = 0;
    for (size_t j = 0; j < r->n_runs; j++) count += chosen[j];
    if (rc == PMS_OK && count == 0) rc = pms__fail(PMS_EINVAL, "run list '%s': selects no run", spec);
    if (rc == PMS_OK && !(*idx = malloc(count * sizeof **idx))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; rc == PMS_OK && j < r->n_runs; j++)
        if (chosen[j]) (*idx)[(*n_idx)++] = j;
    free(chosen);
    return rc;
}

int pms_runs_write_csv(const pms_runs *r, FILE *out)
{
    pms_table *t = pms_table_new(r->source);
    if (!t) return pms__fail(PMS_ENOMEM, "out of memory");
    double *col = malloc((r->n_runs ? r->n_runs : 1) * sizeof *col);
    int rc = col ? pms_table_add_string(t, "run", (const char *const *)r->labels, r->n_runs)
                 : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, r->cycles_name, r->cycles, r->n_runs);
    for (size_t i = 0; rc == PMS_OK && i < r->n_counters; i++) {
        for (size_t j = 0; j < r->n_runs; j++) col[j] = r->events[j * r->n_counters + i];
        rc = pms_table_add_numeric(t, r->counters[i], col, r->n_runs);
    }
    free(col);
    if (rc == PMS_OK) rc = pms_table_write(t, out, ',');
    pms_table_free(t);
    return rc;
}
