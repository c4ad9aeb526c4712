/* pmuscope: a small streaming JSON writer for --json output.
 * Commas, nesting and string escaping are handled here; numbers that are not
 * finite are written as null (JSON has no NaN); strings are always valid UTF-8:
 * control characters become \u00XX and invalid UTF-8 bytes \ufffd. */
#ifndef PMUSCOPE_JSON_H
#define PMUSCOPE_JSON_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmuscope/table.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_json {
    FILE *out;
    int depth;
    bool need_comma[64];
    bool after_key;
    bool pretty;
} pms_json;

void pms_json_init(pms_json *j, FILE *out, bool pretty);
void pms_json_object_begin(pms_json *j);
void pms_json_object_end(pms_json *j);
void pms_json_array_begin(pms_json *j);
void pms_json_array_end(pms_json *j);
void pms_json_key(pms_json *j, const char *key);
void pms_json_string(pms_json *j, const char *s);
void pms_json_double(pms_json *j, double v);
void pms_json_int(pms_json *j, int64_t v);
void pms_json_uint(pms_json *j, uint64_t v);
void pms_json_bool(pms_json *j, bool v);
void pms_json_null(pms_json *j);
/* Ends the document with a newline. */
void pms_json_finish(pms_json *j);
/* An array of the table's first max_rows rows (0: all), each an object of the columns
 * named in `columns` (as pms_table_pick_columns): numbers as numbers, missing ones null. */
void pms_json_table_rows(pms_json *j, const pms_table *t, const char *columns, size_t max_rows);

/* Shorthands for "key": value members. A double that is not finite is written as
 * null with a "key_reason" member beside it (see pms_json_kv_number). */
void pms_json_kv_string(pms_json *j, const char *key, const char *s);
void pms_json_kv_double(pms_json *j, const char *key, double v);
void pms_json_kv_int(pms_json *j, const char *key, int64_t v);
void pms_json_kv_uint(pms_json *j, const char *key, uint64_t v);
void pms_json_kv_bool(pms_json *j, const char *key, bool v);
/* "key": v, or, when v is not finite (an unknown number), "key": null and
 * "key_reason": why, so that a reader learns why the number is missing. */
void pms_json_kv_number(pms_json *j, const char *key, double v, const char *why);
#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
