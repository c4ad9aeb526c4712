/* Internal: one line of `perf stat -I` output, CSV (-x SEP) or plain. */
#ifndef PMS_IO_PERFSTAT_LINE_H
#define PMS_IO_PERFSTAT_LINE_H
#include <stdbool.h>
#include <stddef.h>

struct perfstat_line {
    double time;       /* seconds since the start */
    double count;      /* NaN for <not counted> / <not supported> */
    bool per_cpu;      /* the line carried a CPUn column (perf stat -A) */
    double running_pct; /* perf's share of the enabled time the event counted (multiplexing), NaN when not printed */
    const char *event; /* points into the line; event_len characters */
    size_t event_len;
};

/* Parses a CSV line "time[,CPUn],count,unit,event,..." split on sep (4 or more
 * fields, a number first, an event name that is not a number). */
bool pms__perfstat_parse_csv(const char *s, size_t len, char sep, struct perfstat_line *out);
/* Parses a plain line "time [CPUn] count [unit] event [# ...] [(pct%)]"; counts
 * may carry thousands separators. */
bool pms__perfstat_parse_plain(const char *s, size_t len, struct perfstat_line *out);

#endif
