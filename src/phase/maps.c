#include "phase/maps.h"
#include "io/perfdata_format.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

typedef struct mapping {
    uint32_t pid;
    uint64_t start, end, pgoff;
    uint64_t tag; /* hash of the file's name, in the top bits of a relocated address */
} mapping;

struct pms_maps {
    mapping *v;
    size_t n, cap;
};

/* Offsets keep their low 40 bits (1 TiB of file); the tag takes the rest. */
#define OFFSET_BITS 40

int pms__maps_create(pms_maps **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory for the address map");
}

void pms__maps_free(pms_maps *m)
{
    if (!m) return;
    free(m->v);
    free(m);
}

/* A file, as opposed to "//anon", "[heap]", "[stack]", "[anon:...]", a JIT's memfd: a path. */
static int is_file(const char *name) { return name && name[0] == '/' && strncmp(name, "//anon", 6) != 0; }

static uint64_t name_tag(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)base; *p; p++) h = (h ^ *p) * 1099511628211ull;
    h >>= OFFSET_BITS;
    return h ? h : 1; /* never 0: a tagged number differs from a small raw address */
}

static void remove_overlaps(pms_maps *m, uint32_t pid, uint64_t start, uint64_t end)
{
    size_t kept = 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].pid != pid || m->v[i].end <= start || m->v[i].start >= end) m->v[kept++] = m->v[i];
    m->n = kept;
}

static int append(pms_maps *m, mapping map)
{
    if (pms__grow(&m->v, &m->cap, m->n + 1, sizeof *m->v)) return pms__fail(PMS_ENOMEM, "out of memory for the address map");
    m->v[m->n++] = map;
    return PMS_OK;
}

int pms__maps_add(pms_maps *m, const pms_mmap_event *ev)
{
    if (!ev->executable || !ev->len || ev->start + ev->len < ev->start) return PMS_OK;
    remove_overlaps(m, ev->pid, ev->start, ev->start + ev->len);
    if (!is_file(ev->filename)) return PMS_OK; /* its addresses stay raw */
    return append(m, (mapping){ev->pid, ev->start, ev->start + ev->len, ev->pgoff, name_tag(ev->filename)});
}

int pms__maps_fork(pms_maps *m, uint32_t parent, uint32_t child)
{
    if (parent == child) return PMS_OK; /* a thread shares its process's mappings */
    remove_overlaps(m, child, 0, UINT64_MAX);
    for (size_t i = 0, n = m->n; i < n; i++)
        if (m->v[i].pid == parent) {
            mapping copy = m->v[i];
            copy.pid = child;
            int rc = append(m, copy);
            if (rc) return rc;
        }
    return PMS_OK;
}

int pms__maps_record(pms_maps *m, const struct perf_event_header *h, uint64_t sample_type)
{
    const unsigned char *rec = (const unsigned char *)h;
    size_t trailer = pms__sample_id_size(sample_type), body = h->size > trailer ? h->size - trailer : 0;
    if (h->type == PERF_RECORD_FORK) {
        if (body < 24) return PMS_OK;
        return pms__maps_fork(m, pms__get_u32(rec + 12), pms__get_u32(rec + 8));
    }
    if (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2) return PMS_OK;
    size_t fixed = h->type == PERF_RECORD_MMAP2 ? 72 : 40;
    if (body <= fixed || !memchr(rec + fixed, 0, body - fixed)) return PMS_OK; /* not a record the kernel writes */
    int data = (h->misc & PERF_RECORD_MISC_MMAP_DATA) != 0;
    pms_mmap_event ev = {.pid = pms__get_u32(rec + 8), .tid = pms__get_u32(rec + 12), .start = pms__get_u64(rec + 16),
                         .len = pms__get_u64(rec + 24), .pgoff = pms__get_u64(rec + 32),
                         .filename = (const char *)rec + fixed};
    ev.executable = h->type == PERF_RECORD_MMAP2 ? (pms__get_u32(rec + 64) & 4 /* PROT_EXEC */) && !data : !data;
    return pms__maps_add(m, &ev);
}

static uint64_t relocated(const mapping *map, uint64_t ip)
{
    uint64_t offset = map->pgoff + (ip - map->start);
    return (map->tag << OFFSET_BITS) | (offset & ((1ull << OFFSET_BITS) - 1));
}

static int holds(const mapping *map, uint32_t pid, uint64_t ip) { return map->pid == pid && ip >= map->start && ip < map->end; }

uint64_t pms__maps_relocate(const pms_maps *m, uint32_t pid, uint64_t ip, size_t *hint)
{
    /* Samples in a row mostly fall in one mapping: the caller's last hit is tried first. A
     * mapping added or removed since may have moved it; then the match is only less likely,
     * since mappings of one process never overlap (remove_overlaps) and it is checked. */
    if (*hint < m->n && holds(&m->v[*hint], pid, ip)) return relocated(&m->v[*hint], ip);
    for (size_t i = m->n; i-- > 0;)
        if (holds(&m->v[i], pid, ip)) {
            *hint = i;
            return relocated(&m->v[i], ip);
        }
    return ip;
}
