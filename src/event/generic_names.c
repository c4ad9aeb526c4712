/* perf's generic event names: hardware, hardware cache and software events,
 * with the aliases perf accepts (see perf list). */
#include "event/event_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define HW(n, c, d) {n, d, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c}
#define SW(n, c, d) {n, d, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c}

static const pms_generic_event generic_events[] = {
    HW("cycles", CPU_CYCLES, "CPU cycles"),
    HW("cpu-cycles", CPU_CYCLES, "CPU cycles (alias of cycles)"),
    HW("instructions", INSTRUCTIONS, "retired instructions"),
    HW("cache-references", CACHE_REFERENCES, "last-level cache accesses"),
    HW("cache-misses", CACHE_MISSES, "last-level cache misses"),
    HW("branch-instructions", BRANCH_INSTRUCTIONS, "retired branch instructions"),
    HW("branches", BRANCH_INSTRUCTIONS, "retired branch instructions (alias)"),
    HW("branch-misses", BRANCH_MISSES, "mispredicted branches"),
    HW("bus-cycles", BUS_CYCLES, "bus cycles"),
    HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND, "cycles stalled in the front end"),
    HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND, "cycles stalled in the front end (alias)"),
    HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND, "cycles stalled in the back end"),
    HW("idle-cycles-backend", STALLED_CYCLES_BACKEND, "cycles stalled in the back end (alias)"),
    HW("ref-cycles", REF_CPU_CYCLES, "reference cycles, not affected by frequency scaling"),
    SW("cpu-clock", CPU_CLOCK, "CPU clock timer (ns), per CPU"),
    SW("task-clock", TASK_CLOCK, "time the task ran on a CPU (ns)"),
    SW("page-faults", PAGE_FAULTS, "page faults"),
    SW("faults", PAGE_FAULTS, "page faults (alias)"),
    SW("context-switches", CONTEXT_SWITCHES, "context switches"),
    SW("cs", CONTEXT_SWITCHES, "context switches (alias)"),
    SW("cpu-migrations", CPU_MIGRATIONS, "migrations to another CPU"),
    SW("migrations", CPU_MIGRATIONS, "migrations to another CPU (alias)"),
    SW("minor-faults", PAGE_FAULTS_MIN, "minor page faults"),
    SW("major-faults", PAGE_FAULTS_MAJ, "major page faults (disk I/O)"),
    SW("alignment-faults", ALIGNMENT_FAULTS, "alignment faults"),
    SW("emulation-faults", EMULATION_FAULTS, "emulation faults"),
    SW("cgroup-switches", CGROUP_SWITCHES, "context switches to a task in another cgroup"),
    SW("dummy", DUMMY, "placeholder that counts nothing"),
};

/* Cache events are composed as <cache>-<op>s (accesses) or <cache>-<op>-misses. */
static const struct { const char *name; unsigned id; } caches[] = {
    {"L1-dcache", PERF_COUNT_HW_CACHE_L1D}, {"L1-icache", PERF_COUNT_HW_CACHE_L1I},
    {"LLC", PERF_COUNT_HW_CACHE_LL},        {"dTLB", PERF_COUNT_HW_CACHE_DTLB},
    {"iTLB", PERF_COUNT_HW_CACHE_ITLB},     {"branch", PERF_COUNT_HW_CACHE_BPU},
    {"node", PERF_COUNT_HW_CACHE_NODE},
};
static const struct { const char *op, *plural; unsigned id; } cache_ops[] = {
    {"load", "loads", PERF_COUNT_HW_CACHE_OP_READ},
    {"store", "stores", PERF_COUNT_HW_CACHE_OP_WRITE},
    {"prefetch", "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH},
};

static uint64_t cache_config(unsigned cache, unsigned op, unsigned result)
{
    return (uint64_t)cache | ((uint64_t)op << 8) | ((uint64_t)result << 16);
}

bool pms__generic_lookup(const char *name, uint32_t *type, uint64_t *config)
{
    for (size_t i = 0; i < sizeof generic_events / sizeof generic_events[0]; i++)
        if (strcasecmp(name, generic_events[i].name) == 0) {
            *type = generic_events[i].type;
            *config = generic_events[i].config;
            return true;
        }
    for (size_t c = 0; c < sizeof caches / sizeof caches[0]; c++) {
        size_t n = strlen(caches[c].name);
        if (strncasecmp(name, caches[c].name, n) != 0 || name[n] != '-') continue;
        const char *rest = name + n + 1;
        for (size_t o = 0; o < sizeof cache_ops / sizeof cache_ops[0]; o++) {
            size_t m = strlen(cache_ops[o].op);
            unsigned result;
            if (strcasecmp(rest, cache_ops[o].plural) == 0)
                result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
            else if (strncasecmp(rest, cache_ops[o].op, m) == 0 && strcasecmp(rest + m, "-misses") == 0)
                result = PERF_COUNT_HW_CACHE_RESULT_MISS;
            else
                continue;
            *type = PERF_TYPE_HW_CACHE;
            *config = cache_config(caches[c].id, cache_ops[o].id, result);
            return true;
        }
    }
    return false;
}

int pms__generic_foreach(pms_event_visit_fn fn, void *ctx)
{
    int r;
    for (size_t i = 0; i < sizeof generic_events / sizeof generic_events[0]; i++)
        if ((r = fn(generic_events[i].name, generic_events[i].description, PMS_EVSRC_GENERIC, ctx)))
            return r;
    for (size_t c = 0; c < sizeof caches / sizeof caches[0]; c++)
        for (size_t o = 0; o < sizeof cache_ops / sizeof cache_ops[0]; o++) {
            char name[64], desc[96];
            snprintf(name, sizeof name, "%s-%s", caches[c].name, cache_ops[o].plural);
            snprintf(desc, sizeof desc, "hardware cache event: %s %s accesses", caches[c].name, cache_ops[o].op);
            if ((r = fn(name, desc, PMS_EVSRC_GENERIC, ctx))) return r;
            snprintf(name, sizeof name, "%s-%s-misses", caches[c].name, cache_ops[o].op);
            snprintf(desc, sizeof desc, "hardware cache event: %s %s misses", caches[c].name, cache_ops[o].op);
            if ((r = fn(name, desc, PMS_EVSRC_GENERIC, ctx))) return r;
        }
    return 0;
}
