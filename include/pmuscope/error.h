/* pmuscope: status codes and the message of the last failure.
 *
 * Every library function that can fail returns PMS_OK (0) or a negative
 * pms_status, and leaves a human-readable message (naming the file, line or
 * offset, event or value at fault) that pms_strerror() gives back. The library
 * never prints and never exits; the caller decides what to show. */
#ifndef PMUSCOPE_ERROR_H
#define PMUSCOPE_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef enum pms_status {
    PMS_OK = 0,
    PMS_EINVAL = -1,   /* a bad argument or option value */
    PMS_ENOMEM = -2,   /* out of memory */
    PMS_EIO = -3,      /* a system call or file operation failed */
    PMS_EFORMAT = -4,  /* malformed, truncated or hostile input */
    PMS_ENOTSUP = -5,  /* event or feature not supported on this machine */
    PMS_EPERM = -6,    /* permission denied (perf_event_paranoid, ptrace) */
    PMS_ENOENT = -7,   /* no such file, event, process or column */
    PMS_ENUMERIC = -8, /* numerical failure: singular matrix, NaN, no solution */
    PMS_ECHILD = -9,   /* the target command could not be started or died */
} pms_status;

/* Message of the last failure in the calling thread ("" if none). Valid until
 * the next failing call in the same thread. */
const char *pms_strerror(void);

/* The option the last failure is about, by the name the library's option structs give it
 * ("group_by", "drop_missing", "counters"), or NULL. The message then reads without a flag
 * ("...: name the columns that identify a run"): a front end adds its own flag for the
 * option (pmuscope prints "... (--group-by)"). Valid until the next failing call in the
 * same thread, as pms_strerror(). */
const char *pms_error_option(void);

/* Short name of a status code: "invalid argument", "format error", ... */
const char *pms_status_name(int status);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
