/* Scaling of multiplexed counts and interval differences. */
#include "pmuscope/counter.h"

const char *pms_count_state_name(pms_count_state s)
{
    switch (s) {
    case PMS_COUNT_COUNTED: return "counted";
    case PMS_COUNT_NOT_COUNTED: return "<not counted>";
    case PMS_COUNT_NOT_SUPPORTED: return "<not supported>";
    }
    return "?";
}

void pms_count_scale(pms_count *c)
{
    if (c->state == PMS_COUNT_NOT_SUPPORTED) {
        c->value = 0;
        return;
    }
    if (c->running == 0) {
        c->state = PMS_COUNT_NOT_COUNTED;
        c->value = 0;
        return;
    }
    c->state = PMS_COUNT_COUNTED;
    c->value = c->running >= c->enabled ? (double)c->raw
                                        : (double)c->raw * ((double)c->enabled / (double)c->running);
}

static uint64_t diff(uint64_t a, uint64_t b) { return a >= b ? a - b : 0; }

void pms_count_delta(const pms_count *now, const pms_count *before, size_t n, pms_count *out)
{
    for (size_t i = 0; i < n; i++) {
        out[i].raw = diff(now[i].raw, before[i].raw);
        out[i].enabled = diff(now[i].enabled, before[i].enabled);
        out[i].running = diff(now[i].running, before[i].running);
        out[i].state = now[i].state == PMS_COUNT_NOT_SUPPORTED ? PMS_COUNT_NOT_SUPPORTED : PMS_COUNT_COUNTED;
        pms_count_scale(&out[i]);
    }
}
