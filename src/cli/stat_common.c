/* Pieces shared by the modes of `pmuscope stat`. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/target.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

volatile sig_atomic_t stat_stop;

void stat_note(stat_notes *notes, const char *fmt, ...)
{
    if (notes->n == sizeof notes->lines / sizeof notes->lines[0]) return;
    va_list ap;
    va_start(ap, fmt);
    char *line = NULL;
    if (vasprintf(&line, fmt, ap) >= 0) notes->lines[notes->n++] = line;
    va_end(ap);
}

void stat_notes_free(stat_notes *notes)
{
    for (size_t i = 0; i < notes->n; i++) free(notes->lines[i]);
    notes->n = 0;
}

int stat_prepare_events(const char *spec, stat_unsupported policy, pms_event **events, size_t *n,
                        stat_notes *notes)
{
    if (pms_event_list_parse(spec, events, n) != PMS_OK) return cli_lib_error();
    int rc = CLI_OK;
    for (size_t i = 0; i < *n && rc == CLI_OK; i++) {
        pms_event *ev = &(*events)[i];
        int r = pms_event_probe(ev);
        if (r == PMS_OK) continue;
        if (policy == STAT_UNSUPPORTED_FAIL || r != PMS_ENOTSUP) {
            rc = cli_lib_error();
            break;
        }
        /* The reason without the advice after ';' (the advice is what --fallback does). */
        char reason[512];
        snprintf(reason, sizeof reason, "%.*s", (int)strcspn(pms_strerror(), ";"), pms_strerror());
        if (policy == STAT_UNSUPPORTED_SHOW) { /* counted as <not supported>, as perf stat does */
            stat_note(notes, "%s", reason);
            continue;
        }
        pms_event sub;
        if (pms_event_fallback(ev, PMS_FALLBACK_COUNTING, &sub) != PMS_OK) {
            rc = cli_lib_error();
            break;
        }
        /* The column says what was measured, and for what. */
        char name[2 * PMS_EVENT_NAME_MAX + 16];
        snprintf(name, sizeof name, "%s(for %s)", sub.name, ev->name);
        if (strlen(name) >= sizeof sub.name) {
            rc = cli_error("%s: the event name is too long to name its substitute", ev->name);
            break;
        }
        memcpy(sub.name, name, sizeof sub.name);
        stat_note(notes, "%s stands in for %s (--fallback): %s", sub.name, ev->name, reason);
        cli_warn("%s stands in for %s (--fallback): it counts time, not %s", sub.name, ev->name, ev->name);
        *ev = sub;
    }
    if (rc != CLI_OK) {
        free(*events);
        *events = NULL;
    }
    return rc;
}

void stat_describe_command(char *const argv[], char *buf, size_t size)
{
    size_t k = 0;
    buf[k++] = '\'';
    for (size_t i = 0; argv[i] && k + 2 < size; i++) {
        int w = snprintf(buf + k, size - k - 1, "%s%s", i ? " " : "", argv[i]);
        if (w < 0) break;
        k += (size_t)w;
        if (k >= size - 2) k = size - 2;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
}

int stat_exit_code(int wait_status)
{
    if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
    char how[64];
    pms_wait_status_describe(how, sizeof how, wait_status);
    cli_warn("the command %s; the counts cover it until then", how);
    return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : CLI_FAIL;
}

static void on_signal(int sig) { stat_stop = sig; }

void stat_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the wait loop must wake up */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

FILE *stat_open_output(const stat_opts *o, bool machine_format)
{
    if (o->output) return cli_open_output(o->output);
    return machine_format ? stdout : stderr;
}

void stat_close_output(FILE *f)
{
    if (f == stderr)
        cli_check_stream(f, "standard error");
    else
        cli_close_output(f);
}
