/* Internal: recording the message of a failure (see include/pmuscope/error.h). */
#ifndef PMS_UTIL_ERROR_H
#define PMS_UTIL_ERROR_H
#include "pmuscope/error.h"

#include <stdbool.h>

/* Sets the thread's message from a printf format and returns status, so that
 * a failure reads: return pms__fail(PMS_EFORMAT, "%s: offset %llu: ...", ...); */
int pms__fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* As pms__fail, with ": <strerror(errnum)>" appended. */
int pms__fail_errno(int status, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* As pms__fail, for a failure that only the end of the input can cause (no header line,
 * no intervals, a quote still open): a reader that parses the head of an endless input to
 * refuse it early (io/input_spool.h) takes these for "not yet", every other one as final.
 * pms__failed_at_end says whether the current message is one. */
int pms__fail_at_end(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool pms__failed_at_end(void);

/* Names the option that the current message is about (pms_error_option) and returns
 * status: return pms__with_option(pms__fail(PMS_EINVAL, "..."), "group_by"). Every
 * pms__fail and pms__fail_errno clears it; pms__fail_context keeps it. */
int pms__with_option(int status, const char *option);

/* Maps an errno value from a system call to the closest pms_status. */
int pms__status_from_errno(int errnum);

/* Prefixes the current message with "prefix: " (to add context on the way up). */
int pms__fail_context(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Replaces every FROM in the current message by TO (a temporary copy's /dev/fd path by the
 * name the caller gave); a FROM followed by a digit is another path and stays. */
void pms__fail_rename(const char *from, const char *to);

#endif
