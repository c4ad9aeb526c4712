/* Internal: the load bias of each object in a valgrind run, from its log at
 * verbosity 2 ("Reading syms from PATH" followed by "svma 0x.., avma 0x.."):
 * run-time address = link-time address + bias. */
#ifndef PMS_HOTSPOT_VALGRIND_LOG_H
#define PMS_HOTSPOT_VALGRIND_LOG_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms_vg_object {
    char *path;
    uint64_t bias;
} pms_vg_object;

/* Reads the objects of a valgrind -v -v log; fails if none is found. */
int pms_valgrind_log_objects(const char *log_path, pms_vg_object **objects, size_t *count);
void pms_valgrind_log_free(pms_vg_object *objects, size_t count);

#endif
