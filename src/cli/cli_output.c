/* Output files of the CLI: every write is checked (flush and close included), and a run
 * whose output failed does not exit 0. */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The files cli_open_output opened, so that closing one can name it. */
static struct {
    FILE *file;
    char *path;
} opened[16];

static bool output_failed;

static const char *path_of(FILE *f)
{
    if (f == stdout) return "standard output";
    if (f == stderr) return "standard error";
    for (size_t i = 0; i < sizeof opened / sizeof opened[0]; i++)
        if (opened[i].file == f) return opened[i].path;
    return "an output file";
}

static void forget(FILE *f)
{
    for (size_t i = 0; i < sizeof opened / sizeof opened[0]; i++)
        if (opened[i].file == f) {
            free(opened[i].path);
            opened[i].file = NULL;
            opened[i].path = NULL;
        }
}

FILE *cli_open_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return stdout;
    FILE *f = fopen(path, "w");
    if (!f) {
        output_failed = true;
        cli_error("cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    for (size_t i = 0; i < sizeof opened / sizeof opened[0]; i++)
        if (!opened[i].file) {
            opened[i].file = f;
            opened[i].path = strdup(path); /* NULL when out of memory: then "an output file" */
            break;
        }
    return f;
}

/* A write error seen earlier (the stream's error flag) or now, at the flush or close. */
static int fail_write(const char *name, int err)
{
    output_failed = true;
    if (err) return cli_error("cannot write %s: %s", name, strerror(err));
    return cli_error("cannot write %s: a write failed", name);
}

int cli_check_stream(FILE *f, const char *name)
{
    static FILE *reported[2]; /* stdout and stderr are said to fail once */
    if (reported[0] == f || reported[1] == f) return CLI_FAIL;
    int failed_before = ferror(f);
    errno = 0;
    int rc = fflush(f) != 0 ? fail_write(name, errno) : failed_before ? fail_write(name, 0) : CLI_OK;
    if (rc != CLI_OK) reported[reported[0] ? 1 : 0] = f;
    return rc;
}

int cli_close_output(FILE *f)
{
    if (!f) return CLI_FAIL;
    if (f == stdout || f == stderr) return cli_check_stream(f, path_of(f));
    char name[4096];
    snprintf(name, sizeof name, "%s", path_of(f));
    forget(f);
    int failed_before = ferror(f);
    errno = 0;
    if (fclose(f) != 0) return fail_write(name, errno);
    if (failed_before) return fail_write(name, 0);
    return CLI_OK;
}

int cli_exit_status(int rc)
{
    if (cli_check_stream(stdout, "standard output") != CLI_OK && rc == CLI_OK) rc = CLI_FAIL;
    if (output_failed && rc == CLI_OK) rc = CLI_FAIL;
    return rc;
}
