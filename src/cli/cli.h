/* Shared plumbing of the command-line front end (no analysis logic here). */
#ifndef PMS_CLI_H
#define PMS_CLI_H
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 success, 1 runtime failure, 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

#define PMS_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "cli/commands.def"
#undef PMS_COMMAND

/* Prints "pmuscope: <message>" to stderr; returns CLI_FAIL. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "pmuscope: <message>" and a pointer to --help; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The message of a failed library call: pms_strerror(), with the flag of the option it is
 * about (pms_error_option) after it: "...: name the columns that identify a run (--group-by)". */
const char *cli_lib_message(void);
/* Prints "pmuscope: <cli_lib_message()>" for a failed library call; returns CLI_FAIL. */
int cli_lib_error(void);
/* Prints a warning "pmuscope: warning: ..." to stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The one warning of a command whose events count user space only because perf_event_paranoid
 * allows no more (pms_event_probe_user_fallback): events names them ("task-clock:u, ..."). */
void cli_warn_user_only(const char *events);

/* Parses an unsigned count with an optional K/M/G suffix (powers of 1024 for
 * periods such as 64K, as Wu & Mencer write them). Returns false on bad input. */
bool cli_parse_count(const char *s, uint64_t *out);
/* --seed N: the seed of every random number a command draws, N >= 1, the same default in
 * every command (docs/flags.md), so that a run without --seed repeats too. */
enum { CLI_DEFAULT_SEED = 1 };
/* Parses --seed's argument for command cmd: CLI_OK, or CLI_USAGE once said why. */
int cli_parse_seed(const char *cmd, const char *arg, uint64_t *out);
/* --bootstrap N (block false) or --bootstrap-block L (block true): a count from 1 to
 * 1000000 into *out; CLI_OK or the usage error (exit status 2). */
int cli_parse_bootstrap(const char *cmd, bool block, const char *arg, size_t *out);
/* Parses a double; returns false on bad input or trailing junk. */
bool cli_parse_double(const char *s, double *out);

/* Splits a comma-separated list into a NULL-terminated array of its non-empty
 * items, in one allocation (free the array only); *n (may be NULL) gets the count.
 * NULL when out of memory. */
char **cli_split_list(const char *s, size_t *n);

/* Makes stdout a checked output (call first in main): its first failed write keeps its reason. */
void cli_outputs_begin(void);
/* Opens FILE for writing ("-" means stdout) through util/output.h: a device or FIFO is
 * written in place, any other file is written beside it and replaces it only when
 * cli_close_output finds every write done (a symbolic link is followed). Prints "cannot
 * write FILE: reason" and returns NULL on failure. */
FILE *cli_open_output(const char *path);
/* Closes an output without keeping it: the temporary file is removed, so path stays as
 * it was (what was written to a device or stdout stays). */
void cli_discard_output(FILE *f);
/* Flushes and closes an output of cli_open_output (stdout is flushed, not closed), putting
 * the new file in place. A failed write prints "cannot write FILE: reason", returns
 * CLI_FAIL and marks the run failed, so that cli_exit_status turns a success into 1 even
 * where the caller ignores the result; the file then stays as it was. */
int cli_close_output(FILE *f);
/* The message for a library writer into the output f that failed: f's own write error
 * ("cannot write FILE: reason", said once) where f failed, else the library's message. */
int cli_output_error(FILE *f);
/* Finishes a whole output in one call: f from cli_open_output (NULL: it failed, said
 * already), written is what the library's writer returned into it (non-zero: failed). A
 * failed writer is said once, naming the file ("cannot write FILE: reason" for its own
 * write error, else "FILE: <message>"), and the file stays as it was; else f is closed
 * into place. CLI_OK or CLI_FAIL:
 *     FILE *f = cli_open_output(path);
 *     return f ? cli_finish_output(f, pms_X_write(f, ...)) : CLI_FAIL; */
int cli_finish_output(FILE *f, int written);
/* Checks that the stream f (stdout or stderr, named name) took everything written to it. */
int cli_check_stream(FILE *f, const char *name);
/* The exit status for a command that returned rc: stdout is flushed and checked, and a
 * success becomes CLI_FAIL if any output failed. */
int cli_exit_status(int rc);

/* getopt_long, and --list-options as the only argument: prints the option table, one
 * "-e --event required" line per option (- where there is no short or long name), and
 * returns CLI_OPT_LISTED (the command then returns CLI_OK). */
enum { CLI_OPT_LISTED = -2 };
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);
/* After cli_getopt returned '?': what was wrong ("--foo: unknown option", "-c: expects an
 * argument"), for the command's usage error (getopt itself prints nothing). */
const char *cli_bad_option(void);

/* --json[=FILE] and --csv[=FILE]: with FILE, that format goes to FILE beside the usual
 * output; without, it replaces the text on the main output (-o FILE or stdout).
 * cli_format_target(optarg) gives FILE, or CLI_MAIN_OUTPUT (test with cli_is_main). */
extern const char CLI_MAIN_OUTPUT[];
const char *cli_format_target(const char *arg);
bool cli_is_main(const char *target);

/* --input-limit SIZE, of every command that reads files (pmuscope/input.h): how much of a
 * pipe or device a reader copies before it refuses it. The long option entry, its case
 * value and help line; cli_set_input_limit parses SIZE (K/M/G, 0 for none) and sets it:
 * CLI_OK or the usage error of command cmd. */
enum { CLI_OPT_INPUT_LIMIT = 0x1000 };
#define CLI_INPUT_LIMIT_OPTION {"input-limit", required_argument, NULL, CLI_OPT_INPUT_LIMIT}
#define CLI_INPUT_LIMIT_HELP                                                                                     \
    "      --input-limit SIZE  how much of a pipe or device a reader copies before it refuses\n"                \
    "                         it (K, M, G; default 1G; 0: none); a file is read whatever its size\n"
int cli_set_input_limit(const char *cmd, const char *arg);

/* True if stderr is a terminal and progress lines should be drawn. */
bool cli_show_progress(void);
/* Draws "what: done/total" on stderr, overwriting the line; total 0 means unknown. */
void cli_progress(const char *what, uint64_t done, uint64_t total);
void cli_progress_end(void);

#endif
