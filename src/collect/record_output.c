/* The temporary file of a recording and its publication (see record_output.h). */
#include "collect/record_output.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pms__record_output_begin(record_output *o, const char *path)
{
    *o = (record_output){.path = path};
    struct stat st;
    if (strcmp(path, "-") == 0) return PMS_OK; /* the standard output, in perf's pipe format */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return PMS_OK; /* a device: written in place */
    if (asprintf(&o->tmp, "%s.tmp-XXXXXX", path) < 0) {
        o->tmp = NULL;
        return pms__fail(PMS_ENOMEM, "record: out of memory");
    }
    int fd = mkstemp(o->tmp); /* mode 0600, as perf record creates its files */
    if (fd < 0) {
        int err = errno;
        free(o->tmp);
        o->tmp = NULL;
        return pms__fail_errno(pms__status_from_errno(err), err, "cannot create a temporary file beside %s", path);
    }
    close(fd);
    return PMS_OK;
}

const char *pms__record_output_file(const record_output *o) { return o->tmp ? o->tmp : o->path; }

int pms__record_output_publish(record_output *o)
{
    if (!o->tmp || o->published) return PMS_OK;
    struct stat st;
    if (stat(o->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        char *old = NULL;
        if (asprintf(&old, "%s.old", o->path) < 0) return pms__fail(PMS_ENOMEM, "record: out of memory");
        int moved = rename(o->path, old);
        int err = errno;
        int rc = moved ? pms__fail_errno(pms__status_from_errno(err), err, "cannot keep %s as %s", o->path, old) : PMS_OK;
        free(old);
        if (rc) return rc;
    }
    if (rename(o->tmp, o->path) != 0)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot rename %s to %s", o->tmp, o->path);
    o->published = true;
    return PMS_OK;
}

void pms__record_output_end(record_output *o)
{
    if (o->tmp && !o->published) remove(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
}
