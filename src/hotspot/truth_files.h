/* Internal: the files of a truth directory. valgrind follows the command's children
 * (--trace-children=yes) and callgrind writes one profile per process, and one more part
 * per dump: callgrind.out.PID and callgrind.out.PID.N; the command's own process's last
 * profile is renamed callgrind.out (as a truth of one process always had it). */
#ifndef PMS_HOTSPOT_TRUTH_FILES_H
#define PMS_HOTSPOT_TRUTH_FILES_H
#include <stddef.h>

#define PMS_TRUTH_PROFILE "callgrind.out"
#define PMS_TRUTH_LOG "callgrind.log"

/* The profiles in dir (file names, sorted; callgrind.out first), malloc'd (free with
 * pms__truth_profiles_free); none is an error naming the directory. */
int pms__truth_profiles(const char *dir, char ***names, size_t *n);
void pms__truth_profiles_free(char **names, size_t n);

/* Before valgrind writes a truth into dir: the profiles, logs and manifest of an earlier
 * truth there are removed (they would join the new one as processes of its command);
 * profiles there that no truth wrote (no manifest) are refused, and nothing is removed. */
int pms__truth_dir_prepare(const char *dir);

#endif
