/* Internal: one perf_event mmap ring buffer (the metadata page plus 2^n data pages).
 *
 * The kernel writes records at data_head and we consume them up to data_tail. As in
 * tools/include/linux/ring_buffer.h: data_head is read with acquire semantics (so the
 * record bytes are read after the head that covers them), data_tail is written with
 * release semantics (so the kernel reuses the space only after we finished reading it). */
#ifndef PMS_COLLECT_RING_H
#define PMS_COLLECT_RING_H
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pms_ring {
    struct perf_event_mmap_page *page; /* NULL when not mapped */
    unsigned char *data;
    size_t data_size;                  /* a power of 2 */
    size_t map_size;
    unsigned char *scratch;            /* a record that wraps is copied here (64 KiB) */
} pms_ring;

/* Maps data_pages (a power of 2) data pages of fd. */
int pms__ring_map(pms_ring *r, int fd, size_t data_pages);
void pms__ring_unmap(pms_ring *r);

/* Called for every record; h points at the whole record, contiguous (read-only: the
 * kernel maps the data pages so). A non-zero return stops the drain (the record
 * counts as read). */
typedef int (*pms_ring_record_fn)(const struct perf_event_header *h, void *ctx);

/* Hands every record between data_tail and data_head to fn, then releases the space;
 * *count grows by the number of records read. Returns 0, fn's non-zero value, or
 * PMS_EFORMAT for a record whose size does not fit (the rest is then skipped). */
int pms__ring_drain(pms_ring *r, pms_ring_record_fn fn, void *ctx, uint64_t *count);

#endif
