/* perf's names of events by type and config, with its modifiers (evsel__hw_names,
 * evsel__sw_names, evsel__add_modifiers in tools/perf/util/evsel.c of Linux 6.1). */
#include "io/perf_event_names.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

static const char *const hw_names[PERF_COUNT_HW_MAX] = {
    "cycles",        "instructions", "cache-references",        "cache-misses",           "branches",
    "branch-misses", "bus-cycles",   "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
    "cpu-clock",        "task-clock",       "page-faults", "context-switches", "cpu-migrations", "minor-faults",
    "major-faults",     "alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

/* The modifiers perf prints after the name: the excluded contexts (k, u, h) when any is
 * excluded, the precise level (p, pp, ppp), and H/G when the host or guest exclusion is
 * not perf's default for such an event. */
static void add_modifiers(const struct perf_event_attr *a, char *buf, size_t size, size_t at)
{
    char mods[16];
    size_t n = 0;
    bool exclude_guest_default = false;
    if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
        if (!a->exclude_kernel) mods[n++] = 'k';
        if (!a->exclude_user) mods[n++] = 'u';
        if (!a->exclude_hv) mods[n++] = 'h';
        exclude_guest_default = true;
    }
    for (unsigned i = 0; i < a->precise_ip && i < 3; i++) mods[n++] = 'p';
    if (a->precise_ip) exclude_guest_default = true;
    if (a->exclude_host || (bool)a->exclude_guest == exclude_guest_default) {
        if (!a->exclude_host) mods[n++] = 'H';
        if (!a->exclude_guest) mods[n++] = 'G';
    }
    if (n && at < size) snprintf(buf + at, size - at, ":%.*s", (int)n, mods);
}

int pms__perf_event_name(const struct perf_event_attr *a, char *buf, size_t size)
{
    int at;
    if (a->type == PERF_TYPE_HARDWARE && a->config < PERF_COUNT_HW_MAX && hw_names[a->config])
        at = snprintf(buf, size, "%s", hw_names[a->config]);
    else if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof sw_names / sizeof sw_names[0])
        at = snprintf(buf, size, "%s", sw_names[a->config]);
    else if (a->type == PERF_TYPE_RAW)
        at = snprintf(buf, size, "raw 0x%" PRIx64, (uint64_t)a->config);
    else
        return -1;
    if (at > 0) add_modifiers(a, buf, size, (size_t)at);
    return 0;
}
