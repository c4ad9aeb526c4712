/* Event names to perf_event_attr: one name (pms_event_parse) and comma-separated
 * lists with {a,b} groups (pms_event_list_parse). */
#include "event/event_internal.h"
#include "util/error.h"
#include "util/grow.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool parse_raw(const char *s, uint64_t *config)
{
    if (s[0] != 'r' || !s[1] || strlen(s + 1) > 16) return false;
    for (const char *p = s + 1; *p; p++)
        if (!isxdigit((unsigned char)*p)) return false;
    *config = strtoull(s + 1, NULL, 16);
    return true;
}

/* The closest generic name within edit distance 2, for "did you mean". */
struct suggestion { const char *wrong; char best[PMS_EVENT_NAME_MAX]; size_t dist; };

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static int suggest_visit(const char *name, const char *desc, pms_event_source src, void *ctx)
{
    (void)desc;
    (void)src;
    struct suggestion *s = ctx;
    size_t d = edit_distance(s->wrong, name);
    if (d < s->dist) {
        s->dist = d;
        snprintf(s->best, sizeof s->best, "%s", name);
    }
    return 0;
}

static int unknown_event(const char *spec, const char *base, const char *pfm_message)
{
    struct suggestion s = {base, "", 3};
    pms__generic_foreach(suggest_visit, &s);
    char hint[PMS_EVENT_NAME_MAX + 32] = "";
    if (s.best[0]) snprintf(hint, sizeof hint, "; did you mean '%s'?", s.best);
    return pms__fail(PMS_ENOENT,
                    "unknown event '%s': not a perf generic name, raw rNNNN, pmu/term=value/ or libpfm4 event "
                    "(%s)%s; 'pmuscope list' shows the events",
                    spec, pfm_message, hint);
}

/* A libpfm4 name: its own ':' syntax is tried first, then with a trailing perf modifier group. */
static int parse_pfm(const char *spec, pms_event *out)
{
    int r = pms__pfm_encode(spec, &out->attr);
    if (r == PMS_OK) return PMS_OK;
    char first_message[512];
    snprintf(first_message, sizeof first_message, "%s", pms_strerror());
    const char *colon = strrchr(spec, ':');
    if (colon && colon > spec && colon[-1] != ':' && pms__modifiers_valid(colon + 1)) {
        char base[PMS_EVENT_NAME_MAX];
        snprintf(base, sizeof base, "%.*s", (int)(colon - spec), spec);
        int r2 = pms__pfm_encode(base, &out->attr);
        if (r2 == PMS_OK) return pms__modifiers_apply(colon + 1, spec, &out->attr);
    }
    if (r != PMS_ENOENT) return pms__fail(r, "%s: %s", spec, first_message);
    char base[PMS_EVENT_NAME_MAX];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(spec, ":"), spec);
    return unknown_event(spec, base, first_message);
}

int pms_event_parse(const char *spec, pms_event *out)
{
    memset(out, 0, sizeof *out);
    out->attr.size = sizeof out->attr;
    while (isspace((unsigned char)*spec)) spec++;
    size_t len = strlen(spec);
    while (len && isspace((unsigned char)spec[len - 1])) len--;
    if (len == 0) return pms__fail(PMS_EINVAL, "empty event name");
    if (len >= sizeof out->name)
        return pms__fail(PMS_EINVAL, "event name too long (%zu characters, at most %d): '%.40s...'", len,
                        PMS_EVENT_NAME_MAX - 1, spec);
    memcpy(out->name, spec, len);
    out->name[len] = '\0';
    const char *name = out->name;

    const char *last_slash = strrchr(name, '/');
    if (last_slash && strchr(name, '/') == last_slash)
        return pms__fail(PMS_EINVAL, "'%s': expected pmu/term=value,.../ (no closing '/')", name);
    if (last_slash) {
        char body[PMS_EVENT_NAME_MAX];
        size_t blen = (size_t)(last_slash - name) + 1;
        memcpy(body, name, blen);
        body[blen] = '\0';
        /* Modifiers follow the closing '/' directly (perf's cpu/cycles/u) or after a ':'. */
        const char *tail = last_slash + 1;
        if (*tail == ':') tail++;
        if (tail[-1] == ':' && !*tail) return pms__fail(PMS_EINVAL, "'%s': expected modifiers after ':'", name);
        if (*tail && !pms__modifiers_valid(tail))
            return pms__fail(PMS_EINVAL, "'%s': unexpected '%s' after the closing '/' (expected modifiers u, k, h, p)",
                            name, last_slash + 1);
        out->source = PMS_EVSRC_SYSFS;
        int r = pms__sysfs_parse(body, &out->attr);
        if (r) return r;
        return *tail ? pms__modifiers_apply(tail, name, &out->attr) : PMS_OK;
    }

    char base[PMS_EVENT_NAME_MAX];
    size_t blen = strcspn(name, ":");
    memcpy(base, name, blen);
    base[blen] = '\0';
    const char *mods = name[blen] ? name + blen + 1 : NULL;
    uint64_t config;
    uint32_t type;
    if (pms__generic_lookup(base, &type, &config)) {
        out->source = PMS_EVSRC_GENERIC;
        out->attr.type = type;
        out->attr.config = config;
    } else if (pms__tool_lookup(base, &config)) {
        /* Measured by the counter set, not opened: no privilege levels to choose. */
        if (mods) return pms__fail(PMS_EINVAL, "'%s': %s is a tool event (a time measured by pmuscope): it takes "
                                               "no modifiers", name, base);
        out->source = PMS_EVSRC_TOOL;
        out->attr.type = PMS_EVENT_TOOL_TYPE;
        out->attr.config = config;
        return PMS_OK;
    } else if (parse_raw(base, &config)) {
        out->source = PMS_EVSRC_RAW;
        out->attr.type = PERF_TYPE_RAW;
        out->attr.config = config;
    } else {
        out->source = PMS_EVSRC_PFM;
        return parse_pfm(name, out);
    }
    if (mods && !*mods) return pms__fail(PMS_EINVAL, "'%s': expected modifiers after ':'", name);
    return mods ? pms__modifiers_apply(mods, name, &out->attr) : PMS_OK;
}

/* Appends ":mods" of a {..}:mods group to a member and applies them. */
static int apply_group_modifiers(pms_event *ev, const char *mods)
{
    size_t n = strlen(ev->name);
    if (n + 1 + strlen(mods) >= sizeof ev->name) return pms__fail(PMS_EINVAL, "'%s:%s': name too long", ev->name, mods);
    char full[PMS_EVENT_NAME_MAX + 32];
    snprintf(full, sizeof full, "%s:%s", ev->name, mods);
    int r = pms__modifiers_apply(mods, full, &ev->attr);
    if (r == PMS_OK) memcpy(ev->name, full, sizeof ev->name);
    return r;
}

/* The event name at *i: it runs to ',' or '}' outside a pmu/.../ term list. */
static int next_token(const char *spec, size_t len, size_t *i, char *token, size_t size)
{
    size_t start = *i, j = *i;
    bool in_terms = false;
    for (; j < len && (in_terms || (spec[j] != ',' && spec[j] != '}')); j++) {
        if (spec[j] == '/') in_terms = !in_terms;
        if (spec[j] == '{')
            return pms__fail(PMS_EINVAL, "'%s': offset %zu: unexpected '{' inside an event name", spec, j);
    }
    size_t tlen = j - start;
    if (tlen >= size) return pms__fail(PMS_EINVAL, "'%.40s...': offset %zu: event name too long", spec, start);
    memcpy(token, spec + start, tlen);
    token[tlen] = '\0';
    if (strspn(token, " \t") == tlen)
        return pms__fail(PMS_EINVAL, "'%s': offset %zu: expected an event name", spec, start);
    *i = j;
    return PMS_OK;
}

/* The '}' at *i: optional ":mods" for events[first..n), then ',' or the end. */
static int close_group(const char *spec, size_t len, size_t *i, pms_event *events, size_t first, size_t n)
{
    size_t j = *i + 1;
    if (spec[j] == ':') {
        size_t mstart = ++j;
        while (j < len && spec[j] != ',') j++;
        char mods[16];
        if (j - mstart == 0 || j - mstart >= sizeof mods)
            return pms__fail(PMS_EINVAL, "'%s': offset %zu: expected group modifiers after '}:'", spec, mstart);
        memcpy(mods, spec + mstart, j - mstart);
        mods[j - mstart] = '\0';
        for (size_t k = first; k < n; k++) {
            int r = apply_group_modifiers(&events[k], mods);
            if (r != PMS_OK) return r;
        }
    }
    while (isspace((unsigned char)spec[j])) j++;
    if (j < len && spec[j] != ',') return pms__fail(PMS_EINVAL, "'%s': offset %zu: expected ',' after '}'", spec, j);
    *i = j;
    return PMS_OK;
}

int pms_event_list_parse(const char *spec, pms_event **events, size_t *count)
{
    *events = NULL;
    *count = 0;
    size_t cap = 0, n = 0;
    pms_event *list = NULL;
    int next_group = 0, group = -1, r = PMS_OK;
    size_t group_first = 0, i = 0, len = strlen(spec);
    if (len == 0) {
        r = pms__fail(PMS_EINVAL, "empty event list");
        goto fail;
    }
    while (i < len) {
        while (isspace((unsigned char)spec[i])) i++;
        if (spec[i] == '{') {
            if (group >= 0) {
                r = pms__fail(PMS_EINVAL, "'%s': offset %zu: groups cannot be nested", spec, i);
                goto fail;
            }
            group = next_group++;
            group_first = n;
            i++;
            continue;
        }
        char token[PMS_EVENT_NAME_MAX * 2];
        if ((r = next_token(spec, len, &i, token, sizeof token)) != PMS_OK) goto fail;
        if (pms__grow(&list, &cap, n + 1, sizeof *list)) {
            r = pms__fail(PMS_ENOMEM, "out of memory");
            goto fail;
        }
        if ((r = pms_event_parse(token, &list[n])) != PMS_OK) goto fail;
        list[n].group = group >= 0 ? group : next_group++;
        n++;
        if (i < len && spec[i] == '}') {
            if (group < 0) {
                r = pms__fail(PMS_EINVAL, "'%s': offset %zu: '}' without '{'", spec, i);
                goto fail;
            }
            if ((r = close_group(spec, len, &i, list, group_first, n)) != PMS_OK) goto fail;
            group = -1;
        }
        if (i < len && spec[i] == ',') {
            i++;
            if (i >= len) {
                r = pms__fail(PMS_EINVAL, "'%s': offset %zu: expected an event name after ','", spec, i);
                goto fail;
            }
        }
    }
    if (group >= 0) {
        r = pms__fail(PMS_EINVAL, "'%s': missing '}' to close the group", spec);
        goto fail;
    }
    *events = list;
    *count = n;
    return PMS_OK;
fail:
    free(list);
    return r;
}
