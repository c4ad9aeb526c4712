/* Writes a synthetic perf.data of about SIZE_MB megabytes with pmuscope's writer, for the
 * memory benchmark of `pmuscope report`: 8 processes running BINARY, each with COMM and an
 * MMAP2 of its text segment (file offset TEXT_OFF, TEXT_SIZE bytes), cpu-clock samples at
 * pseudo-random IPs in that text (so distinct IPs are bounded by the text size) and 1%
 * kernel samples.
 * usage: bench_perfdata_gen OUT SIZE_MB BINARY TEXT_OFF TEXT_SIZE */
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"

#include <stdio.h>
#include <stdlib.h>

#define NPROC 8

static int add(pms_perfdata_writer *w, const unsigned char *rec, size_t len)
{
    if (!len) return fprintf(stderr, "bench_perfdata_gen: record does not fit\n"), 1;
    if (pms_perfdata_writer_add(w, (const void *)rec)) return fprintf(stderr, "bench_perfdata_gen: %s\n", pms_strerror()), 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench_perfdata_gen OUT SIZE_MB BINARY TEXT_OFF TEXT_SIZE\n");
        return 2;
    }
    uint64_t bytes = strtoull(argv[2], NULL, 0) << 20;
    uint64_t text_off = strtoull(argv[4], NULL, 0), text_size = strtoull(argv[5], NULL, 0);
    if (!bytes || !text_size) return fprintf(stderr, "bench_perfdata_gen: bad size\n"), 2;
    static const uint64_t ids[] = {1};
    const uint64_t sample_type =
        PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
    pms_perfdata_attr a = {
        .attr = {.size = sizeof(struct perf_event_attr), .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
                 .sample_period = 100000, .sample_type = sample_type, .sample_id_all = 1, .mmap = 1, .mmap2 = 1,
                 .comm = 1},
        .name = "cpu-clock", .ids = ids, .nids = 1};
    pms_perfdata_writer *w;
    if (pms_perfdata_writer_open(&w, argv[1], &a, 1, argc, argv)) {
        fprintf(stderr, "bench_perfdata_gen: %s\n", pms_strerror());
        return 1;
    }
    unsigned char rec[512];
    const uint64_t base = 0x555555554000ull;
    for (uint32_t p = 0; p < NPROC; p++) {
        pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = 1000 + p, .tid = 1000 + p, .comm = "bench", .time = 1};
        pms_mmap_event m = {.pid = 1000 + p, .tid = 1000 + p, .start = base + text_off, .len = text_size,
                            .pgoff = text_off, .executable = 1, .filename = argv[3], .time = 2};
        if (add(w, rec, pms_perfdata_encode_task(rec, sizeof rec, &a, &comm)) ||
            add(w, rec, pms_perfdata_encode_mmap2(rec, sizeof rec, &a, &m)))
            return 1;
    }
    uint64_t x = 88172645463325252ull;
    for (uint64_t t = 10; pms_perfdata_writer_data_size(w) < bytes; t++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t pid = 1000 + (uint32_t)(x % NPROC);
        pms_sample s = {.pid = pid, .tid = pid, .time = t, .period = 100000, .ip = base + text_off + (x >> 20) % text_size};
        if (x % 100 == 0) {
            s.ip = 0xffffffff81000000ull + (x >> 24) % 4096 * 4; /* 4096 distinct kernel IPs */
            s.misc = PERF_RECORD_MISC_KERNEL;
        }
        if (add(w, rec, pms_perfdata_encode_sample(rec, sizeof rec, &a, &s))) return 1;
        /* A FINISHED_ROUND after every 4096 samples, as a recorder writes one after each
         * drain of its buffers: time-ordered readers hold one round, not the file. */
        if (t % 4096 == 0) {
            struct perf_event_header round = {68 /* PERF_RECORD_FINISHED_ROUND */, 0, sizeof round};
            if (add(w, (unsigned char *)&round, sizeof round)) return 1;
        }
    }
    if (pms_perfdata_writer_close(w)) {
        fprintf(stderr, "bench_perfdata_gen: %s\n", pms_strerror());
        return 1;
    }
    return 0;
}
