/* Call paths of rows, folded as perf report -g folded prints them: function names leaf
 * first, ';' between, an address without a symbol as 0x... (perf's %#x of the IP). Paths
 * merge by their text, as perf's function-keyed callchains do for named functions. */
#include "hotspot/callpaths.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pms__paths_init(pms__paths *ps)
{
    memset(ps, 0, sizeof *ps);
    pms__strtab_init(&ps->names);
    pms__keymap_init(&ps->index);
}

void pms_profile_paths_free(pms_profile_path *paths, size_t n)
{
    for (size_t i = 0; paths && i < n; i++) free(paths[i].path);
    free(paths);
}

void pms__paths_free(pms__paths *ps)
{
    pms__strtab_free(&ps->names);
    pms__keymap_free(&ps->index);
    pms_profile_paths_free(ps->items, ps->n);
    free(ps->buf);
}

static int append(pms__paths *ps, const char *s)
{
    size_t len = strlen(s);
    if (pms__grow(&ps->buf, &ps->buf_cap, ps->len + len + 2, 1)) return -1;
    if (ps->len) ps->buf[ps->len++] = ';';
    memcpy(ps->buf + ps->len, s, len + 1);
    ps->len += len;
    return 0;
}

int pms__paths_add(pms__paths *ps, pms_symbols *symbols, size_t row, uint32_t pid, uint64_t time,
                   const pms__chain_ip *walk, size_t n, uint64_t samples, uint64_t period)
{
    if (pms__grow(&ps->buf, &ps->buf_cap, 1, 1)) return pms__fail(PMS_ENOMEM, "out of memory for the call paths");
    ps->buf[ps->len = 0] = '\0'; /* a dropped chain is an empty path */
    for (size_t i = 0; i < n; i++) {
        pms_symbol_info si;
        pms_symbols_resolve(symbols, pid, walk[i].ip, time, walk[i].kernel, &si);
        char address[24];
        snprintf(address, sizeof address, "%#" PRIx64, walk[i].ip);
        if (append(ps, si.symbol ? si.symbol : address)) return pms__fail(PMS_ENOMEM, "out of memory for the call paths");
    }
    int64_t name = pms__strtab_intern(&ps->names, ps->buf);
    uint64_t *slot = name < 0 ? NULL : pms__keymap_upsert(&ps->index, row, (uint64_t)name, UINT64_MAX);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the call paths");
    if (*slot == UINT64_MAX) {
        char *copy = strdup(ps->buf);
        if (!copy || pms__grow(&ps->items, &ps->cap, ps->n + 1, sizeof *ps->items)) {
            free(copy);
            *slot = UINT64_MAX;
            return pms__fail(PMS_ENOMEM, "out of memory for the call paths");
        }
        ps->items[ps->n] = (pms_profile_path){.row = row, .path = copy};
        *slot = ps->n++;
    }
    ps->items[*slot].samples += samples;
    ps->items[*slot].period += period;
    return PMS_OK;
}

static int compare_paths(const void *x, const void *y)
{
    const pms_profile_path *a = x, *b = y;
    if (a->row != b->row) return a->row < b->row ? -1 : 1;
    if (a->share != b->share) return a->share < b->share ? 1 : -1;
    return strcmp(a->path, b->path);
}

int pms__paths_take(pms__paths *ps, const size_t *row_at, pms_profile_weight weight, double total,
                    pms_profile_path **out, size_t *n)
{
    for (size_t i = 0; i < ps->n; i++) {
        pms_profile_path *q = &ps->items[i];
        q->row = row_at[q->row];
        double part = weight == PMS_WEIGHT_PERIOD ? (double)q->period : (double)q->samples;
        q->share = total > 0 ? part / total : 0;
    }
    if (ps->n) qsort(ps->items, ps->n, sizeof *ps->items, compare_paths);
    *out = ps->items;
    *n = ps->n;
    ps->items = NULL;
    ps->n = ps->cap = 0;
    return PMS_OK;
}
