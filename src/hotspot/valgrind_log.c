/* Load biases from a valgrind log written with -v -v. */
#include "hotspot/valgrind_log.h"
#include "io/text_lines.h"
#include "util/error.h"
#include "util/grow.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_object(pms_vg_object **v, size_t *n, size_t *cap, const char *path, uint64_t bias)
{
    if (pms_grow(v, cap, *n + 1, sizeof **v) || !((*v)[*n].path = strdup(path)))
        return -1;
    (*v)[(*n)++].bias = bias;
    return 0;
}

int pms_valgrind_log_objects(const char *log_path, pms_vg_object **objects, size_t *count)
{
    *objects = NULL;
    *count = 0;
    pms_lines r;
    int rc = pms_lines_open(&r, log_path, 0);
    if (rc) return rc;
    char *line, *pending = NULL; /* the object whose svma/avma line is due */
    size_t len, objects_cap = 0;
    while (rc == PMS_OK && (rc = pms_lines_next(&r, &line, &len)) == 1) {
        rc = PMS_OK;
        size_t lineno = r.line;
        const char *syms = strstr(line, "Reading syms from ");
        const char *svma = strstr(line, "svma 0x");
        if (syms) {
            free(pending);
            pending = strdup(syms + strlen("Reading syms from "));
            if (!pending)
                rc = pms_fail(PMS_ENOMEM, "%s: out of memory", log_path);
        } else if (svma && pending) {
            uint64_t s, a;
            if (sscanf(svma, "svma 0x%" SCNx64 ", avma 0x%" SCNx64, &s, &a) != 2)
                rc = pms_fail(PMS_EFORMAT, "%s: line %zu: expected \"svma 0x..., avma 0x...\"", log_path, lineno);
            else if (add_object(objects, count, &objects_cap, pending, a - s) < 0)
                rc = pms_fail(PMS_ENOMEM, "%s: out of memory", log_path);
            free(pending);
            pending = NULL;
        }
    }
    free(pending);
    pms_lines_close(&r);
    if (rc == PMS_OK && *count == 0)
        rc = pms_fail(PMS_EFORMAT, "%s: no \"Reading syms from\" lines with load addresses: "
                      "the log must come from valgrind -v -v", log_path);
    if (rc < 0) {
        pms_valgrind_log_free(*objects, *count);
        *objects = NULL;
        *count = 0;
    }
    return rc;
}

void pms_valgrind_log_free(pms_vg_object *objects, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(objects[i].path);
    free(objects);
}
