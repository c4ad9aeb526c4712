#include "util/file.h"
#include "util/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pms_read_file(const char *path, char **data, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return pms_fail_errno(pms_status_from_errno(errno), errno, "cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) goto nomem;
    for (;;) {
        if (cap - n < 2) {
            if (cap > ((size_t)-1) / 2) goto nomem;
            char *b = realloc(buf, cap * 2);
            if (!b) goto nomem;
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        if (!is_stdin) fclose(f);
        return pms_fail_errno(PMS_EIO, e, "cannot read %s", path);
    }
    if (!is_stdin) fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return PMS_OK;
nomem:
    free(buf);
    if (!is_stdin) fclose(f);
    return pms_fail(PMS_ENOMEM, "%s: out of memory reading the file", path);
}
