/* The sampled-IP profile: streaming counts per (event, pid, IP), symbolised at the end. */
#include "pmuscope/profile.h"
#include "hotspot/callpaths.h"
#include "hotspot/chains.h"
#include "hotspot/comms.h"
#include "hotspot/ip_counts.h"
#include "hotspot/read_delta.h"
#include "symbol/unwind.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 1024u
#define PROGRESS_STEP (8u << 20) /* bytes between progress calls */

struct pms_profile {
    pms_symbols *symbols;
    pms__ip_counts counts; /* (event_tid, ip) -> samples and period; event_tid =
                            * comm << 43 | event << 33 | kernel << 32 | tid */
    pms__comms comms;
    pms__chains chains; /* the samples' callchains, when they have them */
    uint64_t totals[MAX_EVENTS];
    uint64_t total_period[MAX_EVENTS];
    double total_period_sq[MAX_EVENTS]; /* for the effective sample size of period shares */
    uint64_t lost;
    unsigned char chained[MAX_EVENTS]; /* the event's samples carry callchains */
    pms_keymap last_read; /* sample id -> the value its last PERF_SAMPLE_READ gave */
    pms__unwinder *unwinder; /* for samples with user stack copies (--call-graph dwarf) */
};

int pms_profile_create(pms_profile **out, pms_symbols *symbols)
{
    pms_profile *p = calloc(1, sizeof *p);
    if (!p) return pms__fail(PMS_ENOMEM, "out of memory for the profile");
    p->symbols = symbols;
    pms__ip_counts_init(&p->counts);
    pms__keymap_init(&p->last_read);
    pms__comms_init(&p->comms);
    pms__chains_init(&p->chains);
    *out = p;
    return PMS_OK;
}

void pms_profile_destroy(pms_profile *p)
{
    if (!p) return;
    pms__ip_counts_free(&p->counts);
    pms__keymap_free(&p->last_read);
    pms__comms_free(&p->comms);
    pms__chains_free(&p->chains);
    pms__unwinder_destroy(p->unwinder);
    free(p);
}

/* Counts one sample of `event` standing for `period` (its IP's count at the next
 * flush_counts: the reading pass counts samples a few at a time). */
static int add_weighted(pms_profile *p, size_t event, const pms_sample *s, uint64_t period)
{
    if (event >= MAX_EVENTS) return pms__fail(PMS_EINVAL, "profile: event index %zu, at most %u events", event, MAX_EVENTS);
    int kernel = (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
                 (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_GUEST_KERNEL;
    /* The thread's name at the sample (an id of p->comms): perf's comm key counts a
     * thread's samples before an exec under its old name. */
    uint64_t comm = pms__comms_at(&p->comms, s->tid, s->time);
    if (comm >= (1u << 21)) comm = 0; /* more names than the key holds: unnamed */
    uint64_t key = comm << 43 | (uint64_t)event << 33 | (uint64_t)kernel << 32 | s->tid;
    if (pms__ip_counts_add(&p->counts, key, s->ip, period, s->time, s->pid))
        return pms__fail(PMS_ENOMEM, "out of memory for the profile");
    if (s->nr_callchain || (s->attr && (s->attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN))) {
        p->chained[event] = 1;
        int rc = pms__chains_add(&p->chains, key, s->pid, s->ip, s->time, s->callchain, (size_t)s->nr_callchain, period, NULL);
        if (rc) return rc;
    }
    p->totals[event]++;
    p->total_period[event] += period;
    p->total_period_sq[event] += (double)period * (double)period;
    return PMS_OK;
}

static int add_sample(pms_profile *p, size_t event, const pms_sample *s)
{
    /* Without PERF_SAMPLE_PERIOD (perf record -c) every sample stands for the fixed period. */
    uint64_t period = s->period;
    if (s->attr && !(s->attr->attr.sample_type & PERF_SAMPLE_PERIOD))
        period = s->attr->attr.freq ? 0 : s->attr->attr.sample_period;
    if (!s->user_stack) return add_weighted(p, event, s, period);
    /* --call-graph dwarf: the user frames unwound from the stack copy join the callchain */
    pms_sample v;
    int rc = pms__unwind_sample(&p->unwinder, p->symbols, s, &v);
    return rc ? rc : add_weighted(p, event, &v, period);
}

static int flush_counts(pms_profile *p)
{
    return pms__ip_counts_flush(&p->counts) ? pms__fail(PMS_ENOMEM, "out of memory for the profile") : PMS_OK;
}

int pms_profile_add(pms_profile *p, size_t event, const pms_sample *s)
{
    int rc = add_sample(p, event, s);
    return rc ? rc : flush_counts(p);
}

struct read_ctx {
    pms_profile *p;
    const pms_perfdata_attr *attrs;
    size_t nattrs;
    pms_progress_fn progress;
    void *progress_ctx;
    uint64_t next_progress, total;
};

/* A sample that read counters (perf record -e '{a,b}:S', pmuscope record --read) counts,
 * as in perf report, once for every counter that advanced since its last read, weighted by
 * that increment, under the counter's own event; the sampling event among them. A value
 * whose id no event of the file owns counts for none (perf's nr_unknown_id). */
static int add_read_values(struct read_ctx *c, const pms_sample *s)
{
    for (size_t i = 0; i < s->nvalues; i++) {
        const pms_perfdata_attr *a = pms_attr_by_id(c->attrs, c->nattrs, s->values[i].id);
        uint64_t delta;
        if (!a) continue;
        if (pms__read_delta(&c->p->last_read, s->values[i].id, s->values[i].value, &delta))
            return pms__fail(PMS_ENOMEM, "out of memory for the profile");
        if (!delta) continue;
        pms_sample v = *s;
        v.attr = a;
        v.id = s->values[i].id;
        int rc = add_weighted(c->p, (size_t)(a - c->attrs), &v, delta);
        if (rc) return rc;
    }
    return PMS_OK;
}

static int on_sample(const pms_sample *s, void *ctx)
{
    struct read_ctx *c = ctx;
    if (s->attr && (s->attr->attr.sample_type & PERF_SAMPLE_READ)) return add_read_values(c, s);
    size_t event = s->attr ? (size_t)(s->attr - c->attrs) : 0;
    return add_sample(c->p, event < c->nattrs ? event : 0, s);
}

static int on_mmap(const pms_mmap_event *m, void *ctx) { return pms_symbols_add_mmap(((struct read_ctx *)ctx)->p->symbols, m); }
static int on_task(const pms_task_event *t, void *ctx)
{
    pms_profile *p = ((struct read_ctx *)ctx)->p;
    int rc = PMS_OK;
    if (t->type == PERF_RECORD_COMM && t->comm) {
        rc = pms__comms_set(&p->comms, t->tid, t->time, t->comm);
    } else if (t->type == PERF_RECORD_FORK) { /* a new thread starts with its parent's name */
        size_t parent = pms__comms_at(&p->comms, t->ptid, t->time);
        if (!parent) parent = pms__comms_at(&p->comms, t->ppid, t->time);
        if (parent) rc = pms__comms_set(&p->comms, t->tid, t->time, pms__comms_name(&p->comms, parent));
    }
    return rc ? rc : pms_symbols_add_task(p->symbols, t);
}

static int on_lost(uint64_t n, void *ctx)
{
    ((struct read_ctx *)ctx)->p->lost += n;
    return 0;
}

static int on_raw(const struct perf_event_header *h, uint64_t off, void *ctx)
{
    (void)h;
    struct read_ctx *c = ctx;
    if (c->progress && off >= c->next_progress) {
        c->progress(off, c->total, c->progress_ctx);
        c->next_progress = off + PROGRESS_STEP;
    }
    return 0;
}

int pms_profile_read(pms_profile *p, pms_perfdata_reader *r, pms_progress_fn progress, void *ctx)
{
    struct read_ctx c = {p, pms_perfdata_get_attr(r, 0), pms_perfdata_nattrs(r), progress, ctx, 0,
                         pms_perfdata_data_size(r)};
    pms_perfdata_handlers h = {on_sample, on_mmap, on_task, on_lost, NULL, progress ? on_raw : NULL, &c};
    int rc = PMS_OK;
    for (size_t i = 0; i < pms_perfdata_nbuild_ids(r) && !rc; i++)
        rc = pms_symbols_add_build_id(p->symbols, pms_perfdata_get_build_id(r, i));
    size_t known = pms_perfdata_nbuild_ids(r);
    if (!rc) rc = pms_perfdata_read(r, &h);
    if (!rc) rc = flush_counts(p);
    /* Build-ids found in the data (perf inject -b): symbols are resolved after the pass. */
    for (size_t i = known; i < pms_perfdata_nbuild_ids(r) && !rc; i++)
        rc = pms_symbols_add_build_id(p->symbols, pms_perfdata_get_build_id(r, i));
    if (!rc && progress) progress(c.total, c.total, ctx);
    return rc;
}

uint64_t pms_profile_samples(const pms_profile *p, size_t event) { return event < MAX_EVENTS ? p->totals[event] : 0; }
uint64_t pms_profile_lost(const pms_profile *p) { return p->lost; }
size_t pms_profile_distinct_ips(const pms_profile *p) { return p->counts.n; }
size_t pms_profile_distinct_callchains(const pms_profile *p) { return p->chains.n; }
int pms_profile_has_callchains(const pms_profile *p, size_t event) { return event < MAX_EVENTS && p->chained[event]; }

static double z_of(double confidence) { return gsl_cdf_ugaussian_Pinv(1 - (1 - confidence) / 2); }

/* Wilson score interval of proportion ph out of n draws (n may be an effective size). */
static void wilson(double ph, double n, double z, double *low, double *high)
{
    double denom = 1 + z * z / n;
    double center = (ph + z * z / (2 * n)) / denom;
    double half = z / denom * sqrt(ph * (1 - ph) / n + z * z / (4 * n * n));
    *low = fmax(0, center - half);
    *high = fmin(1, center + half);
}

int pms_wilson_interval(uint64_t k, uint64_t n, double confidence, double *low, double *high)
{
    if (!(confidence > 0 && confidence < 1))
        return pms__fail(PMS_EINVAL, "confidence level %g is not between 0 and 1", confidence);
    if (k > n) return pms__fail(PMS_EINVAL, "%llu successes out of %llu", (unsigned long long)k, (unsigned long long)n);
    if (n == 0) {
        *low = 0;
        *high = 1;
        return PMS_OK;
    }
    wilson((double)k / (double)n, (double)n, z_of(confidence), low, high);
    return PMS_OK;
}

static int compare_rows(const void *x, const void *y)
{
    const pms_profile_row *a = x, *b = y;
    if (a->share != b->share) return a->share < b->share ? 1 : -1;
    if (a->samples != b->samples) return a->samples < b->samples ? 1 : -1;
    int c = strcmp(a->binary, b->binary);
    if (c) return c;
    if (a->tid != b->tid) return a->tid < b->tid ? -1 : 1;
    if (a->file_offset != b->file_offset) return a->file_offset < b->file_offset ? -1 : 1;
    return 0;
}

/* perf report --children's order: by children, then as the self table. */
static int compare_children(const void *x, const void *y)
{
    const pms_profile_row *a = x, *b = y;
    if (a->children_share != b->children_share) return a->children_share < b->children_share ? 1 : -1;
    if (a->children_samples != b->children_samples) return a->children_samples < b->children_samples ? 1 : -1;
    return compare_rows(x, y);
}

/* Shares and intervals of the rows, by samples or by period. */
static int fill_shares(const pms_profile *p, size_t event, pms_profile_weight weight, double confidence,
                       pms_profile_row *rows, size_t n)
{
    double z = z_of(confidence), total, n_eff;
    if (weight == PMS_WEIGHT_PERIOD) {
        total = (double)p->total_period[event];
        if (total == 0 && p->totals[event])
            return pms__fail(PMS_EINVAL, "the samples of this event carry no period: weigh them by samples");
        n_eff = total > 0 ? total * total / p->total_period_sq[event] : 0;
    } else {
        total = n_eff = (double)p->totals[event];
    }
    for (size_t i = 0; i < n; i++) {
        pms_profile_row *r = &rows[i];
        double part = weight == PMS_WEIGHT_PERIOD ? (double)r->period : (double)r->samples;
        double below = weight == PMS_WEIGHT_PERIOD ? (double)r->children_period : (double)r->children_samples;
        r->share = total > 0 ? part / total : 0;
        r->children_share = total > 0 ? below / total : 0;
        r->ci_low = r->children_ci_low = 0;
        r->ci_high = r->children_ci_high = 1;
        if (n_eff > 0) {
            wilson(r->share, n_eff, z, &r->ci_low, &r->ci_high);
            wilson(r->children_share, n_eff, z, &r->children_ci_low, &r->children_ci_high);
        }
    }
    return PMS_OK;
}

/* The name of comm id of thread tid; perf names the idle task (tid 0) swapper. */
static const char *comm_name(const pms_profile *p, uint32_t tid, size_t id)
{
    const char *name = pms__comms_name(&p->comms, id);
    return !name && tid == 0 ? "swapper" : name;
}

int pms_profile_table(pms_profile *p, size_t event, pms_profile_key key, double confidence, pms_profile_row **rows,
                      size_t *nrows)
{
    return pms_profile_table_weighted(p, event, key, PMS_WEIGHT_SAMPLES, confidence, rows, nrows);
}

/* Rows in the making: merged by (thread group, location), the group being the (comm, tid)
 * pair the keys ask for and the location the (binary, offset) pair; each gets a dense id
 * first. */
struct table_build {
    pms_profile *p;
    pms_profile_key key; /* without the flags */
    int by_comm, by_tid, children;
    pms_keymap merged, groups, places;
    pms_profile_row *out;
    size_t n, cap;
    size_t *counted; /* per row: 1 + the last chain that counted it as a child, 0 for none */
    size_t ncounted, counted_cap;
    pms__paths *paths; /* the rows' call paths, when asked for */
};

/* The row of an address of thread entry `event_tid` (resolved in si), made at first sight;
 * SIZE_MAX when out of memory. A callchain entry (in_chain) without a symbol is keyed by
 * its run-time address, as perf keys its callchain nodes; a sampled IP by its offset. */
static size_t row_of(struct table_build *t, const pms_symbol_info *si, uint64_t event_tid, uint64_t ip, int in_chain)
{
    pms_profile *p = t->p;
    uint32_t tid = (uint32_t)event_tid;
    /* perf's pid key prints the thread's last name, its comm key the name at the sample */
    const char *comm = t->by_comm ? comm_name(p, tid, event_tid >> 43) : NULL;
    /* Rows merge by (binary, file offset of the IP or of its symbol); the binary
     * string is interned by the symbol map, so its address identifies it. An
     * address without a symbol is a row of its own in the symbol view, as in perf. */
    uint64_t a = (uint64_t)(uintptr_t)si->binary, b = si->file_offset;
    if (t->key == PMS_PROFILE_BY_SYMBOL && si->symbol) b = si->file_offset - si->symbol_offset;
    if (t->key == PMS_PROFILE_BY_SYMBOL && !si->symbol && in_chain) b = ip;
    if (t->key == PMS_PROFILE_BY_DSO) b = 0;
    if (t->key == PMS_PROFILE_BY_NONE) a = b = 0;
    /* comm names are interned, so their addresses identify them too; a thread without a
     * name is perf's ":TID", a comm of its own */
    int own_tid = t->by_tid || (t->by_comm && !comm);
    uint64_t *group = pms__keymap_upsert(&t->groups, (uint64_t)(uintptr_t)comm, own_tid ? tid : 0, t->groups.count);
    uint64_t *place = group ? pms__keymap_upsert(&t->places, a, b, t->places.count) : NULL;
    uint64_t *slot = place ? pms__keymap_upsert(&t->merged, *group, *place, UINT64_MAX) : NULL;
    if (!slot) return SIZE_MAX;
    if (*slot == UINT64_MAX) {
        if (pms__grow(&t->out, &t->cap, t->n + 1, sizeof *t->out)) return SIZE_MAX;
        const char *last = t->by_tid ? comm_name(p, tid, pms__comms_at(&p->comms, tid, UINT64_MAX)) : NULL;
        pms_profile_row row = {.binary = t->key == PMS_PROFILE_BY_NONE ? "" : si->binary,
                               .symbol = t->key >= PMS_PROFILE_BY_DSO ? NULL : si->symbol,
                               .comm = comm,
                               .tid = own_tid ? tid : 0,
                               .thread_comm = last};
        if (t->key == PMS_PROFILE_BY_IP) {
            row.ip = ip;
            row.file_offset = si->file_offset;
            row.symbol_offset = si->symbol_offset;
        } else if (t->key == PMS_PROFILE_BY_SYMBOL) {
            row.file_offset = b;
        }
        t->out[t->n] = row;
        *slot = t->n++;
    }
    return (size_t)*slot;
}

/* Adds distinct chain number `id` to the children of every row it passes through, once
 * each: the sampled IP's own row, then the callchain's addresses as perf walks them; and
 * to the call paths of the sampled IP's row. */
static int count_children(struct table_build *t, size_t id, pms__chain_ip *walk)
{
    pms_profile *p = t->p;
    const pms__chain *k = &p->chains.items[id];
    size_t n = pms__chain_walk(p->chains.pool + k->start, k->len, PMS__MAX_STACK, walk);
    for (size_t i = 0; i <= (t->children ? n : 0); i++) {
        pms_symbol_info si;
        uint64_t ip = i == 0 ? k->ip : walk[i - 1].ip;
        int kernel = i == 0 ? (int)(k->event_tid >> 32 & 1) : walk[i - 1].kernel;
        pms_symbols_resolve(p->symbols, k->pid, ip, k->first_time, kernel, &si);
        size_t row = row_of(t, &si, k->event_tid, ip, i > 0);
        if (row == SIZE_MAX || pms__grow(&t->counted, &t->counted_cap, t->n, sizeof *t->counted))
            return pms__fail(PMS_ENOMEM, "out of memory for the profile table");
        while (t->ncounted < t->n) t->counted[t->ncounted++] = 0;
        if (i == 0 && t->paths) {
            int rc = pms__paths_add(t->paths, p->symbols, row, k->pid, k->first_time, walk, n, k->samples, k->period);
            if (rc) return rc;
        }
        if (!t->children || t->counted[row] == id + 1) continue; /* recursion: once per sample */
        t->counted[row] = id + 1;
        t->out[row].children_samples += k->samples;
        t->out[row].children_period += k->period;
    }
    return PMS_OK;
}

static int build_rows(struct table_build *t, size_t event)
{
    pms_profile *p = t->p;
    for (size_t i = 0; i < p->counts.n; i++) {
        const pms__ip_first *first;
        const pms__ip_count *e = pms__ip_counts_get(&p->counts, i, &first);
        if ((e->key >> 33 & (MAX_EVENTS - 1)) != event) continue;
        pms_symbol_info si;
        pms_symbols_resolve(p->symbols, first->pid, e->ip, first->time, (e->key >> 32) & 1, &si);
        size_t row = row_of(t, &si, e->key, e->ip, 0);
        if (row == SIZE_MAX) return pms__fail(PMS_ENOMEM, "out of memory for the profile table");
        t->out[row].samples += e->samples;
        t->out[row].period += e->period;
        if (!p->chained[event]) { /* without callchains a row's children are itself */
            t->out[row].children_samples += e->samples;
            t->out[row].children_period += e->period;
        }
    }
    if ((!t->children && !t->paths) || !p->chained[event]) return PMS_OK;
    pms__chain_ip *walk = malloc(PMS__MAX_STACK * sizeof *walk);
    if (!walk) return pms__fail(PMS_ENOMEM, "out of memory for the profile table");
    int rc = PMS_OK;
    for (size_t i = 0; i < p->chains.n && !rc; i++)
        if ((p->chains.items[i].event_tid >> 33 & (MAX_EVENTS - 1)) == event) rc = count_children(t, i, walk);
    free(walk);
    return rc;
}

/* A row and where it was before sorting, for the call paths' row numbers. */
struct ranked {
    pms_profile_row row; /* first: a struct ranked * is a pms_profile_row * */
    size_t from;
};

static int compare_ranked(const void *x, const void *y) { return compare_rows(x, y); }
static int compare_ranked_children(const void *x, const void *y) { return compare_children(x, y); }

/* Sorts rows[0..n) as cmp says; row_at[old index] = new index. */
static int sort_rows(pms_profile_row *rows, size_t n, int children, size_t *row_at)
{
    struct ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) return pms__fail(PMS_ENOMEM, "out of memory for the profile table");
    for (size_t i = 0; i < n; i++) r[i] = (struct ranked){rows[i], i};
    if (n) qsort(r, n, sizeof *r, children ? compare_ranked_children : compare_ranked);
    for (size_t i = 0; i < n; i++) {
        rows[i] = r[i].row;
        row_at[r[i].from] = i;
    }
    free(r);
    return PMS_OK;
}

int pms_profile_table_weighted(pms_profile *p, size_t event, pms_profile_key key, pms_profile_weight weight,
                               double confidence, pms_profile_row **rows, size_t *nrows)
{
    return pms_profile_table_paths(p, event, key, weight, confidence, rows, nrows, NULL, NULL);
}

int pms_profile_table_paths(pms_profile *p, size_t event, pms_profile_key key, pms_profile_weight weight,
                            double confidence, pms_profile_row **rows, size_t *nrows, pms_profile_path **paths,
                            size_t *npaths)
{
    *rows = NULL;
    *nrows = 0;
    if (paths) {
        *paths = NULL;
        *npaths = 0;
        if (key & (PMS_PROFILE_WITH_COMM | PMS_PROFILE_WITH_PID))
            return pms__fail(PMS_EINVAL, "call paths are by location: not with rows by comm or pid");
    }
    if (!(confidence > 0 && confidence < 1))
        return pms__fail(PMS_EINVAL, "confidence level %g is not between 0 and 1", confidence);
    if (event >= MAX_EVENTS) return pms__fail(PMS_EINVAL, "profile: event index %zu, at most %u events", event, MAX_EVENTS);
    int children = (key & PMS_PROFILE_CHILDREN) != 0;
    struct table_build t = {.p = p,
                            .key = key & 0xff,
                            .by_comm = (key & PMS_PROFILE_WITH_COMM) != 0,
                            .by_tid = (key & PMS_PROFILE_WITH_PID) != 0,
                            .children = children};
    if (t.key > PMS_PROFILE_BY_NONE) return pms__fail(PMS_EINVAL, "profile: unknown sort key %d", (int)t.key);
    pms__paths found;
    pms__paths_init(&found);
    if (paths) t.paths = &found;
    pms__keymap_init(&t.merged);
    pms__keymap_init(&t.groups);
    pms__keymap_init(&t.places);
    int rc = build_rows(&t, event);
    pms__keymap_free(&t.merged);
    pms__keymap_free(&t.groups);
    pms__keymap_free(&t.places);
    free(t.counted);
    if (!rc) rc = fill_shares(p, event, weight, confidence, t.out, t.n);
    size_t *row_at = rc || !paths ? NULL : malloc((t.n ? t.n : 1) * sizeof *row_at);
    if (!rc && paths && !row_at) rc = pms__fail(PMS_ENOMEM, "out of memory for the profile table");
    if (!rc && paths) {
        rc = sort_rows(t.out, t.n, children, row_at);
        double total = weight == PMS_WEIGHT_PERIOD ? (double)p->total_period[event] : (double)p->totals[event];
        if (!rc) rc = pms__paths_take(&found, row_at, weight, total, paths, npaths);
    } else if (!rc && t.n) {
        qsort(t.out, t.n, sizeof *t.out, children ? compare_children : compare_rows);
    }
    free(row_at);
    pms__paths_free(&found);
    if (rc) {
        free(t.out);
        return rc;
    }
    if (!children)
        for (size_t i = 0; i < t.n; i++) {
            t.out[i].children_samples = t.out[i].children_period = 0;
            t.out[i].children_share = t.out[i].children_ci_low = t.out[i].children_ci_high = 0;
        }
    *rows = t.out;
    *nrows = t.n;
    return PMS_OK;
}
