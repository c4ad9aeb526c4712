/* The sampled side of a sweep (Wu & Mencer): the command recorded once per sampling
 * period, in this process through pmuscope/record.h, each recording measured against
 * the truth (recorded by valgrind beside them with pms_hotspot_sweep_run). With randomisation each sample adds a uniform value below the largest power
 * of two not above period/8, as pfmon did in the paper. */
#include "hotspot/truth_record.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/record.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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

/* Records period i and reads the recording into memory. */
static int record_one(const pms_hotspot_sweep *sw, const pms_hotspot_sweep_config *cfg, size_t i,
                      pms_hotspot_recording *rec)
{
    if (cfg->progress)
        cfg->progress(cfg->ctx, i, sw->nperiods);
    int rc = record_at(sw, cfg, sw->points[i].period);
    return rc ? rc : pms_hotspot_recording_read(rec, cfg->scratch);
}

static int evaluate_one(pms_hotspot_sweep_point *p, const pms_hotspot_truth *truth, const pms_hotspot_recording *rec,
                        size_t top)
{
    p->samples = rec->total;
    int rc = pms_hotspot_evaluate(truth, rec->samples, rec->n, top, &p->result);
    p->valid = rc == PMS_OK;
    return rc;
}

int pms_hotspot_sweep_record(pms_hotspot_sweep *sw, const pms_hotspot_truth *truth,
                             const pms_hotspot_sweep_config *cfg)
{
    int rc = PMS_OK;
    for (size_t i = 0; i < sw->nperiods && rc == PMS_OK; i++) {
        pms_hotspot_recording rec;
        if ((rc = record_one(sw, cfg, i, &rec)))
            break;
        rc = evaluate_one(&sw->points[i], truth, &rec, cfg->top);
        pms_hotspot_recording_free(&rec);
    }
    unlink(cfg->scratch);
    return rc;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

int pms_hotspot_sweep_run(pms_hotspot_sweep *sw, const char *dir, pms_hotspot_truth **truth,
                          const pms_hotspot_sweep_config *cfg)
{
    *truth = NULL;
    pms_hotspot_recording *recs = calloc(sw->nperiods ? sw->nperiods : 1, sizeof *recs);
    if (!recs)
        return pms__fail(PMS_ENOMEM, "out of memory for the sweep's recordings");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pms__truth_job job;
    /* Without branches: the measures need each instruction's count and the distinct block
     * counts, which the counts give alone (every instruction of a block runs as often). */
    int rc = pms__truth_record_start(&job, dir, cfg->argv, 0);
    size_t done = 0;
    /* valgrind runs on one CPU while the recordings take turns beside it: cpu-clock and the
     * hardware events count the recorded process's own time, so sharing the machine
     * changes how long they take, not their samples. */
    for (; rc == PMS_OK && done < sw->nperiods; done++)
        if ((rc = record_one(sw, cfg, done, &recs[done])))
            break;
    unlink(cfg->scratch);
    if (rc)
        pms__truth_record_abort(&job);
    else if ((rc = pms__truth_record_finish(&job)) == PMS_OK)
        rc = pms_hotspot_truth_load(truth, dir);
    sw->valgrind_seconds = seconds_since(&t0);
    for (size_t i = 0; i < done && rc == PMS_OK; i++)
        rc = evaluate_one(&sw->points[i], *truth, &recs[i], cfg->top);
    for (size_t i = 0; i < done; i++)
        pms_hotspot_recording_free(&recs[i]);
    free(recs);
    return rc;
}
