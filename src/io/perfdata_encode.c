/* Laying out perf records: the inverse of perfdata_sample.c, for records that pmuscope
 * synthesises itself (COMM and MMAP2 of an attached process, test and benchmark files). */
#include "io/perfdata_format.h"

#include <sys/mman.h>

/* Appends to a fixed buffer; `overflow` is set instead of writing past cap. */
struct out {
    unsigned char *buf;
    size_t cap, len;
    int overflow;
};

static void put(struct out *o, const void *p, size_t n)
{
    if (o->overflow || o->cap - o->len < n) {
        o->overflow = 1;
        return;
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static void put_u64(struct out *o, uint64_t v) { put(o, &v, 8); }

static void put_u32_pair(struct out *o, uint32_t a, uint32_t b)
{
    put(o, &a, 4);
    put(o, &b, 4);
}

/* A NUL-terminated string padded with zeros to a multiple of 8 bytes. */
static void put_string(struct out *o, const char *s)
{
    static const unsigned char zeros[8];
    size_t n = strlen(s) + 1;
    put(o, s, n);
    put(o, zeros, (8 - n % 8) % 8);
}

static uint64_t first_id(const pms_perfdata_attr *attr) { return attr->nids ? attr->ids[0] : 0; }

static void put_sample_id(struct out *o, const pms_perfdata_attr *attr, uint32_t pid, uint32_t tid, uint64_t time)
{
    uint64_t st = attr->attr.sample_type;
    if (!attr->attr.sample_id_all) return;
    if (st & PERF_SAMPLE_TID) put_u32_pair(o, pid, tid);
    if (st & PERF_SAMPLE_TIME) put_u64(o, time);
    if (st & PERF_SAMPLE_ID) put_u64(o, first_id(attr));
    if (st & PERF_SAMPLE_STREAM_ID) put_u64(o, first_id(attr));
    if (st & PERF_SAMPLE_CPU) put_u32_pair(o, 0, 0);
    if (st & PERF_SAMPLE_IDENTIFIER) put_u64(o, first_id(attr));
}

/* Writes the header last, once the size is known. */
static size_t finish(struct out *o, uint32_t type, uint16_t misc)
{
    if (o->overflow || o->len > UINT16_MAX) return 0;
    struct perf_event_header h = {.type = type, .misc = misc, .size = (uint16_t)o->len};
    memcpy(o->buf, &h, sizeof h);
    return o->len;
}

static int begin(struct out *o, void *buf, size_t cap)
{
    *o = (struct out){buf, cap, 0, 0};
    if (cap < sizeof(struct perf_event_header)) return -1;
    o->len = sizeof(struct perf_event_header);
    return 0;
}

static void put_read_values(struct out *o, uint64_t rf, const pms_sample *s)
{
    if (rf & PERF_FORMAT_GROUP) {
        put_u64(o, s->nvalues);
        if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) put_u64(o, s->time_enabled);
        if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) put_u64(o, s->time_running);
        for (size_t i = 0; i < s->nvalues; i++) {
            put_u64(o, s->values[i].value);
            if (rf & PERF_FORMAT_ID) put_u64(o, s->values[i].id);
            if (rf & PERF_FORMAT_LOST) put_u64(o, 0);
        }
    } else {
        put_u64(o, s->nvalues ? s->values[0].value : 0);
        if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) put_u64(o, s->time_enabled);
        if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) put_u64(o, s->time_running);
        if (rf & PERF_FORMAT_ID) put_u64(o, s->nvalues ? s->values[0].id : 0);
        if (rf & PERF_FORMAT_LOST) put_u64(o, 0);
    }
}

size_t pms_perfdata_encode_sample(void *buf, size_t cap, const pms_perfdata_attr *attr, const pms_sample *s)
{
    const uint64_t supported = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                               PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
                               PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;
    uint64_t st = attr->attr.sample_type;
    struct out o;
    if ((st & ~supported) || begin(&o, buf, cap)) return 0;
    uint64_t id = s->id ? s->id : first_id(attr);
    if (st & PERF_SAMPLE_IDENTIFIER) put_u64(&o, id);
    if (st & PERF_SAMPLE_IP) put_u64(&o, s->ip);
    if (st & PERF_SAMPLE_TID) put_u32_pair(&o, s->pid, s->tid);
    if (st & PERF_SAMPLE_TIME) put_u64(&o, s->time);
    if (st & PERF_SAMPLE_ADDR) put_u64(&o, 0);
    if (st & PERF_SAMPLE_ID) put_u64(&o, id);
    if (st & PERF_SAMPLE_STREAM_ID) put_u64(&o, id);
    if (st & PERF_SAMPLE_CPU) put_u32_pair(&o, s->cpu, 0);
    if (st & PERF_SAMPLE_PERIOD) put_u64(&o, s->period);
    if (st & PERF_SAMPLE_READ) put_read_values(&o, attr->attr.read_format, s);
    if (st & PERF_SAMPLE_CALLCHAIN) {
        put_u64(&o, s->nr_callchain);
        for (uint64_t i = 0; i < s->nr_callchain; i++) put_u64(&o, s->callchain[i]);
    }
    uint16_t misc = s->misc ? s->misc : PERF_RECORD_MISC_USER;
    return finish(&o, PERF_RECORD_SAMPLE, misc);
}

size_t pms_perfdata_encode_mmap2(void *buf, size_t cap, const pms_perfdata_attr *attr, const pms_mmap_event *m)
{
    struct out o;
    if (begin(&o, buf, cap)) return 0;
    uint32_t prot = m->prot ? m->prot : (uint32_t)(PROT_READ | (m->executable ? PROT_EXEC : 0));
    put_u32_pair(&o, m->pid, m->tid);
    put_u64(&o, m->start);
    put_u64(&o, m->len);
    put_u64(&o, m->pgoff);
    put_u32_pair(&o, 0, 0); /* maj, min */
    put_u64(&o, 0);         /* ino */
    put_u64(&o, 0);         /* ino_generation */
    put_u32_pair(&o, prot, MAP_PRIVATE);
    put_string(&o, m->filename ? m->filename : "");
    put_sample_id(&o, attr, m->pid, m->tid, m->time);
    uint16_t misc = PERF_RECORD_MISC_USER | ((prot & PROT_EXEC) ? 0 : PERF_RECORD_MISC_MMAP_DATA);
    return finish(&o, PERF_RECORD_MMAP2, misc);
}

size_t pms_perfdata_encode_kernel_map(void *buf, size_t cap, const pms_perfdata_attr *attr, uint64_t start,
                                       uint64_t len, uint64_t pgoff, const char *name)
{
    struct out o;
    if (begin(&o, buf, cap)) return 0;
    put_u32_pair(&o, UINT32_MAX, 0); /* perf's pid -1: the kernel */
    put_u64(&o, start);
    put_u64(&o, len);
    put_u64(&o, pgoff);
    put_string(&o, name);
    put_sample_id(&o, attr, UINT32_MAX, 0, 0);
    return finish(&o, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
}

size_t pms_perfdata_encode_kernel_mmap(void *buf, size_t cap, const pms_perfdata_attr *attr, uint64_t start,
                                        uint64_t len)
{
    return pms_perfdata_encode_kernel_map(buf, cap, attr, start, len, start /* the address of _text, as perf writes it */,
                                          "[kernel.kallsyms]_text");
}

size_t pms_perfdata_encode_task(void *buf, size_t cap, const pms_perfdata_attr *attr, const pms_task_event *t)
{
    struct out o;
    if (begin(&o, buf, cap)) return 0;
    switch (t->type) {
    case PERF_RECORD_COMM:
        put_u32_pair(&o, t->pid, t->tid);
        put_string(&o, t->comm ? t->comm : "");
        break;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
        put_u32_pair(&o, t->pid, t->ppid);
        put_u32_pair(&o, t->tid, t->ptid);
        put_u64(&o, t->time);
        break;
    default:
        return 0;
    }
    put_sample_id(&o, attr, t->pid, t->tid, t->time);
    return finish(&o, t->type, 0);
}
