/* Output files of the CLI: every write is checked (flush and close included), and a run
 * whose output failed does not exit 0. Each output is a file of util/output.h (a device or
 * FIFO written in place, a regular file replaced atomically when it is complete), its
 * stream, stdout's included, a write(2) hook that keeps the errno of the first failed
 * write: a write that failed inside some fprintf long before the close is still reported
 * with its reason. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/cli.h"
#include "pmuscope/error.h"
#include "util/output.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One output: the file (util/output.h: written in place or replacing atomically), its
 * stream, and whether its failure was said already. */
struct sink {
    pms__output out;
    FILE *file;
    bool reported;
};

static struct sink sinks[16];
/* Standard output through the same write hook: its name is a literal, never freed (it is
 * never committed). */
static struct sink stdout_sink = {.out = {.name = (char *)"standard output", .fd = STDOUT_FILENO, .in_place = true}};
static bool stderr_failed;
static bool output_failed;

static struct sink *sink_of(FILE *f)
{
    if (f && f == stdout_sink.file) return &stdout_sink;
    for (size_t i = 0; i < sizeof sinks / sizeof sinks[0]; i++)
        if (sinks[i].file && sinks[i].file == f) return &sinks[i];
    return NULL;
}

void cli_outputs_begin(void)
{
    FILE *f = pms__output_stream(&stdout_sink.out);
    if (!f) return; /* out of memory: stdout stays glibc's own, checked without a reason */
    if (isatty(STDOUT_FILENO)) setvbuf(f, NULL, _IOLBF, 0);
    stdout_sink.file = f;
    stdout = f;
}

FILE *cli_open_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return stdout;
    struct sink *s = NULL;
    for (size_t i = 0; i < sizeof sinks / sizeof sinks[0] && !s; i++)
        if (!sinks[i].file) s = &sinks[i];
    if (!s) {
        output_failed = true;
        cli_error("cannot write %s: too many output files", path);
        return NULL;
    }
    if (pms__output_open(&s->out, path, 0) != 0 || !(s->file = pms__output_stream(&s->out))) {
        pms__output_abort(&s->out);
        output_failed = true;
        cli_error("%s", pms_strerror());
        return NULL;
    }
    s->reported = false;
    return s->file;
}

void cli_discard_output(FILE *f)
{
    struct sink *s = sink_of(f);
    if (!s || s == &stdout_sink) { /* standard output: what was written stays */
        cli_close_output(f);
        return;
    }
    pms__output_abort(&s->out); /* closes the stream too */
    s->file = NULL;
}

/* Says that name failed with err (0: the reason is unknown) and marks the run failed. */
static int fail_write(const char *name, int err)
{
    output_failed = true;
    if (err) return cli_error("cannot write %s: %s", name, strerror(err));
    return cli_error("cannot write %s: a write failed", name);
}

/* Says once that the output s (or f where it has no sink) failed, with err or its own reason. */
static int fail_output(FILE *f, struct sink *s, const char *name, int err)
{
    if (s && s->out.err) err = s->out.err;
    if (f == stderr) { /* nowhere left to say it: the exit status does */
        stderr_failed = output_failed = true;
        return CLI_FAIL;
    }
    if (s && s->reported) return CLI_FAIL;
    if (s) s->reported = true;
    return fail_write(name, err);
}

int cli_check_stream(FILE *f, const char *name)
{
    if (f == stderr && stderr_failed) return CLI_FAIL;
    struct sink *s = sink_of(f);
    if (s && s->reported) return CLI_FAIL;
    errno = 0;
    int flush_err = fflush(f) != 0 ? errno : 0;
    if (!ferror(f) && !flush_err) return CLI_OK;
    return fail_output(f, s, name, flush_err);
}

int cli_output_error(FILE *f)
{
    struct sink *s = sink_of(f);
    if (s && (s->out.err || ferror(f))) return fail_output(f, s, s->out.name, 0);
    return cli_lib_error();
}

int cli_finish_output(FILE *f, int written)
{
    if (!f) return CLI_FAIL;
    struct sink *s = sink_of(f);
    int rc = CLI_OK;
    if (written && s && f != stdout && !s->out.err && !ferror(f)) /* the library failed, not the file */
        rc = cli_error("%s: %s", s->out.name, cli_lib_message());
    else if (written)
        rc = cli_output_error(f);
    if (rc != CLI_OK) cli_discard_output(f); /* incomplete: the file stays as it was */
    else rc = cli_close_output(f);
    return rc;
}

int cli_close_output(FILE *f)
{
    if (!f) return CLI_FAIL;
    if (f == stdout) return cli_check_stream(f, "standard output");
    if (f == stderr) return cli_check_stream(f, "standard error");
    struct sink *s = sink_of(f);
    if (!s) return fclose(f) == 0 ? CLI_OK : fail_write("an output file", errno);
    s->file = NULL;
    if (pms__output_commit(&s->out) == 0) return CLI_OK; /* complete: in place, or it replaced the file */
    output_failed = true;
    if (s->reported) return CLI_FAIL;
    return cli_error("%s", pms_strerror()); /* "cannot write NAME: reason" */
}

int cli_exit_status(int rc)
{
    if (cli_check_stream(stdout, "standard output") != CLI_OK && rc == CLI_OK) rc = CLI_FAIL;
    if (output_failed && rc == CLI_OK) rc = CLI_FAIL;
    return rc;
}
