/* Recording into perf.data as a library call (see pmuscope/record.h). */
#include "pmuscope/record.h"
#include "collect/record_build_ids.h"
#include "io/perfdata_writer.h"
#include "pmuscope/error.h"
#include "pmuscope/target.h"
#include "util/error.h"
#include "util/output.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>

typedef struct session {
    const pms_record_config *cfg;
    pms_perfdata_writer *w;
    pms__output file; /* OUTPUT.tmp-XXXXXX until published, or a device written in place */
    pms_record_result *out;
    bool round_open; /* records were written since the last FINISHED_ROUND */
    uint64_t drained; /* samples drained, those a tap left out of the file (--olr-only) too */
} session;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every drained record: through the tap, then into the file if the tap keeps it. */
static int write_record(const struct perf_event_header *h, void *ctx)
{
    session *s = ctx;
    const pms_record_tap *tap = s->cfg->tap;
    bool keep = true;
    s->drained += h->type == PERF_RECORD_SAMPLE;
    if (tap && tap->record) {
        int rc = tap->record(tap->ctx, h, &keep);
        if (rc) return rc;
    }
    if (!keep) return PMS_OK;
    int rc = pms_perfdata_writer_add(s->w, h);
    if (rc == PMS_OK && h->type == PERF_RECORD_SAMPLE) s->out->samples++;
    s->round_open = true;
    return rc;
}

/* After a drain of every buffer, a FINISHED_ROUND (as perf record writes one): nothing
 * written later is older than what the previous round held, so perf's reader, and ours,
 * sort one round at a time instead of the whole file. None after a drain that wrote
 * nothing. */
static int end_round(session *s)
{
    if (!s->round_open) return PMS_OK;
    static const struct perf_event_header round = {68 /* PERF_RECORD_FINISHED_ROUND */, 0, sizeof round};
    s->round_open = false;
    return pms_perfdata_writer_add(s->w, &round);
}

static bool stop_requested(const pms_record_config *cfg) { return cfg->stop && *cfg->stop; }

/* Drains the buffers into the file until the target ends or the stop flag; the file is
 * made valid every second. */
static int drain_loop(session *s, pms_sampler *sm, const pms_child *child)
{
    const pms_record_tap *tap = s->cfg->tap;
    double last_sync = now_s();
    for (;;) {
        int n = pms_sampler_poll(sm, 100, write_record, s);
        if (n < 0) return n;
        int rc = end_round(s);
        if (rc) return rc;
        if (tap && tap->round && (rc = tap->round(tap->ctx))) return rc;
        if (now_s() - last_sync >= 1.0) {
            rc = pms_perfdata_writer_sync(s->w);
            /* valid and the record of a sample: in place, so that a crash of the caller leaves it there */
            if (!rc && s->drained) rc = pms__output_publish(&s->file);
            if (!rc && tap && tap->sync) rc = tap->sync(tap->ctx);
            if (rc) return rc;
            last_sync = now_s();
        }
        if (stop_requested(s->cfg)) {
            s->out->stopped = true;
            return PMS_OK;
        }
        if (child) {
            if (waitpid(child->pid, &s->out->wait_status, WNOHANG) == child->pid) {
                s->out->exited = true;
                return PMS_OK;
            }
        } else if (pms_sampler_target_gone(sm)) {
            s->out->target_ended = true;
            return PMS_OK;
        }
    }
}

/* A launched command is followed into its threads and children (per-CPU buffers), except
 * when the first event reads a group: as perf does for group reads, since an inherited
 * event's values are per thread (kernel 6.12 on; EINVAL before) and perf script takes
 * deltas per event. */
static int open_sampler(pms_sampler **out, const pms_record_config *cfg, pid_t pid, bool launched)
{
    bool reads = cfg->nevents && cfg->events[0].nread;
    pms_sampler_config sc = {.events = cfg->events, .nevents = cfg->nevents, .mmap_pages = cfg->mmap_pages,
                             .inherit = launched && !reads, .enable_on_exec = launched,
                             .system_wide = cfg->system_wide, .cpus = cfg->cpus, .callchain = cfg->callchain || cfg->dwarf_stack_size,
                             .dwarf_stack_size = cfg->dwarf_stack_size};
    return pms_sampler_open(out, &sc, pid);
}

/* From the started target to its end; the writer is open. */
static int record(session *s, pms_sampler *sm, pms_child *child, double started)
{
    const pms_record_config *cfg = s->cfg;
    int rc = PMS_OK;
    if (!child && !cfg->system_wide) { /* system-wide was enabled before the command ran */
        rc = pms_sampler_synthesize(sm, cfg->pid, write_record, s);
        if (!rc) rc = pms_sampler_enable(sm);
    }
    if (!rc) rc = drain_loop(s, sm, child);
    pms_sampler_disable(sm);
    if (!rc) {
        int n = pms_sampler_poll(sm, 0, write_record, s);
        rc = n < 0 ? n : end_round(s);
    }
    if (!rc && cfg->tap && cfg->tap->round) rc = cfg->tap->round(cfg->tap->ctx);
    if (child && !s->out->exited) { /* stopped by the flag or an error: end the command too, as perf does */
        kill(child->pid, SIGTERM);
        waitpid(child->pid, &s->out->wait_status, 0);
    }
    s->out->seconds = now_s() - started;
    if (child) s->out->exit_code = WIFEXITED(s->out->wait_status) ? WEXITSTATUS(s->out->wait_status)
                                   : WIFSIGNALED(s->out->wait_status) ? 128 + WTERMSIG(s->out->wait_status)
                                                                     : 1;
    return rc;
}

/* Undoes a setup that failed before the target ran: no new file is left, the output is
 * as it was. */
static int abandon(int rc, pms_child *child, session *s, pms_sampler *sm)
{
    if (child) pms_child_abort(child);
    if (s) {
        pms_perfdata_writer_close(s->w);
        pms__output_abort(&s->file);
    }
    if (sm) pms_sampler_close(sm);
    return rc;
}

/* Closes the file; it replaces the output unless the recording failed, or was stopped,
 * before its first sample (then the temporary file goes and the output stays as it was).
 * A sample the tap kept out of the file (record --olr-only) counts: the file is the
 * record of its recording still. */
static int finish_file(session *s, int rc)
{
    int closed = pms_perfdata_writer_close(s->w);
    if (!rc) rc = closed;
    if (s->drained || (!rc && !s->out->stopped)) {
        int committed = pms__output_commit(&s->file);
        if (!rc) rc = committed;
    }
    pms__output_abort(&s->file);
    return rc;
}

/* The file as it is on disk now, for reading it back; NULL for a device or a pipe. */
static const char *written_file(const session *s)
{
    return s->file.in_place ? NULL : s->file.published ? s->file.target : s->file.tmp;
}

int pms_record_run(pms_record_result *out, const pms_record_config *cfg)
{
    *out = (pms_record_result){0};
    bool launched = cfg->argv && cfg->argv[0];
    if (!cfg->nevents || !cfg->output || (cfg->system_wide ? cfg->pid != 0 : launched == (cfg->pid > 0)))
        return pms__fail(PMS_EINVAL, "record: give sampling events, an output path and either a command or a pid, "
                                     "or system-wide no pid");
    pms_child child = {.pid = -1, .release_fd = -1, .error_fd = -1};
    if (launched) {
        int rc = pms_child_spawn_with(&child, cfg->argv, cfg->child);
        if (rc) return rc;
    }
    pms_child *c = launched ? &child : NULL;
    pms_sampler *sm = NULL;
    int rc = open_sampler(&sm, cfg, cfg->system_wide ? -1 : launched ? child.pid : cfg->pid, launched);
    if (rc) return abandon(rc, c, NULL, NULL);
    size_t nattrs = 0;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(sm, &nattrs);
    session s = {.cfg = cfg, .out = out};
    /* perf.data.old kept, 0600 as perf record makes it */
    if ((rc = pms__output_open(&s.file, cfg->output, PMS_OUTPUT_KEEP_OLD | PMS_OUTPUT_PRIVATE)))
        return abandon(rc, c, NULL, sm);
    /* a full disk names FILE, not the FILE.tmp-* being written */
    rc = pms__perfdata_writer_open_output(&s.w, &s.file, attrs, nattrs, cfg->cmdline_argc, (char **)cfg->cmdline_argv);
    if (!rc && cfg->compression_level) rc = pms_perfdata_writer_compress(s.w, cfg->compression_level);
    if (rc) return abandon(rc, c, &s, sm);
    if (cfg->tap && cfg->tap->start && (rc = cfg->tap->start(cfg->tap->ctx, attrs, nattrs)))
        return abandon(rc, c, &s, sm);
    /* Before the command runs: reading kallsyms is slow in an emulator. */
    if ((rc = pms_sampler_synthesize_kernel(sm, write_record, &s))) return abandon(rc, c, &s, sm);
    /* System-wide: every CPU from now on (the command too), then the processes already running,
     * as perf does: a process started between the two is seen either way (the synthesized
     * records carry time 0, so readers take them first). */
    if (cfg->system_wide && ((rc = pms_sampler_enable(sm)) || (rc = pms_sampler_synthesize_all(sm, write_record, &s))))
        return abandon(rc, c, &s, sm);
    double started = now_s();
    if (launched && (rc = pms_child_release(&child, cfg->argv[0]))) /* the command could not run */
        return abandon(rc, NULL, &s, sm);
    rc = record(&s, sm, c, started);
    if (!rc) rc = pms_perfdata_writer_sync(s.w);
    /* The file is published under its name once it holds a sample. */
    if (!rc && written_file(&s)) rc = pms__record_build_ids(written_file(&s), s.w);
    pms_sampler_get_stats(sm, &out->stats);
    rc = finish_file(&s, rc);
    pms_sampler_close(sm);
    return rc;
}
