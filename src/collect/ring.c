#include "collect/ring.h"

#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A record size is a u16, so no record is larger than this. */
#define PMS_RING_MAX_RECORD 65536

int pms__ring_map(pms_ring *r, int fd, size_t data_pages)
{
    memset(r, 0, sizeof *r);
    if (data_pages == 0 || (data_pages & (data_pages - 1)))
        return pms__fail(PMS_EINVAL, "ring buffer size: %zu pages is not a power of 2", data_pages);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    r->data_size = data_pages * page;
    r->map_size = r->data_size + page;
    void *m = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        int e = errno;
        if (e == EPERM || e == ENOMEM)
            return pms__fail_errno(pms__status_from_errno(e), e,
                                  "cannot map a %zu KiB ring buffer (use fewer ring buffer pages, or raise "
                                  "kernel.perf_event_mlock_kb)",
                                  r->data_size / 1024);
        return pms__fail_errno(pms__status_from_errno(e), e, "cannot map a %zu KiB ring buffer",
                              r->data_size / 1024);
    }
    r->scratch = malloc(PMS_RING_MAX_RECORD);
    if (!r->scratch) {
        munmap(m, r->map_size);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    r->page = m;
    r->data = (unsigned char *)m + page;
    return PMS_OK;
}

void pms__ring_unmap(pms_ring *r)
{
    if (r->page) munmap(r->page, r->map_size);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

int pms__ring_drain(pms_ring *r, pms_ring_record_fn fn, void *ctx, uint64_t *count)
{
    uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = r->page->data_tail; /* only we write it */
    uint64_t mask = r->data_size - 1;
    int rc = 0;
    while (tail < head) {
        size_t off = (size_t)(tail & mask);
        struct perf_event_header hdr;
        /* The 8-byte header itself never wraps: records are 8-byte aligned. */
        memcpy(&hdr, r->data + off, sizeof hdr);
        if (hdr.size < sizeof hdr || hdr.size > head - tail || (hdr.size & 7)) {
            rc = pms__fail(PMS_EFORMAT,
                          "ring buffer: record at position %llu has size %u (expected 8..%llu, a multiple of 8)",
                          (unsigned long long)tail, hdr.size, (unsigned long long)(head - tail));
            tail = head;
            break;
        }
        const struct perf_event_header *h;
        if (off + hdr.size <= r->data_size) {
            h = (struct perf_event_header *)(void *)(r->data + off);
        } else {
            /* Wraps around the end: copy the two pieces out contiguous. */
            size_t first = r->data_size - off;
            memcpy(r->scratch, r->data + off, first);
            memcpy(r->scratch + first, r->data, hdr.size - first);
            h = (struct perf_event_header *)(void *)r->scratch;
        }
        tail += hdr.size;
        (*count)++;
        int f = fn(h, ctx);
        if (f) {
            rc = f;
            break;
        }
    }
    __atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
    return rc;
}
