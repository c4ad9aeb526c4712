#include "util/file.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/input_limit.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int pms__read_file(const char *path, pms__head_check check, void *ctx, char **data, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode); /* else it may never end */
    char *buf = NULL;
    size_t cap = 0, n = 0;
    bool looked = !check;
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
        if (!looked && n >= PMS_INPUT_HEAD) { /* more may follow: can these bytes start one? */
            looked = true;
            if ((rc = check((const unsigned char *)buf, n, path, ctx))) break;
        }
        if (!regular && pms__over_input_limit(n)) {
            rc = pms__fail_input_limit(path);
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

int pms__mkdir_p(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir[0] ? dir + 1 : dir;; p++) {
        if (*p && *p != '/') continue;
        char end = *p;
        *p = '\0'; /* each parent, then the whole path */
        if (mkdir(dir, 0755) < 0 && errno != EEXIST) return pms__fail_errno(PMS_EIO, errno, "cannot create %s", path);
        if (!end) return PMS_OK;
        *p = '/';
    }
}
