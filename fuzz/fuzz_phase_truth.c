/* libFuzzer target: the phase truth schedule reader ("start_ns end_ns label [tid]" lines),
 * then labels looked up over spans, per thread and at instants. */
#include "pmuscope/phase.h"
#include "fuzz_input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size);
    pms_phase_truth *t;
    if (!path || pms_phase_truth_load(&t, path)) return 0;
    for (uint64_t at = 0; at < 4; at++) {
        int label = pms_phase_truth_label(t, at * 1000, at * 1000 + 1500);
        (void)pms_phase_truth_name(t, label);
        (void)pms_phase_truth_name(t, pms_phase_truth_thread_label(t, (pid_t)at + 1, at * 1000, at * 1000 + 1500));
        (void)pms_phase_truth_name(t, pms_phase_truth_label_at(t, (pid_t)at, at * 1000 + 500, NULL));
    }
    (void)pms_phase_truth_nlabels(t);
    pms_phase_truth_free(t);
    return 0;
}
