/* perf.data -> pprof: one pass counts samples, periods and read-counter increments per
 * sampled instruction (process, mode, IP) and callchain; then every instruction (sampled
 * or in a callchain) becomes a location in its mapping and function, and every (IP,
 * callchain) a sample carrying its locations (leaf first), values and share intervals. */
#include "pmuscope/event.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/pprof.h"
#include "pmuscope/profile.h"
#include "pmuscope/symbols.h"

#include "hotspot/chains.h"
#include "hotspot/pprof_build.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "hotspot/read_delta.h"
#include "symbol/unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 1024u
#define NO_TYPE SIZE_MAX
#define LABEL_SIZE 192 /* an event name (< 128) and a share with its interval */

struct site {
    uint32_t pid;
    int kernel;
    uint64_t ip, time;
    size_t chain; /* index in the pass's chains, SIZE_MAX without one */
};

/* Per event of the file: two value slots per site, samples and period (or increments). */
struct event_stats {
    uint64_t samples, value, min_period, max_period;
    size_t samples_type, value_type; /* sample type index, or NO_TYPE */
    char name[128];
};

struct pass {
    const pms_perfdata_attr *attrs;
    size_t nattrs, nslots;
    struct event_stats *ev;
    pms_keymap site_index; /* (kernel << 32 | pid, ip), or (1 << 63 | chain, 0) -> site */
    pms__chains chains;    /* the distinct (mode, pid, IP, callchain) of the samples */
    struct site *sites;
    size_t nsites, sites_cap;
    uint64_t *values; /* nsites x nslots */
    size_t values_cap;
    pms_keymap last_read; /* (read id, 0) -> the counter's value at the previous sample */
    uint64_t first_time, last_time, lost;
    pms_profile *profile;
    pms_symbols *symbols;
    pms__unwinder *unwinder; /* made at the first sample with a user stack copy */
};

static int is_kernel(uint16_t misc)
{
    uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
    return mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
}

static uint64_t *site_values(struct pass *p, const pms_sample *s)
{
    int kernel = is_kernel(s->misc);
    uint64_t a = (uint64_t)kernel << 32 | s->pid, b = s->ip;
    size_t chain = SIZE_MAX;
    if (s->nr_callchain) { /* the chain, interned with the mode, pid and IP, is the site */
        if (pms__chains_add(&p->chains, a, s->pid, s->ip, s->time, s->callchain, (size_t)s->nr_callchain, 0, &chain))
            return NULL;
        a = 1ull << 63 | chain;
        b = 0;
    }
    uint64_t *slot = pms__keymap_upsert(&p->site_index, a, b, UINT64_MAX);
    if (!slot) return NULL;
    if (*slot == UINT64_MAX) {
        if (pms__grow(&p->sites, &p->sites_cap, p->nsites + 1, sizeof *p->sites) ||
            pms__grow(&p->values, &p->values_cap, (p->nsites + 1) * p->nslots, sizeof *p->values))
            return NULL;
        p->sites[p->nsites] = (struct site){s->pid, kernel, s->ip, s->time, chain};
        memset(p->values + p->nsites * p->nslots, 0, p->nslots * sizeof *p->values);
        *slot = p->nsites++;
    }
    return p->values + *slot * p->nslots;
}

/* The events a sample stands for, as pms_profile counts them. */
static uint64_t sample_period(const pms_sample *s)
{
    if (s->attr && !(s->attr->attr.sample_type & PERF_SAMPLE_PERIOD))
        return s->attr->attr.freq ? 0 : s->attr->attr.sample_period;
    return s->period;
}

static int on_sample(const pms_sample *recorded, void *ctx)
{
    struct pass *p = ctx;
    pms_sample unwound; /* --call-graph dwarf: the chain with the unwound user frames */
    int rc = pms__unwind_sample(&p->unwinder, p->symbols, recorded, &unwound);
    if (rc) return rc;
    const pms_sample *s = &unwound;
    size_t e = s->attr ? (size_t)(s->attr - p->attrs) : 0;
    if (e >= p->nattrs) e = 0;
    rc = pms_profile_add(p->profile, e, s);
    if (rc) return rc;
    uint64_t *v = site_values(p, s);
    if (!v) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    uint64_t period = sample_period(s);
    struct event_stats *st = &p->ev[e];
    if (!st->samples || period < st->min_period) st->min_period = period;
    if (period > st->max_period) st->max_period = period;
    st->samples++;
    st->value += period;
    v[2 * e]++;
    v[2 * e + 1] += period;
    /* A counter read at every sample: what it counted since the previous sample read it
     * (perf report's attribution of PERF_SAMPLE_READ groups). */
    for (size_t i = 0; i < s->nvalues; i++) {
        const pms_perfdata_attr *a = pms_attr_by_id(p->attrs, p->nattrs, s->values[i].id);
        if (!a || a == s->attr) continue;
        uint64_t delta;
        if (pms__read_delta(&p->last_read, s->values[i].id, s->values[i].value, &delta))
            return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
        size_t j = (size_t)(a - p->attrs);
        v[2 * j + 1] += delta;
        p->ev[j].value += delta;
    }
    if (s->time) {
        if (!p->first_time || s->time < p->first_time) p->first_time = s->time;
        if (s->time > p->last_time) p->last_time = s->time;
    }
    return PMS_OK;
}

static int on_mmap(const pms_mmap_event *m, void *ctx) { return pms_symbols_add_mmap(((struct pass *)ctx)->symbols, m); }
static int on_task(const pms_task_event *t, void *ctx) { return pms_symbols_add_task(((struct pass *)ctx)->symbols, t); }

static int on_lost(uint64_t n, void *ctx)
{
    ((struct pass *)ctx)->lost += n;
    return PMS_OK;
}

static const char *unit_of(const pms_perfdata_attr *a)
{
    return pms_event_counts_time(a->attr.type, a->attr.config) ? "nanoseconds" : "events";
}

/* The sample types: "<event>_samples" where the event sampled, "<event>" where it counted. */
static int add_types(pms_pprof_builder *b, struct pass *p)
{
    size_t n = 0;
    int rc = PMS_OK;
    for (size_t e = 0; e < p->nattrs && !rc; e++) {
        struct event_stats *st = &p->ev[e];
        const char *name = p->attrs[e].name;
        snprintf(st->name, sizeof st->name, "%s", name && name[0] ? name : "event");
        if (!name || !name[0]) snprintf(st->name, sizeof st->name, "event%zu", e);
        st->samples_type = st->value_type = NO_TYPE;
        if (st->samples) {
            char type[160];
            snprintf(type, sizeof type, "%s_samples", st->name);
            rc = pms__pprof_add_type(b, type, "count");
            if (!rc && n == 0) rc = pms__pprof_set_default_type(b, type);
            st->samples_type = n++;
        }
        if (!rc && (st->samples || st->value)) {
            rc = pms__pprof_add_type(b, st->name, unit_of(&p->attrs[e]));
            st->value_type = n++;
        }
    }
    return rc;
}

static int add_event_comments(pms_pprof_builder *b, struct pass *p, const pms_pprof_options *o)
{
    int rc = PMS_OK;
    for (size_t e = 0; e < p->nattrs && !rc; e++) {
        const struct event_stats *st = &p->ev[e];
        const struct perf_event_attr *a = &p->attrs[e].attr;
        if (st->samples == 0 && st->value_type != NO_TYPE) {
            rc = pms__pprof_add_comment(b, "event %s: counted, %llu %s over the samples (read at every sample)",
                                        st->name, (unsigned long long)st->value, unit_of(&p->attrs[e]));
            continue;
        }
        if (st->samples == 0) continue;
        char how[160];
        if (a->freq)
            snprintf(how, sizeof how, "at %llu samples a second (the kernel adjusts the period: %llu to %llu)",
                     (unsigned long long)a->sample_freq, (unsigned long long)st->min_period,
                     (unsigned long long)st->max_period);
        else if (st->min_period != st->max_period)
            snprintf(how, sizeof how, "every %llu %s, randomised: periods from %llu to %llu", (unsigned long long)a->sample_period,
                     unit_of(&p->attrs[e]), (unsigned long long)st->min_period, (unsigned long long)st->max_period);
        else
            snprintf(how, sizeof how, "every %llu %s (fixed, not randomised)", (unsigned long long)a->sample_period,
                     unit_of(&p->attrs[e]));
        rc = pms__pprof_add_comment(b, "event %s: %llu samples, sampled %s", st->name, (unsigned long long)st->samples,
                                    how);
        pms_profile_row *rows = NULL;
        size_t nrows = 0;
        if (!rc) rc = pms_profile_table(p->profile, e, PMS_PROFILE_BY_SYMBOL, o->confidence, &rows, &nrows);
        if (!rc)
            rc = pms__pprof_add_comment(b, "%s: share of samples by function with its %g%% Wilson interval:", st->name,
                                        100 * o->confidence);
        for (size_t i = 0; i < nrows && i < o->top && !rc; i++) {
            const char *bin = strrchr(rows[i].binary, '/');
            rc = pms__pprof_add_comment(b, "  %6.2f%% [%.2f, %.2f]  %s  (%s)", 100 * rows[i].share,
                                        100 * rows[i].ci_low, 100 * rows[i].ci_high,
                                        rows[i].symbol ? rows[i].symbol : PMS_BINARY_UNKNOWN,
                                        bin ? bin + 1 : rows[i].binary);
        }
        free(rows);
    }
    return rc;
}

static int add_comments(pms_pprof_builder *b, struct pass *p, pms_perfdata_reader *r, const char *perfdata,
                        const pms_pprof_options *o)
{
    int rc = pms__pprof_add_comment(b, "pmuscope: from %s", perfdata);
    size_t argc = 0;
    char *const *argv = pms_perfdata_cmdline(r, &argc);
    if (!rc && argc) {
        size_t len = 1;
        for (size_t i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
        char *line = calloc(1, len);
        if (!line) return pms__fail(PMS_ENOMEM, "out of memory");
        for (size_t i = 0; i < argc; i++) {
            if (i) strcat(line, " ");
            strcat(line, argv[i]);
        }
        rc = pms__pprof_add_comment(b, "command line in the perf.data: %s", line);
        free(line);
    }
    for (size_t i = 0; i < o->nnotes && !rc; i++) rc = pms__pprof_add_comment(b, "%s", o->notes[i]);
    if (!rc) rc = add_event_comments(b, p, o);
    if (!rc && p->lost)
        rc = pms__pprof_add_comment(b, "lost samples: %llu (the ring buffer overflowed)", (unsigned long long)p->lost);
    return rc;
}

/* Ids of mappings, functions and locations, found again by (binary, start), (binary,
 * symbol) and (mode << 32 | pid, address). */
struct ids {
    pms_keymap mappings, functions, locations;
};

static int mapping_of(pms_pprof_builder *b, struct pass *p, struct ids *ids, const pms_symbol_info *si, uint64_t *id)
{
    *id = 0;
    if (!si->mapped) return PMS_OK;
    uint64_t *slot = pms__keymap_upsert(&ids->mappings, (uint64_t)(uintptr_t)si->binary, si->map_start, 0);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    if (!*slot) {
        int file = si->binary[0] == '/';
        int rc = pms__pprof_add_mapping(b, slot, si->binary, pms_symbols_build_id(p->symbols, si->binary),
                                        si->map_start, si->map_end, si->map_pgoff, 1, file);
        if (rc) return rc;
    }
    *id = *slot;
    return PMS_OK;
}

static int function_of(pms_pprof_builder *b, struct pass *p, struct ids *ids, const pms_symbol_info *si, uint64_t *id)
{
    uint64_t key = si->symbol ? si->symbol_address : UINT64_MAX;
    uint64_t *slot = pms__keymap_upsert(&ids->functions, (uint64_t)(uintptr_t)si->binary, key, 0);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    if (!*slot) {
        const char *file = "";
        int line = 0;
        if (si->symbol)
            pms_symbols_source_line(p->symbols, si->binary, si->file_offset - si->symbol_offset, &file, &line);
        const char *name = si->symbol ? si->symbol : PMS_BINARY_UNKNOWN;
        int rc = pms__pprof_add_function(b, slot, name, name, file, line);
        if (rc) return rc;
    }
    *id = *slot;
    return PMS_OK;
}

/* "12.34% [11.90%, 12.78%] (95% Wilson)" */
static void share_label(char *buf, size_t size, uint64_t k, uint64_t n, double confidence)
{
    double low = 0, high = 1;
    pms_wilson_interval(k, n, confidence, &low, &high);
    snprintf(buf, size, "%.2f%% [%.2f%%, %.2f%%] (%g%% Wilson)", 100.0 * (double)k / (double)n, 100 * low, 100 * high,
             100 * confidence);
}

/* The location of address ip of process pid (kernel: in the kernel's maps) at time, made
 * at first sight with its mapping, function and source line. */
static int location_of(pms_pprof_builder *b, struct pass *p, struct ids *ids, uint32_t pid, int kernel, uint64_t ip,
                       uint64_t time, uint64_t *id)
{
    uint64_t *slot = pms__keymap_upsert(&ids->locations, (uint64_t)kernel << 32 | pid, ip, 0);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    if (!*slot) {
        pms_symbol_info si;
        pms_symbols_resolve(p->symbols, pid, ip, time, kernel, &si);
        uint64_t mapping = 0, function = 0;
        const char *file = "";
        int line = 0;
        if (si.symbol) pms_symbols_source_line(p->symbols, si.binary, si.file_offset, &file, &line);
        int rc = mapping_of(b, p, ids, &si, &mapping);
        if (!rc) rc = function_of(b, p, ids, &si, &function);
        if (!rc) rc = pms__pprof_add_location(b, slot, mapping, ip, function, line);
        if (rc) return rc;
    }
    *id = *slot;
    return PMS_OK;
}

/* A site's locations, leaf first: the sampled IP, then its callchain as perf report walks
 * it (the chain's first entry, the sampled IP again, left out). Returns how many went to
 * locs (room for 1 + PMS__MAX_STACK). */
static int site_locations(pms_pprof_builder *b, struct pass *p, struct ids *ids, const struct site *s,
                          pms__chain_ip *walk, uint64_t *locs, size_t *n)
{
    *n = 0;
    int rc = location_of(b, p, ids, s->pid, s->kernel, s->ip, s->time, &locs[(*n)++]);
    if (rc || s->chain == SIZE_MAX) return rc;
    const pms__chain *k = &p->chains.items[s->chain];
    size_t nwalk = pms__chain_walk(p->chains.pool + k->start, k->len, PMS__MAX_STACK, walk);
    for (size_t i = 0; i < nwalk && !rc; i++) {
        if (i == 0 && walk[0].ip == s->ip && walk[0].kernel == s->kernel) continue;
        rc = location_of(b, p, ids, s->pid, walk[i].kernel, walk[i].ip, s->time, &locs[(*n)++]);
    }
    return rc;
}

static int add_sites(pms_pprof_builder *b, struct pass *p, const pms_pprof_options *o)
{
    struct ids ids;
    pms__keymap_init(&ids.mappings);
    pms__keymap_init(&ids.functions);
    pms__keymap_init(&ids.locations);
    uint64_t *locs = malloc((1 + PMS__MAX_STACK) * sizeof *locs);
    pms__chain_ip *walk = malloc(PMS__MAX_STACK * sizeof *walk);
    size_t ntypes = 0;
    for (size_t e = 0; e < p->nattrs; e++) ntypes += (p->ev[e].samples_type != NO_TYPE) + (p->ev[e].value_type != NO_TYPE);
    int64_t *values = calloc(ntypes ? ntypes : 1, sizeof *values);
    pms_pprof_label *labels = calloc(p->nattrs ? p->nattrs : 1, sizeof *labels);
    char *texts = calloc(p->nattrs ? p->nattrs : 1, 2 * LABEL_SIZE);
    int rc = values && labels && texts && locs && walk ? PMS_OK
                                                       : pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    for (size_t i = 0; i < p->nsites && !rc; i++) {
        const struct site *s = &p->sites[i];
        const uint64_t *v = p->values + i * p->nslots;
        size_t nlocs = 0;
        rc = site_locations(b, p, &ids, s, walk, locs, &nlocs);
        size_t nlabels = 0;
        for (size_t e = 0; e < p->nattrs && !rc; e++) {
            const struct event_stats *st = &p->ev[e];
            if (st->samples_type != NO_TYPE) values[st->samples_type] = (int64_t)v[2 * e];
            if (st->value_type != NO_TYPE) values[st->value_type] = (int64_t)v[2 * e + 1];
            if (!v[2 * e]) continue;
            char *key = texts + 2 * LABEL_SIZE * nlabels, *str = key + LABEL_SIZE;
            snprintf(key, LABEL_SIZE, "%s share", st->name);
            share_label(str, LABEL_SIZE, v[2 * e], st->samples, o->confidence);
            labels[nlabels++] = (pms_pprof_label){key, str};
        }
        if (!rc) rc = pms__pprof_add_sample(b, locs, nlocs, values, labels, nlabels);
    }
    free(locs);
    free(walk);
    pms__keymap_free(&ids.locations);
    free(values);
    free(labels);
    free(texts);
    pms__keymap_free(&ids.mappings);
    pms__keymap_free(&ids.functions);
    return rc;
}

/* The period of the first event that sampled. */
static int set_period(pms_pprof_builder *b, struct pass *p)
{
    for (size_t e = 0; e < p->nattrs; e++)
        if (p->ev[e].samples)
            return pms__pprof_set_period(b, p->ev[e].name, unit_of(&p->attrs[e]),
                                         p->attrs[e].attr.freq ? 0 : (int64_t)p->attrs[e].attr.sample_period);
    return PMS_OK;
}

static int build_and_save(struct pass *p, pms_perfdata_reader *r, const char *out, const char *perfdata,
                          const pms_pprof_options *o)
{
    pms_pprof_builder *b = NULL;
    int rc = pms__pprof_builder_create(&b);
    if (!rc) rc = add_types(b, p);
    if (!rc) rc = set_period(b, p);
    if (!rc) rc = add_comments(b, p, r, perfdata, o);
    if (!rc) rc = add_sites(b, p, o);
    if (!rc) {
        pms__pprof_set_time(b, 0, (int64_t)(p->last_time - p->first_time));
        rc = pms__pprof_builder_save(b, out);
    }
    pms__pprof_builder_destroy(b);
    return rc;
}

int pms_pprof_write_perfdata(const char *out, const char *perfdata, const pms_pprof_options *options)
{
    pms_pprof_options o = options ? *options : (pms_pprof_options){0};
    if (o.confidence == 0) o.confidence = 0.95;
    if (o.top == 0) o.top = 10;
    if (!(o.confidence > 0 && o.confidence < 1))
        return pms__fail(PMS_EINVAL, "confidence level %g is not between 0 and 1", o.confidence);
    pms_perfdata_reader *r = NULL;
    struct pass p = {0};
    pms__keymap_init(&p.site_index);
    pms__keymap_init(&p.last_read);
    pms__chains_init(&p.chains);
    int rc = pms_perfdata_open(&r, perfdata);
    if (!rc && pms_perfdata_nattrs(r) > MAX_EVENTS)
        rc = pms__fail(PMS_EINVAL, "%s: %zu events, at most %u", perfdata, pms_perfdata_nattrs(r), MAX_EVENTS);
    if (!rc) {
        p.attrs = pms_perfdata_get_attr(r, 0);
        p.nattrs = pms_perfdata_nattrs(r);
        p.nslots = 2 * p.nattrs;
        if (!(p.ev = calloc(p.nattrs ? p.nattrs : 1, sizeof *p.ev))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    }
    if (!rc) rc = pms_symbols_create(&p.symbols);
    if (!rc) rc = pms_symbols_set_symfs(p.symbols, o.symfs);
    if (!rc) rc = pms_profile_create(&p.profile, p.symbols);
    for (size_t i = 0; !rc && i < pms_perfdata_nbuild_ids(r); i++)
        rc = pms_symbols_add_build_id(p.symbols, pms_perfdata_get_build_id(r, i));
    if (!rc) {
        pms_perfdata_handlers h = {on_sample, on_mmap, on_task, on_lost, NULL, NULL, &p};
        rc = pms_perfdata_read(r, &h);
    }
    if (!rc) rc = build_and_save(&p, r, out, perfdata, &o);
    pms_profile_destroy(p.profile);
    pms_symbols_destroy(p.symbols);
    pms__keymap_free(&p.site_index);
    pms__keymap_free(&p.last_read);
    pms__chains_free(&p.chains);
    pms__unwinder_destroy(p.unwinder);
    free(p.sites);
    free(p.values);
    free(p.ev);
    pms_perfdata_close(r);
    return rc;
}
