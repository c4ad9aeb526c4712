/* Writes a perf.data (argv[1]) of cpu-clock samples: 3 of thread 4242, whose COMM says
 * "worker", and 2 of pid/tid -1, which perf records for samples it can tie to no task
 * (perf report shows that thread as "-1:" and its comm as ":-1"). For the tests that put
 * pmuscope report beside perf report on them. */
#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"

#include <stdio.h>
#include <string.h>

static int add(pms_perfdata_writer *w, const unsigned char *rec, size_t size)
{
    return size ? pms_perfdata_writer_add(w, (const struct perf_event_header *)rec) : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.data\n", argv[0]);
        return 2;
    }
    static const uint64_t ids[] = {101};
    pms_perfdata_attr a = {.name = "cpu-clock", .ids = ids, .nids = 1};
    a.attr.size = sizeof a.attr;
    a.attr.type = PERF_TYPE_SOFTWARE;
    a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
    a.attr.sample_period = 100000;
    a.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
    a.attr.sample_id_all = 1;
    a.attr.comm = 1;
    pms_perfdata_writer *w;
    if (pms_perfdata_writer_open(&w, argv[1], &a, 1, 0, NULL)) {
        fprintf(stderr, "%s\n", pms_strerror());
        return 1;
    }
    unsigned char rec[256];
    pms_task_event comm = {.type = PERF_RECORD_COMM, .pid = 4242, .tid = 4242, .comm = "worker", .time = 1000};
    int rc = add(w, rec, pms_perfdata_encode_task(rec, sizeof rec, &a, &comm));
    for (int i = 0; rc == 0 && i < 5; i++) {
        uint32_t tid = i < 3 ? 4242 : UINT32_MAX; /* -1 */
        pms_sample s = {.ip = 0xffffffff81000000ull + (uint64_t)i, .pid = tid, .tid = tid, .period = 100000,
                        .time = 2000 + (uint64_t)i};
        rc = add(w, rec, pms_perfdata_encode_sample(rec, sizeof rec, &a, &s));
    }
    if (rc == 0) rc = pms_perfdata_writer_close(w);
    if (rc) fprintf(stderr, "%s\n", pms_strerror());
    return rc ? 1 : 0;
}
