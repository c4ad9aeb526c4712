/* The demo's terminal summary and its JSON, from the files the steps wrote. */
#include "pmuscope/demo.h"
#include "pmuscope/json.h"
#include "pmuscope/methods.h"
#include "pmuscope/table.h"
#include "util/error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int written(FILE *out)
{
    return ferror(out) ? pms__fail(PMS_EIO, "cannot write the demo's summary") : PMS_OK;
}

/* The chosen columns of a CSV table, aligned, at most max_rows rows. */
static void print_table(FILE *out, const char *path, const char *cols, size_t max_rows)
{
    pms_table *t;
    if (pms_table_read(path, NULL, &t) < 0) return;
    pms_table_write_aligned(out, t, cols, max_rows, "   ");
    pms_table_free(t);
}

static void print_text(FILE *out, const char *path, size_t max_lines)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    for (size_t n = 0; fgets(line, sizeof line, f) && (!max_lines || n < max_lines);) {
        if (strncmp(line, "pmuscope: warning:", 18) == 0) continue; /* the demo said it once at the start */
        fprintf(out, "%s%s%s", line[0] == '\n' ? "" : "    ", line, strchr(line, '\n') ? "" : "\n");
        n++;
    }
    fclose(f);
}

int pms_demo_write_summary(FILE *out, const pms_demo *run)
{
    fprintf(out, "pmuscope demo: %zu steps in %.1f s\n", run->nsteps, run->seconds);
    for (size_t i = 0; i < run->nsteps; i++) {
        const pms_demo_step *s = &run->steps[i];
        if (s->status != 0) {
            fprintf(out, "\n== %s: FAILED\n    %s\n", s->name, s->why);
            continue;
        }
        if (!s->summary) continue;
        fprintf(out, "\n== %s\n", s->title);
        const pms_method *m = pms_method_of(s->name); /* the method's first step cites its paper */
        if (m) pms_write_wrapped(out, "    Paper: ", m->citation, "      ");
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", run->dir, s->summary);
        size_t len = strlen(s->summary);
        if (len > 4 && strcmp(s->summary + len - 4, ".csv") == 0)
            print_table(out, path, s->summary_cols, s->summary_rows);
        else
            print_text(out, path, s->summary_rows);
    }
    return written(out);
}

/* The rows the terminal summary shows of a CSV table, as objects (numbers as numbers). */
static void json_table(pms_json *j, const char *path, const char *cols, size_t max_rows)
{
    pms_table *t;
    if (pms_table_read(path, NULL, &t) == 0) {
        pms_json_table_rows(j, t, cols, max_rows);
        pms_table_free(t);
    } else {
        pms_json_array_begin(j);
        pms_json_array_end(j);
    }
}

/* The lines of a text summary, warnings left out (as in the terminal summary). */
static void json_text(pms_json *j, const char *path, size_t max_lines)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    pms_json_array_begin(j);
    for (size_t n = 0; f && fgets(line, sizeof line, f) && (!max_lines || n < max_lines);) {
        if (strncmp(line, "pmuscope: warning:", 18) == 0) continue;
        line[strcspn(line, "\n")] = '\0';
        pms_json_string(j, line);
        n++;
    }
    if (f) fclose(f);
    pms_json_array_end(j);
}

/* The files of a step in the demo directory that are there: its stdout, what the page
 * shows, and every path into the directory on its command line (-o FILE, --csv=FILE). */
static void json_files(pms_json *j, const pms_demo *run, const pms_demo_step *s)
{
    char files[PMS_DEMO_MAX_SHOWN + PMS_DEMO_MAX_ARGS + 1][PATH_MAX];
    size_t n = 0, dirlen = strlen(run->dir);
    if (s->out) snprintf(files[n++], PATH_MAX, "%s/%s", run->dir, s->out);
    for (size_t k = 0; k < PMS_DEMO_MAX_SHOWN && s->shown[k].file; k++)
        snprintf(files[n++], PATH_MAX, "%s/%s", run->dir, s->shown[k].file);
    for (size_t k = 1; s->argv[k]; k++) {
        const char *p = strstr(s->argv[k], run->dir);
        if (p && (p == s->argv[k] || p[-1] == '=') && p[dirlen] == '/') snprintf(files[n++], PATH_MAX, "%s", p);
    }
    pms_json_array_begin(j);
    for (size_t k = 0; k < n; k++) {
        struct stat st;
        bool again = false;
        for (size_t m = 0; m < k; m++) again |= strcmp(files[m], files[k]) == 0;
        if (!again && stat(files[k], &st) == 0) pms_json_string(j, files[k]);
    }
    pms_json_array_end(j);
}

int pms_demo_write_json(FILE *out, const pms_demo *run, const char *page)
{
    pms_json j;
    pms_json_init(&j, out, true);
    pms_json_object_begin(&j);
    pms_json_kv_string(&j, "directory", run->dir);
    pms_json_key(&j, "page");
    if (page) pms_json_string(&j, page);
    else pms_json_null(&j);
    pms_json_kv_double(&j, "seconds", run->seconds);
    pms_json_key(&j, "no_pmu");
    if (run->pmu_note[0]) pms_json_string(&j, run->pmu_note);
    else pms_json_null(&j);
    pms_json_key(&j, "steps");
    pms_json_array_begin(&j);
    for (size_t i = 0; i < run->nsteps; i++) {
        const pms_demo_step *s = &run->steps[i];
        const pms_method *m = pms_method_of(s->name);
        char path[PATH_MAX];
        pms_json_object_begin(&j);
        pms_json_kv_string(&j, "name", s->name);
        pms_json_kv_string(&j, "title", s->title);
        if (m) {
            pms_json_kv_string(&j, "method", m->name);
            pms_json_kv_string(&j, "citation", m->citation);
        }
        pms_json_kv_bool(&j, "ok", s->status == 0);
        pms_json_kv_int(&j, "exit_status", s->status);
        if (s->status != 0) pms_json_kv_string(&j, "why", s->why);
        pms_json_kv_double(&j, "seconds", s->seconds);
        pms_json_key(&j, "command");
        pms_json_array_begin(&j);
        for (size_t k = 0; s->argv[k]; k++) pms_json_string(&j, s->argv[k]);
        pms_json_array_end(&j);
        pms_json_key(&j, "files");
        json_files(&j, run, s);
        if (s->status == 0 && s->summary) {
            size_t len = strlen(s->summary);
            snprintf(path, sizeof path, "%s/%s", run->dir, s->summary);
            pms_json_kv_string(&j, "summary_file", path);
            bool csv = len > 4 && strcmp(s->summary + len - 4, ".csv") == 0;
            pms_json_key(&j, csv ? "summary_rows" : "summary_lines");
            if (csv) json_table(&j, path, s->summary_cols, s->summary_rows);
            else json_text(&j, path, s->summary_rows);
        }
        pms_json_object_end(&j);
    }
    pms_json_array_end(&j);
    pms_json_object_end(&j);
    pms_json_finish(&j);
    return written(out);
}
