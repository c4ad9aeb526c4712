#include "util/file.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int pms_read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return pms_fail_errno(pms_status_from_errno(errno), errno, "cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) { free(buf); buf = NULL; break; }
        buf = bigger;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf) return pms_fail(PMS_ENOMEM, "%s: out of memory reading the file", path);
    if (err) {
        free(buf);
        return pms_fail(PMS_EIO, "%s: read error", path);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return PMS_OK;
}
