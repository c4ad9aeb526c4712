/* Output files of the CLI: every write is checked (flush and close included), and a run
 * whose output failed does not exit 0. Each output, stdout included, is a stdio stream over
 * a write(2) hook that keeps the errno of the first failed write: a write that failed inside
 * some fprintf long before the close is still reported with its reason. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One output: its descriptor, its name for messages and the first write error. */
struct sink {
    FILE *file;
    int fd;
    int err;
    char *name;
    char *tmp;     /* cli_open_replacing: the file written, renamed to name at a good close */
    bool reported; /* its failure was said already */
};

static struct sink sinks[16];
static struct sink stdout_sink = {NULL, STDOUT_FILENO, 0, "standard output", NULL, false};
static bool stderr_failed;
static bool output_failed;

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    struct sink *s = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(s->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (!s->err) s->err = w < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static const cookie_io_functions_t sink_io = {.write = sink_write};

static struct sink *sink_of(FILE *f)
{
    if (f && f == stdout_sink.file) return &stdout_sink;
    for (size_t i = 0; i < sizeof sinks / sizeof sinks[0]; i++)
        if (sinks[i].file && sinks[i].file == f) return &sinks[i];
    return NULL;
}

void cli_outputs_begin(void)
{
    FILE *f = fopencookie(&stdout_sink, "w", sink_io);
    if (!f) return; /* out of memory: stdout stays glibc's own, checked without a reason */
    if (isatty(STDOUT_FILENO)) setvbuf(f, NULL, _IOLBF, 0);
    stdout_sink.file = f;
    stdout = f;
}

/* An output named path written to the file tmp (NULL: path itself). */
static FILE *open_sink(const char *path, char *tmp)
{
    struct sink *s = NULL;
    for (size_t i = 0; i < sizeof sinks / sizeof sinks[0] && !s; i++)
        if (!sinks[i].file) s = &sinks[i];
    int fd = tmp ? open(tmp, O_WRONLY | O_CLOEXEC) : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    FILE *f = NULL;
    if (s) s->tmp = tmp;
    if (fd >= 0 && s && (s->name = strdup(path))) {
        s->fd = fd;
        s->err = 0;
        s->reported = false;
        f = s->file = fopencookie(s, "w", sink_io);
    }
    if (!f) {
        int err = fd < 0 ? errno : ENOMEM;
        if (fd >= 0) close(fd);
        if (s) {
            free(s->name);
            s->name = NULL;
            s->tmp = NULL;
        }
        if (tmp) unlink(tmp);
        free(tmp);
        output_failed = true;
        cli_error("cannot write %s: %s", path, strerror(err));
    }
    return f;
}

FILE *cli_open_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return stdout;
    return open_sink(path, NULL);
}

FILE *cli_open_replacing(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return stdout;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return open_sink(path, NULL); /* a device: in place */
    char *tmp = NULL;
    int fd = asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0 ? (tmp = NULL, -1) : mkstemp(tmp);
    if (fd < 0) {
        int err = tmp ? errno : ENOMEM;
        free(tmp);
        output_failed = true;
        cli_error("cannot write %s: %s", path, strerror(err));
        return NULL;
    }
    mode_t mask = umask(0); /* the mode a new file would get (mkstemp makes 0600) */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    return open_sink(path, tmp);
}

void cli_discard_output(FILE *f)
{
    struct sink *s = sink_of(f);
    if (!s || !s->tmp) { /* written in place: what was written stays */
        cli_close_output(f);
        return;
    }
    fclose(f);
    close(s->fd);
    unlink(s->tmp);
    free(s->tmp);
    free(s->name);
    s->file = NULL;
    s->tmp = s->name = NULL;
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
    if (s && s->err) err = s->err;
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
    if (s && (s->err || ferror(f))) return fail_output(f, s, s->name, 0);
    return cli_lib_error();
}

int cli_finish_output(FILE *f, int written)
{
    if (!f) return CLI_FAIL;
    struct sink *s = sink_of(f);
    int rc = CLI_OK;
    if (written && s && f != stdout && !s->err && !ferror(f)) /* the library failed, not the file */
        rc = cli_error("%s: %s", s->name, cli_lib_message());
    else if (written)
        rc = cli_output_error(f);
    if (cli_close_output(f) != CLI_OK) rc = CLI_FAIL;
    return rc;
}

int cli_close_output(FILE *f)
{
    if (!f) return CLI_FAIL;
    if (f == stdout) return cli_check_stream(f, "standard output");
    if (f == stderr) return cli_check_stream(f, "standard error");
    struct sink *s = sink_of(f);
    errno = 0;
    int failed = fflush(f) != 0 || ferror(f);
    int err = s && s->err ? s->err : errno;
    fclose(f);
    if (s) {
        if (close(s->fd) != 0 && !failed) { /* NFS and the like report a lost write here */
            failed = 1;
            err = errno;
        }
        s->file = NULL;
    }
    if (s && s->tmp && !failed && rename(s->tmp, s->name) != 0) { /* complete: it replaces name */
        failed = 1;
        err = errno;
    }
    int rc = failed ? fail_output(NULL, s, s ? s->name : "an output file", err) : CLI_OK;
    if (s) {
        if (s->tmp && failed) unlink(s->tmp); /* incomplete: name stays as it was */
        free(s->tmp);
        free(s->name);
        s->tmp = s->name = NULL;
    }
    return rc;
}

int cli_exit_status(int rc)
{
    if (cli_check_stream(stdout, "standard output") != CLI_OK && rc == CLI_OK) rc = CLI_FAIL;
    if (output_failed && rc == CLI_OK) rc = CLI_FAIL;
    return rc;
}
