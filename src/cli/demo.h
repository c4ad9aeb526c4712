/* pmuscope demo: the steps it runs (each a pmuscope subcommand in a child process),
 * and the page it builds from their output files. No analysis here. */
#ifndef PMS_CLI_DEMO_H
#define PMS_CLI_DEMO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum { DEMO_MAX_ARGS = 40, DEMO_MAX_SHOWN = 4, DEMO_MAX_STEPS = 32 };

/* What the page shows of a step: a CSV table, an SVG figure or a text file. */
typedef enum demo_kind { DEMO_TABLE, DEMO_SVG, DEMO_TEXT } demo_kind;

typedef struct demo_shown {
    demo_kind kind;
    const char *file;    /* in the demo directory */
    const char *caption; /* figure caption or table note (may be NULL) */
    size_t max_rows;     /* table rows or text lines shown (0: all) */
} demo_shown;

typedef struct demo_step {
    const char *name;     /* the subcommand, or subcommand-variant */
    const char *title;    /* the page's section heading */
    const char *about;    /* one paragraph for the page */
    const char *args[DEMO_MAX_ARGS]; /* the subcommand's arguments; {dir} {w} {fx} expanded */
    const char *out;      /* its stdout, kept in the demo directory */
    bool background;      /* started first, waited for at the end (valgrind takes long) */
    demo_shown shown[DEMO_MAX_SHOWN];
    const char *summary;  /* file printed in the terminal summary (a CSV table or text) */
    const char *summary_cols; /* CSV: the columns to print, comma-separated (NULL: all) */
    size_t summary_rows;
    /* filled while running */
    char *argv[DEMO_MAX_ARGS + 2];
    pid_t pid;
    int status; /* exit status, 128+N when killed by signal N, -1 when it could not start */
    double seconds; /* its CLOCK_MONOTONIC start while it runs, then how long it ran */
    char why[512]; /* why it failed */
} demo_step;

typedef struct demo_run {
    const char *dir;        /* the output directory */
    const char *workloads;  /* where phases, hotspots, sizes are */
    const char *fixtures;   /* tests/fixtures: the ARM data */
    char pmu_note[512];     /* "" when the machine has a hardware PMU, else why not */
    demo_step *steps;
    size_t nsteps;
    double seconds;
    double step_timeout;    /* seconds a step may run before it is stopped */
} demo_run;

/* demo_steps.c: the steps in the order they start (a static array, filled while running). */
size_t demo_steps(demo_step **out);

/* demo_spawn.c: starts /proc/self/exe with argv, stdout to out_path and stderr to
 * err_path (created). Returns the pid, or -1 with errno set. */
pid_t demo_spawn(char *const argv[], const char *out_path, const char *err_path);
/* Status demo_wait gives a step it had to stop (as timeout(1) does). */
enum { DEMO_TIMED_OUT = 124 };
/* Waits for pid until the CLOCK_MONOTONIC time deadline (seconds): its exit status,
 * 128+N when killed by signal N, -1 on error; past the deadline it sends SIGTERM (a
 * recording still closes its file), then SIGKILL 5 s later, and gives DEMO_TIMED_OUT. */
int demo_wait(pid_t pid, double deadline);
/* The error message in a step's stderr: its last "pmuscope: " line that is not a
 * warning, else its last non-empty line, or "" (buf of size n). */
void demo_last_line(const char *path, char *buf, size_t n);

/* demo_page.c: writes DIR/index.html from the steps' files. Returns CLI_OK, or CLI_FAIL
 * with its message printed. */
int demo_write_page(const demo_run *run, const char *path);
/* demo_summary.c: the terminal summary on out. */
void demo_print_summary(const demo_run *run, FILE *out);
/* demo_summary.c: the same as JSON (--json): every step with its method and paper, status,
 * command, files and the summary's rows (CSV) or lines (text); page NULL if not written. */
void demo_write_json(const demo_run *run, const char *page, FILE *out);

#endif
