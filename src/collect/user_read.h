/* Internal: reading a counter in user space through its perf mmap page, without a system call:
 * rdpmc on x86 (the kernel allows it when /sys/bus/event_source/devices/cpu/rdpmc is 1, the
 * default, for an event this thread has mapped), the PMU's registers on arm64 (with
 * kernel.perf_user_access = 1, Linux 5.17 and later, for an event opened with config1 bit 1).
 * The page's seqlock protocol and the time extrapolation follow the comment on struct
 * perf_event_mmap_page in <linux/perf_event.h>. */
#ifndef PMS_COLLECT_USER_READ_H
#define PMS_COLLECT_USER_READ_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

/* Whether this build can read counters in user space at all (x86-64 and arm64), and this
 * kernel lets it now: arm64's kernel.perf_user_access is 1; x86's
 * /sys/bus/event_source/devices/cpu/rdpmc is not 0. */
bool pms__user_read_allowed(void);

/* Sets what an event needs at open to be readable in user space (arm64: config1 bit 1). */
void pms__user_read_prepare(struct perf_event_attr *attr);

/* Maps the event's page (read-only, one page); NULL where it cannot be mapped. */
struct perf_event_mmap_page *pms__user_read_map(int fd);
void pms__user_read_unmap(struct perf_event_mmap_page *page);

/* The event's count, enabled and running time (ns) now, read from its page on the thread that
 * counts it: false when the kernel does not let this thread read it in user space now (no
 * cap_user_rdpmc or cap_user_time, or the event is not on a counter: index 0); the caller then
 * reads it with read(2). */
bool pms__user_read(const struct perf_event_mmap_page *page, uint64_t *count, uint64_t *enabled,
                    uint64_t *running);

#endif
