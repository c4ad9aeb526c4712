/* The sampled side of a sweep (Wu & Mencer): the command recorded at every sampling period
 * (in one run for a software event, else once per period), in this process through
 * pmuscope/record.h, each period's samples measured against the truth (recorded by valgrind
 * beside them with pms_hotspot_sweep_run). With randomisation each sample adds a uniform
 * value below the largest power of two not above period/8, as pfmon did in the paper. */
#include "hotspot/recordings.h"
#include "hotspot/report_common.h"
#include "hotspot/sweep_runs.h"
#include "hotspot/truth_record.h"
#include "pmuscope/hotspot_report.h"
#include "pmuscope/record.h"
#include "util/error.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Says what the sweep is doing (cfg->note), in words. */
static void note(const pms_hotspot_sweep_config *cfg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const pms_hotspot_sweep_config *cfg, const char *fmt, ...)
{
    if (!cfg->note) return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cfg->note(cfg->ctx, text);
}

/* Records the command once into cfg->scratch, sampling periods first..first+n-1 of sw,
 * one event each (a file left by the previous run is removed first, so no FILE.old piles up). */
static int record_periods(const pms_hotspot_sweep *sw, const pms_hotspot_sweep_config *cfg, size_t first, size_t n,
                          const pms_child_setup *setup)
{
    pms_sampling_event ev[PMS_HOTSPOT_MAX_PERIODS];
    for (size_t i = 0; i < n; i++) {
        uint64_t period = sw->points[first + i].period;
        ev[i] = (pms_sampling_event){.period = period};
        int rc = pms_event_parse(sw->event, &ev[i].event);
        if (rc)
            return rc;
        unsigned bits = random_bits(period);
        if (sw->randomized && bits)
            ev[i].randomize = (pms_randomize){.kind = PMS_RANDOMIZE_MASK, .bits = bits > 32 ? 32 : bits,
                                              .seed = sw->seed ? sw->seed + period : 0};
    }
    int argc = 0;
    while (cfg->argv[argc])
        argc++;
    pms_record_config rec = {.events = ev, .nevents = n, .argv = cfg->argv, .output = cfg->scratch,
                             .cmdline_argc = argc, .cmdline_argv = cfg->argv, .stop = cfg->stop, .child = setup};
    pms_record_result r;
    unlink(cfg->scratch);
    unsigned long long period = (unsigned long long)sw->points[first].period;
    int rc = pms_record_run(&r, &rec);
    if (rc)
        return rc;
    if (r.stopped)
        return pms__fail(PMS_ECHILD, "the sweep was stopped at period %llu", period);
    if (r.exit_code != 0)
        return pms__fail(PMS_ECHILD, "%s %s%d while recorded at period %llu%s", cfg->argv[0],
                         WIFSIGNALED(r.wait_status) ? "was killed by signal " : "exited with status ",
                         WIFSIGNALED(r.wait_status) ? WTERMSIG(r.wait_status) : r.exit_code, period,
                         n > 1 ? " and the others" : "");
    return PMS_OK;
}

/* Software events (cpu-clock) each sample on a timer of their own and are never
 * multiplexed, so one run of the command records every period, one event each: the
 * command runs once beside valgrind instead of once per period. Randomised, each event
 * keeps its drawn periods in its own count, and one under 1 ms on average runs several
 * samples per draw, so that the period changes (each an interrupt of the command) do not
 * inflate its CPU time (the sampler's test_short_randomised_periods_side_by_side: 1.4x at
 * 64 us beside 256 us and 4 ms, against 3.8x changed at every sample). A PMU has a few
 * counters, and sampling events multiplexed on them would lose samples: one run per
 * period there. */
static size_t periods_per_run(const pms_hotspot_sweep *sw)
{
    pms_event e;
    return pms_event_parse(sw->event, &e) == PMS_OK && pms_event_is_software(&e) ? sw->nperiods : 1;
}

/* Records periods i..i+n-1 in one run and reads the recording into recs[0..n). */
static int record_some(const pms_hotspot_sweep *sw, const pms_hotspot_sweep_config *cfg, size_t i, size_t n,
                       pms_hotspot_recording *recs, pms__sweep_runs *runs)
{
    if (cfg->progress)
        cfg->progress(cfg->ctx, i, sw->nperiods);
    int rc = record_periods(sw, cfg, i, n, pms__sweep_runs_native(runs, sw));
    if (rc == PMS_OK && (rc = pms__hotspot_recordings_read(recs, n, cfg->scratch)) == PMS_OK)
        for (size_t k = 0; k < n; k++) {
            char name[32];
            note(cfg, "recorded period %s: %llu samples of %s", pms_hotspot_period_name(sw->points[i + k].period, name, sizeof name),
                 (unsigned long long)recs[k].total, sw->event);
        }
    if (rc == PMS_OK && cfg->keep_recordings && n < sw->nperiods) { /* SCRATCH.PERIOD: one run of several */
        char kept[PATH_MAX + 32];
        snprintf(kept, sizeof kept, "%s.%llu", cfg->scratch, (unsigned long long)sw->points[i].period);
        if (rename(cfg->scratch, kept) < 0)
            rc = pms__fail_errno(PMS_EIO, errno, "cannot keep the recording as %s", kept);
    }
    return rc;
}

/* Records every period of sw into recs[0..nperiods); *done: how many were read. */
static int record_all(const pms_hotspot_sweep *sw, const pms_hotspot_sweep_config *cfg, pms_hotspot_recording *recs,
                      size_t *done, pms__sweep_runs *runs)
{
    size_t step = periods_per_run(sw);
    int rc = PMS_OK;
    for (*done = 0; rc == PMS_OK && *done < sw->nperiods;) {
        size_t n = sw->nperiods - *done < step ? sw->nperiods - *done : step;
        if ((rc = record_some(sw, cfg, *done, n, &recs[*done], runs)) == PMS_OK)
            *done += n;
    }
    if (rc || !cfg->keep_recordings)
        unlink(cfg->scratch);
    return rc;
}

/* A period whose samples fall in no file at all (none: the period is longer than the
 * command's run) has no measures; the others are measured, with the ideal sampler beside. */
static int evaluate_one(const pms_hotspot_sweep *sw, pms_hotspot_sweep_point *p, const pms_hotspot_truth *truth,
                        const pms_hotspot_recording *rec, size_t top)
{
    memset(&p->result, 0, sizeof p->result);
    memset(&p->ideal, 0, sizeof p->ideal);
    p->samples = rec->total;
    uint64_t in_files = 0;
    for (size_t i = 0; i < rec->n; i++)
        in_files += rec->samples[i].count;
    p->valid = in_files > 0;
    if (!p->valid)
        return PMS_OK;
    int rc = pms_hotspot_measure_samples(truth, rec->samples, rec->n, top, &p->result);
    if (rc == PMS_OK && sw->ideal_draws) {
        pms_hotspot_ideal_config ic = {.draws = sw->ideal_draws, .seed = sw->seed + p->period};
        rc = pms_hotspot_ideal_sampler(&p->ideal, truth, p->result.measures.ns, &ic);
    }
    p->valid = rc == PMS_OK;
    return rc;
}

static int evaluate_all(pms_hotspot_sweep *sw, const pms_hotspot_truth *truth, const pms_hotspot_recording *recs,
                        size_t done, const pms_hotspot_sweep_config *cfg)
{
    int rc = PMS_OK;
    for (size_t i = 0; i < done && rc == PMS_OK; i++) {
        char name[32];
        rc = evaluate_one(sw, &sw->points[i], truth, &recs[i], cfg->top);
        if (rc < 0)
            pms__fail_context(rc, "period %s", pms_hotspot_period_name(sw->points[i].period, name, sizeof name));
    }
    return rc;
}

int pms_hotspot_sweep_record(pms_hotspot_sweep *sw, const pms_hotspot_truth *truth,
                             const pms_hotspot_sweep_config *cfg)
{
    pms_hotspot_recording *recs = calloc(sw->nperiods ? sw->nperiods : 1, sizeof *recs);
    if (!recs)
        return pms__fail(PMS_ENOMEM, "out of memory for the sweep's recordings");
    size_t done = 0;
    pms__sweep_runs runs;
    int rc = pms__sweep_runs_init(&runs, sw, cfg->scratch);
    if (rc == PMS_OK)
        rc = record_all(sw, cfg, recs, &done, &runs);
    pms__sweep_runs_finish(&runs, sw, 0);
    if (rc == PMS_OK)
        rc = evaluate_all(sw, truth, recs, done, cfg);
    for (size_t i = 0; i < done; i++)
        pms_hotspot_recording_free(&recs[i]);
    free(recs);
    return rc;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* Waits for valgrind and loads the truth it wrote. */
static int finish_truth(pms_hotspot_sweep *sw, pms__truth_job *job, const char *dir, pms_hotspot_truth **truth,
                        const struct timespec *t0, const pms_hotspot_sweep_config *cfg)
{
    if (cfg->stop && *cfg->stop) { /* stopped between the recordings and the wait */
        pms__truth_record_abort(job);
        return pms__fail(PMS_ECHILD, "the sweep was stopped while valgrind ran");
    }
    note(cfg, "waiting for valgrind");
    int rc = pms__truth_record_finish(job, (volatile int *)cfg->stop);
    if (rc == PMS_OK)
        rc = pms_hotspot_truth_load(truth, dir);
    sw->valgrind_seconds = seconds_since(t0);
    if (rc == PMS_OK)
        note(cfg, "valgrind done in %.1f s: %llu instructions in %zu process%s", sw->valgrind_seconds,
             (unsigned long long)pms_hotspot_truth_instructions(*truth), pms_hotspot_truth_nprocesses(*truth),
             pms_hotspot_truth_nprocesses(*truth) == 1 ? "" : "es");
    return rc;
}

int pms_hotspot_sweep_run(pms_hotspot_sweep *sw, const char *dir, pms_hotspot_truth **truth,
                          const pms_hotspot_sweep_config *cfg)
{
    *truth = NULL;
    pms_hotspot_recording *recs = calloc(sw->nperiods ? sw->nperiods : 1, sizeof *recs);
    if (!recs)
        return pms__fail(PMS_ENOMEM, "out of memory for the sweep's recordings");
    pms__sweep_runs runs;
    int rc = pms__sweep_runs_init(&runs, sw, cfg->scratch);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pms__truth_job job = {.child = {.pid = -1}};
    /* Without branches: the measures need each instruction's count and the distinct block
     * counts, which the counts give alone (every instruction of a block runs as often). */
    if (rc == PMS_OK && (rc = pms__truth_record_start(&job, dir, cfg->argv, 0, pms__sweep_runs_valgrind(&runs, sw))) ==
                            PMS_OK)
        note(cfg, "valgrind (callgrind) started on %s; the command runs natively beside it", cfg->argv[0]);
    size_t done = 0;
    /* valgrind runs on one CPU while the recordings take turns beside it: cpu-clock and the
     * hardware events count the recorded process's own time, so sharing the machine
     * changes how long they take, not their samples. */
    if (rc == PMS_OK)
        rc = record_all(sw, cfg, recs, &done, &runs);
    if (rc)
        pms__truth_record_abort(&job);
    else
        rc = finish_truth(sw, &job, dir, truth, &t0, cfg);
    pms__sweep_runs_finish(&runs, sw, 1);
    if (rc == PMS_OK)
        rc = evaluate_all(sw, *truth, recs, done, cfg);
    for (size_t i = 0; i < done; i++)
        pms_hotspot_recording_free(&recs[i]);
    free(recs);
    return rc;
}

double pms_hotspot_outside_share(const pms_hotspot_result *r)
{
    uint64_t in_files = r->measures.ns + r->outside_samples;
    return in_files ? (double)(r->outside_samples + r->unexecuted_samples) / (double)in_files : 0.0;
}
