/* Recognising events by name: perf's generic names, ARM and Intel vendor names. */
#include "pmuscope/perfstat.h"
#include "util/error.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Lower-cased core of an event name: "cpu/cycles/u" -> "cycles", "INST_RETIRED:u" -> "inst_retired". */
static void core_name(const char *name, char *out, size_t size)
{
    const char *s = name, *e = name + strlen(name);
    const char *slash = strchr(s, '/');
    if (slash && e > slash + 1) {
        const char *close = strchr(slash + 1, '/');
        if (close) s = slash + 1, e = close;
    }
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (colon) e = colon;
    size_t n = 0;
    for (; s < e && n + 1 < size; s++) out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

static bool is_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0) return true;
    return false;
}

pms_event_role pms_event_role_of(const char *name)
{
    char c[256];
    core_name(name, c, sizeof c);
    /* a copy of an event from another run ("cycles@2") is kept for checks only */
    const char *at = strrchr(c, '@');
    if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1)) return PMS_EVENT_OTHER;
    static const char *const bookkeeping[] = {"interval", "time", "timestamp", "timestamp_ns", "time_ns", "run",
                                              "benchmark", "program", "phase", "cpu", NULL};
    if (is_one_of(c, bookkeeping) || strchr(c, '(') || strstr(c, "frequency") || strstr(c, "temperature") ||
        strstr(c, "voltage") || strstr(c, "current") || strstr(c, "power"))
        return PMS_EVENT_NOT_EVENT;
    static const char *const cycles[] = {"cycles", "cpu-cycles", "cpu_cycles", "cpu_clk_unhalted.thread",
                                         "cpu_clk_unhalted.thread_p", "cpu_clk_unhalted.core", "cpu_clk_unhalted",
                                         "unhalted_core_cycles", "core_cycles", NULL};
    if (is_one_of(c, cycles)) return PMS_EVENT_CYCLES;
    static const char *const instructions[] = {"instructions", "inst_retired", "inst_retired.any",
                                               "inst_retired.any_p", "instructions_retired", "instr_retired",
                                               "retired_instructions", NULL};
    if (is_one_of(c, instructions)) return PMS_EVENT_INSTRUCTIONS;
    if (strstr(c, "miss") || strstr(c, "misp") || strstr(c, "refill")) return PMS_EVENT_MISS;
    return PMS_EVENT_OTHER;
}

static const char *role_name(pms_event_role role)
{
    switch (role) {
    case PMS_EVENT_CYCLES: return "cycles";
    case PMS_EVENT_INSTRUCTIONS: return "instructions";
    case PMS_EVENT_MISS: return "miss";
    default: return "event";
    }
}

/* The one column named by_hand with perf's modifiers after it ("task-clock" -> "task-clock:u",
 * as stat names its events for a user at perf_event_paranoid 2); -1 if none or several. */
static long find_with_modifiers(const pms_table *t, const char *by_hand)
{
    size_t n = strlen(by_hand);
    long found = -1;
    for (size_t j = 0; j < pms_table_cols(t); j++) {
        const char *name = pms_table_col_name(t, j);
        if (strncmp(name, by_hand, n) != 0 || name[n] != ':' || !name[n + 1] ||
            strspn(name + n + 1, "ukhpGHISD") != strlen(name + n + 1))
            continue;
        if (found >= 0) return -1;
        found = (long)j;
    }
    return found;
}

int pms_table_find_event(const pms_table *t, pms_event_role role, const char *by_hand, size_t *col)
{
    if (by_hand) {
        long modified = pms_table_find(t, by_hand) < 0 ? find_with_modifiers(t, by_hand) : -1;
        int rc = modified >= 0 ? (*col = (size_t)modified, PMS_OK) : pms_table_require(t, by_hand, col);
        if (rc < 0) return rc;
        if (pms_table_col_type(t, *col) != PMS_COLUMN_NUMERIC)
            return pms__fail(PMS_EFORMAT, "%s: column '%s' holds text, expected %s counts", pms_table_name(t), by_hand,
                            role_name(role));
        return PMS_OK;
    }
    size_t found = 0, first = 0;
    char list[512] = "";
    size_t used = 0;
    for (size_t j = 0; j < pms_table_cols(t); j++) {
        if (pms_table_col_type(t, j) != PMS_COLUMN_NUMERIC || pms_event_role_of(pms_table_col_name(t, j)) != role)
            continue;
        if (found++ == 0) first = j;
        int w = snprintf(list + used, sizeof list - used, "%s'%s'", used ? ", " : "", pms_table_col_name(t, j));
        if (w > 0 && (size_t)w < sizeof list - used) used += (size_t)w;
    }
    /* the option that names the column by hand (pms_error_option) */
    const char *opt = role == PMS_EVENT_CYCLES ? "cycles" : role == PMS_EVENT_INSTRUCTIONS ? "instructions" : "events";
    if (found == 0) {
        /* a column of that name that holds text: its first cell that is not a number */
        for (size_t j = 0; j < pms_table_cols(t); j++) {
            const double *values;
            if (pms_table_col_type(t, j) == PMS_COLUMN_NUMERIC || pms_event_role_of(pms_table_col_name(t, j)) != role)
                continue;
            int rc = pms_table_numeric(t, j, false, &values);
            if (rc) return rc; /* "FILE:LINE:FIELD: column 'cycles': expected a number, found '...'" */
        }
        char cols[512] = "";
        used = 0;
        for (size_t j = 0; j < pms_table_cols(t); j++) {
            int w = snprintf(cols + used, sizeof cols - used, "%s%s", used ? ", " : "", pms_table_col_name(t, j));
            if (w > 0 && (size_t)w < sizeof cols - used) used += (size_t)w;
        }
        return pms__with_option(pms__fail(PMS_ENOENT, "%s: no %s column found by name (columns: %s); name it",
                                          pms_table_name(t), role_name(role), cols),
                                opt);
    }
    if (found > 1)
        return pms__with_option(pms__fail(PMS_EINVAL, "%s: several columns look like %s (%s); choose one",
                                          pms_table_name(t), role_name(role), list),
                                opt);
    *col = first;
    return PMS_OK;
}
