/* pmuscope: the demo, everything pmuscope does on its bundled workloads and data, as calls.
 *
 * Each step runs one pmuscope subcommand in a child process of the pmuscope binary
 * (pms_demo.program) on a bundled workload or data file; it leaves its CSV, SVG and text
 * in the demo directory, from which the page, the terminal summary and the JSON summary
 * are built. A step that fails is kept with its reason and the others still run.
 *
 *     pms_demo d;
 *     pms_demo_init(&d);
 *     d.program = "/usr/local/bin/pmuscope";
 *     if (pms_demo_prepare(&d) == PMS_OK && pms_demo_run(&d) == PMS_OK) {
 *         FILE *f = fopen("pmuscope-demo/index.html", "w");
 *         pms_demo_write_page(f, &d);  ... fclose(f);
 *     }
 *     pms_demo_free(&d);
 *
 * src/demo/ (steps.c the steps, run.c running them, page.c and summary.c the outputs). */
#ifndef PMUSCOPE_DEMO_H
#define PMUSCOPE_DEMO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

enum { PMS_DEMO_MAX_ARGS = 40, PMS_DEMO_MAX_SHOWN = 4, PMS_DEMO_MAX_STEPS = 32 };
/* The status of a step that was stopped after pms_demo.step_timeout (as timeout(1) gives). */
enum { PMS_DEMO_TIMED_OUT = 124 };

/* What the page shows of a step: a CSV table, an SVG figure or a text file. */
typedef enum pms_demo_kind { PMS_DEMO_TABLE, PMS_DEMO_SVG, PMS_DEMO_TEXT } pms_demo_kind;

typedef struct pms_demo_shown {
    pms_demo_kind kind;
    const char *file;    /* in the demo directory */
    const char *caption; /* figure caption or table note (may be NULL) */
    size_t max_rows;     /* table rows or text lines shown (0: all) */
} pms_demo_shown;

typedef struct pms_demo_step {
    const char *name;     /* the subcommand, or subcommand-variant */
    const char *title;    /* the page's section heading */
    const char *about;    /* one paragraph for the page */
    const char *args[PMS_DEMO_MAX_ARGS]; /* the subcommand's arguments: {dir} is the demo directory,
                                          * {w} the workloads, {fx} the fixtures */
    const char *out;      /* its stdout, kept in the demo directory (NULL: none) */
    bool background;      /* started first, waited for at the end (valgrind takes long) */
    pms_demo_shown shown[PMS_DEMO_MAX_SHOWN];
    const char *summary;  /* file in the terminal summary (a CSV table or text) */
    const char *summary_cols; /* CSV: the columns to print, comma-separated (NULL: all) */
    size_t summary_rows;  /* rows or lines of it (0: all) */
    /* filled by pms_demo_run */
    char *argv[PMS_DEMO_MAX_ARGS + 2]; /* the command line run ("pmuscope", then args expanded) */
    pid_t pid;
    int status;     /* exit status, 128+N when killed by signal N, PMS_DEMO_TIMED_OUT, -1 when
                     * it could not start, 1 when it did not write a file the page shows */
    double seconds; /* how long it ran */
    char why[512];  /* why it failed: its last error line on stderr (kept in NAME.log) */
} pms_demo_step;

/* Where pms_demo_run is with step (an index into pms_demo.steps). */
typedef enum pms_demo_stage {
    PMS_DEMO_BACKGROUND, /* a background step was started (it runs beside the others) */
    PMS_DEMO_RUNNING,    /* a step was started and is waited for */
    PMS_DEMO_WAITING,    /* waiting at the end for a background step */
    PMS_DEMO_ENDED       /* the step ended: its status, seconds and why are set */
} pms_demo_stage;

typedef struct pms_demo {
    const char *program;   /* the pmuscope binary the steps run (no default: pmuscope itself
                            * gives "/proc/self/exe") */
    const char *dir;       /* the output directory (created), default "pmuscope-demo" */
    const char *workloads; /* where the phases and hotspots workloads are */
    const char *fixtures;  /* tests/fixtures of the source tree: the ARM data */
    double step_timeout;   /* seconds a step may run before it is stopped (default 300) */
    /* Called as the steps start and end (may be NULL): progress for a front end to show. */
    void (*progress)(void *ctx, const struct pms_demo *demo, size_t step, pms_demo_stage stage);
    void *progress_ctx;
    /* filled by the calls */
    char pmu_note[512];    /* "" when the machine has a hardware PMU, else why not */
    int user_only;         /* perf_event_paranoid lets the steps count user space only: their
                              events are named with perf's ":u" (task-clock:u) */
    pms_demo_step steps[PMS_DEMO_MAX_STEPS];
    size_t nsteps;
    double seconds;        /* how long pms_demo_run took */
} pms_demo;

/* Every step, in the order they start, and the defaults above. */
void pms_demo_init(pms_demo *demo);
/* Keeps only the steps named in list (comma-separated; they keep their own order).
 * PMS_EINVAL naming a step that does not exist ("no step 'x'"). */
int pms_demo_select(pms_demo *demo, const char *list);
/* Checks that the workloads and the ARM data are there (PMS_ENOENT and the like, naming
 * the file), creates the demo directory with its parents (PMS_EIO), and fills pmu_note and
 * user_only. */
int pms_demo_prepare(pms_demo *demo);
/* Runs the steps: the background ones are started first and waited for at the end; a
 * step still running after step_timeout is stopped (SIGTERM, SIGKILL 5 s later). Files
 * that an earlier demo left for a step are removed before it runs. PMS_OK once every
 * step ran (pms_demo_failed counts those that failed). */
int pms_demo_run(pms_demo *demo);
/* How many steps failed. */
size_t pms_demo_failed(const pms_demo *demo);
/* The self-contained HTML page (inline SVG, no scripts, nothing fetched) of the steps:
 * for each its paper, command, and the files it wrote. PMS_EIO if out failed; PMS_EFORMAT
 * when a file of a step that ended well could not be shown (the page says which). */
int pms_demo_write_page(FILE *out, const pms_demo *demo);
/* The terminal summary: each step's result read back from its files. PMS_EIO if out failed. */
int pms_demo_write_summary(FILE *out, const pms_demo *demo);
/* The same as JSON: every step with its method and paper, status, command, files and the
 * summary's rows (CSV) or lines (text); page is where the page went (NULL: not written). */
int pms_demo_write_json(FILE *out, const pms_demo *demo, const char *page);
/* Frees what pms_demo_run allocated (the steps' argv); the struct may be run again after init. */
void pms_demo_free(pms_demo *demo);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
