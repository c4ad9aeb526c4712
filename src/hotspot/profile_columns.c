/* The columns that name a report's rows, as text and JSON (hotspot/profile_columns.h). */
#include "hotspot/profile_columns.h"
#include "util/file.h"

#include <stdbool.h>
#include <string.h>

static pms_profile_key base_key(const pms_profile_report *rep) { return (pms_profile_key)(rep->key & 0xff); }

int pms__profile_tid(uint32_t tid) { return (int)(int32_t)tid; }

const char *pms__profile_thread_name(const char *comm, uint32_t tid, char *buf, size_t size)
{
    if (comm) return comm;
    snprintf(buf, size, ":%d", pms__profile_tid(tid));
    return buf;
}

/* The text's columns: the sort keys in the order given (perf report's order), or for a
 * report whose key was set without them, comm and pid before the location. */
static size_t text_columns(const pms_profile_report *rep, pms_profile_sort_key *cols)
{
    if (rep->nsort_keys) {
        memcpy(cols, rep->sort_keys, rep->nsort_keys * sizeof *cols);
        return rep->nsort_keys;
    }
    size_t n = 0;
    if (rep->key & PMS_PROFILE_WITH_COMM) cols[n++] = PMS_SORT_COMM;
    if (rep->key & PMS_PROFILE_WITH_PID) cols[n++] = PMS_SORT_PID;
    if (base_key(rep) == PMS_PROFILE_BY_IP) cols[n++] = PMS_SORT_IP;
    else if (base_key(rep) == PMS_PROFILE_BY_DSO) cols[n++] = PMS_SORT_DSO;
    else if (base_key(rep) == PMS_PROFILE_BY_SYMBOL) cols[n++] = PMS_SORT_SYM;
    return n;
}

/* One cell: padded to width and a space after it, the line's last one as it is. */
static void text_cell(FILE *out, const char *text, int width, bool last)
{
    if (last) fputs(text, out);
    else fprintf(out, "%-*s ", width, text);
}

enum { COMM_WIDTH = 16, PID_WIDTH = 24, BINARY_WIDTH = 20, SYMBOL_WIDTH = 32 };

/* The header cells of one column; sym, symoff and ip name the binary too unless dso is a
 * column of its own. */
static void text_head(FILE *out, pms_profile_sort_key col, bool own_dso, bool last)
{
    switch (col) {
    case PMS_SORT_COMM: text_cell(out, "comm", COMM_WIDTH, last); break;
    case PMS_SORT_PID: text_cell(out, "pid:comm", PID_WIDTH, last); break;
    case PMS_SORT_DSO: text_cell(out, "binary", BINARY_WIDTH, last); break;
    case PMS_SORT_SYM:
    case PMS_SORT_SYMOFF:
        if (!own_dso) text_cell(out, "binary", BINARY_WIDTH, false);
        text_cell(out, col == PMS_SORT_SYM ? "function" : "function+offset", SYMBOL_WIDTH, last);
        break;
    case PMS_SORT_IP:
        fprintf(out, "%-18s ", "ip");
        if (!own_dso) fprintf(out, "%-20s ", "binary");
        fprintf(out, "%10s  ", "offset");
        text_cell(out, "function", SYMBOL_WIDTH, last);
        break;
    }
}

/* The cells of one column of row r, as perf report prints them (pid: TID:comm; an address
 * without a symbol: its offset in the binary). */
static void text_value(FILE *out, pms_profile_sort_key col, bool own_dso, bool last, const pms_profile_row *r)
{
    char text[512], tid[16];
    const char *binary = pms__base_name(r->binary);
    switch (col) {
    case PMS_SORT_COMM: text_cell(out, pms__profile_thread_name(r->comm, r->tid, tid, sizeof tid), COMM_WIDTH, last); break;
    case PMS_SORT_PID:
        snprintf(text, sizeof text, "%d:%s", pms__profile_tid(r->tid), pms__profile_thread_name(r->thread_comm, r->tid, tid, sizeof tid));
        text_cell(out, text, PID_WIDTH, last);
        break;
    case PMS_SORT_DSO: text_cell(out, binary, BINARY_WIDTH, last); break;
    case PMS_SORT_SYM:
    case PMS_SORT_SYMOFF:
        if (!own_dso) text_cell(out, binary, BINARY_WIDTH, false);
        if (!r->symbol) /* perf's name for an address without a symbol (C's %#x: no 0x for zero) */
            snprintf(text, sizeof text, "%#.16llx", (unsigned long long)r->file_offset);
        else if (col == PMS_SORT_SYMOFF) snprintf(text, sizeof text, "%s+%#llx", r->symbol, (unsigned long long)r->symbol_offset);
        else snprintf(text, sizeof text, "%s", r->symbol);
        text_cell(out, text, SYMBOL_WIDTH, last);
        break;
    case PMS_SORT_IP:
        fprintf(out, "0x%-16llx ", (unsigned long long)r->ip);
        if (!own_dso) fprintf(out, "%-20s ", binary);
        fprintf(out, "%#10llx  ", (unsigned long long)r->file_offset);
        if (r->symbol) snprintf(text, sizeof text, "%s+%#llx", r->symbol, (unsigned long long)r->symbol_offset);
        else snprintf(text, sizeof text, "[unknown]");
        text_cell(out, text, SYMBOL_WIDTH, last);
        break;
    }
}

void pms__profile_key_heads(FILE *out, const pms_profile_report *rep)
{
    pms_profile_sort_key cols[PMS_PROFILE_MAX_SORT_KEYS];
    size_t ncols = text_columns(rep, cols);
    bool own_dso = false;
    for (size_t c = 0; c < ncols; c++) own_dso |= cols[c] == PMS_SORT_DSO;
    for (size_t c = 0; c < ncols; c++) text_head(out, cols[c], own_dso, c + 1 == ncols);
}

void pms__profile_key_cells(FILE *out, const pms_profile_report *rep, const pms_profile_row *r)
{
    pms_profile_sort_key cols[PMS_PROFILE_MAX_SORT_KEYS];
    size_t ncols = text_columns(rep, cols);
    bool own_dso = false;
    for (size_t c = 0; c < ncols; c++) own_dso |= cols[c] == PMS_SORT_DSO;
    for (size_t c = 0; c < ncols; c++) text_value(out, cols[c], own_dso, c + 1 == ncols, r);
}

static void json_string_or_null(pms_json *j, const char *key, const char *s)
{
    pms_json_key(j, key);
    if (s) pms_json_string(j, s);
    else pms_json_null(j);
}

void pms__profile_json_keys(pms_json *j, const pms_profile_report *rep, const pms_profile_row *r)
{
    if (rep->key & PMS_PROFILE_WITH_COMM) json_string_or_null(j, "comm", r->comm);
    if (rep->key & PMS_PROFILE_WITH_PID) {
        pms_json_kv_int(j, "pid", pms__profile_tid(r->tid));
        json_string_or_null(j, "thread_comm", r->thread_comm);
    }
    pms_json_kv_string(j, "binary", r->binary);
    json_string_or_null(j, "function", r->symbol);
    if (base_key(rep) == PMS_PROFILE_BY_IP) {
        pms_json_kv_uint(j, "ip", r->ip);
        pms_json_kv_uint(j, "symbol_offset", r->symbol_offset);
    }
    pms_json_kv_uint(j, "file_offset", r->file_offset);
}
