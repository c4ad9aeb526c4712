/* The JSON summary of a recording (pmuscope/record_report.h). */
#include "pmuscope/json.h"
#include "pmuscope/record_report.h"
#include "util/error.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void event_json(pms_json *j, const pms_sampling_event *e)
{
    pms_json_object_begin(j);
    pms_json_kv_string(j, "name", e->event.name);
    if (e->period) pms_json_kv_uint(j, "period", e->period);
    else pms_json_kv_uint(j, "frequency", e->freq);
    pms_json_key(j, "randomize");
    if (e->randomize.kind == PMS_RANDOMIZE_NONE) {
        pms_json_null(j);
    } else {
        char spec[32];
        if (e->randomize.kind == PMS_RANDOMIZE_MASK) snprintf(spec, sizeof spec, "mask:%u", e->randomize.bits);
        else snprintf(spec, sizeof spec, "exp");
        pms_json_string(j, spec);
        pms_json_kv_uint(j, "seed", e->randomize.seed);
    }
    pms_json_key(j, "read");
    pms_json_array_begin(j);
    for (size_t k = 0; k < e->nread; k++) pms_json_string(j, e->read[k].name);
    pms_json_array_end(j);
    pms_json_object_end(j);
}

/* How the target ended, in words ("exited with status 3", "was killed by signal 15"). */
static void status_words(const pms_record_result *r, const pms_record_config *cfg, char *buf, size_t n)
{
    bool attached = !(cfg->argv && cfg->argv[0]);
    if (attached && r->target_ended) snprintf(buf, n, "ended (attached: its exit status is its parent's)");
    else if (attached) snprintf(buf, n, cfg->system_wide ? "system-wide, stopped" : "still running (attached)");
    else if (WIFSIGNALED(r->wait_status)) snprintf(buf, n, "was killed by signal %d", WTERMSIG(r->wait_status));
    else snprintf(buf, n, "exited with status %d", WEXITSTATUS(r->wait_status));
}

static int write_json(FILE *out, const pms_record_config *cfg, const pms_record_result *r, const char *error)
{
    struct stat st;
    char how[64];
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    if (error) pms_json_kv_string(&j, "error", error);
    pms_json_kv_string(&j, "output", cfg->output);
    pms_json_kv_uint(&j, "bytes", stat(cfg->output, &st) == 0 ? (uint64_t)st.st_size : 0);
    pms_json_kv_uint(&j, "samples", r->samples);
    pms_json_kv_uint(&j, "lost", r->stats.lost);
    pms_json_kv_uint(&j, "throttles", r->stats.throttles);
    pms_json_kv_uint(&j, "unthrottles", r->stats.unthrottles);
    pms_json_kv_uint(&j, "period_changes", r->stats.period_updates);
    pms_json_kv_double(&j, "seconds", r->seconds);
    if (cfg->argv) {
        pms_json_key(&j, "command");
        pms_json_array_begin(&j);
        for (size_t k = 0; cfg->argv[k]; k++) pms_json_string(&j, cfg->argv[k]);
        pms_json_array_end(&j);
    } else {
        pms_json_kv_int(&j, "pid", cfg->pid);
    }
    pms_json_kv_bool(&j, "exited", r->exited || r->target_ended);
    pms_json_kv_bool(&j, "stopped", r->stopped);
    pms_json_kv_int(&j, "exit_code", r->exit_code);
    status_words(r, cfg, how, sizeof how);
    pms_json_kv_string(&j, "status", how);
    pms_json_key(&j, "events");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < cfg->nevents; i++) event_json(&j, &cfg->events[i]);
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    if (fflush(out) || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "cannot write the recording's JSON");
    return PMS_OK;
}

int pms_record_write_json(FILE *out, const pms_record_config *cfg, const pms_record_result *r)
{
    return write_json(out, cfg, r, NULL);
}

int pms_record_write_json_error(FILE *out, const pms_record_config *cfg, const pms_record_result *r,
                                const char *error)
{
    return write_json(out, cfg, r, error ? error : "failed");
}
