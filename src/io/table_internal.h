/* Internal: building a pms_table without copying (the readers hand over arrays). */
#ifndef PMS_IO_TABLE_INTERNAL_H
#define PMS_IO_TABLE_INTERNAL_H
#include "pmuscope/table.h"
#include "io/count_parse.h"

/* Takes ownership of values (malloc'd, rows entries), also on failure. */
int pms__table_adopt_numeric(pms_table *t, const char *name, double *values, size_t rows);
/* Takes ownership of values and of each string in it, also on failure. */
int pms__table_adopt_string(pms_table *t, const char *name, char **values, size_t rows);
/* on: the caller has checked that the names of the columns it is about to add are
 * unique, so adding a column skips the O(columns) search for its name (a hostile
 * header has up to 65536 of them); turn it off once the table is built, so that
 * later pms_table_add_* calls check again. */
void pms__table_names_unique(pms_table *t, bool on);
/* Takes ownership of lines (rows entries: the source line of each row). */
void pms__table_adopt_lines(pms_table *t, size_t *lines);
/* Records where the first non-numeric cell of a string column was (line, 1-based
 * field), so that asking for it as a number names that cell. */
void pms__table_note_non_numeric(pms_table *t, size_t col, size_t line, size_t field);

/* The exact counts of numeric column col (taken over, rows entries), or NULL with the first
 * cell that is not one (line, 1-based field, what it is instead). */
void pms__table_adopt_counts(pms_table *t, size_t col, uint64_t *counts, size_t bad_line, size_t bad_field,
                            pms_count_result bad);

/* Records the run a column came from in a merged table (pms_table_col_source). */
void pms__table_set_col_source(pms_table *t, size_t col, size_t source);

/* "file:line:field" of a cell of a table read from a file, "table: row N" otherwise. */
void pms__table_cell_place(const pms_table *t, size_t row, size_t col, char *buf, size_t size);

/* Parses a whole cell as a number: optional blanks, a strtod number, optional
 * blanks. Empty cells, "NA" and "nan" give NaN with *missing set. Returns false
 * when the text is not a number. */
bool pms__parse_cell_number(const char *s, size_t len, double *out, bool *missing);

/* pms_table_parse on the head of a pipe (opt: a const pms_table_options *, or NULL), the
 * table not kept: a pms__text_parser (io/text_lines.h) for pms__read_text. */
int pms__table_head(const char *text, size_t len, const char *name, void *opt);

#endif
