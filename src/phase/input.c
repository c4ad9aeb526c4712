/* Where a phase analysis gets its intervals: a file replayed, or a live program (live.c). */
#include "pmuscope/phase_input.h"
#include "io/bbv_internal.h"
#include "io/input_spool.h"
#include "io/perfdata_head.h"
#include "io/text_lines.h"
#include "phase/live.h"
#include "pmuscope/perfdata.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms_phase_input_defaults(pms_phase_input *in)
{
    memset(in, 0, sizeof *in);
    pms_phase_config_default(&in->cfg);
    pms_phase_monitor_config_default(&in->live);
    in->cfg.classifier.threshold = PMS_PHASE_THRESHOLD_AUTO; /* these by the samples per interval */
    in->cfg.classifier.transition_threshold = 0;
    in->cfg.classifier.signature_size = 0;
}

int pms_phase_input_parse_format(const char *s, pms_phase_format *out)
{
    static const char *const names[] = {"auto", "perf", "bbv", "simpoint"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *out = (pms_phase_format)i;
            return 1;
        }
    return 0;
}

static pms_phase_format detect(const char *path)
{
    bool perfdata;
    /* a file that cannot be opened: the BBV reader reports the error */
    return pms_perfdata_sniff(&perfdata, path) == PMS_OK && perfdata ? PMS_PHASE_FORMAT_PERF : PMS_PHASE_FORMAT_BBV;
}

/* Replays the file at path (in->path, or the copy of a pipe) under in->path's name. */
static int replay_from(pms_phase_input *in, const char *path, pms_phase_run *run)
{
    pms_phase_format format = in->format == PMS_PHASE_FORMAT_AUTO ? detect(path) : in->format;
    int rc;
    if (format == PMS_PHASE_FORMAT_PERF) {
        /* each thread its own intervals; the threshold is resolved by the samples per
         * interval once the file's events are known */
        if ((rc = pms_phase_threads_create(&in->threads, &in->cfg, 0, 1))) return rc;
        run->threads = in->threads;
        rc = pms_phase_replay_perfdata_threads(in->threads, path, &in->source, pms_phase_run_collect, run);
        if (in->source.interval_event) {
            snprintf(run->source, sizeof run->source, "%s (perf.data, intervals of %s)", in->path,
                     in->source.interval_event);
            run->size_unit = "count";
        } else {
            snprintf(run->source, sizeof run->source, "%s (perf.data, %llu samples per interval)", in->path,
                     (unsigned long long)pms_phase_threads_samples_per_interval(in->threads));
            run->size_unit = "samples";
        }
        if (in->source.interval_event && pms_phase_threads_samples_per_interval(in->threads) == 1)
            run->note = "each interval holds one sample: the recording's sample and interval events have the same "
                        "period (perf record's -c sets every event's period; give each its own, e.g. -e "
                        "cpu-clock/period=4000000/ -e task-clock/period=28000000/)";
        run->metric_name = run->n && run->rows[0].ev.metric_is_cpi ? "CPI" : "ns/sample";
        run->metric_about = run->n && run->rows[0].ev.metric_is_cpi
                                ? "cycles / instructions, read in the recording's samples at each interval's end"
                                : "wall-clock ns per sample, as the recording reads no cycles and instructions in "
                                  "its samples";
        return rc;
    }
    if (format == PMS_PHASE_FORMAT_SIMPOINT) {
        if (in->pc_path) return pms__fail(PMS_EINVAL, "a PC file belongs to exp-bbv files, not SimPoint .bb");
        rc = pms_simpoint_load(&in->bbv, path);
    } else {
        rc = pms_bbv_load(&in->bbv, path, in->pc_path);
    }
    if (rc) return rc;
    uint64_t base = pms_bbv_interval_size(in->bbv);
    pms_phase_engine *engine;
    if ((rc = pms_phase_threads_create(&in->threads, &in->cfg, base, 0))) return rc;
    run->threads = in->threads;
    if ((rc = pms_phase_threads_get(in->threads, 0, &engine))) return rc;
    if ((rc = pms_phase_replay_bbv(engine, in->bbv, pms_phase_run_collect, run))) return rc;
    snprintf(run->source, sizeof run->source, "%s (%s, %zu vectors%s%s)", in->path,
             format == PMS_PHASE_FORMAT_SIMPOINT ? "SimPoint .bb" : "exp-bbv", pms_bbv_nintervals(in->bbv),
             in->pc_path ? ", blocks by address from " : "", in->pc_path ? in->pc_path : "");
    run->size_unit = "instructions";
    run->samples_name = "blocks";
    run->metric_name = "CPI"; /* exact vectors carry no timing: shown as "-" */
    run->metric_about = "none: exact block vectors carry no cycles";
    return PMS_OK;
}

/* A pipe's head, before it is copied: a perf.data's magic and header, or the first lines of
 * exp-bbv or SimPoint vectors (both read by the vector reader), as --format says or as
 * the head looks. */
static int head_check(const unsigned char *head, size_t len, const char *name, void *ctx)
{
    const pms_phase_input *in = ctx;
    bool perf = in->format == PMS_PHASE_FORMAT_AUTO ? pms__perfdata_magic(head, len) : in->format == PMS_PHASE_FORMAT_PERF;
    if (perf) return pms__perfdata_check_head(head, len, name, NULL);
    return pms__text_head_check(head, len, name, pms__bbv_head, NULL);
}

static int replay(pms_phase_input *in, pms_phase_run *run)
{
    pms__input file; /* a pipe is copied once, so that its first bytes can be looked at */
    int rc = pms__input_open(&file, in->path, head_check, in);
    if (rc) return rc;
    rc = pms__input_status(&file, replay_from(in, file.path, run));
    pms__input_close(&file);
    return rc;
}

int pms_phase_input_run(pms_phase_input *in, pms_phase_run *run)
{
    in->live.phase = in->cfg;
    int rc = in->path ? replay(in, run) : pms__phase_live_run(in, run);
    /* What the report shows: the settings in use, those left to the samples per interval resolved. */
    if (run->threads) in->cfg.classifier = pms_phase_threads_config(run->threads)->classifier;
    return rc;
}

void pms_phase_input_close(pms_phase_input *in)
{
    pms_phase_monitor_close(in->monitor);
    pms_phase_threads_destroy(in->threads);
    pms_bbv_free(in->bbv);
}

int pms_phase_input_function_truth(const pms_phase_input *in, pms_phase_run *run)
{
    /* Row i merged as many vectors as the previous row asked for (dynamic intervals). */
    size_t first = 0;
    for (size_t i = 0; i < run->n; i++) {
        size_t count = i ? run->rows[i - 1].ev.next_multiple : 1;
        int rc = pms_phase_run_set_truth(run, i, pms_bbv_dominant_function(in->bbv, first, count));
        if (rc) return rc;
        first += count;
    }
    return PMS_OK;
}

int pms_phase_write_bb(const pms_phase_run *r, FILE *out)
{
    pms_bbv *b;
    int rc = pms_bbv_create(&b);
    if (rc) return rc;
    pms_bbv_entry *e = malloc((r->n ? r->rows[0].ev.signature_size + 1 : 1) * sizeof *e);
    if (!e) rc = PMS_ENOMEM;
    for (size_t i = 0; !rc && i < r->n; i++) {
        size_t m = 0;
        for (size_t k = 0; k < r->rows[i].ev.signature_size; k++) {
            uint64_t ppm = (uint64_t)llround(r->rows[i].sig[k] * 1e6);
            if (ppm) e[m++] = (pms_bbv_entry){k + 1, ppm};
        }
        rc = pms_bbv_add_interval(b, e, m);
    }
    if (!rc) rc = pms_simpoint_write(b, out, "the .bb output");
    free(e);
    pms_bbv_free(b);
    return rc;
}
