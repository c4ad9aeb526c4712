#include "util/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One message per thread: the phase monitor runs its own thread. */
static _Thread_local char last_message[1024];
static _Thread_local const char *last_option; /* pms_error_option: a string literal, or NULL */
static _Thread_local bool last_at_end;        /* pms__fail_at_end made the message */

const char *pms_strerror(void) { return last_message; }

const char *pms_error_option(void) { return last_option; }

int pms__with_option(int status, const char *option)
{
    last_option = option;
    return status;
}

const char *pms_status_name(int status)
{
    switch (status) {
    case PMS_OK: return "success";
    case PMS_EINVAL: return "invalid argument";
    case PMS_ENOMEM: return "out of memory";
    case PMS_EIO: return "input/output error";
    case PMS_EFORMAT: return "format error";
    case PMS_ENOTSUP: return "not supported";
    case PMS_EPERM: return "permission denied";
    case PMS_ENOENT: return "not found";
    case PMS_ENUMERIC: return "numerical error";
    case PMS_ECHILD: return "target command failed";
    default: return "unknown error";
    }
}

static int vfail(int status, bool at_end, const char *fmt, va_list ap)
{
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    last_option = NULL;
    last_at_end = at_end;
    return status;
}

int pms__fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(status, false, fmt, ap);
    va_end(ap);
    return status;
}

int pms__fail_at_end(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(status, true, fmt, ap);
    va_end(ap);
    return status;
}

bool pms__failed_at_end(void) { return last_at_end; }

int pms__fail_errno(int status, int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    last_option = NULL;
    last_at_end = false;
    if (n >= 0 && (size_t)n < sizeof last_message)
        snprintf(last_message + n, sizeof last_message - (size_t)n, ": %s", strerror(errnum));
    return status;
}

int pms__fail_context(int status, const char *fmt, ...)
{
    char prefix[512], old[sizeof last_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, last_message, sizeof old);
    /* Truncation is acceptable: the head of the message matters most. */
    size_t n = strlen(prefix);
    if (n > sizeof last_message - 3) n = sizeof last_message - 3;
    memcpy(last_message, prefix, n);
    memcpy(last_message + n, ": ", 2);
    size_t room = sizeof last_message - n - 3;
    size_t m = strnlen(old, room);
    memcpy(last_message + n + 2, old, m);
    last_message[n + 2 + m] = '\0';
    return status;
}

void pms__fail_rename(const char *from, const char *to)
{
    char out[sizeof last_message];
    size_t n = 0, flen = strlen(from), tlen = strlen(to);
    if (flen == 0) return;
    for (const char *p = last_message; *p && n + 1 < sizeof out;) {
        if (strncmp(p, from, flen) == 0 && !(p[flen] >= '0' && p[flen] <= '9')) {
            size_t m = tlen < sizeof out - 1 - n ? tlen : sizeof out - 1 - n;
            memcpy(out + n, to, m);
            n += m;
            p += flen;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    memcpy(last_message, out, n + 1);
}

int pms__status_from_errno(int errnum)
{
    switch (errnum) {
    case ENOMEM: return PMS_ENOMEM;
    case EACCES: case EPERM: return PMS_EPERM;
    case ENOENT: case ESRCH: return PMS_ENOENT;
    case EOPNOTSUPP: case ENODEV: return PMS_ENOTSUP;
    case EINVAL: return PMS_EINVAL;
    default: return PMS_EIO;
    }
}
