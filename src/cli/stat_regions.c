/* pmuscope stat --regions: run a command built with pmuscope's region markers
 * (pmuscope/region.h), with its report sent to a temporary file and its events from -e, and
 * print the report as a table per region (as likwid-perfctr -m does), as CSV with -x, or as
 * JSON with --json. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/region_report.h"
#include "pmuscope/target.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs the command with PMS_REGION_OUT set to report (and PMS_REGION_EVENTS to -e's list),
 * forwarding Ctrl-C to it; *status as from waitpid. */
static int run_command(const stat_opts *o, const char *report, int *status)
{
    if (setenv("PMS_REGION_OUT", report, 1) != 0 ||
        (o->events_spec && setenv("PMS_REGION_EVENTS", o->events_spec, 1) != 0))
        return cli_error("cannot set the environment: %s", strerror(errno));
    pms_child child;
    if (pms_child_spawn(&child, o->argv) != PMS_OK || pms_child_release(&child, o->argv[0]) != PMS_OK)
        return cli_lib_error();
    stat_install_signals();
    for (;;) {
        int r = pms_child_wait(&child, status, (volatile int *)&stat_stop);
        if (r == PMS_OK) return CLI_OK;
        if (errno != EINTR) return cli_lib_error();
        kill(child.pid, (int)stat_stop); /* the command decides how to end */
        stat_stop = 0;
    }
}

static int print_results(const stat_opts *o, const pms_region_results *r)
{
    FILE *out = stat_open_output(o, o->json);
    if (!out) return CLI_FAIL;
    int written = PMS_OK;
    if (o->json)
        written = pms_region_results_write_json(out, r);
    else if (o->sep)
        pms_region_results_print_csv(out, r, o->sep);
    else
        pms_region_results_print_table(out, r);
    if (written) {
        cli_output_error(out);
        written = CLI_FAIL;
    }
    if (out == stderr)
        return cli_check_stream(out, "standard error") || written ? CLI_FAIL : CLI_OK;
    return cli_close_output(out) || written ? CLI_FAIL : CLI_OK;
}

int stat_regions(const stat_opts *o)
{
    char dir[] = "/tmp/pmuscope-regions-XXXXXX";
    if (!mkdtemp(dir)) return cli_error("cannot make a temporary folder: %s", strerror(errno));
    char report[sizeof dir + 32];
    snprintf(report, sizeof report, "%s/regions.json", dir);
    int status = 0, rc = run_command(o, report, &status);
    pms_region_results *r = NULL;
    if (rc == CLI_OK && access(report, F_OK) != 0)
        rc = cli_error("%s wrote no region report: it does not call pms_region_begin/end (pmuscope/region.h), "
                       "or it did not end through exit()", o->argv[0]);
    else if (rc == CLI_OK && pms_region_results_read(&r, report) != PMS_OK)
        rc = cli_lib_error();
    if (rc == CLI_OK) rc = print_results(o, r);
    pms_region_results_free(r);
    unlink(report);
    rmdir(dir);
    if (rc == CLI_OK) rc = stat_exit_code(status);
    return rc;
}
