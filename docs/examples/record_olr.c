/* record_olr: a recording with the online line-segment fit on its stream, through the
 * library alone (include/pmuscope/record.h and olr_live.h), as `pmuscope record --olr`.
 *
 *   record_olr [-o FILE] -- COMMAND [ARGS...]
 *
 * Samples COMMAND every 100 us of cpu-clock, reading page-faults and context-switches at
 * every sample (software events: they work with or without a hardware PMU), into FILE
 * (default record_olr.data). The tap fits both counters against the cpu-clock count with
 * line segments (Wu & Mencer, "Online Linear Regression of Sampling Data from Performance
 * Event Counters") as the samples are drained, and writes the segments to FILE.olr.csv.
 * Ctrl-C ends the recording (and the command) and still leaves both files complete.
 *
 * Build against an installed pmuscope:
 *   cc -o record_olr record_olr.c $(pkg-config --cflags --libs pmuscope) */
#include <pmuscope/error.h>
#include <pmuscope/olr_live.h>
#include <pmuscope/record.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig) { stop = sig; }

static int fail(const char *what)
{
    fprintf(stderr, "record_olr: %s: %s\n", what, pms_strerror());
    return 1;
}

int main(int argc, char **argv)
{
    const char *output = "record_olr.data";
    int i = 1;
    if (i + 1 < argc && strcmp(argv[i], "-o") == 0) {
        output = argv[i + 1];
        i += 2;
    }
    if (i < argc && strcmp(argv[i], "--") == 0) i++;
    if (i >= argc) {
        fprintf(stderr, "usage: record_olr [-o FILE] -- COMMAND [ARGS...]\n");
        return 2;
    }

    pms_event reads[2];
    pms_sampling_event ev = {.period = 100000, .read = reads, .nread = 2};
    if (pms_event_parse("cpu-clock", &ev.event) || pms_event_parse("page-faults", &reads[0]) ||
        pms_event_parse("context-switches", &reads[1]))
        return fail("events");

    char csv_path[4096];
    snprintf(csv_path, sizeof csv_path, "%s.olr.csv", output);
    FILE *csv = fopen(csv_path, "w");
    if (!csv) {
        perror(csv_path);
        return 1;
    }
    pms_olr_live_options fit = {.method = PMS_OLR_WM, .csv = true}; /* CSV rows, to read them here */
    pms_olr_live *olr;
    pms_record_tap tap;
    if (pms_olr_live_create(&olr, &fit, csv) || pms_olr_live_tap(&tap, olr)) return fail("olr");

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    pms_record_config cfg = {.events = &ev, .nevents = 1, .argv = argv + i, .output = output,
                             .cmdline_argc = argc, .cmdline_argv = argv, .stop = &stop, .tap = &tap};
    pms_record_result r;
    int rc = pms_record_run(&r, &cfg);
    if (rc) {
        fclose(csv);
        remove(csv_path);
        pms_olr_live_destroy(olr);
        return fail("record");
    }
    printf("%llu samples in %s (%llu lost), %.3f s\n", (unsigned long long)r.samples, output,
           (unsigned long long)r.stats.lost, r.seconds);
    if (r.exited && WIFEXITED(r.wait_status)) printf("the command exited with %d\n", WEXITSTATUS(r.wait_status));

    rc = pms_olr_live_finish(olr);
    pms_olr_live_stats st;
    pms_olr_live_get_stats(&st, olr);
    printf("olr: %llu samples of thread %u fitted, %llu skipped, %.3f ms in the regression\n",
           (unsigned long long)st.samples, st.tid, (unsigned long long)st.skipped, 1e3 * st.seconds);
    for (size_t j = 0; rc == PMS_OK && j < st.ncounters; j++) {
        pms_olr_summary s;
        const char *name;
        if (pms_olr_live_get_summary(&s, &name, olr, j) == PMS_OK)
            printf("olr %s: %llu segments, reduction %.1f, max error %.4g\n", name, (unsigned long long)s.segments,
                   s.reduction, s.max_abs_error);
    }
    if (rc) fprintf(stderr, "record_olr: olr: %s\n", pms_strerror());
    pms_olr_live_destroy(olr);
    if (fclose(csv)) {
        perror(csv_path);
        return 1;
    }
    return rc ? 1 : 0;
}
