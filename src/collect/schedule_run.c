/* Measuring a multi-run schedule: one launch of the command per run, each counting the
 * anchors and its share of the events from exec (see include/pmuscope/schedule.h). */
#include "pmuscope/schedule.h"
#include "pmuscope/target.h"

#include "util/error.h"

#include <stdlib.h>

const char *pms_schedule_default_anchors(void)
{
    pms_event ev;
    int user_only; /* the anchors are prepared with perf's paranoid fallback too */
    if (pms_event_parse("cycles", &ev) == PMS_OK && pms_event_probe_user_fallback(&ev, &user_only) == PMS_OK &&
        pms_event_parse("instructions", &ev) == PMS_OK && pms_event_probe_user_fallback(&ev, &user_only) == PMS_OK)
        return "cycles,instructions";
    return "task-clock";
}

/* One run: the command counted from exec; its totals recorded in s. */
static int measure_run(double *elapsed_s, pms_schedule *s, size_t r, char *const argv[],
                       const pms_schedule_measure_opts *o)
{
    size_t n, nruns = pms_schedule_runs(s);
    const pms_event *evs = pms_schedule_run_events(s, r, &n);
    if (o && o->on_run) o->on_run(o->ctx, r, nruns, evs, n);
    pms_counter *c;
    int st = pms_counter_create(evs, n, 0, &c);
    if (st) return st;
    pms_count *totals = calloc(n, sizeof *totals);
    pms_measure_result res;
    pms_measure_opts mo = {.stop = o ? o->stop : NULL};
    st = totals ? pms_measure_command(c, argv, &mo, totals, &res) : pms__fail(PMS_ENOMEM, "out of memory");
    pms_counter_destroy(c);
    if (st == PMS_OK && res.wait_status != 0) {
        char how[64];
        pms_wait_status_describe(how, sizeof how, res.wait_status);
        st = pms__fail(PMS_ECHILD, "run %zu/%zu: the command %s", r + 1, nruns, how);
    }
    if (st == PMS_OK) st = pms_schedule_record(s, r, totals);
    *elapsed_s = st == PMS_OK ? res.elapsed_s : 0;
    free(totals);
    return st;
}

int pms_schedule_measure(double *elapsed_s, pms_schedule *s, char *const argv[], const pms_schedule_measure_opts *o)
{
    *elapsed_s = 0;
    pms_schedule_reset(s);
    size_t nruns = pms_schedule_runs(s);
    double sum = 0;
    for (size_t r = 0; r < nruns; r++) {
        if (o && o->stop && *o->stop) return pms__fail(PMS_EIO, "interrupted by signal %d", (int)*o->stop);
        double one;
        int st = measure_run(&one, s, r, argv, o);
        if (st) return st;
        sum += one;
    }
    if (o && o->stop && *o->stop) return pms__fail(PMS_EIO, "interrupted by signal %d", (int)*o->stop);
    *elapsed_s = sum / (double)nruns;
    return PMS_OK;
}
