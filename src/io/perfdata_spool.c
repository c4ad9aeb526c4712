/* Reading perf.data from a pipe (`pmuscope report -i -` after `perf record -o -`): the
 * reader seeks (it reads the leading header records at open, then makes its pass), so
 * what comes through a pipe is first copied to an unlinked temporary file: disk, not
 * memory, holds it, and it goes away with the descriptor. */
#include "io/perfdata_spool.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int pms__spool(int in_fd, const char *name, int *out_fd, uint64_t *size)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/pmuscope-pipe-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) return pms__fail_errno(PMS_EIO, errno, "%s: cannot make a temporary file in %s to read it into", name,
                                      dir && *dir ? dir : "/tmp");
    unlink(path);
    static char buf[1 << 16];
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(in_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return pms__fail_errno(PMS_EIO, e, "%s: offset %llu: cannot read", name, (unsigned long long)total);
        }
        if (n == 0) break;
        for (ssize_t done = 0; done < n;) {
            ssize_t k = write(fd, buf + done, (size_t)(n - done));
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                int e = errno;
                close(fd);
                return pms__fail_errno(PMS_EIO, e, "%s: cannot copy it into a temporary file", name);
            }
            done += k;
        }
        total += (uint64_t)n;
    }
    *out_fd = fd;
    *size = total;
    return PMS_OK;
}
