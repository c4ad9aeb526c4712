/* Reading `perf stat -I` output and pivoting it to one row per interval
 * (format in include/pmuscope/perfstat.h). */
#include "pmuscope/perfstat.h"
#include "io/perfstat_line.h"
#include "io/table_internal.h"
#include "io/text_lines.h"
#include "util/error.h"
#include "util/grow.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_EVENTS = 4096, MAX_NAME = 256 };

struct rename {
    char raw[MAX_NAME], label[MAX_NAME];
};

struct pivot {
    const char *name;
    size_t nev, ev_cap, nint, cap;
    char (*ev)[MAX_NAME];
    double **val;      /* val[event][interval] */
    double **pct;      /* pct[event][interval]: perf's running share, NaN where it printed none */
    double *time;
    bool per_cpu;
    struct rename *ren;
    size_t nren, ren_cap;
    bool have_start;
    double start_ns;
};

static void pivot_free(struct pivot *p)
{
    for (size_t e = 0; e < p->nev; e++) free(p->val[e]), free(p->pct[e]);
    free(p->val);
    free(p->pct);
    free(p->ev);
    free(p->time);
    free(p->ren);
}

static int grow_intervals(struct pivot *p)
{
    size_t cap = p->cap ? 2 * p->cap : 256;
    double *t = realloc(p->time, cap * sizeof *t);
    if (!t) return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
    p->time = t;
    for (size_t e = 0; e < p->nev; e++) {
        double *v = realloc(p->val[e], cap * sizeof *v);
        if (!v) return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
        for (size_t i = p->cap; i < cap; i++) v[i] = NAN;
        p->val[e] = v;
        double *q = realloc(p->pct[e], cap * sizeof *q);
        if (!q) return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
        for (size_t i = p->cap; i < cap; i++) q[i] = NAN;
        p->pct[e] = q;
    }
    p->cap = cap;
    return PMS_OK;
}

static int event_index(struct pivot *p, const char *ev, size_t len, size_t line, size_t *out)
{
    char name[MAX_NAME];
    if (len >= MAX_NAME) return pms__fail(PMS_EFORMAT, "%s:%zu: event name longer than %d characters", p->name, line, MAX_NAME - 1);
    memcpy(name, ev, len);
    name[len] = '\0';
    for (size_t r = 0; r < p->nren; r++)
        if (strcmp(p->ren[r].raw, name) == 0) snprintf(name, sizeof name, "%s", p->ren[r].label);
    for (size_t e = 0; e < p->nev; e++)
        if (strcmp(p->ev[e], name) == 0) {
            *out = e;
            return PMS_OK;
        }
    if (p->nev == MAX_EVENTS) return pms__fail(PMS_EFORMAT, "%s:%zu: more than %d events", p->name, line, MAX_EVENTS);
    size_t ev_cap = p->ev_cap, val_cap = p->ev_cap, pct_cap = p->ev_cap; /* ev, val and pct grow together */
    if (pms__grow(&p->ev, &ev_cap, p->nev + 1, sizeof *p->ev) ||
        pms__grow(&p->val, &val_cap, p->nev + 1, sizeof *p->val) ||
        pms__grow(&p->pct, &pct_cap, p->nev + 1, sizeof *p->pct))
        return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
    p->ev_cap = ev_cap;
    double *v = malloc((p->cap ? p->cap : 1) * sizeof *v), *q = malloc((p->cap ? p->cap : 1) * sizeof *q);
    if (!v || !q) {
        free(v), free(q);
        return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
    }
    for (size_t i = 0; i < p->cap; i++) v[i] = q[i] = NAN;
    snprintf(p->ev[p->nev], MAX_NAME, "%s", name);
    p->val[p->nev] = v;
    p->pct[p->nev] = q;
    *out = p->nev++;
    return PMS_OK;
}

/* "Start:<TAB>ns" and "Event N Label:<TAB>NAME<TAB><TAB>RAW Identifier:<TAB>rNNN" (ARM cBench files). */
static int header_line(struct pivot *p, const char *s, size_t len, size_t line, bool *handled)
{
    *handled = false;
    char buf[1024];
    if (len >= sizeof buf) return PMS_OK;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (strncmp(buf, "Start:", 6) == 0) {
        char *end;
        double v = strtod(buf + 6, &end);
        while (*end && isspace((unsigned char)*end)) end++;
        if (end == buf + 6 || *end)
            return pms__fail(PMS_EFORMAT, "%s:%zu: expected 'Start:' and a time in ns, found '%s'", p->name, line, buf);
        p->have_start = true;
        p->start_ns = v;
        *handled = true;
        return PMS_OK;
    }
    if (strncmp(buf, "Event ", 6) == 0 && strstr(buf, "Label:")) {
        char label[MAX_NAME], raw[MAX_NAME];
        const char *l = strstr(buf, "Label:") + 6, *r = strstr(buf, "Identifier:");
        if (!r || sscanf(l, "%255s", label) != 1 || sscanf(r + 11, "%255s", raw) != 1)
            return pms__fail(PMS_EFORMAT, "%s:%zu: expected 'Event N Label: NAME RAW Identifier: rNNN'", p->name, line);
        if (pms__grow(&p->ren, &p->ren_cap, p->nren + 1, sizeof *p->ren))
            return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
        snprintf(p->ren[p->nren].raw, MAX_NAME, "%s", raw);
        snprintf(p->ren[p->nren].label, MAX_NAME, "%s", label);
        p->nren++;
        *handled = true;
    }
    return PMS_OK;
}

/* Lines perf prints around the counts that carry no counts. */
static bool ignorable(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s)) s++, len--;
    if (len == 0 || *s == '#') return true;
    static const char *const skip[] = {"Performance counter stats", "seconds time elapsed", "seconds user",
                                       "seconds sys"};
    for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
        if (memmem(s, len, skip[k], strlen(skip[k]))) return true;
    return false;
}

static bool parse_any(const char *s, size_t len, struct perfstat_line *pl)
{
    return pms__perfstat_parse_csv(s, len, ',', pl) || pms__perfstat_parse_csv(s, len, ';', pl) ||
           pms__perfstat_parse_plain(s, len, pl);
}

static int add_count(struct pivot *p, const struct perfstat_line *pl, size_t line)
{
    int rc;
    if (p->nint == 0 || pl->time != p->time[p->nint - 1]) {
        if (p->nint && pl->time < p->time[p->nint - 1])
            return pms__fail(PMS_EFORMAT, "%s:%zu: time %.9f goes back (previous interval %.9f), expected increasing times",
                            p->name, line, pl->time, p->time[p->nint - 1]);
        if (p->nint == p->cap && (rc = grow_intervals(p)) < 0) return rc;
        p->time[p->nint++] = pl->time;
    }
    size_t e = 0;
    if ((rc = event_index(p, pl->event, pl->event_len, line, &e)) < 0) return rc;
    double *cell = &p->val[e][p->nint - 1], *pct = &p->pct[e][p->nint - 1];
    /* the smallest share over the CPUs of a per-CPU line set */
    if (!isnan(pl->running_pct) && !(pl->running_pct >= *pct)) *pct = pl->running_pct;
    if (pl->per_cpu) {
        p->per_cpu = true;
        if (!isnan(pl->count)) *cell = isnan(*cell) ? pl->count : *cell + pl->count; /* sum over CPUs */
    } else if (!isnan(*cell)) {
        return pms__fail(PMS_EFORMAT, "%s:%zu: event '%s' appears twice in the interval at %.9f s", p->name, line,
                        p->ev[e], pl->time);
    } else {
        *cell = pl->count;
    }
    return PMS_OK;
}

static int pivot_to_table(struct pivot *p, pms_table **out)
{
    pms_table *t = pms_table_new(p->name);
    if (!t) return pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
    double *idx = malloc((p->nint ? p->nint : 1) * sizeof *idx);
    int rc = idx ? PMS_OK : pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
    for (size_t i = 0; idx && i < p->nint; i++) idx[i] = (double)(i + 1);
    if (rc == PMS_OK) rc = pms__table_adopt_numeric(t, "interval", idx, p->nint);
    if (rc == PMS_OK) rc = pms_table_add_numeric(t, "time", p->time, p->nint);
    if (rc == PMS_OK && p->have_start) {
        double *ts = malloc((p->nint ? p->nint : 1) * sizeof *ts);
        if (!ts) rc = pms__fail(PMS_ENOMEM, "%s: out of memory", p->name);
        for (size_t i = 0; ts && i < p->nint; i++) ts[i] = p->start_ns + p->time[i] * 1e9;
        if (ts) rc = pms__table_adopt_numeric(t, "timestamp_ns", ts, p->nint);
    }
    for (size_t e = 0; rc == PMS_OK && e < p->nev; e++) {
        rc = pms__table_adopt_numeric(t, p->ev[e], p->val[e], p->nint);
        p->val[e] = NULL;
    }
    /* the running share of each multiplexed event (below 100% in some interval) */
    for (size_t e = 0; rc == PMS_OK && e < p->nev; e++) {
        bool multiplexed = false;
        for (size_t i = 0; i < p->nint; i++) {
            if (isnan(p->pct[e][i])) p->pct[e][i] = 100.0;
            multiplexed |= p->pct[e][i] < 100.0;
        }
        if (!multiplexed) continue;
        char name[MAX_NAME + 16];
        snprintf(name, sizeof name, "running_pct(%s)", p->ev[e]);
        rc = pms__table_adopt_numeric(t, name, p->pct[e], p->nint);
        p->pct[e] = NULL;
    }
    if (rc < 0) {
        pms_table_free(t);
        return rc;
    }
    *out = t;
    return PMS_OK;
}

int pms_perfstat_parse(const char *data, size_t len, const char *name, pms_table **out)
{
    struct pivot p = {.name = name};
    int rc = PMS_OK;
    size_t line = 0, pos = 0;
    while (pos < len && rc == PMS_OK) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - data) : len, l = end - pos;
        const char *s = data + pos;
        pos = end + 1;
        line++;
        if (l && s[l - 1] == '\r') l--;
        bool handled;
        if ((rc = header_line(&p, s, l, line, &handled)) < 0 || handled) continue;
        if (ignorable(s, l)) continue;
        struct perfstat_line pl;
        if (!parse_any(s, l, &pl)) {
            rc = pms__fail(PMS_EFORMAT,
                          "%s:%zu: expected a perf stat -I line '<time> <count> [unit] <event>' "
                          "(or CSV from -x), found '%.*s'",
                          name, line, (int)(l < 60 ? l : 60), s);
            break;
        }
        rc = add_count(&p, &pl, line);
    }
    if (rc == PMS_OK && p.nint == 0)
        rc = pms__fail_at_end(PMS_EFORMAT, "%s: no intervals found, expected perf stat -I output", name);
    if (rc == PMS_OK) rc = pivot_to_table(&p, out);
    pivot_free(&p);
    return rc;
}

/* The parser on a head, for pms__read_text: the table is not kept. */
static int perfstat_head(const char *text, size_t len, const char *name, void *ctx)
{
    (void)ctx;
    pms_table *t = NULL;
    int rc = pms_perfstat_parse(text, len, name, &t);
    pms_table_free(t);
    return rc;
}

int pms_perfstat_read(const char *path, pms_table **out)
{
    char *data;
    size_t len;
    int rc = pms__read_text(path, 0, perfstat_head, NULL, &data, &len);
    if (rc < 0) return rc;
    rc = pms_perfstat_parse(data, len, path, out);
    free(data);
    return rc;
}

/* Perf stat output starts (after '#' comments) with a header the ARM files use
 * or a count line; a wide table starts with its header. */
static bool looks_like_perfstat(const char *data, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - data) : len;
        const char *s = data + pos;
        size_t l = end - pos;
        pos = end + 1;
        if (ignorable(s, l)) continue;
        if (l >= 6 && (strncmp(s, "Start:", 6) == 0 || strncmp(s, "Event ", 6) == 0)) return true;
        struct perfstat_line pl;
        return parse_any(s, l, &pl);
    }
    return false;
}

/* Either kind, told by the first lines as pms_interval_table_read tells it. */
static int interval_table_head(const char *text, size_t len, const char *name, void *ctx)
{
    return looks_like_perfstat(text, len) ? perfstat_head(text, len, name, ctx) : pms__table_head(text, len, name, NULL);
}

int pms_interval_table_read(const char *path, pms_table **out)
{
    char *data;
    size_t len;
    int rc = pms__read_text(path, 0, interval_table_head, NULL, &data, &len);
    if (rc < 0) return rc;
    if (looks_like_perfstat(data, len))
        rc = pms_perfstat_parse(data, len, path, out);
    else
        rc = pms_table_parse(data, len, path, NULL, out);
    free(data);
    return rc;
}
