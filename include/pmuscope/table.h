/* pmuscope: a table of named columns, numeric or string, as read from a CSV or
 * TSV file with a header line (the "wide" interval table: one row per interval,
 * one column per event), or built in memory (the perf stat reader pivots into one).
 *
 * Reading: the separator is ',' or TAB (detected from the header line unless
 * given); the header may start with '#' (as the ARM cBench TSV); '#' lines
 * before the header and blank lines are skipped; fields may be quoted with '"'
 * (RFC 4180, "" for a quote). A column is numeric when every non-empty cell
 * parses as a number (strtod syntax, "NaN" and "nan" allowed), otherwise it is
 * kept as a string column. Empty and NaN cells of a numeric column are stored
 * as NaN and reported by pms_table_numeric() unless the caller allows them.
 * A row with the wrong number of fields fails with "file:line: expected N
 * fields (as the header), found M". */
#ifndef PMUSCOPE_TABLE_H
#define PMUSCOPE_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_table pms_table;

typedef enum pms_column_type {
    PMS_COLUMN_NUMERIC = 0,
    PMS_COLUMN_STRING = 1,
} pms_column_type;

typedef struct pms_table_options {
    char sep; /* ',' or '\t'; 0 detects it from the header line */
} pms_table_options;

/* Reads a file ("-" is stdin). opt may be NULL. */
int pms_table_read(const char *path, const pms_table_options *opt, pms_table **out);
/* Parses a buffer; name is used in messages in place of the file name. */
int pms_table_parse(const char *data, size_t len, const char *name, const pms_table_options *opt,
                    pms_table **out);

/* An empty table with no columns (to be filled with pms_table_add_*). name is
 * what messages call it (e.g. the file it came from). */
pms_table *pms_table_new(const char *name);
void pms_table_free(pms_table *t);

size_t pms_table_rows(const pms_table *t);
size_t pms_table_cols(const pms_table *t);
const char *pms_table_name(const pms_table *t);
const char *pms_table_col_name(const pms_table *t, size_t col);
pms_column_type pms_table_col_type(const pms_table *t, size_t col);
/* The run a column came from in a table merged from separate runs (pms_table_merge_runs:
 * 1 for the first table's columns, 2 for the second's, ...), 0 in a table of one run. */
size_t pms_table_col_source(const pms_table *t, size_t col);
/* Source line (1-based) of a row, or 0 for a table built in memory. */
size_t pms_table_row_line(const pms_table *t, size_t row);

/* Index of the column with this exact name, or -1. */
long pms_table_find(const pms_table *t, const char *name);
/* As pms_table_find, but fails with PMS_ENOENT and a message listing the
 * columns the table has when there is none. */
int pms_table_require(const pms_table *t, const char *name, size_t *col);

/* The values of a numeric column (rows values). Fails with PMS_EFORMAT naming
 * file:line:column and the cell when the column is a string column ("expected
 * a number, found 'abc'"), or, unless allow_nan, when a cell is empty or NaN. */
int pms_table_numeric(const pms_table *t, size_t col, bool allow_nan, const double **values);
/* A numeric column read from text as exact counts (whole numbers 0 .. 2^64 - 1, read
 * without a trip through double). A cell that is not one (negative, fractional, too
 * large) is an error naming the file, line, field and column. */
int pms_table_counts(const pms_table *t, size_t col, const uint64_t **values);
/* pms_table_numeric for a method that computes in double precision: a value of 2^53 or
 * more, which a double holds only rounded (9007199254740993 reads as ...992), is refused
 * (PMS_EFORMAT) naming the file, line, column and the value as written, never rounded. */
#define PMS_TABLE_EXACT_LIMIT 9007199254740992.0 /* 2^53 */
int pms_table_exact_numeric(const pms_table *t, size_t col, bool allow_nan, const double **values);
/* A cell of a string column (NULL for a numeric column: use pms_table_numeric). */
const char *pms_table_string(const pms_table *t, size_t row, size_t col);

/* Building: every column must have the same number of rows; the first column
 * added fixes it. Names must be unique (PMS_EINVAL otherwise). */
int pms_table_add_numeric(pms_table *t, const char *name, const double *values, size_t rows);
int pms_table_add_string(pms_table *t, const char *name, const char *const *values, size_t rows);

/* A new table with the given rows (indices into t, in that order). */
int pms_table_select_rows(const pms_table *t, const size_t *rows, size_t count, pms_table **out);

/* The text of a cell: the string, or the number as %.15g ("" for NaN). */
void pms_table_cell_text(const pms_table *t, size_t row, size_t col, char *buf, size_t size);

/* The distinct values of a column in order of first appearance, as cell text.
 * *values: n malloc'd strings in a malloc'd array (free each, then the array). */
int pms_table_distinct(const pms_table *t, size_t col, char ***values, size_t *n);

/* The rows (ascending) where every condition "COLUMN=VALUE" holds (text
 * equality, or numeric equality for numeric columns). *rows is malloc'd. Fails
 * naming a condition without '=' or an unknown column. */
int pms_table_filter(const pms_table *t, const char *const *where, size_t nwhere, size_t **rows, size_t *n);

/* Writes the table with a header line, sep ',' or '\t' (quoting fields that need it). */
int pms_table_write(const pms_table *t, FILE *out, char sep);

/* The most columns pms_table_pick_columns and the writers below pick. */
#define PMS_TABLE_MAX_PICKED 16
/* The indices of the columns named in `names` (comma-separated; names the table lacks are
 * left out; NULL: every column), at most max of them; their number. */
size_t pms_table_pick_columns(const pms_table *t, const char *names, size_t *cols, size_t max);
/* The columns named in `columns` (as pms_table_pick_columns) aligned for a terminal, each
 * line after `indent`: the header, at most max_rows rows (0: all), then how many more. A
 * whole number prints in full, others to 4 digits, an absolute path by its file name. */
int pms_table_write_aligned(FILE *out, const pms_table *t, const char *columns, size_t max_rows, const char *indent);

/* A CSV cell, quoted when it holds the separator, a quote or a newline. */
void pms_csv_cell(FILE *out, const char *s, const char *sep);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
