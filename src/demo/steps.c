/* The demo's steps, in the order they start. Each runs one pmuscope subcommand on a
 * bundled workload or data file and leaves its CSV, SVG and text in the demo directory;
 * the page and the terminal summary are built from those files.
 * In args, {dir} is the demo directory, {w} the workloads, {fx} tests/fixtures. */
#include "pmuscope/demo.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

static const pms_demo_step steps[] = {
    {.name = "hotspot",
     .title = "hotspot: how good are sampled hotspots?",
     .about = "A short sweep: valgrind counts every instruction and branch of the hotspots workload in one "
              "callgrind run, then the workload is sampled at every period in one run, each plus a random value below "
              "1/8 of it, and the sampled hotspots are scored against the exact counts: NRMSE_SR (error of "
              "the count fractions), sample coverage SC and order deviation OD. It runs in the background "
              "while the other steps run.",
     .args = {"hotspot", "--sweep", "256K,1M,4M", "--csv={dir}/hotspot.csv", "--svg", "{dir}/hotspot.svg",
              "--", "{w}/hotspots"},
     .out = "hotspot.txt",
     .background = true,
     .shown = {{PMS_DEMO_TEXT, "hotspot.txt", NULL, 3}, /* what was measured: the table follows */
               {PMS_DEMO_TABLE, "hotspot.csv", NULL, 0},
               {PMS_DEMO_SVG, "hotspot.svg", "The measures against the sampling period, on a binary axis with a tick at each period.", 0}},
     .summary = "hotspot.csv",
     .summary_cols = "period_ns,period_events,samples,outside_share,NRMSE_SR,NRMSE_SR_ideal,SC,SC_ideal,OD,OD_ideal,tau_b"},
    {.name = "record",
     .title = "record: sampling the phases workload",
     .about = "The phases workload (kernels A hash, B stream, C pointer chase, D float, in the order "
              "ABBCBD, three times) sampled 4000 times a second into a perf.data file that perf report "
              "and perf script read; page-faults and context-switches are read at every sample. Without "
              "a hardware PMU, cpu-clock stands in for cycles (--fallback), and the record says so.",
     .args = {"record", "--fallback", "-F", "4000", "--read", "page-faults,context-switches", "-o",
              "{dir}/phases.data", "--", "{w}/phases", "--units", "250"},
     .shown = {{PMS_DEMO_TEXT, "record.log", NULL, 0}},
     .summary = "record.log"},
    {.name = "report",
     .title = "report: where the samples fell",
     .about = "The hotspot table of the recording by function, each share with its 95% Wilson "
              "confidence interval (ci_low, ci_high): rows whose intervals overlap are not reliably ordered.",
     .args = {"report", "-i", "{dir}/phases.data", "--csv", "-o", "{dir}/report.csv"},
     .shown = {{PMS_DEMO_TABLE, "report.csv", NULL, 12}},
     .summary = "report.csv",
     .summary_cols = "binary,function,samples,share,ci_low,ci_high",
     .summary_rows = 6},
    {.name = "olr",
     .title = "olr: the sample stream as line segments, by online linear regression (wm)",
     .about = "The counters read at every sample (y) against the sampling event's cumulative count (x), "
              "replaced online by line segments with the paper's method: a new line when a residual "
              "exceeds 3 sigma.",
     .args = {"olr", "--csv={dir}/olr-wm.csv", "--svg", "{dir}/olr-wm.svg", "{dir}/phases.data"},
     .out = "olr-wm.txt",
     .shown = {{PMS_DEMO_TEXT, "olr-wm.txt", NULL, 0},
               {PMS_DEMO_SVG, "olr-wm.svg", "Per counter: the samples and the wm lines, then each sample's error against its line within the 3 sigma band of its line.", 0},
               {PMS_DEMO_TABLE, "olr-wm.csv", "The first segments.", 8}},
     .summary = "olr-wm.txt"},
    {.name = "olr-opt",
     .title = "olr: optimal segments with a guaranteed error bound",
     .about = "The same stream with --method opt: the fewest segments such that every sample is within "
              "eps of its line (O'Rourke's convex hulls, exact integer arithmetic).",
     .args = {"olr", "--method", "opt", "--csv={dir}/olr-opt.csv", "--svg", "{dir}/olr-opt.svg", "{dir}/phases.data"},
     .out = "olr-opt.txt",
     .shown = {{PMS_DEMO_TEXT, "olr-opt.txt", NULL, 0},
               {PMS_DEMO_SVG, "olr-opt.svg", "Per counter: the samples and the opt lines, then each sample's error against its line within the eps band.", 0}},
     .summary = "olr-opt.txt"},
    {.name = "phase",
     .title = "phase: online phase classification and prediction",
     .about = "The phases workload run under the phase monitor: every interval's sampled IPs are hashed "
              "into a signature, classified into a phase and the next phase is predicted; the workload "
              "writes its true schedule (--trace) so the adjusted Rand index can score the phases. "
              "Its phases last 10 to 100 ms, so this run samples finely (cpu-clock every 50 us, "
              "intervals of 4 ms of task-clock); the defaults, a sample every 4 ms and intervals of "
              "7 samples (28 ms), keep the overhead below 1% and suit phases of 100 ms and more, "
              "as the workload's own defaults (200 ms of CPU each).",
     .args = {"phase", "-q", "-e", "cpu-clock", "-c", "50000", "--interval-event", "task-clock",
              "--interval-size", "4000000", "--threshold", "50", "--csv={dir}/phase.csv", "--svg", "{dir}/phase.svg", "--truth",
              "{dir}/phases.trace", "--", "{w}/phases", "--units", "500", "--trace", "{dir}/phases.trace"},
     .out = "phase.txt",
     .shown = {{PMS_DEMO_TEXT, "phase.txt", NULL, 0},
               {PMS_DEMO_SVG, "phase.svg", "The phase of every interval as a band above a heat map of the signatures, on one interval axis.", 0},
               {PMS_DEMO_TABLE, "phase.csv", "The first intervals.", 12}},
     .summary = "phase.txt"},
    {.name = "cpistack",
     .title = "cpistack: CPI stacks of ARM Cortex-A15 programs by linear regression",
     .about = "CPI per 500 ms interval fitted against miss events per instruction (non-negative least "
              "squares, 4:1 train/test split, first 2 intervals skipped) for the four cBench programs of "
              "the bundled excerpt; stack = base (intercept) + coefficient x mean event rate.",
     .args = {"cpistack", "--group-by", "Benchmark", "--skip", "2", "--method", "nnls", "--brief",
              "--csv={dir}/cpistack.csv", "--svg", "{dir}/cpistack.svg", "{fx}/armpm/cbench-excerpt.tsv"},
     .out = "cpistack.txt",
     .shown = {{PMS_DEMO_TABLE, "cpistack.csv", NULL, 0},
               {PMS_DEMO_SVG, "cpistack.svg", "CPI stacks per program (the black stroke: their sum, the model CPI), then each program's stack per interval.", 0}},
     .summary = "cpistack.csv",
     .summary_cols = "group,n,R2,base,model_CPI,observed_CPI"},
    {.name = "cpistack-lm",
     .title = "cpistack: the regression of one program, as R's summary(lm())",
     .about = "The OLS model of automotive_qsort1 with everything summary(lm()) prints, the test error, "
              "the correlation of the events with their VIFs, and the stack.",
     .args = {"cpistack", "--where", "Benchmark=automotive_qsort1", "--skip", "2", "{fx}/armpm/cbench-excerpt.tsv"},
     .out = "cpistack-qsort1.txt",
     .shown = {{PMS_DEMO_TEXT, "cpistack-qsort1.txt", NULL, 0}}},
    {.name = "estimate",
     .title = "estimate: cycles from event counts, LP, MRA and MRACM",
     .about = "The three models fitted on the totals of 25 cBench programs at 2 GHz and used to estimate the "
              "cycles of the other 5; the table is the paper's TABLE X: error % = (estimate - measured) "
              "/ measured x 100 per test run, after the held-out error (each fitting run estimated by the "
              "method refitted without it) and the mean test error, before the fit error, which flatters "
              "every method; each test run's 90% prediction interval is in the last columns.",
     .args = {"estimate", "{fx}/estimate/armpm_runs_2000mhz_run1.csv", "--train", "1-25", "--test", "26-30",
              "--csv={dir}/estimate.csv", "--svg", "{dir}/estimate.svg"},
     .out = "estimate.txt",
     .shown = {{PMS_DEMO_TABLE, "estimate.csv", NULL, 0},
               {PMS_DEMO_SVG, "estimate.svg", "Error % of every run by each method: fitting runs as a line with rings, test runs as dots.", 0},
               {PMS_DEMO_TEXT, "estimate.txt", NULL, 0}},
     .summary = "estimate.csv",
     .summary_cols = "method,counters,heldout_abs_error_pct,test_abs_error_pct,fit_abs_error_pct,note"},
};

_Static_assert(sizeof steps / sizeof steps[0] <= PMS_DEMO_MAX_STEPS, "raise PMS_DEMO_MAX_STEPS");

void pms_demo_init(pms_demo *demo)
{
    memset(demo, 0, sizeof *demo);
    demo->dir = "pmuscope-demo";
    demo->step_timeout = 300;
    memcpy(demo->steps, steps, sizeof steps);
    demo->nsteps = sizeof steps / sizeof steps[0];
}

int pms_demo_select(pms_demo *demo, const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    bool keep[PMS_DEMO_MAX_STEPS] = {false};
    for (char *save, *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < demo->nsteps && strcmp(demo->steps[i].name, name) != 0) i++;
        if (i == demo->nsteps) return pms__fail(PMS_EINVAL, "no step '%s'", name);
        keep[i] = true;
    }
    size_t n = 0;
    for (size_t i = 0; i < demo->nsteps; i++)
        if (keep[i]) demo->steps[n++] = demo->steps[i];
    demo->nsteps = n;
    return PMS_OK;
}
