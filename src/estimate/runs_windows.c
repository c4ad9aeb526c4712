/* Runs from `perf stat -I` output and a list of program time windows (the ARM
 * cBench raw files: events_raw.data + benchmarks.data), one run per program,
 * with event lists measured in separate passes merged by program. */
#include "estimate/runs.h"
#include "pmuscope/perfstat.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

/* Program windows: "#Name<TAB>Start(ns)<TAB>End(ns)". */
typedef struct windows {
    pms_table *t;
    const double *start, *end;
} windows;

static int windows_read(const char *path, windows *w)
{
    int rc = pms_table_read(path, NULL, &w->t);
    if (rc < 0) return rc;
    if (pms_table_cols(w->t) < 3 || pms_table_col_type(w->t, 0) != PMS_COLUMN_STRING)
        return pms__fail(PMS_EFORMAT, "%s: expected columns Name, Start(ns), End(ns)", path);
    rc = pms_table_numeric(w->t, 1, false, &w->start);
    if (rc == PMS_OK) rc = pms_table_numeric(w->t, 2, false, &w->end);
    for (size_t j = 0; rc == PMS_OK && j < pms_table_rows(w->t); j++)
        if (!(w->end[j] > w->start[j]))
            rc = pms__fail(PMS_EFORMAT, "%s: line %zu: the window of %s ends before it starts", path,
                          pms_table_row_line(w->t, j), pms_table_string(w->t, j, 0));
    return rc;
}

/* Sums each interval into the program whose window holds the interval's middle. */
static int sum_file(const char *ipath, const char *wpath, const char *cycles_col, pms_runs **out)
{
    windows w = {0};
    pms_table *t = NULL;
    int rc = windows_read(wpath, &w);
    if (rc == PMS_OK) rc = pms_perfstat_read(ipath, &t);
    size_t tcol = 0, cyc = 0, ncol = t ? pms_table_cols(t) : 0, k = 0;
    const double *ts = NULL;
    if (rc == PMS_OK) rc = pms_table_require(t, "timestamp_ns", &tcol);
    if (rc == PMS_OK) rc = pms_table_numeric(t, tcol, false, &ts);
    if (rc == PMS_OK) rc = pms_table_find_event(t, PMS_EVENT_CYCLES, cycles_col, &cyc);
    size_t *cols = malloc((ncol ? ncol : 1) * sizeof *cols);
    if (rc == PMS_OK && !cols) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t c = 0; rc == PMS_OK && c < ncol; c++)
        if (c != cyc && pms_event_role_of(pms_table_col_name(t, c)) != PMS_EVENT_NOT_EVENT) cols[k++] = c;
    size_t nprog = w.t ? pms_table_rows(w.t) : 0;
    pms_runs *r = NULL;
    if (rc == PMS_OK && !(r = pms__runs_alloc(nprog, k, ipath))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) r->cycles_name = strdup(pms_table_col_name(t, cyc));
    for (size_t i = 0; rc == PMS_OK && i < k; i++) r->counters[i] = strdup(pms_table_col_name(t, cols[i]));
    for (size_t j = 0; rc == PMS_OK && j < nprog; j++) {
        r->labels[j] = strdup(pms_table_string(w.t, j, 0));
        r->lines[j] = pms_table_row_line(w.t, j);
    }
    size_t *hits = calloc(nprog ? nprog : 1, sizeof *hits);
    const double *cv = NULL, **ev = calloc(k ? k : 1, sizeof *ev);
    if (rc == PMS_OK && !hits) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK && !ev) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) rc = pms_table_numeric(t, cyc, false, &cv);
    for (size_t i = 0; rc == PMS_OK && i < k; i++) rc = pms_table_numeric(t, cols[i], false, &ev[i]);
    for (size_t row = 0; rc == PMS_OK && row < pms_table_rows(t); row++) {
        double mid = row ? (ts[row] + ts[row - 1]) / 2 : ts[row];
        size_t j = 0;
        while (j < nprog && !(mid >= w.start[j] && mid < w.end[j])) j++;
        if (j == nprog) continue; /* between programs */
        hits[j]++;
        r->cycles[j] += cv[row];
        for (size_t i = 0; i < k; i++) r->events[j * k + i] += ev[i][row];
    }
    for (size_t j = 0; rc == PMS_OK && j < nprog; j++)
        if (hits[j] == 0)
            rc = pms__fail(PMS_EFORMAT, "%s: line %zu: no interval of %s falls in the window of %s (shorter than an interval?)",
                          wpath, r->lines[j], ipath, r->labels[j]);
    if (rc == PMS_OK) rc = pms__runs_finish(r);
    free(hits);
    free(cols);
    free(ev);
    pms_table_free(t);
    pms_table_free(w.t);
    if (rc < 0) {
        pms_runs_destroy(r);
        return pms__fail_context(rc, "%s with %s", ipath, wpath);
    }
    *out = r;
    return PMS_OK;
}

/* Appends the counters of b that a lacks, matching runs by label. */
static int merge_runs(pms_runs **a, const pms_runs *b)
{
    const pms_runs *x = *a;
    size_t extra = 0, *take = malloc((b->n_counters ? b->n_counters : 1) * sizeof *take);
    if (!take) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < b->n_counters; i++) {
        bool have = strcmp(b->counters[i], x->cycles_name) == 0; /* the anchor measured in both */
        for (size_t q = 0; q < x->n_counters && !have; q++) have = strcmp(x->counters[q], b->counters[i]) == 0;
        if (!have) take[extra++] = i;
    }
    size_t n = x->n_counters + extra;
    pms_runs *m = pms__runs_alloc(x->n_runs, n, x->source);
    int rc = m ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; rc == PMS_OK && j < x->n_runs; j++) {
        size_t o = 0;
        while (o < b->n_runs && strcmp(b->labels[o], x->labels[j]) != 0) o++;
        if (o == b->n_runs) {
            rc = pms__fail(PMS_EFORMAT, "program %s of %s has no window among the programs of %s", x->labels[j],
                          x->source, b->source);
            break;
        }
        m->labels[j] = strdup(x->labels[j]);
        m->lines[j] = x->lines[j];
        m->cycles[j] = x->cycles[j];
        memcpy(&m->events[j * n], &x->events[j * x->n_counters], x->n_counters * sizeof *m->events);
        for (size_t e = 0; e < extra; e++) m->events[j * n + x->n_counters + e] = b->events[o * b->n_counters + take[e]];
    }
    for (size_t i = 0; rc == PMS_OK && i < n; i++)
        m->counters[i] = strdup(i < x->n_counters ? x->counters[i] : b->counters[take[i - x->n_counters]]);
    if (rc == PMS_OK) m->cycles_name = strdup(x->cycles_name);
    if (rc == PMS_OK) rc = pms__runs_finish(m);
    free(take);
    if (rc < 0) {
        pms_runs_destroy(m);
        return rc;
    }
    pms_runs_destroy(*a);
    *a = m;
    return PMS_OK;
}

int pms_runs_sum_windows(const char *const *interval_paths, const char *const *window_paths, size_t nfiles,
                         const char *cycles_col, pms_runs **out)
{
    *out = NULL;
    if (nfiles == 0) return pms__fail(PMS_EINVAL, "no interval files given");
    pms_runs *acc = NULL;
    int rc = sum_file(interval_paths[0], window_paths[0], cycles_col, &acc);
    for (size_t f = 1; rc == PMS_OK && f < nfiles; f++) {
        pms_runs *next = NULL;
        rc = sum_file(interval_paths[f], window_paths[f], cycles_col, &next);
        if (rc == PMS_OK) rc = merge_runs(&acc, next);
        pms_runs_destroy(next);
    }
    if (rc < 0) {
        pms_runs_destroy(acc);
        return rc;
    }
    *out = acc;
    return PMS_OK;
}
