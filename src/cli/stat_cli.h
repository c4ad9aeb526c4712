/* Internal to `pmuscope stat`: options and the pieces shared by its modes
 * (cmd_stat.c: counting and repeats; stat_schedule.c: --schedule=runs). */
#ifndef PMS_CLI_STAT_H
#define PMS_CLI_STAT_H
#include "pmuscope/counter.h"
#include "pmuscope/statfmt.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct stat_opts {
    char *events_spec;    /* -e, joined with ',' */
    pid_t pid;            /* -p */
    unsigned interval_ms; /* -I */
    const char *sep;      /* -x */
    const char *output;   /* -o */
    bool wide, json, fallback, schedule_runs; /* json: JSON in place of the text */
    bool json_lines;                          /* -j: perf's JSON lines */
    bool regions;                             /* --regions: the command's region report */
    bool system_wide, no_aggr;                /* -a (or -C), -A */
    const char *cpus;                         /* -C */
    const char *json_path;                    /* --json=FILE: JSON to FILE beside the text */
    unsigned repeat;       /* -r */
    unsigned max_counters; /* --max-counters, 0: probe */
    const char *anchor_spec;
    const char *sizes_spec;
    char **cgroups;        /* -G: system-wide in these cgroups */
    size_t ncgroups;
    const char *serve;     /* --serve [ADDR:]PORT */
    bool phases;           /* --phases: a phase monitor beside the counts (--serve) */
    char **argv; /* the command, NULL-terminated */
} stat_opts;

/* Notes printed under the table (what --fallback substituted, anchor variation). */
typedef struct stat_notes {
    char *lines[64];
    size_t n;
} stat_notes;
void stat_note(stat_notes *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void stat_notes_free(stat_notes *notes);

/* Set by SIGINT/SIGTERM to the signal number. */
extern volatile sig_atomic_t stat_stop;

/* Prepares an event list for stat or record (pms_event_set_prepare) into a malloc'ed array.
 * An event this machine cannot count gets a note (under stat's table) or, with notes NULL
 * (record), a warning; a substitute is also said in a warning. Errors are printed: CLI_FAIL. */
int cli_prepare_events(const char *spec, pms_fallback_use use, pms_unsupported_policy policy, pms_event **events,
                       size_t *n, stat_notes *notes);
/* Around several cli_prepare_events (record's -e and --read, stat's anchors and events): the
 * events counted in user space only are said in one warning, at cli_user_only_release. */
void cli_user_only_hold(void);
void cli_user_only_release(void);

/* Handlers that set stat_stop on SIGINT, SIGTERM and every other signal that would end the
 * process with its outputs half written: SIGHUP (the terminal went), SIGQUIT, SIGUSR1,
 * SIGUSR2, SIGPIPE (an output went) and SIGALRM. stat and record stop on each as on
 * SIGTERM: the files finished, the results said, the command ended. */
void stat_install_signals(void);
/* The exit code for a command's wait status: its code, or 128 + signal (with a message). */
int stat_exit_code(int wait_status);
/* The text format of -x, -j, --wide or else perf's table. */
pms_stat_style stat_style(const stat_opts *o);
/* Where the output goes: -o FILE; else stdout for --json/--wide/runs tables, stderr for perf's formats. */
FILE *stat_open_output(const stat_opts *o, bool machine_format);
void stat_close_output(FILE *f);

/* --schedule=runs */
int stat_schedule(const stat_opts *o);
/* --serve: the events (prepared, with their notes) as a Prometheus scrape target. */
int stat_serve(const stat_opts *o, const pms_event *events, size_t n, stat_notes *notes);
/* Whether --serve's argument is [ADDR:]PORT, [ADDR6]:PORT or PORT with PORT 0 to 65535. */
bool stat_serve_address_valid(const char *spec);
/* --regions */
int stat_regions(const stat_opts *o);

#endif
