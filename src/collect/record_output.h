/* Internal: where pms_record_run writes, so that no recording loses a file that was there.
 *
 * The perf.data is written to a temporary file beside the output (FILE.tmp-XXXXXX) and
 * published (renamed to FILE) once it holds a sample and has been made valid, or at the
 * end of a recording that did not fail. Publishing keeps a non-empty FILE that was there
 * as FILE.old, as perf record does. A recording that fails before its first sample
 * removes the temporary file and leaves FILE untouched. An existing FILE that is not a
 * regular file (a device such as /dev/null) is written in place and never removed. */
#ifndef PMS_COLLECT_RECORD_OUTPUT_H
#define PMS_COLLECT_RECORD_OUTPUT_H
#include <stdbool.h>

typedef struct record_output {
    const char *path;  /* the output the caller named */
    char *tmp;         /* the temporary file, NULL when writing in place */
    bool published;
} record_output;

/* Chooses (and creates) the file to write; 0 or a status with a message. */
int pms__record_output_begin(record_output *o, const char *path);
/* The path the writer opens: the temporary file, or the output itself. */
const char *pms__record_output_file(const record_output *o);
/* Moves a non-empty existing output to FILE.old and the temporary file to FILE; once. */
int pms__record_output_publish(record_output *o);
/* Removes the temporary file unless published, and frees. */
void pms__record_output_end(record_output *o);

#endif
