/* Internal: the columns that name a report's rows (its sort keys: comm, pid, binary,
 * function, instruction), as text cells and JSON members; report's writers and diff's
 * print them the same way. */
#ifndef PMS_HOTSPOT_PROFILE_COLUMNS_H
#define PMS_HOTSPOT_PROFILE_COLUMNS_H
#include "pmuscope/json.h"
#include "pmuscope/profile_report.h"

#include <stdint.h>
#include <stdio.h>

/* The thread's command name, or perf's name for one unknown: ":TID" (in buf). */
const char *pms__profile_thread_name(const char *comm, uint32_t tid, char *buf, size_t size);
/* A thread's id as perf prints it: signed, so that the -1 of a sample tied to no task reads
 * -1, not 4294967295. */
int pms__profile_tid(uint32_t tid);
/* The header cells of rep's key columns, in the order of its sort keys; the last one is not
 * padded (the line ends after it). */
void pms__profile_key_heads(FILE *out, const pms_profile_report *rep);
/* The cells of row r under those headers, as perf report prints them. */
void pms__profile_key_cells(FILE *out, const pms_profile_report *rep, const pms_profile_row *r);
/* The members that name row r in the JSON object open in j: comm, pid and thread_comm when
 * rows are split by them, binary, function, ip and symbol_offset by instruction, file_offset. */
void pms__profile_json_keys(pms_json *j, const pms_profile_report *rep, const pms_profile_row *r);
#endif
