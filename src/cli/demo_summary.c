/* pmuscope demo: the terminal summary, from the files the steps wrote. */
#include "cli/demo.h"
#include "pmuscope/table.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLS = 16, CELL = 160 };

static void cell(const pms_table *t, size_t r, size_t c, char *buf)
{
    const double *v;
    if (pms_table_col_type(t, c) == PMS_COLUMN_STRING) {
        const char *text = pms_table_string(t, r, c);
        if (text[0] == '/') text = strrchr(text, '/') + 1; /* a binary: its name is enough here */
        snprintf(buf, CELL, "%s", text);
    }
    else if (pms_table_numeric(t, c, true, &v) < 0 || isnan(v[r]))
        snprintf(buf, CELL, "-");
    else if (v[r] == floor(v[r]) && fabs(v[r]) < 1e15)
        snprintf(buf, CELL, "%.0f", v[r]);
    else
        snprintf(buf, CELL, "%.4g", v[r]);
}

/* The chosen columns of a CSV table, aligned, at most max_rows rows. */
static void print_table(FILE *out, const char *path, const char *cols, size_t max_rows)
{
    pms_table *t;
    if (pms_table_read(path, NULL, &t) < 0) return;
    size_t col[MAX_COLS], nc = 0;
    if (cols) {
        char list[512];
        snprintf(list, sizeof list, "%s", cols);
        for (char *save, *name = strtok_r(list, ",", &save); name && nc < MAX_COLS; name = strtok_r(NULL, ",", &save)) {
            long k = pms_table_find(t, name);
            if (k >= 0) col[nc++] = (size_t)k;
        }
    } else {
        for (; nc < pms_table_cols(t) && nc < MAX_COLS; nc++) col[nc] = nc;
    }
    size_t rows = pms_table_rows(t);
    if (max_rows && rows > max_rows) rows = max_rows;
    int width[MAX_COLS];
    char buf[CELL];
    for (size_t c = 0; c < nc; c++) {
        width[c] = (int)strlen(pms_table_col_name(t, col[c]));
        for (size_t r = 0; r < rows; r++) {
            cell(t, r, col[c], buf);
            if ((int)strlen(buf) > width[c]) width[c] = (int)strlen(buf);
        }
    }
    fputs("   ", out);
    for (size_t c = 0; c < nc; c++) fprintf(out, " %*s", width[c], pms_table_col_name(t, col[c]));
    fputc('\n', out);
    for (size_t r = 0; r < rows; r++) {
        fputs("   ", out);
        for (size_t c = 0; c < nc; c++) {
            cell(t, r, col[c], buf);
            fprintf(out, " %*s", width[c], buf);
        }
        fputc('\n', out);
    }
    if (rows < pms_table_rows(t)) fprintf(out, "    (%zu more rows)\n", pms_table_rows(t) - rows);
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

void demo_print_summary(const demo_run *run, FILE *out)
{
    fprintf(out, "pmuscope demo: %zu steps in %.1f s\n", run->nsteps, run->seconds);
    for (size_t i = 0; i < run->nsteps; i++) {
        const demo_step *s = &run->steps[i];
        if (s->status != 0) {
            fprintf(out, "\n== %s: FAILED\n    %s\n", s->name, s->why);
            continue;
        }
        if (!s->summary) continue;
        fprintf(out, "\n== %s\n", s->title);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", run->dir, s->summary);
        size_t len = strlen(s->summary);
        if (len > 4 && strcmp(s->summary + len - 4, ".csv") == 0)
            print_table(out, path, s->summary_cols, s->summary_rows);
        else
            print_text(out, path, s->summary_rows);
    }
}
