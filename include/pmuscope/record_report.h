/* pmuscope: a recording's summary as JSON (`pmuscope record --json`), written to a stream
 * the caller opened. */
#ifndef PMUSCOPE_RECORD_REPORT_H
#define PMUSCOPE_RECORD_REPORT_H
#include "pmuscope/record.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One JSON object: "output" (the path) and "bytes" (its size), "samples", "lost",
 * "throttles", "unthrottles", "period_changes", "seconds"; the target ("command": argv, or
 * "pid") with "exited", "stopped", "exit_code" and "status" (how it ended, in words); and
 * "events", one object per sampling event: "name", "period" or "frequency", "randomize"
 * ("mask:BITS", "exp" or null) with its "seed", and "read" (the counters read at every
 * sample of the first). PMS_EIO if the stream fails. */
int pms_record_write_json(FILE *out, const pms_record_config *cfg, const pms_record_result *r);
/* The same for a recording that failed, with "error": the message (pms_strerror() then),
 * r as far as the recording filled it (zeroed where it did not start). */
int pms_record_write_json_error(FILE *out, const pms_record_config *cfg, const pms_record_result *r,
                                const char *error);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
