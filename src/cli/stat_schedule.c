/* pmuscope stat --schedule=runs [--sizes LIST]: more events than counters, over several
 * runs with anchor events in each, merged into one table (Hattori's paper). */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/schedule.h"
#include "util/grow.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parses "1-10,50" into a malloc'ed list of sizes. */
static int parse_sizes(const char *spec, long **sizes, size_t *count)
{
    size_t cap = 0, n = 0;
    long *list = NULL;
    const char *p = spec;
    while (*p) {
        char *end;
        errno = 0;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || errno || lo < 0) goto bad;
        if (*end == '-') {
            const char *q = end + 1;
            hi = strtol(q, &end, 10);
            if (end == q || errno || hi < lo || hi - lo > 100000) goto bad;
        }
        for (long s = lo; s <= hi; s++) {
            if (pms__grow(&list, &cap, n + 1, sizeof *list)) {
                free(list);
                return cli_error("out of memory");
            }
            list[n++] = s;
        }
        if (*end == ',' && end[1]) end++;
        else if (*end) goto bad;
        p = end;
    }
    if (n == 0) goto bad;
    *sizes = list;
    *count = n;
    return CLI_OK;
bad:
    free(list);
    return cli_usage_error("stat", "--sizes: expected sizes such as 1-10,50, found '%s' (at offset %zu)", spec,
                           (size_t)(p - spec));
}

struct plan {
    const stat_opts *o;
    FILE *json;    /* the JSON's stream: the main output (--json) or --json=FILE's, or NULL */
    pms_schedule *s;
    size_t na, ne;
    char **argv;   /* the command with room for the size */
    char size_arg[32];
    const char *label; /* "schedule" or "TEST5 (4/4)", in progress lines and messages */
};

/* Before each run: a progress bar on a terminal, else a line naming the run's events. */
static void on_run(void *ctx, size_t r, size_t runs, const pms_event *evs, size_t n)
{
    const struct plan *p = ctx;
    if (cli_show_progress()) {
        char what[96];
        snprintf(what, sizeof what, "%s: run %zu/%zu", p->label, r + 1, runs);
        cli_progress(what, r, runs);
        return;
    }
    fprintf(stderr, "pmuscope stat: %s: run %zu/%zu: %s", p->label, r + 1, runs, evs[p->na].name);
    for (size_t i = p->na + 1; i < n; i++) fprintf(stderr, ",%s", evs[i].name);
    fputc('\n', stderr);
}

/* Runs every group of the schedule once (for one size, or none) and merges them. */
static int run_groups(struct plan *p, const char *label, const char *consequence, pms_stat_value *merged, double *cv,
                      double *elapsed_s)
{
    p->label = label;
    pms_schedule_measure_opts mo = {.stop = &stat_stop, .on_run = on_run, .ctx = p};
    int st = pms_schedule_measure(elapsed_s, p->s, p->argv, &mo);
    if (cli_show_progress()) cli_progress_end();
    if (st == PMS_ECHILD) return cli_error("%s: %s, so %s", label, pms_strerror(), consequence);
    if (st || pms_schedule_merge(p->s, merged, cv) != PMS_OK) return cli_lib_error();
    return CLI_OK;
}

static void note_anchor_variation(stat_notes *notes, const pms_event *anchors, size_t na, const double *cv,
                                  size_t runs)
{
    for (size_t a = 0; a < na; a++) {
        if (isfinite(cv[a]))
            stat_note(notes, "anchor %s varied between the %zu runs: coefficient of variation %.2f%%",
                      anchors[a].name, runs, cv[a]);
        else
            stat_note(notes, "anchor %s: a single run, no variation to report", anchors[a].name);
    }
}

/* "counts" and "anchor_cv_pct" of one merged table. */
static void json_merged(pms_json *j, const pms_stat_value *merged, size_t n, const pms_event *anchors, size_t na,
                        const double *cv)
{
    pms_json_key(j, "counts");
    pms_stat_json_values(j, merged, n, 0);
    pms_json_key(j, "anchor_cv_pct");
    pms_json_object_begin(j);
    for (size_t a = 0; a < na; a++) pms_json_kv_double(j, anchors[a].name, cv[a]);
    pms_json_object_end(j);
}

/* --sizes: one row of the runs table per size. */
static int run_sizes(struct plan *p, const pms_event *anchors, FILE *out, pms_stat_value *merged, double *cv)
{
    long *sizes = NULL;
    size_t nsizes = 0;
    int rc = parse_sizes(p->o->sizes_spec, &sizes, &nsizes);
    if (rc) return rc;
    pms_json json;
    if (p->json) {
        pms_json_init(&json, p->json, true);
        pms_json_object_begin(&json);
        pms_json_key(&json, "runs");
        pms_json_array_begin(&json);
    }
    double *worst = calloc(p->na ? p->na : 1, sizeof *worst);
    for (size_t k = 0; rc == CLI_OK && k < nsizes; k++) {
        char label[96];
        snprintf(p->size_arg, sizeof p->size_arg, "%ld", sizes[k]);
        snprintf(label, sizeof label, "TEST%ld (%zu/%zu)", sizes[k], k + 1, nsizes);
        double elapsed;
        if ((rc = run_groups(p, label, "this size has no row", merged, cv, &elapsed)) != CLI_OK) break;
        if (p->json) {
            pms_json_object_begin(&json);
            char run[48];
            snprintf(run, sizeof run, "TEST%ld", sizes[k]);
            pms_json_kv_string(&json, "run", run);
            pms_json_kv_int(&json, "size", sizes[k]);
            json_merged(&json, merged, p->na + p->ne, anchors, p->na, cv);
            pms_json_object_end(&json);
        }
        if (!p->o->json) { /* the runs table, unless the JSON took its place */
            if (k == 0) pms_stat_runs_header(out, merged, p->na + p->ne);
            pms_stat_runs_row(out, sizes[k], merged, p->na + p->ne);
        }
        fflush(out); /* a row written is a row kept, whatever happens next */
        for (size_t a = 0; a < p->na; a++) {
            fprintf(stderr, "pmuscope stat: TEST%ld: anchor %s CV %.2f%% between %zu runs\n", sizes[k], anchors[a].name,
                    cv[a], pms_schedule_runs(p->s));
            if (worst && isfinite(cv[a]) && cv[a] > worst[a]) worst[a] = cv[a];
        }
    }
    if (rc == CLI_OK && worst)
        for (size_t a = 0; a < p->na; a++)
            fprintf(stderr, "pmuscope stat: anchor %s: largest coefficient of variation between runs %.2f%%\n",
                    anchors[a].name, worst[a]);
    if (p->json) {
        pms_json_array_end(&json);
        pms_json_object_end(&json);
        pms_json_finish(&json);
    }
    free(worst);
    free(sizes);
    return rc;
}

/* Without --sizes: the merged table once, in the format asked for. */
static int run_once(struct plan *p, const pms_event *anchors, FILE *out, pms_stat_value *merged, double *cv,
                    stat_notes *notes)
{
    const stat_opts *o = p->o;
    size_t na = p->na, n = p->na + p->ne;
    double elapsed;
    int rc = run_groups(p, "schedule", "the table would be incomplete", merged, cv, &elapsed);
    if (rc != CLI_OK) return rc;
    note_anchor_variation(notes, anchors, na, cv, pms_schedule_runs(p->s));
    if (p->json) {
        pms_json json;
        pms_json_init(&json, p->json, true);
        pms_json_object_begin(&json);
        pms_json_kv_uint(&json, "runs", pms_schedule_runs(p->s));
        json_merged(&json, merged, n, anchors, na, cv);
        pms_json_object_end(&json);
        pms_json_finish(&json);
    }
    if (o->json) {
        /* the JSON took the text's place: the notes go to stderr below */
    } else if (o->wide) {
        pms_stat_wide_header(out, merged, n);
        pms_stat_wide_row(out, 0, merged, n);
    } else if (o->sep) {
        pms_stat_print_csv(out, o->sep, -1, 0, 1, merged, n);
    } else if (o->json_lines) {
        pms_stat_print_json_lines(out, -1, 0, 1, merged, n);
    } else {
        char target[512];
        stat_describe_command(o->argv, target, sizeof target);
        pms_stat_summary s = {.target = target, .runs = 1, .elapsed_s = elapsed,
                              .notes = (const char *const *)notes->lines, .nnotes = notes->n};
        pms_stat_print_plain(out, &s, merged, n);
        return CLI_OK;
    }
    for (size_t k = 0; k < notes->n; k++) fprintf(stderr, "pmuscope stat: %s\n", notes->lines[k]);
    return CLI_OK;
}

/* Every run of the schedule must count its events: one it cannot count is an error. */
static pms_unsupported_policy schedule_policy(const stat_opts *o)
{
    return o->fallback ? PMS_UNSUPPORTED_FALLBACK : PMS_UNSUPPORTED_FAIL;
}

int stat_schedule(const stat_opts *o)
{
    stat_notes notes = {0};
    pms_event *anchors = NULL, *events = NULL;
    size_t na = 0, ne = 0;
    const char *anchor_spec = o->anchor_spec ? o->anchor_spec : pms_schedule_default_anchors();
    int rc = cli_prepare_events(anchor_spec, PMS_FALLBACK_COUNTING, schedule_policy(o), &anchors, &na, &notes);
    if (rc == CLI_OK) rc = cli_prepare_events(o->events_spec, PMS_FALLBACK_COUNTING, schedule_policy(o), &events, &ne, &notes);
    if (rc) goto out;
    struct plan p = {.o = o, .na = na};
    int st = pms_schedule_create(anchors, na, events, ne, o->max_counters, &p.s);
    if (st) { /* invalid: every event is an anchor */
        rc = st == PMS_EINVAL ? cli_usage_error("stat", "--schedule=runs: %s", pms_strerror()) : cli_lib_error();
        goto out;
    }
    ne = p.ne = pms_schedule_event_count(p.s);
    unsigned per_run = pms_schedule_per_run(p.s);
    size_t argc = 0;
    while (o->argv[argc]) argc++;
    p.argv = calloc(argc + 2, sizeof *p.argv);
    pms_stat_value *merged = calloc(na + ne, sizeof *merged);
    double *cv = calloc(na ? na : 1, sizeof *cv);
    FILE *out = NULL;
    if (!p.argv || !merged || !cv) {
        rc = cli_error("out of memory");
    } else {
        memcpy(p.argv, o->argv, argc * sizeof *p.argv);
        if (o->sizes_spec) p.argv[argc] = p.size_arg;
        fprintf(stderr, "pmuscope stat: %zu events in %zu runs of at most %u beside the anchors", ne,
                pms_schedule_runs(p.s), per_run);
        for (size_t a = 0; a < na; a++) fprintf(stderr, "%s%s", a ? "," : " (", anchors[a].name);
        fputs(na ? ")\n" : "\n", stderr);
        stat_install_signals();
        out = stat_open_output(o, o->json || o->wide || o->sizes_spec);
        if (!out) rc = CLI_FAIL;
        else if (!(p.json = o->json ? out : o->json_path ? cli_open_output(o->json_path) : NULL) && o->json_path)
            rc = CLI_FAIL;
    }
    if (rc == CLI_OK)
        rc = o->sizes_spec ? run_sizes(&p, anchors, out, merged, cv) : run_once(&p, anchors, out, merged, cv, &notes);
    if (p.json && p.json != out && cli_close_output(p.json) != CLI_OK) rc = CLI_FAIL;
    if (out) stat_close_output(out);
    free(p.argv);
    free(merged);
    free(cv);
    pms_schedule_destroy(p.s);
out:
    free(anchors);
    free(events);
    stat_notes_free(&notes);
    return rc;
}
