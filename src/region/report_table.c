/* The region report as text (pmuscope/region_report.h): a table per region, a row per event
 * and a column per thread with their sum, as likwid-perfctr -m prints its regions; and CSV. */
#include "pmuscope/error.h"
#include "pmuscope/region_report.h"
#include "pmuscope/table.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL 48

/* Clocks (task-clock, cpu-clock) count ns: shown in msec, as stat shows them. */
static bool is_clock(const char *name)
{
    pms_event ev;
    return pms_event_parse(name, &ev) == PMS_OK && pms_event_counts_time(ev.attr.type, ev.attr.config);
}

/* A count as a cell: its value (msec for a clock), "+- U" beside a multiplexed one. */
static void count_cell(char *cell, const pms_count *c, bool clock)
{
    if (c->state != PMS_COUNT_COUNTED) {
        snprintf(cell, CELL, "%s", pms_count_state_name(c->state));
        return;
    }
    double scale = clock ? 1e-6 : 1;
    const char *fmt = clock ? "%.3f" : "%.0f";
    int w = snprintf(cell, CELL, fmt, c->value * scale);
    if (c->running < c->enabled && w > 0 && w < CELL)
        snprintf(cell + w, (size_t)(CELL - w), clock ? " +- %.3f" : " +- %.0f", c->uncertainty * scale);
}

/* The sum over threads: values add, and so do the variances of independent threads. */
static pms_count sum_counts(const pms_region_results *r, const char *region, size_t event)
{
    pms_count s = {.state = PMS_COUNT_NOT_COUNTED};
    double u2 = 0;
    for (size_t k = 0; k < r->nrows; k++) {
        const pms_count *c = &r->rows[k].counts[event];
        if (strcmp(r->rows[k].region, region) != 0 || c->state == PMS_COUNT_NOT_COUNTED) continue;
        if (c->state != PMS_COUNT_COUNTED || s.state == PMS_COUNT_IMPOSSIBLE) {
            s.state = c->state == PMS_COUNT_COUNTED ? s.state : c->state;
            continue;
        }
        s.state = PMS_COUNT_COUNTED;
        s.value += c->value;
        s.raw += c->raw;
        s.enabled += c->enabled;
        s.running += c->running;
        u2 += c->uncertainty * c->uncertainty;
    }
    s.uncertainty = sqrt(u2);
    return s;
}

typedef struct grid {
    char (*cell)[CELL];
    size_t rows, cols;
} grid;

static char *at(grid *g, size_t row, size_t col) { return g->cell[row * g->cols + col]; }

/* The cells in columns as wide as their widest cell: names left, numbers right. */
static void print_grid(FILE *out, grid *g)
{
    for (size_t row = 0; row < g->rows; row++) {
        for (size_t c = 0; c < g->cols; c++) {
            int width = 0;
            for (size_t k = 0; k < g->rows; k++)
                if ((int)strlen(at(g, k, c)) > width) width = (int)strlen(at(g, k, c));
            fprintf(out, c ? "  %*s" : "  %-*s", width, at(g, row, c));
        }
        fputc('\n', out);
    }
}

/* The table of region name: rows calls, time, each event; a column per thread (its rows
 * have this region), then their sum where there is more than one. */
static void print_region(FILE *out, const pms_region_results *r, const char *name)
{
    size_t *rows = calloc(r->nrows, sizeof *rows), nthreads = 0;
    if (!rows) return;
    for (size_t k = 0; k < r->nrows; k++)
        if (strcmp(r->rows[k].region, name) == 0) rows[nthreads++] = k;
    size_t sum = nthreads > 1 ? 1 : 0;
    grid g = {calloc((3 + r->nevents) * (1 + nthreads + sum), CELL), 3 + r->nevents, 1 + nthreads + sum};
    if (!g.cell) {
        free(rows);
        return;
    }
    snprintf(at(&g, 0, 0), CELL, "%s", "thread");
    snprintf(at(&g, 1, 0), CELL, "%s", "calls");
    snprintf(at(&g, 2, 0), CELL, "%s", "time (s)");
    uint64_t calls = 0, time_ns = 0;
    for (size_t t = 0; t < nthreads; t++) {
        const pms_region_row *row = &r->rows[rows[t]];
        snprintf(at(&g, 0, 1 + t), CELL, "%lld", (long long)row->thread);
        snprintf(at(&g, 1, 1 + t), CELL, "%llu", (unsigned long long)row->calls);
        snprintf(at(&g, 2, 1 + t), CELL, "%.6f", (double)row->time_ns * 1e-9);
        calls += row->calls;
        time_ns += row->time_ns;
    }
    if (sum) {
        snprintf(at(&g, 0, 1 + nthreads), CELL, "%s", "sum");
        snprintf(at(&g, 1, 1 + nthreads), CELL, "%llu", (unsigned long long)calls);
        snprintf(at(&g, 2, 1 + nthreads), CELL, "%.6f", (double)time_ns * 1e-9);
    }
    for (size_t i = 0; i < r->nevents; i++) {
        bool clock = is_clock(r->events[i].name);
        snprintf(at(&g, 3 + i, 0), CELL, "%s%s", r->events[i].name, clock ? " (msec)" : "");
        for (size_t t = 0; t < nthreads; t++) count_cell(at(&g, 3 + i, 1 + t), &r->rows[rows[t]].counts[i], clock);
        if (sum) {
            pms_count s = sum_counts(r, name, i);
            count_cell(at(&g, 3 + i, 1 + nthreads), &s, clock);
        }
    }
    fprintf(out, "Region %s\n", name);
    print_grid(out, &g);
    free(g.cell);
    free(rows);
}

void pms_region_results_print_table(FILE *out, const pms_region_results *r)
{
    if (r->nrows == 0) fprintf(out, "No region was counted (no pms_region_begin/end pair ran to its end).\n");
    for (size_t k = 0; k < r->nrows; k++) {
        bool first = true;
        for (size_t j = 0; j < k && first; j++) first = strcmp(r->rows[j].region, r->rows[k].region) != 0;
        if (!first) continue;
        if (k) fputc('\n', out);
        print_region(out, r, r->rows[k].region);
    }
    for (size_t i = 0; i < r->nevents; i++)
        if (r->events[i].reason) fprintf(out, "# %s\n", r->events[i].reason);
    for (size_t e = 0; e < r->nerrors; e++) fprintf(out, "# error: %s\n", r->errors[e]);
}

void pms_region_results_print_csv(FILE *out, const pms_region_results *r, const char *sep)
{
    fprintf(out, "region%sthread%scalls%stime_ns%sevent%svalue%suncertainty%srunning_pct\n", sep, sep, sep, sep, sep, sep,
            sep);
    for (size_t k = 0; k < r->nrows; k++) {
        const pms_region_row *row = &r->rows[k];
        for (size_t i = 0; i < r->nevents; i++) {
            const pms_count *c = &row->counts[i];
            pms_csv_cell(out, row->region, sep);
            fprintf(out, "%s%lld%s%llu%s%llu%s", sep, (long long)row->thread, sep, (unsigned long long)row->calls, sep,
                    (unsigned long long)row->time_ns, sep);
            pms_csv_cell(out, r->events[i].name, sep);
            fputs(sep, out);
            if (c->state == PMS_COUNT_COUNTED) fprintf(out, "%.0f%s%.0f", c->value, sep, c->uncertainty);
            else fprintf(out, "%s%s", pms_count_state_name(c->state), sep);
            double pct = c->enabled && c->running < c->enabled ? 100.0 * (double)c->running / (double)c->enabled : 100.0;
            fprintf(out, "%s%.2f\n", sep, pct);
        }
    }
}
