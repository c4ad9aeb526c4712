#include "util/file.h"
#include "util/error.h"
#include "util/grow.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pms__read_file(const char *path, char **data, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0, n = 0;
    int rc = PMS_OK;
    for (;;) {
        if (pms__grow(&buf, &cap, n + (1 << 16), 1)) {
            rc = pms__fail(PMS_ENOMEM, "%s: out of memory reading the file", path);
            break;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f); /* one byte kept for the NUL */
        n += got;
        if (got == 0) {
            if (ferror(f)) rc = pms__fail_errno(PMS_EIO, errno, "cannot read %s", path);
            break;
        }
    }
    if (!is_stdin) fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return PMS_OK;
}

const char *pms__base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}
