/* Pieces shared by the modes of `pmuscope stat`. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/target.h"

#include <stdarg.h>
#include <stdio.h>
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

/* The events counted in user space only that are still to be said (cli_user_only_hold). */
static struct {
    bool held;
    char names[1024];
} user_only;

void cli_user_only_hold(void) { user_only.held = true; }

void cli_user_only_release(void)
{
    user_only.held = false;
    if (user_only.names[0]) cli_warn_user_only(user_only.names);
    user_only.names[0] = '\0';
}

/* One line on stderr for every event counted in user space only (perf_event_paranoid), as
 * perf's table marks them "task-clock:u"; each event's name carries the ":u" from then on. */
static void warn_user_only(const pms_event_set *set)
{
    for (size_t k = 0; k < set->nnotes; k++) {
        size_t used = strlen(user_only.names);
        if (set->notes[k].user_only)
            snprintf(user_only.names + used, sizeof user_only.names - used, "%s%s", used ? ", " : "",
                     set->notes[k].substitute);
    }
    if (!user_only.held) cli_user_only_release();
}

int cli_prepare_events(const char *spec, pms_fallback_use use, pms_unsupported_policy policy, pms_event **events,
                       size_t *n, stat_notes *notes)
{
    pms_event_set set;
    if (pms_event_set_prepare(&set, spec, use, policy) != PMS_OK) {
        pms_event_set_free(&set);
        return cli_lib_error();
    }
    warn_user_only(&set);
    for (size_t k = 0; k < set.nnotes; k++) {
        const pms_event_note *e = &set.notes[k];
        if (e->user_only) continue;
        /* The reason without the advice after ';' (the advice is what --fallback does). */
        int cut = (int)strcspn(e->reason, ";");
        if (!notes) cli_warn("%s", e->reason);
        if (!e->substitute[0]) { /* counted as <not supported>, as perf stat does */
            if (notes) stat_note(notes, "%.*s", cut, e->reason);
            continue;
        }
        if (notes) stat_note(notes, "%s stands in for %s (--fallback): %.*s", e->substitute, e->event, cut, e->reason);
        cli_warn("%s stands in for %s (--fallback): it %s time, not %s", e->substitute, e->event,
                 use == PMS_FALLBACK_SAMPLING ? "samples" : "counts", e->event);
    }
    *events = set.events;
    *n = set.n;
    free(set.notes);
    return CLI_OK;
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
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the wait loop must wake up */
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

pms_stat_style stat_style(const stat_opts *o)
{
    pms_stat_format f = o->wide         ? PMS_STAT_WIDE
                        : o->sep        ? PMS_STAT_CSV
                        : o->json_lines ? PMS_STAT_JSON_LINES
                                        : PMS_STAT_PLAIN;
    return (pms_stat_style){.format = f, .sep = o->sep};
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
