/* Reading a region report back from its JSON (pmuscope/region_report.h), with jansson. Every
 * member is checked for its type; a failure names the file and the member's path
 * ("regions[2].events.cycles.raw") and what was expected. */
#include "pmuscope/region_report.h"

#include "util/error.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *path;
    pms_region_results *rep;
} reader;

static int bad(const reader *rd, const char *where, const char *expected)
{
    return pms__fail(PMS_EFORMAT, "%s: %s: expected %s", rd->path, where, expected);
}

static int get_string(const reader *rd, json_t *obj, const char *key, const char *where, bool optional, char **out)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v && optional) return PMS_OK;
    char at[600];
    snprintf(at, sizeof at, "%s.%s", where, key);
    if (!json_is_string(v)) return bad(rd, at, "a string");
    *out = strdup(json_string_value(v));
    return *out ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
}

static int get_count(const reader *rd, json_t *obj, const char *key, const char *where, uint64_t *out)
{
    json_t *v = json_object_get(obj, key);
    char at[600];
    snprintf(at, sizeof at, "%s.%s", where, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0) return bad(rd, at, "a count (a whole number, 0 or more)");
    *out = (uint64_t)json_integer_value(v);
    return PMS_OK;
}

/* A number, or null (NAN) where the event was not counted. */
static int get_number(const reader *rd, json_t *obj, const char *key, const char *where, double *out)
{
    json_t *v = json_object_get(obj, key);
    char at[600];
    snprintf(at, sizeof at, "%s.%s", where, key);
    if (json_is_null(v)) *out = NAN;
    else if (json_is_number(v)) *out = json_number_value(v);
    else return bad(rd, at, "a number or null");
    return PMS_OK;
}

static int read_state(const reader *rd, json_t *obj, const char *where, pms_count *c)
{
    char *state;
    int r = get_string(rd, obj, "state", where, false, &state);
    if (r) return r;
    static const pms_count_state states[] = {PMS_COUNT_COUNTED, PMS_COUNT_NOT_COUNTED, PMS_COUNT_NOT_SUPPORTED,
                                             PMS_COUNT_IMPOSSIBLE};
    r = -1;
    for (size_t k = 0; k < sizeof states / sizeof *states; k++)
        if (strcmp(state, pms_count_state_name(states[k])) == 0) c->state = states[k], r = PMS_OK;
    free(state);
    char *flaw;
    if (r == PMS_OK && c->state == PMS_COUNT_IMPOSSIBLE && get_string(rd, obj, "flaw", where, true, &flaw) == PMS_OK) {
        for (pms_count_flaw f = PMS_FLAW_BACKWARDS; flaw && f <= PMS_FLAW_ABOVE_MAXIMUM; f++)
            if (strcmp(flaw, pms_count_flaw_text(f)) == 0) c->flaw = f;
        free(flaw);
    }
    if (r) {
        char at[600];
        snprintf(at, sizeof at, "%s.state", where);
        return bad(rd, at, "\"counted\", \"<not counted>\", \"<not supported>\" or \"<impossible>\"");
    }
    return PMS_OK;
}

static int read_count(const reader *rd, json_t *obj, const char *where, pms_count *c)
{
    if (!json_is_object(obj)) return bad(rd, where, "an object of the event's counts");
    int r = get_count(rd, obj, "raw", where, &c->raw);
    if (!r) r = get_count(rd, obj, "enabled_ns", where, &c->enabled);
    if (!r) r = get_count(rd, obj, "running_ns", where, &c->running);
    if (!r) r = get_number(rd, obj, "value", where, &c->value);
    if (!r) r = get_number(rd, obj, "uncertainty", where, &c->uncertainty);
    if (!r) r = read_state(rd, obj, where, c);
    if (!r && c->state == PMS_COUNT_COUNTED && (isnan(c->value) || isnan(c->uncertainty)))
        return bad(rd, where, "a value and an uncertainty for a counted event");
    return r;
}

static int read_events(const reader *rd, json_t *root)
{
    json_t *events = json_object_get(root, "events");
    if (!json_is_array(events)) return bad(rd, "events", "an array of the events counted");
    pms_region_results *rep = rd->rep;
    rep->events = calloc(json_array_size(events) + 1, sizeof *rep->events);
    if (!rep->events) return pms__fail(PMS_ENOMEM, "out of memory");
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        char where[64];
        snprintf(where, sizeof where, "events[%zu]", i);
        if (!json_is_object(e)) return bad(rd, where, "an object naming an event");
        pms_region_event *ev = &rep->events[rep->nevents++];
        int r = get_string(rd, e, "name", where, false, &ev->name);
        if (!r) r = get_string(rd, e, "read", where, false, &ev->read);
        if (!r) r = get_string(rd, e, "reason", where, true, &ev->reason);
        if (r) return r;
        for (size_t k = 0; k + 1 < rep->nevents; k++)
            if (strcmp(rep->events[k].name, ev->name) == 0) return bad(rd, where, "a name not given before");
    }
    return PMS_OK;
}

static int read_row(const reader *rd, json_t *obj, size_t k, pms_region_row *row)
{
    char where[64];
    snprintf(where, sizeof where, "regions[%zu]", k);
    if (!json_is_object(obj)) return bad(rd, where, "an object of one region on one thread");
    json_t *thread = json_object_get(obj, "thread");
    if (!json_is_integer(thread)) return bad(rd, where, "a \"thread\" id");
    row->thread = json_integer_value(thread);
    int r = get_string(rd, obj, "region", where, false, &row->region);
    if (!r) r = get_count(rd, obj, "calls", where, &row->calls);
    if (!r) r = get_count(rd, obj, "time_ns", where, &row->time_ns);
    if (r) return r;
    json_t *events = json_object_get(obj, "events");
    if (!json_is_object(events)) return bad(rd, where, "\"events\": an object of the counts of each event");
    const pms_region_results *rep = rd->rep;
    row->counts = calloc(rep->nevents + 1, sizeof *row->counts);
    if (!row->counts) return pms__fail(PMS_ENOMEM, "out of memory");
    if (json_object_size(events) != rep->nevents) return bad(rd, where, "the counts of the events listed in \"events\", no more");
    for (size_t i = 0; i < rep->nevents; i++) {
        char at[400];
        snprintf(at, sizeof at, "%s.events.%s", where, rep->events[i].name);
        json_t *c = json_object_get(events, rep->events[i].name);
        if (!c) return bad(rd, at, "the counts of this event");
        if ((r = read_count(rd, c, at, &row->counts[i])) != PMS_OK) return r;
    }
    return PMS_OK;
}

static int read_report(const reader *rd, json_t *root)
{
    if (!json_is_object(root)) return bad(rd, "the top", "an object with \"events\" and \"regions\"");
    pms_region_results *rep = rd->rep;
    json_t *pid = json_object_get(root, "pid");
    if (!json_is_integer(pid)) return bad(rd, "pid", "the process id");
    rep->pid = json_integer_value(pid);
    int r = read_events(rd, root);
    if (r) return r;
    json_t *regions = json_object_get(root, "regions"), *errors = json_object_get(root, "errors");
    if (!json_is_array(regions)) return bad(rd, "regions", "an array of regions");
    if (!json_is_array(errors)) return bad(rd, "errors", "an array of messages");
    rep->rows = calloc(json_array_size(regions) + 1, sizeof *rep->rows);
    rep->errors = calloc(json_array_size(errors) + 1, sizeof *rep->errors);
    if (!rep->rows || !rep->errors) return pms__fail(PMS_ENOMEM, "out of memory");
    size_t k;
    json_t *v;
    json_array_foreach(regions, k, v) {
        if ((r = read_row(rd, v, k, &rep->rows[rep->nrows++])) != PMS_OK) return r;
    }
    json_array_foreach(errors, k, v) {
        char where[64];
        snprintf(where, sizeof where, "errors[%zu]", k);
        if (!json_is_string(v)) return bad(rd, where, "a message");
        if (!(rep->errors[rep->nerrors++] = strdup(json_string_value(v)))) return pms__fail(PMS_ENOMEM, "out of memory");
    }
    return PMS_OK;
}

int pms_region_results_read(pms_region_results **out, const char *path)
{
    *out = NULL;
    json_error_t err;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (json_error_code(&err) == json_error_cannot_open_file)
            return pms__fail(PMS_ENOENT, "%s: cannot read the region report: %s", path, err.text);
        return pms__fail(PMS_EFORMAT, "%s: line %d, column %d: not a region report: %s", path, err.line, err.column,
                         err.text);
    }
    reader rd = {path, calloc(1, sizeof *rd.rep)};
    int r = rd.rep ? read_report(&rd, root) : pms__fail(PMS_ENOMEM, "out of memory");
    json_decref(root);
    if (r) {
        pms_region_results_free(rd.rep);
        return r;
    }
    *out = rd.rep;
    return PMS_OK;
}
