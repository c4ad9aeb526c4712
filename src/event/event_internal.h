/* Internal: the pieces of the event parser (see include/pmuscope/event.h). */
#ifndef PMS_EVENT_INTERNAL_H
#define PMS_EVENT_INTERNAL_H
#include "pmuscope/event.h"

#include <stdbool.h>

/* A generic name: perf's hardware, cache and software events. */
typedef struct pms_generic_event {
    const char *name;
    const char *description;
    uint32_t type;
    uint64_t config;
} pms_generic_event;

/* Looks up a generic hardware/software name or a composed cache name
 * (L1-dcache-load-misses, ...), case-insensitively. */
bool pms__generic_lookup(const char *name, uint32_t *type, uint64_t *config);
/* Calls fn for every generic name (hardware, cache, software). */
int pms__generic_foreach(pms_event_visit_fn fn, void *ctx);

/* perf's tool events: the config of a tool event name (case-insensitive), and every name. */
bool pms__tool_lookup(const char *name, uint64_t *config);
int pms__tool_foreach(pms_event_visit_fn fn, void *ctx);

/* Applies perf's modifier letters (the text after ':', e.g. "upp") to attr.
 * what names the event in the message. */
int pms__modifiers_apply(const char *mods, const char *what, struct perf_event_attr *attr);
/* True if s is non-empty and made only of modifier letters. */
bool pms__modifiers_valid(const char *s);

/* ev in user space only, named as perf names it then (evsel__fallback): "task-clock:u",
 * "cycles:pu", "cpu/event=0x3c/u"; the libpfm4 name INST_RETIRED:ANY_P gets ":u". */
int pms__event_user_only(const pms_event *ev, pms_event *user);

/* The directory that stands for /sys ($PMS_SYSFS_ROOT or "/sys"). */
const char *pms__sysfs_root(void);
/* Parses "pmu/term=v,.../" (spec without modifiers) into attr. */
int pms__sysfs_parse(const char *spec, struct perf_event_attr *attr);
/* Calls fn for every event alias in the sysfs events/ directory of each PMU. */
int pms__sysfs_foreach(pms_event_visit_fn fn, void *ctx);
/* True if the PMU of this type counts only system-wide (it has a cpumask); names it in pmu. */
bool pms__sysfs_pmu_is_system_wide(uint32_t type, char *pmu, size_t size);
/* True if the machine exposes a core hardware PMU (devices/cpu or devices/cpu_core, ...). */
bool pms__sysfs_has_core_pmu(void);

/* Encodes a libpfm4 name (with its own :umask:modifier syntax) into attr.
 * Returns PMS_ENOENT with a message if libpfm4 does not know the name. */
int pms__pfm_encode(const char *name, struct perf_event_attr *attr);
/* Calls fn for every event of the PMUs libpfm4 detects (or is forced to). */
int pms__pfm_foreach(pms_event_visit_fn fn, void *ctx);

#endif
