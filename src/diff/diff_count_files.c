/* What `pmuscope stat --json` wrote, as count runs of a side: each count's run_values (or,
 * from a file without them, its value as one run), parsed by jansson. Errors name the file
 * and the line and column, or the count, and what was expected. */
#include "diff/diff_internal.h"
#include "pmuscope/error.h"
#include "util/error.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_JSON_BYTES (16u << 20) /* stat's JSON is kilobytes; an endless input stops here */

typedef struct reader {
    FILE *f;
    size_t done;
    bool too_big;
} reader;

static size_t read_some(void *buffer, size_t size, void *ctx)
{
    reader *r = ctx;
    if (r->done >= MAX_JSON_BYTES) {
        r->too_big = true;
        return (size_t)-1; /* jansson: an error */
    }
    if (size > MAX_JSON_BYTES - r->done) size = MAX_JSON_BYTES - r->done;
    size_t got = fread(buffer, 1, size, r->f);
    r->done += got;
    return got;
}

static int load(json_t **root, const char *path)
{
    reader r = {fopen(path, "rb"), 0, false};
    if (!r.f) return pms__fail_errno(PMS_EIO, errno, "%s", path);
    json_error_t e;
    *root = json_load_callback(read_some, &r, JSON_REJECT_DUPLICATES, &e);
    bool failed = ferror(r.f);
    fclose(r.f);
    if (failed) return pms__fail(PMS_EIO, "%s: read error", path);
    if (r.too_big) return pms__fail(PMS_EFORMAT, "%s: more than %u bytes: not what pmuscope stat --json writes", path,
                                    MAX_JSON_BYTES);
    if (!*root)
        return pms__fail(PMS_EFORMAT, "%s: line %d, column %d: %s (expected the JSON of pmuscope stat --json)", path,
                         e.line, e.column, e.text);
    return PMS_OK;
}

/* Count i's runs into values[] (NaN for null); the number of runs in *n. */
static int count_runs(const char *path, size_t i, json_t *count, size_t runs, double **values, size_t *n)
{
    json_t *list = json_object_get(count, "run_values"), *value = json_object_get(count, "value");
    size_t len = list ? json_array_size(list) : 1;
    if (list && !json_is_array(list))
        return pms__fail(PMS_EFORMAT, "%s: counts[%zu]: run_values: expected an array", path, i);
    if (list && runs && len != runs)
        return pms__fail(PMS_EFORMAT, "%s: counts[%zu]: %zu run_values for %zu runs", path, i, len, runs);
    if (!list && !value) return pms__fail(PMS_EFORMAT, "%s: counts[%zu]: expected run_values or a value", path, i);
    double *v = malloc((len ? len : 1) * sizeof *v);
    if (!v) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t r = 0; r < len; r++) {
        json_t *x = list ? json_array_get(list, r) : value;
        if (json_is_null(x)) {
            v[r] = NAN; /* not counted in that run */
        } else if (json_is_number(x) && isfinite(json_number_value(x))) {
            v[r] = json_number_value(x);
        } else {
            free(v);
            return list ? pms__fail(PMS_EFORMAT, "%s: counts[%zu]: run_values[%zu]: expected a number or null", path,
                                    i, r)
                        : pms__fail(PMS_EFORMAT, "%s: counts[%zu]: value: expected a number or null", path, i);
        }
    }
    *values = v;
    *n = len;
    return PMS_OK;
}

static int add_counts(pms_diff *d, pms_diff_side side, const char *path, json_t *root)
{
    json_t *counts = json_object_get(root, "counts"), *runs = json_object_get(root, "runs");
    if (!json_is_array(counts))
        return pms__fail(PMS_EFORMAT, "%s: expected a \"counts\" array (what pmuscope stat --json writes)", path);
    if (runs && (!json_is_integer(runs) || json_integer_value(runs) < 1))
        return pms__fail(PMS_EFORMAT, "%s: runs: expected a count of runs", path);
    size_t nruns = runs ? (size_t)json_integer_value(runs) : 0;
    if (!json_array_size(counts)) return pms__fail(PMS_EFORMAT, "%s: no counts", path);
    for (size_t i = 0; i < json_array_size(counts); i++) {
        json_t *c = json_array_get(counts, i), *event = json_object_get(c, "event"), *unit = json_object_get(c, "unit");
        json_t *cpu = json_object_get(c, "cpu");
        if (!json_is_object(c) || !json_is_string(event) || (unit && !json_is_string(unit)) ||
            (cpu && !json_is_integer(cpu)))
            return pms__fail(PMS_EFORMAT, "%s: counts[%zu]: expected an object with an \"event\" name", path, i);
        char name[512];
        if (cpu) snprintf(name, sizeof name, "%s CPU%lld", json_string_value(event), (long long)json_integer_value(cpu));
        else snprintf(name, sizeof name, "%s", json_string_value(event));
        double *values = NULL;
        size_t n = 0;
        int rc = count_runs(path, i, c, nruns, &values, &n);
        if (rc == PMS_OK)
            rc = pms_diff_add_count_runs(d, side, path, name, unit ? json_string_value(unit) : "", values, n);
        free(values);
        if (rc) return rc;
    }
    if (!json_object_get(json_array_get(counts, 0), "run_values"))
        return pms__diff_note(d, "%s has no run_values (written before pmuscope stat kept each run): its means are "
                              "taken as one run each", path);
    return PMS_OK;
}

int pms__diff_read_counts(pms_diff *d, pms_diff_side side, const char *path)
{
    int rc = pms__diff_set_kind(d, DIFF_COUNTS, path);
    json_t *root = NULL;
    if (rc == PMS_OK) rc = load(&root, path);
    if (rc == PMS_OK && !json_is_object(root)) rc = pms__fail(PMS_EFORMAT, "%s: expected a JSON object", path);
    if (rc == PMS_OK) rc = add_counts(d, side, path, root); /* names the file on the side */
    json_decref(root);
    return rc;
}
