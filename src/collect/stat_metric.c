/* Values in perf's units and perf stat's derived metrics (tools/perf/util/stat-shadow.c). */
#include "pmuscope/stat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void pms_stat_value_set(pms_stat_value *v, const pms_event *ev, const pms_count *c)
{
    snprintf(v->name, sizeof v->name, "%s", ev->name);
    v->type = ev->attr.type;
    v->config = ev->attr.config;
    double unit = pms_event_counts_time(v->type, v->config) ? 1e6 : 1; /* ns to msec */
    v->value = c->value / unit;
    v->uncertainty = c->uncertainty / unit;
    v->rel_stddev = NAN;
    v->enabled = c->enabled;
    v->running = c->running;
    v->state = c->state;
    v->flaw = c->flaw;
    v->per_cpu = false;
    v->cpu = 0;
    v->cgroup[0] = '\0';
}

const char *pms_stat_unit(const pms_stat_value *v)
{
    if (v->type == PMS_EVENT_TOOL_TYPE) return "ns";
    return pms_event_counts_time(v->type, v->config) ? "msec" : "";
}

double pms_stat_running_pct(const pms_stat_value *v)
{
    if (v->running == 0 || v->enabled == 0 || v->running >= v->enabled) return 100.0;
    return 100.0 * (double)v->running / (double)v->enabled;
}

bool pms_stat_multiplexed(const pms_stat_value *v)
{
    return v->state == PMS_COUNT_COUNTED && v->running < v->enabled;
}

/* The first counted value of the given type/config (of the same CPU as like with -A), or NULL. */
static const pms_stat_value *find(const pms_stat_value *v, size_t n, const pms_stat_value *like, uint32_t type,
                                  uint64_t config)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].type == type && v[i].config == config && v[i].state == PMS_COUNT_COUNTED &&
            v[i].per_cpu == like->per_cpu && (!like->per_cpu || v[i].cpu == like->cpu) &&
            strcmp(v[i].cgroup, like->cgroup) == 0)
            return &v[i];
    return NULL;
}

static const pms_stat_value *find_task_clock(const pms_stat_value *v, size_t n, const pms_stat_value *like)
{
    const pms_stat_value *t = find(v, n, like, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
    return t ? t : find(v, n, like, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

bool pms_stat_metric(const pms_stat_value *v, size_t n, size_t i, double elapsed_s, double *metric,
                     const char **unit)
{
    const pms_stat_value *e = &v[i];
    if (e->state != PMS_COUNT_COUNTED) return false;
    if (pms_event_counts_time(e->type, e->config)) {
        if (elapsed_s <= 0) return false;
        *metric = e->value / (elapsed_s * 1e3);
        *unit = "CPUs utilized";
        return true;
    }
    if (e->type == PERF_TYPE_HARDWARE) {
        const pms_stat_value *base = NULL;
        switch (e->config) {
        case PERF_COUNT_HW_INSTRUCTIONS:
            base = find(v, n, e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
            *unit = "insn per cycle";
            break;
        case PERF_COUNT_HW_BRANCH_MISSES:
            base = find(v, n, e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
            *unit = "of all branches";
            break;
        case PERF_COUNT_HW_CACHE_MISSES:
            base = find(v, n, e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES);
            *unit = "of all cache refs";
            break;
        default: break;
        }
        if (base && base->value > 0) {
            *metric = e->value / base->value * (e->config == PERF_COUNT_HW_INSTRUCTIONS ? 1.0 : 100.0);
            return true;
        }
    }
    const pms_stat_value *clock = find_task_clock(v, n, e);
    if (!clock || clock->value <= 0) return false;
    double per_s = e->value / (clock->value / 1e3);
    if (e->type == PERF_TYPE_HARDWARE && e->config == PERF_COUNT_HW_CPU_CYCLES) {
        *metric = per_s / 1e9;
        *unit = "GHz";
        return true;
    }
    static const struct { double scale; const char *unit; } rates[] = {
        {1e9, "G/sec"}, {1e6, "M/sec"}, {1e3, "K/sec"}, {1, "/sec"}};
    for (size_t k = 0; k < sizeof rates / sizeof rates[0]; k++)
        if (per_s >= rates[k].scale || k == 3) {
            *metric = per_s / rates[k].scale;
            *unit = rates[k].unit;
            break;
        }
    return true;
}
