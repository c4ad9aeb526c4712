/* Internal: the name perf gives an event that its file does not name (perf's evsel__name in
 * tools/perf/util/evsel.c): old files, pipe-mode files before perf 4.x sent EVENT_UPDATE
 * names (their deprecated HEADER_EVENT_TYPE records, which perf 6.1 ignores, named only
 * the config), and files of other tools. */
#ifndef PMS_IO_PERF_EVENT_NAMES_H
#define PMS_IO_PERF_EVENT_NAMES_H
#include <linux/perf_event.h>
#include <stddef.h>

/* Writes perf's name of a hardware, software or raw event with its modifiers (":ppH",
 * ":u"...) to buf; returns 0, or -1 for other types (buf untouched). */
int pms__perf_event_name(const struct perf_event_attr *a, char *buf, size_t size);

#endif
