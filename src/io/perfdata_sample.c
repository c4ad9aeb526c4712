/* Parsing PERF_RECORD_SAMPLE and the sample_id_all trailer of other records
 * (layouts from include/uapi/linux/perf_event.h). The fields up to PERF_SAMPLE_CALLCHAIN
 * are decoded, RAW and BRANCH_STACK skipped, then the user registers and stack copy of
 * perf record --call-graph dwarf (REGS_USER, STACK_USER) decoded; what follows is unused. */
#include "io/perfdata_format.h"
#include "util/error.h"

#include <stdbool.h>

const pms_perfdata_attr *pms_attr_by_id(const pms_perfdata_attr *attrs, size_t nattrs, uint64_t id)
{
    for (size_t i = 0; i < nattrs; i++)
        for (size_t k = 0; k < attrs[i].nids; k++)
            if (attrs[i].ids[k] == id) return &attrs[i];
    return NULL;
}

/* Bytes taken by the fields of sample_type st named in mask: each is one u64. */
static size_t u64_fields(uint64_t st, uint64_t mask)
{
    size_t n = 0;
    for (uint64_t bits = st & mask; bits; bits &= bits - 1)
        n += 8;
    return n;
}

size_t pms__sample_id_size(uint64_t st)
{
    return u64_fields(st, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
                              PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
}

int pms__sample_id_parse(const unsigned char *rec, size_t size, uint64_t st, pms_sample_id *out)
{
    memset(out, 0, sizeof *out);
    size_t need = pms__sample_id_size(st);
    if (size < sizeof(struct perf_event_header) + need) return -1;
    const unsigned char *p = rec + size - need;
    if (st & PERF_SAMPLE_TID) {
        out->pid = pms__get_u32(p);
        out->tid = pms__get_u32(p + 4);
        p += 8;
    }
    if (st & PERF_SAMPLE_TIME) { out->time = pms__get_u64(p); p += 8; }
    if (st & PERF_SAMPLE_ID) { out->id = pms__get_u64(p); p += 8; }
    if (st & PERF_SAMPLE_STREAM_ID) { out->stream_id = pms__get_u64(p); p += 8; }
    if (st & PERF_SAMPLE_CPU) { out->cpu = pms__get_u32(p); p += 8; }
    if (st & PERF_SAMPLE_IDENTIFIER) out->id = pms__get_u64(p);
    return 0;
}

/* A bounds-checked cursor over one record. */
struct cursor {
    const unsigned char *p, *end;
    bool short_read;
};

static uint64_t take_u64(struct cursor *c)
{
    if (c->end - c->p < 8) {
        c->short_read = true;
        c->p = c->end;
        return 0;
    }
    uint64_t v = pms__get_u64(c->p);
    c->p += 8;
    return v;
}

int pms__sample_id_of(const unsigned char *rec, size_t size, uint64_t sample_type, uint64_t *id)
{
    size_t pos;
    if (sample_type & PERF_SAMPLE_IDENTIFIER)
        pos = sizeof(struct perf_event_header);
    else if (sample_type & PERF_SAMPLE_ID)
        pos = sizeof(struct perf_event_header) +
              u64_fields(sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR);
    else
        return -1;
    if (pos + 8 > size) return -1;
    *id = pms__get_u64(rec + pos);
    return 0;
}

static const pms_perfdata_attr *sample_attr(const unsigned char *rec, size_t size, const pms_perfdata_attr *attrs,
                                            size_t nattrs)
{
    if (nattrs == 1) return &attrs[0];
    uint64_t id;
    if (pms__sample_id_of(rec, size, attrs[0].attr.sample_type, &id))
        return (attrs[0].attr.sample_type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
                   ? NULL
                   : &attrs[0]; /* no way to tell the events apart: perf takes the first too */
    return pms_attr_by_id(attrs, nattrs, id);
}

static int parse_read(struct cursor *c, uint64_t rf, pms_sample *out, pms_read_value *vbuf, size_t max_values)
{
    if (rf & PERF_FORMAT_GROUP) {
        uint64_t nr = take_u64(c);
        if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = take_u64(c);
        if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) out->time_running = take_u64(c);
        size_t per = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
        if (c->short_read || nr > (uint64_t)(c->end - c->p) / per) {
            c->short_read = true;
            return 0;
        }
        if (nr > max_values)
            return pms__fail(PMS_EINVAL, "sample reads a group of %llu counters, room for %zu", (unsigned long long)nr,
                            max_values);
        for (uint64_t i = 0; i < nr; i++) {
            vbuf[i].value = take_u64(c);
            vbuf[i].id = (rf & PERF_FORMAT_ID) ? take_u64(c) : 0;
            if (rf & PERF_FORMAT_LOST) take_u64(c);
        }
        out->nvalues = (size_t)nr;
    } else {
        uint64_t value = take_u64(c);
        if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = take_u64(c);
        if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) out->time_running = take_u64(c);
        uint64_t id = (rf & PERF_FORMAT_ID) ? take_u64(c) : 0;
        if (rf & PERF_FORMAT_LOST) take_u64(c);
        if (c->short_read) return 0;
        if (max_values < 1) return pms__fail(PMS_EINVAL, "sample reads a counter, no room for its value");
        vbuf[0].value = value;
        vbuf[0].id = id;
        out->nvalues = 1;
    }
    out->values = vbuf;
    return 0;
}

/* Skips n bytes; a short record is marked. */
static void skip_bytes(struct cursor *c, uint64_t n)
{
    if (n > (uint64_t)(c->end - c->p)) {
        c->short_read = true;
        c->p = c->end;
    } else {
        c->p += n;
    }
}

/* RAW and BRANCH_STACK (skipped), then REGS_USER and STACK_USER, after the callchain. */
static int parse_user_stack(struct cursor *c, const struct perf_event_attr *a, pms_sample *out)
{
    uint64_t st = a->sample_type;
    if (st & PERF_SAMPLE_RAW) { /* u32 size, its bytes, padded to 8 with the size */
        if (c->end - c->p < 4) {
            c->short_read = true;
            return PMS_OK;
        }
        uint32_t raw = pms__get_u32(c->p);
        skip_bytes(c, ((uint64_t)raw + 4 + 7) & ~7ull);
    }
    if (st & PERF_SAMPLE_BRANCH_STACK) { /* nr, hw_idx with PERF_SAMPLE_BRANCH_HW_INDEX, nr entries of 24 bytes */
        uint64_t nr = take_u64(c);
        if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) take_u64(c);
        if (nr > (uint64_t)(c->end - c->p) / 24) c->short_read = true;
        else skip_bytes(c, nr * 24);
    }
    if ((st & PERF_SAMPLE_REGS_USER) && !c->short_read) {
        out->user_regs_abi = take_u64(c);
        if (out->user_regs_abi && !c->short_read) {
            size_t n = (size_t)__builtin_popcountll(a->sample_regs_user);
            if ((uint64_t)(c->end - c->p) / 8 < n) {
                c->short_read = true;
                return PMS_OK;
            }
            out->user_regs_mask = a->sample_regs_user;
            out->nr_user_regs = n;
            out->user_regs = (const uint64_t *)(const void *)c->p;
            c->p += n * 8;
        }
    }
    if ((st & PERF_SAMPLE_STACK_USER) && !c->short_read) {
        uint64_t copied = take_u64(c); /* the attr's size, or 0 when nothing was copied */
        if (copied && !c->short_read) {
            if (copied > (uint64_t)(c->end - c->p) || (uint64_t)(c->end - c->p) - copied < 8) {
                c->short_read = true;
                return PMS_OK;
            }
            const unsigned char *data = c->p;
            c->p += copied;
            uint64_t dyn = take_u64(c);
            if (dyn > copied)
                return pms__fail(PMS_EFORMAT, "sample's user stack holds %llu bytes, says %llu of them are valid",
                                (unsigned long long)copied, (unsigned long long)dyn);
            out->user_stack = data;
            out->user_stack_size = (size_t)dyn;
        }
    }
    if (out->user_regs && (uintptr_t)out->user_regs % 8)
        return pms__fail(PMS_EINVAL, "sample record with user registers is not 8-byte aligned in memory");
    return PMS_OK;
}

int pms_sample_parse(const struct perf_event_header *h, const pms_perfdata_attr *attrs, size_t nattrs,
                     pms_sample *out, pms_read_value *vbuf, size_t max_values)
{
    static const pms_sample none;
    *out = none; /* a copy, not memset: gcc makes `rep stos` of that, slow to start, per sample */
    if (!h || !attrs || nattrs == 0) return pms__fail(PMS_EINVAL, "pms_sample_parse: no record or no attributes");
    if (h->type != PERF_RECORD_SAMPLE)
        return pms__fail(PMS_EINVAL, "pms_sample_parse: record type %u is not a sample", h->type);
    const unsigned char *rec = (const unsigned char *)h;
    size_t size = h->size;
    if (size < sizeof *h) return pms__fail(PMS_EFORMAT, "sample record of %zu bytes is shorter than its header", size);

    const pms_perfdata_attr *attr = sample_attr(rec, size, attrs, nattrs);
    out->attr = attr;
    out->misc = h->misc;
    const struct perf_event_attr *a = attr ? &attr->attr : &attrs[0].attr;
    uint64_t st = a->sample_type;
    struct cursor c = {rec + sizeof *h, rec + size, false};

    if (st & PERF_SAMPLE_IDENTIFIER) out->id = take_u64(&c);
    if (st & PERF_SAMPLE_IP) out->ip = take_u64(&c);
    if (st & PERF_SAMPLE_TID) {
        uint64_t v = take_u64(&c);
        out->pid = (uint32_t)v; /* little-endian: pid is the first u32 */
        out->tid = (uint32_t)(v >> 32);
    }
    if (st & PERF_SAMPLE_TIME) out->time = take_u64(&c);
    if (st & PERF_SAMPLE_ADDR) take_u64(&c);
    if (st & PERF_SAMPLE_ID) out->id = take_u64(&c);
    if (st & PERF_SAMPLE_STREAM_ID) take_u64(&c);
    if (st & PERF_SAMPLE_CPU) out->cpu = (uint32_t)take_u64(&c);
    if (st & PERF_SAMPLE_PERIOD) out->period = take_u64(&c);
    if (st & PERF_SAMPLE_READ) {
        int rc = parse_read(&c, a->read_format, out, vbuf, max_values);
        if (rc) return rc;
    }
    if (st & PERF_SAMPLE_CALLCHAIN) {
        uint64_t nr = take_u64(&c);
        if (!c.short_read && nr > (uint64_t)(c.end - c.p) / 8) c.short_read = true;
        if (!c.short_read && nr) {
            if ((uintptr_t)c.p % 8)
                return pms__fail(PMS_EINVAL, "sample record with a callchain is not 8-byte aligned in memory");
            out->nr_callchain = nr;
            out->callchain = (const uint64_t *)(const void *)c.p;
            c.p += nr * 8;
        }
    }
    if (!c.short_read && (st & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))) {
        int rc = parse_user_stack(&c, a, out);
        if (rc) return rc;
    }
    if (c.short_read)
        return pms__fail(PMS_EFORMAT, "sample record of %zu bytes is too short for its sample_type 0x%llx", size,
                        (unsigned long long)st);
    return PMS_OK;
}
