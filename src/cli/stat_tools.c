/* perf's tool events in `pmuscope stat` (tools/perf/util/evsel.c: duration_time, user_time, system_time). */
#include "cli/stat_tools.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const stat_tool_names[3] = {"duration_time", "user_time", "system_time"};

static int tool_config(const char *item, size_t len)
{
    for (int k = 0; k < 3; k++)
        if (strlen(stat_tool_names[k]) == len && strncmp(item, stat_tool_names[k], len) == 0) return k;
    return -1;
}

bool stat_tools_split(const char *spec, char **rest, stat_tools *t)
{
    t->n = 0;
    size_t len = strlen(spec), out = 0, counted = 0;
    char *r = malloc(len + 1);
    if (!r) return false;
    /* Top-level items: commas outside {groups} and outside pmu/.../ terms. */
    for (size_t i = 0; i < len;) {
        size_t j = i;
        int depth = 0;
        bool in_pmu = false;
        for (; j < len && (depth > 0 || in_pmu || spec[j] != ','); j++) {
            if (spec[j] == '{') depth++;
            else if (spec[j] == '}') depth--;
            else if (spec[j] == '/') in_pmu = !in_pmu;
        }
        int k = tool_config(spec + i, j - i);
        if (k >= 0) {
            if (t->n == STAT_TOOLS_MAX) {
                free(r);
                return false;
            }
            t->config[t->n] = (unsigned)k;
            t->before[t->n++] = counted;
        } else if (j > i) {
            if (out) r[out++] = ',';
            memcpy(r + out, spec + i, j - i);
            out += j - i;
            counted++;
        }
        i = j + 1;
    }
    r[out] = '\0';
    *rest = r;
    return true;
}

static void tool_value(pms_stat_value *v, unsigned config, double ns)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", stat_tool_names[config]);
    v->type = PMS_STAT_TOOL_TYPE;
    v->config = config;
    v->value = ns > 0 ? ns : 0;
    v->rel_stddev = NAN;
    v->enabled = v->running = (uint64_t)llround(v->value);
    v->state = ns > 0 ? PMS_COUNT_COUNTED : PMS_COUNT_NOT_COUNTED;
}

void stat_tools_merge(const stat_tools *t, const pms_stat_value *v, size_t n, double duration_ns,
                      bool has_rusage, double user_ns, double sys_ns, pms_stat_value *out)
{
    size_t o = 0, k = 0;
    for (size_t i = 0; i <= n; i++) {
        for (; k < t->n && t->before[k] == i; k++) {
            unsigned c = t->config[k];
            double ns = c == PMS_STAT_TOOL_DURATION ? duration_ns
                        : !has_rusage               ? 0
                        : c == PMS_STAT_TOOL_USER   ? user_ns
                                                    : sys_ns;
            tool_value(&out[o++], c, ns);
        }
        if (i < n) out[o++] = v[i];
    }
}
