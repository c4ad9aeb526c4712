/* Reading a counter in user space through its perf mmap page (collect/user_read.h). */
#include "collect/user_read.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define COMPILER_BARRIER() __asm__ volatile("" ::: "memory")

#if defined(__x86_64__)
static uint64_t read_pmc(uint32_t counter)
{
    uint32_t lo, hi;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return (uint64_t)hi << 32 | lo;
}

static uint64_t read_cycles(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}
#define USER_READ 1
#elif defined(__aarch64__)
/* The event counters are PMEVCNTR<n>_EL0 (n = 0..30) and the cycle counter PMCCNTR_EL0, which
 * the kernel gives as counter 31; each register is named in the instruction, hence the switch. */
#define EVCNTR(n) \
    case n: __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break;
static uint64_t read_pmc(uint32_t counter)
{
    uint64_t v = 0;
    switch (counter) {
    EVCNTR(0) EVCNTR(1) EVCNTR(2) EVCNTR(3) EVCNTR(4) EVCNTR(5) EVCNTR(6) EVCNTR(7)
    EVCNTR(8) EVCNTR(9) EVCNTR(10) EVCNTR(11) EVCNTR(12) EVCNTR(13) EVCNTR(14) EVCNTR(15)
    EVCNTR(16) EVCNTR(17) EVCNTR(18) EVCNTR(19) EVCNTR(20) EVCNTR(21) EVCNTR(22) EVCNTR(23)
    EVCNTR(24) EVCNTR(25) EVCNTR(26) EVCNTR(27) EVCNTR(28) EVCNTR(29) EVCNTR(30)
    case 31: __asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v)); break;
    }
    return v;
}

/* The generic timer's virtual count, which the kernel's time_* fields convert to ns. */
static uint64_t read_cycles(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}
#define USER_READ 1
#else
#define USER_READ 0
#endif

/* The first number in file, or dflt where there is none. */
static long number_in(const char *file, long dflt)
{
    FILE *f = fopen(file, "r");
    long v = dflt;
    if (f && fscanf(f, "%ld", &v) != 1) v = dflt;
    if (f) fclose(f);
    return v;
}

bool pms__user_read_allowed(void)
{
#if defined(__aarch64__)
    return number_in("/proc/sys/kernel/perf_user_access", 0) == 1;
#elif defined(__x86_64__)
    return number_in("/sys/bus/event_source/devices/cpu/rdpmc", 1) != 0;
#else
    (void)number_in;
    return false;
#endif
}

void pms__user_read_prepare(struct perf_event_attr *attr)
{
#if defined(__aarch64__)
    /* arm64's PMU driver lets user space read an event opened with config1 bit 1 ("rdpmc" in
     * /sys/bus/event_source/devices/armv8_pmuv3_0/format), where perf_user_access is 1. */
    if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE || attr->type == PERF_TYPE_RAW)
        attr->config1 |= 2;
#else
    (void)attr;
#endif
}

struct perf_event_mmap_page *pms__user_read_map(int fd)
{
    if (!USER_READ) return NULL;
    void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

void pms__user_read_unmap(struct perf_event_mmap_page *page)
{
    if (page) munmap(page, (size_t)sysconf(_SC_PAGESIZE));
}

bool pms__user_read(const struct perf_event_mmap_page *page, uint64_t *count, uint64_t *enabled, uint64_t *running)
{
#if USER_READ
    const volatile struct perf_event_mmap_page *pc = page;
    uint32_t seq, index;
    uint64_t offset, pmc, cycles, time_offset, time_cycles, time_mask, en, run;
    uint32_t time_mult;
    uint16_t width, time_shift;
    bool time_short;
    do {
        seq = pc->lock;
        COMPILER_BARRIER();
        if (!pc->cap_user_rdpmc || !pc->cap_user_time) return false;
        index = pc->index;
        if (index == 0) return false; /* not on a counter now (multiplexed out, or a software event) */
        en = pc->time_enabled;
        run = pc->time_running;
        offset = (uint64_t)pc->offset;
        width = pc->pmc_width;
        pmc = read_pmc(index - 1);
        cycles = read_cycles();
        time_offset = pc->time_offset;
        time_mult = pc->time_mult;
        time_shift = pc->time_shift;
        time_short = pc->cap_user_time_short;
        time_cycles = pc->time_cycles;
        time_mask = pc->time_mask;
        COMPILER_BARRIER();
    } while (pc->lock != seq);
    if (width == 0 || width > 64 || time_shift >= 64) return false;
    /* The counter's low `width` bits, sign-extended, add to the offset the kernel keeps. */
    int64_t delta_count = (int64_t)(pmc << (64 - width)) >> (64 - width);
    /* The ns since the kernel last wrote the times, from the cycle counter it names. */
    if (time_short) cycles = time_cycles + ((cycles - time_cycles) & time_mask);
    uint64_t quot = cycles >> time_shift, rem = cycles & (((uint64_t)1 << time_shift) - 1);
    uint64_t delta_ns = time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
    *count = offset + (uint64_t)delta_count;
    *enabled = en + delta_ns;
    *running = run + delta_ns;
    return true;
#else
    (void)page, (void)count, (void)enabled, (void)running;
    return false;
#endif
}
