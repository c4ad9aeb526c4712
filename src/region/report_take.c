/* The regions of this process as a report (pmuscope/region_report.h): rows by region in
 * order of first use, then by thread, each event's sums scaled with the uncertainty of its
 * windows (one per call). */
#include "pmuscope/region_report.h"

#include "region/markers_internal.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dup_or_null(const char *s, bool *ok)
{
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) *ok = false;
    return d;
}

/* name, or, for the k-th copy of an event named before (k >= 2), "name@k": the report's events
 * are keyed by name (pmuscope's tables name a copy so too). */
static char *unique_name(const char *name, const pms_region_event *before, size_t n, bool *ok)
{
    unsigned copy = 1;
    for (size_t i = 0; i < n; i++) {
        const char *at = before[i].name ? strrchr(before[i].name, '@') : NULL;
        size_t len = at ? (size_t)(at - before[i].name) : (before[i].name ? strlen(before[i].name) : 0);
        if (before[i].name && len == strlen(name) && strncmp(before[i].name, name, len) == 0) copy++;
    }
    if (copy == 1) return dup_or_null(name, ok);
    char *s = NULL;
    if (asprintf(&s, "%s@%u", name, copy) < 0) *ok = false, s = NULL;
    return s;
}

/* The events as the oldest thread opened them (":u" where it fell back to user mode), how
 * they were read, and why one is not supported. */
static bool take_events(pms_region_results *rep, const thread_state *oldest)
{
    const markers *m = &pms__markers;
    bool ok = true;
    rep->nevents = m->nevents;
    rep->events = calloc(m->nevents ? m->nevents : 1, sizeof *rep->events);
    if (!rep->events) return false;
    for (size_t i = 0; i < m->nevents; i++) {
        pms_region_event *e = &rep->events[i];
        bool user = false;
        for (const thread_state *t = m->threads; t; t = t->next) user |= t->user[i];
        e->name = unique_name(oldest ? oldest->names[i] : m->events[i].name, rep->events, i, &ok);
        e->read = dup_or_null(m->unsupported && m->unsupported[i] ? "not supported" : user ? "user space" : "read(2)", &ok);
        e->reason = dup_or_null(m->unsupported ? m->unsupported[i] : NULL, &ok);
    }
    return ok;
}

static bool take_row(pms_region_row *row, const thread_state *t, const region_stats *rs)
{
    const markers *m = &pms__markers;
    row->region = strdup(rs->name);
    row->thread = t->tid;
    row->calls = rs->calls;
    row->time_ns = rs->time_ns;
    row->counts = calloc(t->n ? t->n : 1, sizeof *row->counts);
    if (!row->region || !row->counts) return false;
    for (size_t i = 0; i < t->n; i++) {
        pms_count *c = &row->counts[i];
        bool unsupported = m->unsupported && m->unsupported[i];
        *c = (pms_count){.raw = rs->sum[i].raw, .enabled = rs->sum[i].enabled, .running = rs->sum[i].running,
                         .state = unsupported           ? PMS_COUNT_NOT_SUPPORTED
                                  : rs->backwards[i] ? PMS_COUNT_IMPOSSIBLE
                                                        : PMS_COUNT_COUNTED,
                         .flaw = rs->backwards[i] ? PMS_FLAW_BACKWARDS : PMS_FLAW_NONE,
                         .dispersion = pms_mux_dispersion(&rs->win[i]),
                         .windows = rs->win[i].n};
        pms_count_scale(c);
        pms_count_check(c, &m->events[i]);
    }
    return true;
}

/* Every thread that has region name (oldest first) gets a row. */
static bool take_region(pms_region_results *rep, size_t *cap, const thread_state *const *threads, size_t nthreads,
                        const char *name)
{
    for (size_t k = 0; k < nthreads; k++) {
        const thread_state *t = threads[k];
        for (size_t j = 0; j < t->nregions; j++) {
            if (strcmp(t->regions[j].name, name) != 0) continue;
            if (rep->nrows == *cap) {
                size_t c = *cap ? 2 * *cap : 16;
                pms_region_row *rows = realloc(rep->rows, c * sizeof *rows);
                if (!rows) return false;
                rep->rows = rows;
                *cap = c;
            }
            pms_region_row *row = &rep->rows[rep->nrows++];
            memset(row, 0, sizeof *row);
            if (!take_row(row, t, &t->regions[j])) return false;
        }
    }
    return true;
}

/* Whether region name of threads[k].regions[j] was first seen there (not on an older thread,
 * nor earlier on this one). */
static bool first_use(const thread_state *const *threads, size_t k, size_t j)
{
    const char *name = threads[k]->regions[j].name;
    for (size_t a = 0; a <= k; a++)
        for (size_t b = 0; b < (a == k ? j : threads[a]->nregions); b++)
            if (strcmp(threads[a]->regions[b].name, name) == 0) return false;
    return true;
}

static bool take_all(pms_region_results *rep)
{
    markers *m = &pms__markers;
    size_t nthreads = 0, cap = 0;
    for (const thread_state *t = m->threads; t; t = t->next) nthreads++;
    thread_state **threads = calloc(nthreads ? nthreads : 1, sizeof *threads);
    if (!threads) return false;
    size_t k = nthreads;
    for (thread_state *t = m->threads; t; t = t->next) threads[--k] = t; /* oldest first */
    bool ok = take_events(rep, nthreads ? threads[0] : NULL);
    for (k = 0; k < nthreads; k++) pthread_mutex_lock(&threads[k]->lock);
    for (k = 0; ok && k < nthreads; k++)
        for (size_t j = 0; ok && j < threads[k]->nregions; j++)
            if (first_use((const thread_state *const *)threads, k, j))
                ok = take_region(rep, &cap, (const thread_state *const *)threads, nthreads, threads[k]->regions[j].name);
    for (k = 0; k < nthreads; k++) pthread_mutex_unlock(&threads[k]->lock);
    rep->errors = calloc(m->nerrors ? m->nerrors : 1, sizeof *rep->errors);
    for (size_t e = 0; ok && rep->errors && e < m->nerrors; e++) ok = (rep->errors[rep->nerrors++] = strdup(m->errors[e])) != NULL;
    free(threads);
    return ok && rep->errors;
}

int pms_region_results_take(pms_region_results **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return pms__fail(PMS_ENOMEM, "out of memory");
    (*out)->pid = getpid();
    pthread_mutex_lock(&pms__markers.lock);
    bool ok = take_all(*out);
    pthread_mutex_unlock(&pms__markers.lock);
    return ok ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
}
