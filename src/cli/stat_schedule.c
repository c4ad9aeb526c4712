/* pmuscope stat --schedule=runs [--sizes LIST]: more events than counters, over several
 * runs with anchor events in each, merged into one table (Hattori's paper). */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/schedule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct plan {
    const stat_opts *o;
    FILE *out;
    FILE *json;    /* the JSON's stream: the main output (--json) or --json=FILE's, or NULL */
    pms_json jw;
    pms_schedule *s;
    const pms_event *anchors;
    size_t na, ne;
    const long *sizes; /* --sizes */
    size_t nsizes;
};

/* "schedule", or "TEST5 (4/4)" for size k of --sizes: in progress lines. */
static void run_label(const struct plan *p, size_t k, char *label, size_t size)
{
    if (p->sizes) snprintf(label, size, "TEST%ld (%zu/%zu)", p->sizes[k], k + 1, p->nsizes);
    else snprintf(label, size, "schedule");
}

/* Before each run: a progress bar on a terminal, else a line naming the run's events. */
static void on_size_run(void *ctx, size_t k, size_t r, size_t runs, const pms_event *evs, size_t n)
{
    const struct plan *p = ctx;
    char label[96];
    run_label(p, k, label, sizeof label);
    if (cli_show_progress()) {
        char what[128];
        snprintf(what, sizeof what, "%s: run %zu/%zu", label, r + 1, runs);
        cli_progress(what, r, runs);
        return;
    }
    fprintf(stderr, "pmuscope stat: %s: run %zu/%zu: %s", label, r + 1, runs, evs[p->na].name);
    for (size_t i = p->na + 1; i < n; i++) fprintf(stderr, ",%s", evs[i].name);
    fputc('\n', stderr);
}

static void on_run(void *ctx, size_t r, size_t runs, const pms_event *evs, size_t n)
{
    on_size_run(ctx, 0, r, runs, evs, n);
}

static void note_anchor_variation(stat_notes *notes, const pms_stat_value *anchors, size_t na, const double *cv,
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

/* --sizes: size k's row of the runs table (and of the JSON), kept at once. */
static int on_size(void *ctx, size_t k, const pms_stat_value *merged, const double *cv)
{
    struct plan *p = ctx;
    if (cli_show_progress()) cli_progress_end();
    if (p->json) pms_stat_json_size(&p->jw, p->sizes[k], merged, p->na + p->ne, p->na, cv);
    if (!p->o->json) { /* the runs table, unless the JSON took its place */
        if (k == 0) pms_stat_runs_header(p->out, merged, p->na + p->ne);
        pms_stat_runs_row(p->out, p->sizes[k], merged, p->na + p->ne);
    }
    fflush(p->out); /* a row written is a row kept, whatever happens next */
    for (size_t a = 0; a < p->na; a++) {
        if (isfinite(cv[a]))
            fprintf(stderr, "pmuscope stat: TEST%ld: anchor %s CV %.2f%% between %zu runs\n", p->sizes[k],
                    merged[a].name, cv[a], pms_schedule_runs(p->s));
        else /* every event fitted in one run beside the anchors */
            fprintf(stderr, "pmuscope stat: TEST%ld: anchor %s: a single run, no variation to report\n", p->sizes[k],
                    merged[a].name);
    }
    return PMS_OK;
}

/* --sizes: one row of the runs table per size. */
static int run_sizes(struct plan *p)
{
    long *sizes;
    if (pms_schedule_parse_sizes(&sizes, &p->nsizes, p->o->sizes_spec))
        return cli_usage_error("stat", "--sizes: %s", pms_strerror());
    p->sizes = sizes;
    if (p->json) {
        pms_json_init(&p->jw, p->json, true);
        pms_json_object_begin(&p->jw);
        pms_json_key(&p->jw, "runs");
        pms_json_array_begin(&p->jw);
    }
    double *worst = calloc(p->na ? p->na : 1, sizeof *worst);
    pms_schedule_sizes_opts so = {.stop = &stat_stop, .on_run = on_size_run, .on_size = on_size, .ctx = p};
    int st = worst ? pms_schedule_measure_sizes(worst, p->s, p->o->argv, sizes, p->nsizes, &so) : PMS_ENOMEM;
    if (cli_show_progress()) cli_progress_end();
    int rc = !worst ? cli_error("out of memory")
           : st == PMS_ECHILD ? cli_error("%s, so this size has no row", pms_strerror())
           : st ? cli_lib_error() : CLI_OK;
    for (size_t a = 0; rc == CLI_OK && pms_schedule_runs(p->s) > 1 && a < p->na; a++)
        fprintf(stderr, "pmuscope stat: anchor %s: largest coefficient of variation between runs %.2f%%\n",
                p->anchors[a].name, worst[a]);
    if (p->json) {
        pms_json_array_end(&p->jw);
        pms_json_object_end(&p->jw);
        pms_json_finish(&p->jw);
    }
    free(worst);
    free(sizes);
    return rc;
}

/* Without --sizes: the merged table once, in the format asked for. */
static int run_once(struct plan *p, stat_notes *notes)
{
    const stat_opts *o = p->o;
    size_t na = p->na, n = p->na + p->ne;
    pms_stat_value *merged = calloc(n, sizeof *merged);
    double *cv = calloc(na ? na : 1, sizeof *cv), elapsed;
    if (!merged || !cv) {
        free(merged);
        free(cv);
        return cli_error("out of memory");
    }
    pms_schedule_measure_opts mo = {.stop = &stat_stop, .on_run = on_run, .ctx = p};
    int st = pms_schedule_measure(&elapsed, p->s, o->argv, &mo);
    if (cli_show_progress()) cli_progress_end();
    if (st == PMS_OK) st = pms_schedule_merge(p->s, merged, cv);
    int rc = st == PMS_ECHILD ? cli_error("schedule: %s, so the table would be incomplete", pms_strerror())
           : st ? cli_lib_error() : CLI_OK;
    if (rc == CLI_OK) {
        note_anchor_variation(notes, merged, na, cv, pms_schedule_runs(p->s));
        if (p->json) {
            pms_json_init(&p->jw, p->json, true);
            pms_json_object_begin(&p->jw);
            pms_json_kv_uint(&p->jw, "runs", pms_schedule_runs(p->s));
            pms_stat_json_merged(&p->jw, merged, n, na, cv);
            pms_json_object_end(&p->jw);
            pms_json_finish(&p->jw);
        }
        char target[512];
        pms_stat_describe_target(target, sizeof target, o->argv, 0, false, NULL);
        pms_stat_style style = stat_style(o);
        /* the merged values come from different runs: one elapsed time for their rates is the plain table's only */
        pms_stat_summary s = {.target = target, .runs = 1,
                              .elapsed_s = style.format == PMS_STAT_PLAIN ? elapsed : 0,
                              .notes = (const char *const *)notes->lines, .nnotes = notes->n};
        if (!o->json) pms_stat_print_totals(p->out, &style, &s, merged, n); /* else the JSON took its place */
        for (size_t k = 0; (o->json || style.format != PMS_STAT_PLAIN) && k < notes->n; k++)
            fprintf(stderr, "pmuscope stat: %s\n", notes->lines[k]);
    }
    free(merged);
    free(cv);
    return rc;
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
    cli_user_only_hold();
    int rc = cli_prepare_events(anchor_spec, PMS_FALLBACK_COUNTING, schedule_policy(o), &anchors, &na, &notes);
    if (rc == CLI_OK) rc = cli_prepare_events(o->events_spec, PMS_FALLBACK_COUNTING, schedule_policy(o), &events, &ne, &notes);
    cli_user_only_release();
    if (rc) goto out;
    struct plan p = {.o = o, .anchors = anchors, .na = na};
    int st = pms_schedule_create(anchors, na, events, ne, o->max_counters, &p.s);
    if (st) { /* invalid: every event is an anchor */
        rc = st == PMS_EINVAL ? cli_usage_error("stat", "--schedule=runs: %s", pms_strerror()) : cli_lib_error();
        goto out;
    }
    p.ne = pms_schedule_event_count(p.s);
    size_t runs = pms_schedule_runs(p.s);
    fprintf(stderr, "pmuscope stat: %zu event%s in %zu run%s of at most %u beside the anchors", p.ne,
            p.ne == 1 ? "" : "s", runs, runs == 1 ? "" : "s", pms_schedule_per_run(p.s));
    for (size_t a = 0; a < na; a++) fprintf(stderr, "%s%s", a ? "," : " (", anchors[a].name);
    fputs(na ? ")\n" : "\n", stderr);
    stat_install_signals();
    p.out = stat_open_output(o, o->json || o->wide || o->sizes_spec);
    if (!p.out) rc = CLI_FAIL;
    else if (!(p.json = o->json ? p.out : o->json_path ? cli_open_output(o->json_path) : NULL) && o->json_path)
        rc = CLI_FAIL;
    if (rc == CLI_OK) rc = o->sizes_spec ? run_sizes(&p) : run_once(&p, &notes);
    if (p.json && p.json != p.out && cli_close_output(p.json) != CLI_OK) rc = CLI_FAIL;
    if (p.out) stat_close_output(p.out);
    pms_schedule_destroy(p.s);
out:
    free(anchors);
    free(events);
    stat_notes_free(&notes);
    return rc;
}
