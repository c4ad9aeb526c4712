/* The sampled side of a sweep (Wu & Mencer): the command recorded once per sampling
 * period, in this process through pmuscope/record.h, each recording measured against
 * the truth. With randomisation each sample adds a uniform value below the largest power
 * of two not above period/8, as pfmon did in the paper. */
#include "pmuscope/hotspot_report.h"
#include "pmuscope/record.h"
#include "util/error.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bits of the random addition: the largest power of two not above period/8. */
static unsigned random_bits(uint64_t period)
{
    unsigned bits = 0;
    while (bits < 63 && (2ull << bits) <= period / 8)
        bits++;
    return period >= 8 ? bits : 0;
}

/* Records the command at one period into cfg->scratch (a file left by the previous
 * period is removed first, so no FILE.old piles up). */
static int record_at(const pms_hotspot_sweep *sw, const pms_hotspot_sweep_config *cfg, uint64_t period)
{
    pms_sampling_event ev = {.period = period};
    int rc = pms_event_parse(sw->event, &ev.event);
    if (rc)
        return rc;
    unsigned bits = random_bits(period);
    if (sw->randomized && bits)
        ev.randomize = (pms_randomize){.kind = PMS_RANDOMIZE_MASK, .bits = bits > 32 ? 32 : bits,
                                       .seed = sw->seed ? sw->seed + period : 0};
    int argc = 0;
    while (cfg->argv[argc])
        argc++;
    pms_record_config rec = {.events = &ev, .nevents = 1, .argv = cfg->argv, .output = cfg->scratch,
                             .cmdline_argc = argc, .cmdline_argv = cfg->argv, .stop = cfg->stop};
    pms_record_result r;
    unlink(cfg->scratch);
    if ((rc = pms_record_run(&r, &rec)))
        return rc;
    if (r.stopped)
        return pms__fail(PMS_ECHILD, "the sweep was stopped at period %llu", (unsigned long long)period);
    if (r.exit_code != 0)
        return pms__fail(PMS_ECHILD, "%s %s%d while recorded at period %llu", cfg->argv[0],
                         WIFSIGNALED(r.wait_status) ? "was killed by signal " : "exited with status ",
                         WIFSIGNALED(r.wait_status) ? WTERMSIG(r.wait_status) : r.exit_code,
                         (unsigned long long)period);
    return PMS_OK;
}

int pms_hotspot_sweep_record(pms_hotspot_sweep *sw, const pms_hotspot_truth *truth,
                             const pms_hotspot_sweep_config *cfg)
{
    int rc = PMS_OK;
    for (size_t i = 0; i < sw->nperiods && rc == PMS_OK; i++) {
        pms_hotspot_sweep_point *p = &sw->points[i];
        if (cfg->progress)
            cfg->progress(cfg->ctx, i, sw->nperiods);
        pms_hotspot_recording rec;
        if ((rc = record_at(sw, cfg, p->period)) || (rc = pms_hotspot_recording_read(&rec, cfg->scratch)))
            break;
        p->samples = rec.total;
        rc = pms_hotspot_evaluate(truth, rec.samples, rec.n, cfg->top, &p->result);
        p->valid = rc == PMS_OK;
        pms_hotspot_recording_free(&rec);
    }
    unlink(cfg->scratch);
    return rc;
}
