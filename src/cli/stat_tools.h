/* Internal to `pmuscope stat`: perf's tool events duration_time, user_time and system_time.
 * They are not perf_event_open events: duration_time is the wall time of the run (of the
 * interval with -I), user_time and system_time the command's rusage, all in ns, as perf's. */
#ifndef PMS_CLI_STAT_TOOLS_H
#define PMS_CLI_STAT_TOOLS_H
#include "pmuscope/stat.h"

#include <stdbool.h>
#include <stddef.h>

#define STAT_TOOLS_MAX 16

typedef struct stat_tools {
    size_t n;
    unsigned config[STAT_TOOLS_MAX]; /* PMS_STAT_TOOL_* */
    size_t before[STAT_TOOLS_MAX];   /* how many counted events come before it in -e */
} stat_tools;

/* The tool events' names, in the order of PMS_STAT_TOOL_*. */
extern const char *const stat_tool_names[3];

/* Takes the tool events out of the top level of an -e list: *rest gets the other events
 * (malloc'd, may be empty). Returns false when out of memory or more than STAT_TOOLS_MAX. */
bool stat_tools_split(const char *spec, char **rest, stat_tools *t);

/* The measured values (n counted events, in v) with the tool events inserted where -e had
 * them, into out (n + t->n). A zero time is <not counted>, as perf shows it; has_rusage false
 * (-I intervals, -p) leaves user_time and system_time not counted. */
void stat_tools_merge(const stat_tools *t, const pms_stat_value *v, size_t n, double duration_ns,
                      bool has_rusage, double user_ns, double sys_ns, pms_stat_value *out);
#endif
