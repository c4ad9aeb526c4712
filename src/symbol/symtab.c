/* Symbol tables with perf's rules (tools/perf/util/symbol.c: choose_best_symbol,
 * symbols__fixup_duplicate, symbols__fixup_end), so that an address gets the name perf
 * report gives it: `malloc` rather than its alias `__libc_malloc`. */
#include "symbol/symtab.h"
#include "util/error.h"
#include "util/grow.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

int pms__symtab_add(pms__symtab *t, uint64_t start, uint64_t size, int binding, const char *name)
{
    if (pms__grow(&t->v, &t->cap, t->n + 1, sizeof *t->v)) return pms__fail(PMS_ENOMEM, "out of memory for symbols");
    char *copy = strdup(name);
    if (!copy) return pms__fail(PMS_ENOMEM, "out of memory for symbols");
    t->v[t->n] = (struct pms__sym){start, start + size, copy, (unsigned char)binding, t->n};
    t->n++;
    return PMS_OK;
}

static int by_start(const void *x, const void *y)
{
    const struct pms__sym *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static size_t leading_underscores(const char *s)
{
    size_t n = 0;
    while (s[n] == '_') n++;
    return n;
}

/* 1 when a names the address rather than b, in perf's order of preference: a size,
 * not weak, global, fewer leading underscores, a longer name; then the first (perf only
 * avoids the "SyS" syscall aliases there). */
static int better(const struct pms__sym *a, const struct pms__sym *b)
{
    int sa = a->end > a->start, sb = b->end > b->start;
    if (sa != sb) return sa;
    int wa = a->binding == STB_WEAK, wb = b->binding == STB_WEAK;
    if (wa != wb) return wb;
    int ga = a->binding == STB_GLOBAL, gb = b->binding == STB_GLOBAL;
    if (ga != gb) return ga;
    size_t ua = leading_underscores(a->name), ub = leading_underscores(b->name);
    if (ua != ub) return ua < ub;
    size_t la = strlen(a->name), lb = strlen(b->name);
    if (la != lb) return la > lb;
    if (strncmp(a->name, "SyS", 3) == 0 || strncmp(a->name, "compat_SyS", 10) == 0) return 0;
    return 1;
}

void pms__symtab_finish(pms__symtab *t)
{
    if (!t->n) return;
    qsort(t->v, t->n, sizeof *t->v, by_start);
    /* Ends first, as perf does: of sizeless aliases only the last (in table order) ends
     * at the next address and so has a size, which then makes it the preferred one. */
    for (size_t i = 0; i + 1 < t->n; i++)
        if (t->v[i].end == t->v[i].start) t->v[i].end = t->v[i + 1].start;
    struct pms__sym *last = &t->v[t->n - 1];
    if (last->end == last->start) last->end = (last->start + PAGE - 1) / PAGE * PAGE + PAGE;
    size_t kept = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (kept && t->v[kept - 1].start == t->v[i].start) {
            struct pms__sym *a = &t->v[kept - 1], *b = &t->v[i];
            if (better(a, b)) {
                free(b->name);
            } else {
                free(a->name);
                *a = *b;
            }
            continue;
        }
        t->v[kept++] = t->v[i];
    }
    t->n = kept;
}

const struct pms__sym *pms__symtab_find(const pms__symtab *t, uint64_t addr)
{
    size_t lo = 0, hi = t->n; /* first symbol starting after addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].start <= addr) lo = mid + 1;
        else hi = mid;
    }
    /* The nearest start at or below addr; an enclosing symbol further back (one that
     * contains smaller ones) is searched over a few entries. */
    for (size_t i = lo, steps = 0; i > 0 && steps < 16; i--, steps++) {
        const struct pms__sym *s = &t->v[i - 1];
        if (addr < s->end || addr == s->start) return s;
    }
    return NULL;
}

void pms__symtab_free(pms__symtab *t)
{
    for (size_t i = 0; i < t->n; i++) free(t->v[i].name);
    free(t->v);
    *t = (pms__symtab){0};
}
