/* Internal: a JIT's symbols from /tmp/perf-PID.map, the text file of perf's convention
 * (tools/perf/Documentation/jit-interface.txt): a line "START SIZE NAME" per function,
 * START and SIZE in hexadecimal, NAME to the end of the line, for code in anonymous
 * executable memory of process PID, which perf names "[JIT] tid PID". */
#ifndef PMS_SYMBOL_PERF_MAP_H
#define PMS_SYMBOL_PERF_MAP_H
#include "symbol/symtab.h"

#include <stdint.h>

#define PMS__JIT_PREFIX "[JIT] tid "

/* Whether a mapping of this name, when executable, is code that perf looks up in a perf
 * map: anonymous memory (//anon, /dev/zero, /anon_hugepage) or memory of no file
 * ([stack], [heap], /SYSV shared memory), as perf's is_anon_memory and is_no_dso_memory. */
int pms__perf_map_covers(const char *filename);
/* Fills t (empty) with the functions of the perf map at path, finished. Lines that are not
 * "START SIZE NAME" are skipped, as perf skips them. PMS_ENOENT when there is no such file,
 * PMS_EPERM when it belongs neither to this user nor to root (perf ignores those too: anyone
 * can write to /tmp). */
int pms__perf_map_load(const char *path, pms__symtab *t);
#endif
