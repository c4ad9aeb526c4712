/* Internal: the "run" file of a truth directory: which command valgrind ran (its
 * binary's build-id and path, its arguments) and how many instructions it executed. */
#ifndef PMS_HOTSPOT_TRUTH_RUN_H
#define PMS_HOTSPOT_TRUTH_RUN_H
#include "symbol/build_id.h"
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pms_truth_run {
    char build_id[PMS_BUILD_ID_HEX]; /* of the command's binary, "" if it has none */
    char binary[PATH_MAX];           /* its real path */
    char **argv;                     /* NULL-terminated */
    size_t argc;
    uint64_t instructions;
} pms_truth_run;

/* Writes DIR/run for argv (argv[0] found as execvp finds it) and its instruction count. */
int pms__truth_run_write(const char *dir, char *const argv[], uint64_t instructions);
/* Reads DIR/run; *found is 0 (and r empty) when a truth of an older pmuscope has none. */
int pms__truth_run_read(pms_truth_run *r, const char *dir, int *found);
void pms__truth_run_free(pms_truth_run *r);
/* PMS_OK if the command of a recording (its command line: what follows the first "--",
 * or else its last words) is the truth's program with the same arguments; PMS_EINVAL
 * naming both if not; PMS_ENOENT if the command line is empty. */
int pms__truth_run_compare(const pms_truth_run *r, char *const cmdline[], size_t n);
/* The real path of the program argv0 names, searched in PATH as execvp does; -1 if none. */
int pms__find_program(const char *argv0, char out[PATH_MAX]);

#endif
