#include "cli/cli.h"
#include "pmuscope/event.h"

#include "pmuscope/error.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("pmuscope: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fputs("pmuscope: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "\nSee 'pmuscope %s --help'.\n", cmd);
    else
        fputs("\nSee 'pmuscope --help'.\n", stderr);
    return CLI_USAGE;
}

/* The library names the option a message is about by its field name; the flag for it.
 * One meaning per flag (docs/flags.md): a field maps to the same flag in every command. */
static const char *flag_of_option(const char *option, char *buf, size_t size)
{
    static const char *const flags[][2] = {
        {"events", "--event"}, {"period", "--count"}, {"dwarf_stack_size", "--call-graph dwarf"}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(option, flags[i][0]) == 0) return flags[i][1];
    snprintf(buf, size, "--%s", option); /* group_by: --group-by */
    for (char *p = buf; *p; p++)
        if (*p == '_') *p = '-';
    return buf;
}

const char *cli_lib_message(void)
{
    static char message[1200];
    const char *option = pms_error_option();
    if (!option) return pms_strerror();
    char flag[64];
    snprintf(message, sizeof message, "%s (%s)", pms_strerror(), flag_of_option(option, flag, sizeof flag));
    return message;
}

int cli_lib_error(void)
{
    return cli_error("%s", cli_lib_message());
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    fputs("pmuscope: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_warn_user_only(const char *events)
{
    cli_warn("perf_event_paranoid is %d: counting user space only, as perf does (%s); run as root or set "
             "kernel.perf_event_paranoid=1 to count the kernel too",
             pms_event_paranoid(), events);
}

bool cli_parse_count(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-') return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s) return false;
    unsigned long long mult = 1;
    switch (*end) {
    case 'k': case 'K': mult = 1ULL << 10; end++; break;
    case 'm': case 'M': mult = 1ULL << 20; end++; break;
    case 'g': case 'G': mult = 1ULL << 30; end++; break;
    default: break;
    }
    if (*end) return false;
    if (v > UINT64_MAX / mult) return false;
    *out = v * mult;
    return true;
}

int cli_parse_seed(const char *cmd, const char *arg, uint64_t *out)
{
    if (!cli_parse_count(arg, out) || *out == 0)
        return cli_usage_error(cmd, "--seed %s: expected a number of at least 1", arg);
    return CLI_OK;
}

int cli_parse_bootstrap(const char *cmd, bool block, const char *arg, size_t *out)
{
    uint64_t v;
    if (!cli_parse_count(arg, &v) || v == 0 || v > 1000000)
        return cli_usage_error(cmd, "%s '%s': expected a count from 1 to 1000000",
                               block ? "--bootstrap-block" : "--bootstrap", arg);
    *out = (size_t)v;
    return CLI_OK;
}

bool cli_parse_double(const char *s, double *out)
{
    if (!s || !*s) return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

char **cli_split_list(const char *s, size_t *n)
{
    size_t max = 1, len = strlen(s);
    for (const char *p = s; *p; p++) max += *p == ',';
    char **out = malloc((max + 1) * sizeof *out + len + 1);
    if (!out) return NULL;
    char *copy = (char *)(out + max + 1);
    memcpy(copy, s, len + 1);
    size_t k = 0;
    for (char *save, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) out[k++] = tok;
    out[k] = NULL;
    if (n) *n = k;
    return out;
}

bool cli_show_progress(void) { return isatty(STDERR_FILENO); }

void cli_progress(const char *what, uint64_t done, uint64_t total)
{
    if (total)
        fprintf(stderr, "\r%s: %llu/%llu (%.0f%%)\033[K", what, (unsigned long long)done,
                (unsigned long long)total, 100.0 * (double)done / (double)total);
    else
        fprintf(stderr, "\r%s: %llu\033[K", what, (unsigned long long)done);
    fflush(stderr);
}

void cli_progress_end(void) { fputs("\n", stderr); }
