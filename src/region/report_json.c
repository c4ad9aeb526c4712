/* The region report as JSON (pmuscope/region_report.h), and freeing a report. */
#include "pmuscope/json.h"
#include "pmuscope/region_report.h"

#include "util/error.h"

#include <errno.h>
#include <stdlib.h>

void pms_region_results_free(pms_region_results *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nevents; i++) free(r->events[i].name), free(r->events[i].read), free(r->events[i].reason);
    for (size_t k = 0; k < r->nrows; k++) free(r->rows[k].region), free(r->rows[k].counts);
    for (size_t e = 0; e < r->nerrors; e++) free(r->errors[e]);
    free(r->events), free(r->rows), free(r->errors);
    free(r);
}

static void write_count(pms_json *j, const pms_count *c)
{
    pms_json_object_begin(j);
    bool counted = c->state == PMS_COUNT_COUNTED;
    pms_json_key(j, "value");
    if (counted) pms_json_double(j, c->value);
    else pms_json_null(j);
    pms_json_key(j, "uncertainty");
    if (counted) pms_json_double(j, c->uncertainty);
    else pms_json_null(j);
    pms_json_kv_uint(j, "raw", c->raw);
    pms_json_kv_uint(j, "enabled_ns", c->enabled);
    pms_json_kv_uint(j, "running_ns", c->running);
    pms_json_kv_string(j, "state", pms_count_state_name(c->state));
    if (c->state == PMS_COUNT_IMPOSSIBLE) pms_json_kv_string(j, "flaw", pms_count_flaw_text(c->flaw));
    pms_json_object_end(j);
}

int pms_region_results_write_json(FILE *out, const pms_region_results *r)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_int(&j, "pid", r->pid);
    pms_json_key(&j, "events");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < r->nevents; i++) {
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "name", r->events[i].name);
        pms_json_kv_string(&j, "read", r->events[i].read);
        if (r->events[i].reason) pms_json_kv_string(&j, "reason", r->events[i].reason);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_key(&j, "regions");
    pms_json_array_begin(&j);
    for (size_t k = 0; k < r->nrows; k++) {
        const pms_region_row *row = &r->rows[k];
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "region", row->region);
        pms_json_kv_int(&j, "thread", row->thread);
        pms_json_kv_uint(&j, "calls", row->calls);
        pms_json_kv_uint(&j, "time_ns", row->time_ns);
        pms_json_key(&j, "events");
        pms_json_object_begin(&j);
        for (size_t i = 0; i < r->nevents; i++) {
            pms_json_key(&j, r->events[i].name);
            write_count(&j, &row->counts[i]);
        }
        pms_json_object_end(&j);
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_key(&j, "errors");
    pms_json_array_begin(&j);
    for (size_t e = 0; e < r->nerrors; e++) pms_json_string(&j, r->errors[e]);
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    if (fflush(out) != 0 || ferror(out)) return pms__fail_errno(PMS_EIO, errno, "cannot write the region report");
    return PMS_OK;
}
