/* Scaling of multiplexed counts, their uncertainty and interval differences. */
#include "pmuscope/counter.h"
#include "pmuscope/multiplex.h"

#include <math.h>

const char *pms_count_state_name(pms_count_state s)
{
    switch (s) {
    case PMS_COUNT_COUNTED: return "counted";
    case PMS_COUNT_NOT_COUNTED: return "<not counted>";
    case PMS_COUNT_NOT_SUPPORTED: return "<not supported>";
    case PMS_COUNT_IMPOSSIBLE: return "<impossible>";
    }
    return "?";
}

const char *pms_count_flaw_text(pms_count_flaw f)
{
    switch (f) {
    case PMS_FLAW_NONE: return "";
    case PMS_FLAW_BACKWARDS: return "the count or its times went backwards between two reads";
    case PMS_FLAW_RUNNING_EXCEEDS: return "its running time exceeds its enabled time";
    case PMS_FLAW_ABOVE_MAXIMUM: return "it is above the most the event can count in its enabled time";
    }
    return "?";
}

static void impossible(pms_count *c, pms_count_flaw flaw)
{
    c->state = PMS_COUNT_IMPOSSIBLE;
    c->flaw = flaw;
    c->value = 0;
    c->uncertainty = NAN;
}

void pms_count_scale(pms_count *c)
{
    c->uncertainty = 0;
    if (c->state == PMS_COUNT_NOT_SUPPORTED) {
        c->value = 0;
        return;
    }
    if (c->state == PMS_COUNT_IMPOSSIBLE) {
        impossible(c, c->flaw);
        return;
    }
    c->flaw = PMS_FLAW_NONE;
    if (c->running > c->enabled) {
        impossible(c, PMS_FLAW_RUNNING_EXCEEDS);
        return;
    }
    if (c->running == 0) {
        c->state = PMS_COUNT_NOT_COUNTED;
        c->value = 0;
        return;
    }
    c->state = PMS_COUNT_COUNTED;
    if (c->running == c->enabled) {
        c->value = (double)c->raw;
        return;
    }
    c->value = (double)c->raw * ((double)c->enabled / (double)c->running);
    c->uncertainty = pms_mux_uncertainty(c->windows >= 2 ? c->dispersion : -1, c->raw, c->enabled, c->running);
}

void pms_count_delta(const pms_count *now, const pms_count *before, size_t n, pms_count *out)
{
    for (size_t i = 0; i < n; i++) {
        const pms_count *a = &now[i], *b = &before[i];
        pms_count *d = &out[i];
        bool backwards = a->raw < b->raw || a->enabled < b->enabled || a->running < b->running;
        *d = (pms_count){.raw = backwards ? 0 : a->raw - b->raw,
                         .enabled = backwards ? 0 : a->enabled - b->enabled,
                         .running = backwards ? 0 : a->running - b->running,
                         .state = a->state == PMS_COUNT_NOT_SUPPORTED ? PMS_COUNT_NOT_SUPPORTED
                                  : backwards                         ? PMS_COUNT_IMPOSSIBLE
                                                                      : PMS_COUNT_COUNTED,
                         .flaw = backwards ? PMS_FLAW_BACKWARDS : PMS_FLAW_NONE,
                         .dispersion = a->dispersion,
                         .windows = a->windows};
        pms_count_scale(d);
    }
}

void pms_count_check(pms_count *c, const pms_event *ev)
{
    /* Only a scaled count: an unscaled clock is what the kernel counted, a few us off its
     * enabled time at most (the two are taken from different clocks). */
    if (c->state != PMS_COUNT_COUNTED || c->running >= c->enabled ||
        !pms_event_counts_time(ev->attr.type, ev->attr.config))
        return;
    if (c->value > 1.01 * (double)c->enabled) impossible(c, PMS_FLAW_ABOVE_MAXIMUM);
}
